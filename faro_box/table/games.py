"""The games the table deals, found by name: ``find_game("faro")``, ``find_game("baccarat_banque")``.

In the manner of python-chess's ``VARIANTS`` / ``find_variant``: each game brings, in one entry,
its commands (and which of them the dealer's page may send), the command that opens it, its
state machine and the view of it the table shows, its pure settlement of a script, and its
script codec (export a journaled game, replay a script into a table). Nothing registers itself
on import: the registry is this list. The display side of each game (its announcements, its
text and LCD views) is chosen from the state's ``game`` by the display package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from faro_box.errors import JournalError, ScriptError
from faro_box.rules.baccarat import settle_document
from faro_box.rules.faro import settle_script
from faro_box.table.baccarat import scripts as bank_scripts
from faro_box.table.baccarat.commands import BANK_COMMANDS, DEALER_BANK_COMMANDS, StartBank
from faro_box.table.baccarat.state import GAME as BACCARAT_BANQUE
from faro_box.table.baccarat.state import BankState
from faro_box.table.commands import Command
from faro_box.table.faro import scripts as faro_scripts
from faro_box.table.faro.commands import DEALER_FARO_COMMANDS, FARO_COMMANDS, StartDeal
from faro_box.table.faro.state import TableState
from faro_box.table.journal import Entry, Journal
from faro_box.table.table import Replay, Table
from faro_box.table.views import BankView, FaroView, TableView

FARO = "faro"


@dataclass(frozen=True)
class Game:
    name: str                       # the "game" of a script, a state and the configuration
    title: str
    commands: tuple[type[Command], ...]
    dealer_commands: frozenset[str]  # the command types the dealer's page may send
    start: type[Command]             # the command that opens a game of it (a deal, a bank)
    state: Callable[[], Any]         # a fresh state machine: apply(command) -> events, view()
    view: type[TableView]            # what the table shows of it
    settle: Callable[[Mapping[str, Any]], Any]  # the pure engine's result of a script
    export: Callable[[Sequence[Entry], int], dict[str, Any]]  # journal entries -> script
    replay: Callable[..., Replay]    # (table, script, between=None)


GAMES: tuple[Game, ...] = (
    Game(FARO, "Faro", FARO_COMMANDS, DEALER_FARO_COMMANDS, StartDeal, TableState, FaroView, settle_script,
         faro_scripts.export, faro_scripts.replay),
    Game(BACCARAT_BANQUE, "Baccarat Banque", BANK_COMMANDS, DEALER_BANK_COMMANDS, StartBank, BankState, BankView,
         settle_document, bank_scripts.export, bank_scripts.replay),
)
DEALER_COMMANDS = frozenset().union(*(game.dealer_commands for game in GAMES))


def find_game(name: object) -> Game:
    """The game called ``name``; ScriptError naming the games there are."""
    for game in GAMES:
        if game.name == name:
            return game
    raise ScriptError(f"unknown game {name!r:.40}: expected one of {', '.join(g.name for g in GAMES)}")


def game_of(command: Command) -> Game:
    return next(game for game in GAMES if isinstance(command, game.commands))


def export_deal(journal: Journal, deal: int | None = None) -> dict[str, Any]:
    """Deal ``deal`` (default: the last one; a faro deal or a bank) of the journal as its game's script."""
    known = journal.deals()
    if not known:
        raise JournalError(f"the journal {journal.path!r} holds no deal yet")
    number = known[-1] if deal is None else deal
    if number not in known:
        raise JournalError(f"the journal {journal.path!r} holds no deal {number!r}: "
                           f"it holds deals {known[0]}..{known[-1]}")
    entries = journal.entries(deal=number)
    game = game_of(entries[0].command) if entries else find_game(FARO)
    return game.export(entries, number)


def replay_script(table: Table, doc: Mapping[str, Any], *, between: Callable[[], None] | None = None) -> Replay:
    """Play a script into ``table`` as its game's camera and dealer would (resuming a replay of the
    same script that stopped); ``between`` is called after each command applied."""
    if not isinstance(doc, Mapping):
        raise ScriptError(f"a deal script must be a JSON object, not {doc!r:.80}")
    name = doc.get("game", FARO)
    if not any(game.name == name for game in GAMES):
        raise ScriptError(f"only faro deals and Baccarat Banque banks can be replayed into the table, not {name!r:.40}")
    return find_game(name).replay(table, doc, between=between)
