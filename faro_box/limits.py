"""The box's limits, one set for every way in: the live table's commands, ``faro-box settle``'s
scripts (faro and Baccarat Banque) and the configuration all check against these, with the same
words, so a deal the table would refuse is not settled either.

Size limits on what comes in from files and pipes, and JSON reading that keeps them: a deal
script or a configuration is a few kilobytes; a megabyte is far more than any real one and
still nothing to a Pi. Past the limit, or nested deeper than Python's JSON reader can follow, a
document is refused with one clear error instead of filling the memory or raising RecursionError.
"""

from __future__ import annotations

import json
from typing import IO, Any

from faro_box.errors import FaroBoxError, ScriptError

MAX_SCRIPT_CHARS = 1 << 20       # one deal script, or one line of JSON Lines
MAX_CONFIG_CHARS = 1 << 20

MAX_PLAYERS = 20                 # players at one faro deal
MAX_BANK_PLAYERS = 10            # players of a Baccarat Banque bank besides the banker (3-11 seated)
MAX_NAME = 40                    # characters of a player's (or the banker's) name
MAX_BET_ID = 40                  # characters of a bet's id
MAX_STAKE = 100_000              # chips on one faro bet
MAX_BANK_STAKE = 1000            # chips on one Baccarat Banque bet
MAX_FUND = 100                   # a bank's fund comes out of the banker's own 100 chips
RESERVED_NAMES = frozenset({"banker"})


def check_text(value: object, what: str, limit: int, error: type[FaroBoxError] = ScriptError) -> str:
    """``value`` when it is non-empty text of at most ``limit`` characters without control characters."""
    # Printable text has no control characters: the common case is told at C speed (settle
    # checks every name of every deal).
    if isinstance(value, str) and len(value) <= limit and value.isprintable() and value.strip():
        return value
    if not isinstance(value, str):
        raise error(f"{what} must be text, not {value!r:.80}")
    if not value.strip():
        raise error(f"{what} must not be empty, got {value!r}")
    if len(value) > limit:
        raise error(f"{what} must be at most {limit} characters, got {len(value)}: {value[:60]!r}…")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise error(f"{what} must not hold control characters: {value!r}")
    return value


def check_player(value: object, error: type[FaroBoxError] = ScriptError) -> str:
    """A player's name, as the table and settle both take it."""
    name = check_text(value, "a player's name", MAX_NAME, error)
    if name.strip().lower() in RESERVED_NAMES:
        raise error(f"{name!r} cannot be a player's name: it is the bank's")
    return name


def check_players(players: object, limit: int, what: str, *, fewest: int = 0,
                  error: type[FaroBoxError] = ScriptError) -> tuple[str, ...]:
    """A list of ``fewest`` to ``limit`` players' names, each once; ``what`` is "a deal" or "a bank"."""
    if isinstance(players, (str, bytes)) or not isinstance(players, (tuple, list)):
        raise error(f"players must be a list of names, not {players!r:.80}")
    if len(players) < fewest:
        least = "one player" if fewest == 1 else f"{fewest} players"
        raise error(f"{what} needs at least {least}, got {len(players)}")
    if len(players) > limit:
        besides = " besides the banker" if what == "a bank" else ""
        raise error(f"{what} takes at most {limit} players{besides}, got {len(players)}")
    names = tuple(check_player(p, error) for p in players)
    if len(set(names)) != len(names):
        twice = next(n for i, n in enumerate(names) if n in names[:i])
        raise error(f"the player {twice!r} is listed twice")
    return names


def check_stake(value: object, limit: int, error: type[FaroBoxError] = ScriptError) -> None:
    """Refuse a whole number of chips above the table's limit (the rules judge the rest)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > limit:
        raise error(f"a stake of {value!r:.40} is over the table's limit of {limit} chips")


def read_limited(stream: IO[str], what: str, limit: int = MAX_SCRIPT_CHARS,
                 error: type[FaroBoxError] = ScriptError) -> str:
    """The whole of ``stream``; ``error`` when it holds more than ``limit`` characters."""
    text = stream.read(limit + 1)
    if len(text) > limit:
        raise error(f"{what} is larger than {limit} characters: refused")
    return text


def read_line_limited(stream: IO[str], what: str, limit: int = MAX_SCRIPT_CHARS) -> str:
    """The next line ('' at the end); ScriptError when one line is longer than ``limit``."""
    line = stream.readline(limit + 1)
    if len(line) > limit:
        raise ScriptError(f"{what} is longer than {limit} characters: refused")
    return line


def loads(text: str | bytes, what: str, error: type[FaroBoxError] = ScriptError) -> Any:
    """``json.loads``; ``error`` quoting the reason for text that is not JSON or nests too deep."""
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{what} nests too deeply to be read") from None
    except ValueError as exc:
        raise error(f"{what} is not JSON: {exc}") from None
