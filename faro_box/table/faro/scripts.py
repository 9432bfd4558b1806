"""Faro deal scripts in and out of the live table: export a journaled deal, replay a script.

``export(entries, number)`` replays one deal's journal entries and writes it as the deal script
``faro-box settle`` reads (see ``TableState.script`` for a deal in progress or misdealt).
``replay(table, doc)`` plays a script into a table as the tracker and the dealer would:
the soda, then before each turn the actions whose ``at`` is that turn, then the turn's two
cards (the hock follows by itself), then the end of the deal; the same ordering as settle.

Replaying resumes: when the journal's last deal began with this script's start, the commands
already journaled are skipped (matched in order), so a replay killed halfway and run again
ends exactly where an uninterrupted one does, no command lost or applied twice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from faro_box.cards import DECK_SIZE, Card
from faro_box.errors import CardError, FaroBoxError, JournalError, ScriptError
from faro_box.rules.faro import LAST_TURN
from faro_box.table.faro.commands import (
    BarBet,
    CardSeen,
    EndDeal,
    FaroCommand,
    Misdeal,
    PlaceBet,
    ReleaseBet,
    StartDeal,
    WithdrawBet,
)
from faro_box.table.faro.state import TableState
from faro_box.table.journal import Entry
from faro_box.table.table import Outcome, Replay, Table

SCRIPT_FIELDS = ("game", "profile", "house_rules", "players", "deck", "actions")


def export(entries: Sequence[Entry], number: int) -> dict[str, Any]:
    """Deal ``number`` (its journal entries, StartDeal first) as a deal script."""
    state = TableState()
    for entry in entries:
        try:
            state.apply(entry.command)  # type: ignore[arg-type]  # the deal's entries are faro's
        except FaroBoxError as exc:
            raise JournalError(f"entry {entry.seq} of deal {number} cannot be replayed: {exc}") from None
    return state.script()


@dataclass(frozen=True)
class Step:
    """One command of a replay, and the index of the script action it came from (None: a card)."""

    action: int | None
    command: FaroCommand


def script_steps(doc: Mapping[str, Any]) -> tuple[list[Step], list[dict[str, Any]]]:
    """The commands a deal script stands for, and the actions refused before any table saw them."""
    if not isinstance(doc, Mapping):
        raise ScriptError(f"a deal script must be a JSON object, not {doc!r:.80}")
    if doc.get("game", "faro") != "faro":
        raise ScriptError(f"only faro deals and Baccarat Banque banks can be replayed into the table, "
                          f"not {doc.get('game')!r}")
    unknown = [k for k in doc if k not in SCRIPT_FIELDS]
    if unknown:
        raise ScriptError(f"unknown field {unknown[0]!r} in the deal script: the fields are "
                          f"{', '.join(SCRIPT_FIELDS)}")
    for required in ("profile", "players", "deck"):
        if required not in doc:
            raise ScriptError(f"the deal script has no {required!r}")
    players = doc["players"]
    if not isinstance(players, list):
        raise ScriptError(f"players must be a list of names, not {players!r:.80}")
    start = StartDeal(doc["profile"], tuple(players), doc.get("house_rules", {}))
    deck = doc["deck"]
    if isinstance(deck, (str, bytes)) or not isinstance(deck, list) or len(deck) > DECK_SIZE:
        raise ScriptError(f"deck must be a list of at most 52 cards, not {deck!r:.80}")
    try:
        cards = [Card.parse(c) for c in deck]
    except CardError as exc:
        raise ScriptError(f"deck: {exc}") from None
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise ScriptError(f"deck: the deck holds {str(twice)!r} twice")
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ScriptError(f"actions must be a list, not {actions!r:.80}")

    rejected: list[dict[str, Any]] = []
    timed: list[tuple[int, int, FaroCommand]] = []
    for number, action in enumerate(actions):
        try:
            at, command = _action_command(action)
        except FaroBoxError as exc:
            rejected.append({"action": number, "error": str(exc)})
            continue
        timed.append((at, number, command))
    timed.sort(key=lambda t: t[:2])

    steps = [Step(None, start)]
    misdeal = False
    position = 0
    for turn in range(1, LAST_TURN + 1):
        if turn == 1 and cards:
            steps.append(Step(None, CardSeen(cards[0], 0)))
        while position < len(timed) and timed[position][0] <= turn:
            _, number, command = timed[position]
            position += 1
            steps.append(Step(number, command))
            misdeal = misdeal or isinstance(command, Misdeal)
        if misdeal:
            break
        for index in (2 * turn - 1, 2 * turn):
            if index < len(cards):
                steps.append(Step(None, CardSeen(cards[index], index)))
    # The hock (card 51) leaves the box by itself: the table knows it by elimination.
    if not misdeal and len(cards) == DECK_SIZE:
        steps.append(Step(None, EndDeal()))
    return steps, rejected


def _action_command(action: object) -> tuple[int, FaroCommand]:
    if not isinstance(action, Mapping):
        raise ScriptError(f"an action must be an object, not {action!r:.80}")
    at = action.get("at")
    if isinstance(at, bool) or not isinstance(at, int) or not 1 <= at <= LAST_TURN:
        raise ScriptError(f"\"at\" must be a turn from 1 to 25 (bets go on between turns), not {at!r}")
    verbs = [k for k in action if k not in ("at", "player")]
    if len(verbs) != 1 or verbs[0] not in ("place", "withdraw", "bar", "release", "misdeal"):
        raise ScriptError(f"an action does exactly one of place, withdraw, bar, release, misdeal: {dict(action)!r:.80}")
    verb = verbs[0]
    if verb == "misdeal":
        if action["misdeal"] is not True or "player" in action:
            raise ScriptError(f"a misdeal is written {{\"at\": t, \"misdeal\": true}}, not {dict(action)!r:.80}")
        return at, Misdeal()
    player = action.get("player")
    if verb == "place":
        return at, PlaceBet(player, action["place"])  # type: ignore[arg-type]
    kinds: dict[str, type[WithdrawBet] | type[BarBet] | type[ReleaseBet]] = {
        "withdraw": WithdrawBet, "bar": BarBet, "release": ReleaseBet}
    return at, kinds[verb](player, action[verb])  # type: ignore[arg-type]  # the command checks the name


def replay(table: Table, doc: Mapping[str, Any], *, between: Callable[[], None] | None = None) -> Replay:
    """Play a deal script into ``table`` (resuming a replay of the same script that stopped).

    ``between`` is called after each command applied (an exhibition's pace).
    """
    steps, rejected = script_steps(doc)
    done = table.journaled_since(steps[0].command)
    outcomes: list[Outcome] = []
    errors = list(rejected)
    position = 0
    for step in steps:
        if position < len(done) and done[position] == step.command:
            position += 1
            continue
        try:
            outcomes.append(table.handle(step.command))
            if between is not None:
                between()
        except FaroBoxError as exc:
            if step.action is None:
                if isinstance(step.command, StartDeal | EndDeal):
                    raise
                raise ScriptError(f"the table refused card {step.command.to_json().get('index')} "
                                  f"of the script: {exc}") from None
            errors.append({"action": step.action, "error": str(exc)})
    errors.sort(key=lambda r: r["action"])
    return Replay(tuple(outcomes), position, tuple(errors))
