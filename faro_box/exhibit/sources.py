"""What the exhibition deals: the bundled instructive deals, deal scripts, recorded journals.

Every source becomes an ``ExhibitDeal``: the deal's start, the 52 cards in the order they leave
the simulated box, how many of them come out (fewer for a misdeal or an unfinished deal), and
the bets as the demo plans them, each at the very card count where it went on the layout. A
journal's deal keeps the exact moment of every bet (before or after the soda, say), so replaying
it through the box reproduces the table's events; a script's ``at`` gives the moment settle
uses (the bets of turn 1 after the soda).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from faro_box.cards import DECK_SIZE, FULL_DECK, Card
from faro_box.demo.faro import PlannedBet
from faro_box.errors import FaroBoxError, JournalError, ScriptError
from faro_box.rules.faro import LAST_TURN
from faro_box.table.commands import CardSeen, CardUnread, ConfirmCard, EndDeal, Misdeal, StartDeal, UndoCard
from faro_box.table.faro.scripts import script_steps
from faro_box.table.faro.state import TableState
from faro_box.table.journal import Journal

LANGS = ("en", "ru", "fr")
_BET_COMMANDS = ("place", "withdraw", "bar", "release", "misdeal")


@dataclass(frozen=True)
class ExhibitDeal:
    name: str
    start: StartDeal
    deck: tuple[Card, ...]      # all 52: the cards never shown follow in new-deck order
    cards: int                  # how many leave the box (52 for a whole deal)
    plan: tuple[PlannedBet, ...]
    title: Mapping[str, str] = field(default_factory=dict)   # by language
    blurb: Mapping[str, str] = field(default_factory=dict)
    claims: Mapping[str, Any] = field(default_factory=dict)

    def title_in(self, lang: str) -> str:
        return self.title.get(lang) or self.title.get("en") or self.name


def _full_deck(shown: Sequence[str]) -> tuple[Card, ...]:
    cards = [Card.parse(c) for c in shown]
    seen = set(cards)
    return tuple(cards + [c for c in FULL_DECK if c not in seen])


def _turn_at(cards_out: int) -> int:
    """The turn a bet made with this many cards out goes on before (1 before and after the soda)."""
    return min(LAST_TURN, max(1, (cards_out + 1) // 2))


def deal_from_script(doc: Mapping[str, Any], name: str, *, title: Mapping[str, str] | None = None,
                     blurb: Mapping[str, str] | None = None, claims: Mapping[str, Any] | None = None
                     ) -> ExhibitDeal:
    """A deal script as the exhibition plays it; a bad script raises ScriptError naming ``name``."""
    try:
        steps, rejected = script_steps(doc)
    except FaroBoxError as exc:
        raise ScriptError(f"{name}: {exc}") from None
    if rejected:
        raise ScriptError(f"{name}: action {rejected[0]['action']} is refused: {rejected[0]['error']}")
    start = steps[0].command
    assert isinstance(start, StartDeal)
    cards_out = 0
    plan: list[PlannedBet] = []
    for step in steps[1:]:
        command = step.command
        if isinstance(command, CardSeen):
            cards_out += 1
        elif isinstance(command, EndDeal):
            cards_out = DECK_SIZE   # the hock leaves the box by itself
        else:
            plan.append(PlannedBet(_turn_at(cards_out), command, "script", cards_out))
            if isinstance(command, Misdeal):
                break
    deck = doc["deck"]
    return ExhibitDeal(name, start, _full_deck(deck), cards_out, tuple(plan), dict(title or {}),
                       dict(blurb or {}), dict(claims or {}))


def load_script(path: str | Path) -> ExhibitDeal:
    file = Path(path)
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScriptError(f"cannot read the deal script {str(file)!r}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ScriptError(f"{str(file)!r} is not JSON: {exc}") from None
    return deal_from_script(doc, file.stem)


def deals_from_journal(path: str | Path) -> list[ExhibitDeal]:
    """Every deal a journal holds (read-only), each with its bets at their exact moments.

    The dealer's corrections are replayed as their net effect: an undone card is not dealt, and
    the bet changes it took back are not made.
    """
    journal = Journal(path, readonly=True)
    try:
        numbers = journal.deals()
        if not numbers:
            raise JournalError(f"the journal {str(path)!r} holds no deal")
        deals = [_journal_deal(journal, number, Path(path).stem) for number in numbers]
    finally:
        journal.close()
    return [d for d in deals if d.cards > 0]


def _journal_deal(journal: Journal, number: int, stem: str) -> ExhibitDeal:
    state = TableState()
    plan: list[tuple[int, Any]] = []
    start: StartDeal | None = None
    misdealt_at: int | None = None
    for entry in journal.entries(deal=number):
        command = entry.command
        before = state.deal.next_index if state.deal is not None else 0
        try:
            state.apply(command)
        except FaroBoxError as exc:
            raise JournalError(f"entry {entry.seq} of deal {number} cannot be replayed: {exc}") from None
        if isinstance(command, StartDeal):
            start = command
        elif isinstance(command, UndoCard):
            plan = [(n, c) for n, c in plan if n != before]
        elif command.TYPE in _BET_COMMANDS:
            plan.append((before, command))
            if isinstance(command, Misdeal):
                misdealt_at = before
        elif not isinstance(command, (CardSeen, CardUnread, ConfirmCard, EndDeal)):
            raise JournalError(f"entry {entry.seq} of deal {number}: {command.TYPE!r} cannot be exhibited")
    assert start is not None and state.deal is not None
    shown = [str(c) for c in state.deal.exposed]
    cards = misdealt_at if misdealt_at is not None else len(shown)
    planned = tuple(PlannedBet(_turn_at(n), c, "journal", n) for n, c in plan)
    return ExhibitDeal(f"{stem} deal {number}", start, _full_deck(shown), cards, planned,
                       {"en": f"Deal {number} of {stem}", "ru": f"Талия {number} ({stem})",
                        "fr": f"Taille {number} ({stem})"})


def bundled_deals() -> tuple[ExhibitDeal, ...]:
    """The instructive deals shipped with faro-box, in the catalogue's order."""
    folder = resources.files("faro_box.exhibit").joinpath("deals")
    catalogue = json.loads(folder.joinpath("catalogue.json").read_text(encoding="utf-8"))
    deals = []
    for item in catalogue["deals"]:
        doc = json.loads(folder.joinpath(item["file"]).read_text(encoding="utf-8"))
        deals.append(deal_from_script(doc, item["file"].removesuffix(".json"), title=item["title"],
                                      blurb=item["blurb"], claims=item.get("claims", {})))
    return tuple(deals)


def bundled_script(name: str) -> dict[str, Any]:
    """One bundled deal's script document (``early_split``, ``cat_hop``, ``triple``, ``ruined_by_coppers``)."""
    folder = resources.files("faro_box.exhibit").joinpath("deals")
    file = folder.joinpath(f"{name}.json")
    if not file.is_file():
        raise ScriptError(f"no bundled deal {name!r}")
    doc: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return doc


def load_sources(sources: Sequence[str]) -> list[ExhibitDeal]:
    """``bundled``, a deal script (.json) or a journal (anything else: an SQLite file), in order."""
    deals: list[ExhibitDeal] = []
    for source in sources:
        if source == "bundled":
            deals += bundled_deals()
        elif source.lower().endswith(".json"):
            deals.append(load_script(source))
        else:
            deals += deals_from_journal(source)
    if not deals:
        raise ScriptError(f"the sources {list(sources)!r} hold no deal to exhibit")
    for deal in deals:
        if len(deal.deck) != DECK_SIZE:
            raise ScriptError(f"{deal.name}: a deck of {len(deal.deck)} cards cannot be dealt")
    return deals
