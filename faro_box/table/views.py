"""What the live table shows: the state of the game at hand as a frozen value, and its JSON.

``Table.view()`` gives a ``FaroView`` or a ``BankView``; ``Table.state()`` is its JSON
(``view_to_json``), the document ``/api/state`` serves and every event on the stream carries,
key for key as the pages read it. Inside, cards are ``Card`` values and closed sets enums; the
engines' own reports (bets, turns, settlements, a coup's hands) stay as the engine wrote them.
Nothing here is secret: a face-down card is not in a view (see baccarat/state.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from faro_box.cards import Card
from faro_box.rules.faro import Role
from faro_box.table.events import Report, json_value


@dataclass(frozen=True)
class TableView:
    GAME: ClassVar[str]
    # Fields left out of the JSON while None (the document of a bank never opened has no "in_coup").
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()


@dataclass(frozen=True)
class FaroView(TableView):
    GAME: ClassVar[str] = "faro"
    deal: int | None
    game: str
    profile: str | None
    house_rules: Report
    players: tuple[str, ...]
    exposed: tuple[Card, ...]
    next_index: int
    next_turn: int | None
    next_role: Role | None
    case: Report                 # rank symbol -> cards of it still in the box
    in_case: tuple[str, ...]     # the ranks the case-keeper shows in play
    beads: Report
    open_bets: tuple[Report, ...]
    turns: tuple[Report, ...]
    last_turn: Report | None
    balances: Report
    pending: Report | None       # {index, candidates, snapshot, reason}
    queued: tuple[int, ...]
    finished: bool
    misdeal: tuple[Report, ...] | None
    hock: Card | None
    ended: bool
    history: tuple[Report, ...]
    totals: Report
    seq: int = 0                         # the live table's: its journal's last entry
    faults: tuple[Report, ...] = field(default=())  # the live table's: {device, message}


@dataclass(frozen=True)
class BankView(TableView):
    GAME: ClassVar[str] = "baccarat_banque"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"in_coup"})
    game: str
    deal: int | None
    bank: int | None
    history: tuple[Report, ...]
    pending: Report | None       # {candidates, snapshot, reason}; nothing of a face-down card
    queued: int
    players: tuple[str, ...]
    sides: Report
    banker: str | None
    fund: int | None
    declared: int | None
    balances: Report
    active: Report
    bets: tuple[Report, ...]
    cover_left: int | None
    banco_suivi: tuple[str, ...]
    coup: int | None
    in_coup: bool | None
    hands: Report                # seat -> cards, None where one lies face down
    totals: Report
    calls: Report
    waiting: str | None
    results: tuple[Report, ...]
    last_coup: Report | None
    shoe: Report
    ended: str | None
    session: Report | None
    finished: bool
    closed: bool
    seq: int = 0
    faults: tuple[Report, ...] = field(default=())


View = FaroView | BankView


def view_to_json(view: TableView) -> dict[str, Any]:
    """The state document: every field in order, as ``/api/state`` serves it."""
    return {f.name: json_value(getattr(view, f.name)) for f in dataclasses.fields(view)
            if not (f.name in view.OMITTED_WHEN_NONE and getattr(view, f.name) is None)}
