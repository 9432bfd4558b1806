"""What the live table tells its listeners: one frozen value per event, and their one JSON codec.

The table's state machines (faro/state.py, baccarat/state.py) return these; the table stamps each
with its command's journal sequence number (``seq``) and hands it to every listener. Inside, a
card is a ``Card``, a closed set an enum; the engine's own reports that an event carries (a bet,
a turn's settlements, a coup's hands) are kept as the engine wrote them (``Report``, its JSON).
Text appears only here, at the edge: ``event_to_json`` gives the document the event stream and
the pages read (``{"type": ..., fields in order, "seq": n}``) and ``event_from_json`` reads it back.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Union

from faro_box.cards import Card
from faro_box.errors import ScriptError
from faro_box.rules.baccarat import Seat
from faro_box.rules.faro import Role

Report = Mapping[str, Any]  # an engine's own JSON report (a bet, a settlement, a coup's hands)


class How(enum.Enum):
    """How a card came to be taken."""

    SEEN = "seen"                      # read by the camera
    CONFIRMED = "confirmed"            # named by the dealer
    BY_ELIMINATION = "by elimination"  # the hock: the only card left


class Reason(enum.Enum):
    """Why a card waits for the dealer."""

    UNREAD = "unread"        # the camera could not name it (or was unsure)
    MISSED = "missed"        # the camera saw a later card: this one left the box unseen
    CONFLICT = "conflict"    # the reading contradicts the cards already out
    FACE_DOWN = "face_down"  # a face-down Baccarat card: what the camera read is the dealer's alone


class DealOutcome(enum.Enum):
    FINISHED = "finished"
    MISDEAL = "misdeal"


@dataclass(frozen=True)
class TableEvent:
    TYPE: ClassVar[str]
    SEQ_FIRST: ClassVar[bool] = False  # where "seq" stands in the JSON (the device faults': first)
    seq: int = field(default=0, kw_only=True)  # the command's journal sequence number (the table's stamp)


# ----- faro ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DealStarted(TableEvent):
    TYPE: ClassVar[str] = "start_deal"
    deal: int
    profile: str
    players: tuple[str, ...]
    house_rules: Report


@dataclass(frozen=True)
class _BetChanged(TableEvent):
    """A player's bet placed, withdrawn, barred or released: the bet as it stands now."""

    player: str
    bet: Report


@dataclass(frozen=True)
class BetPlaced(_BetChanged):
    TYPE: ClassVar[str] = "place"


@dataclass(frozen=True)
class BetWithdrawn(_BetChanged):
    TYPE: ClassVar[str] = "withdraw"


@dataclass(frozen=True)
class BetBarred(_BetChanged):
    TYPE: ClassVar[str] = "bar"


@dataclass(frozen=True)
class BetReleased(_BetChanged):
    TYPE: ClassVar[str] = "release"


@dataclass(frozen=True)
class CardTaken(TableEvent):
    """Card ``index`` left the box: the soda, a turn's loser or winner, or the hock."""

    TYPE: ClassVar[str] = "card"
    index: int
    card: Card
    role: Role
    turn: int | None
    how: How


@dataclass(frozen=True)
class TurnSettled(TableEvent):
    TYPE: ClassVar[str] = "turn"
    turn: int
    loser: Card
    winner: Card
    settlements: tuple[Report, ...]
    last: bool
    hock: Card | None
    balances: Report


@dataclass(frozen=True)
class DealFinished(TableEvent):
    """The whole deck is out (the hock last)."""

    TYPE: ClassVar[str] = "deal_finished"
    deal: int
    hock: Card
    balances: Report


@dataclass(frozen=True)
class CardPending(TableEvent):
    """Card ``index`` waits for the dealer to name it (``candidates``: the reader's guesses)."""

    TYPE: ClassVar[str] = "pending"
    index: int
    candidates: tuple[Card, ...]
    snapshot: str | None
    reason: Reason


@dataclass(frozen=True)
class NoCardTaken(TableEvent):
    """The dealer's answer: no card left the box; ``card`` still lies on top."""

    TYPE: ClassVar[str] = "no_card"
    index: int
    card: Card


@dataclass(frozen=True)
class CardQueued(TableEvent):
    """A reading waits behind the card the dealer is asked about (None: a card not read)."""

    TYPE: ClassVar[str] = "queued"
    index: int
    card: Card | None


@dataclass(frozen=True)
class CardTakenBack(TableEvent):
    TYPE: ClassVar[str] = "undo"
    index: int
    card: Card
    role: Role
    turn: int | None
    reverted: Report | None  # the turn's result undone with its winner


@dataclass(frozen=True)
class MisdealCalled(TableEvent):
    TYPE: ClassVar[str] = "misdeal"
    deal: int
    settlements: tuple[Report, ...]
    balances: Report


@dataclass(frozen=True)
class DealEnded(TableEvent):
    TYPE: ClassVar[str] = "end_deal"
    deal: int
    profile: str
    outcome: DealOutcome
    hock: Card | None
    balances: Report


# ----- devices ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fault(TableEvent):
    """A device failed (not journaled: told once, and again only after it recovered)."""

    TYPE: ClassVar[str] = "fault"
    SEQ_FIRST: ClassVar[bool] = True
    device: str
    message: str


@dataclass(frozen=True)
class FaultCleared(TableEvent):
    TYPE: ClassVar[str] = "fault_cleared"
    SEQ_FIRST: ClassVar[bool] = True
    device: str


# ----- Baccarat Banque ----------------------------------------------------------------------------

@dataclass(frozen=True)
class BankStarted(TableEvent):
    TYPE: ClassVar[str] = "start_bank"
    bank: int
    players: tuple[str, ...]
    sides: Report
    banker: str
    fund: int


@dataclass(frozen=True)
class BankClosed(TableEvent):
    TYPE: ClassVar[str] = "bank_closed"
    bank: int | None
    banker: str
    ended: str | None
    coups: int
    fund: int
    balances: Report


@dataclass(frozen=True)
class _BankBetsChanged(TableEvent):
    """A bet, a banco or winnings left on: the coup's bets as they stand now."""

    player: str
    bets: tuple[Report, ...]
    cover_left: int


@dataclass(frozen=True)
class BankBetPlaced(_BankBetsChanged):
    TYPE: ClassVar[str] = "bank_bet"


@dataclass(frozen=True)
class BancoCalled(_BankBetsChanged):
    TYPE: ClassVar[str] = "banco"


@dataclass(frozen=True)
class WinningsLeftOn(_BankBetsChanged):
    TYPE: ClassVar[str] = "leave_on"


@dataclass(frozen=True)
class BankReadQueued(TableEvent):
    TYPE: ClassVar[str] = "bank_queued"
    count: int


@dataclass(frozen=True)
class BankCardPending(TableEvent):
    """The next card waits for the dealer; for a face-down card the public learns nothing more."""

    TYPE: ClassVar[str] = "bank_pending"
    candidates: tuple[Card, ...]
    snapshot: str | None
    reason: Reason


@dataclass(frozen=True)
class CoupStarted(TableEvent):
    TYPE: ClassVar[str] = "coup_start"
    coup: int
    bets: tuple[Report, ...]


@dataclass(frozen=True)
class BankCardDealt(TableEvent):
    """A card to ``seat``; ``card`` is None while it lies face down."""

    TYPE: ClassVar[str] = "bank_card"
    coup: int
    seat: Seat
    card: Card | None
    how: How


@dataclass(frozen=True)
class CoupSettled(TableEvent):
    TYPE: ClassVar[str] = "coup"
    coup: int
    hands: Report
    totals: Report
    natural: bool
    results: Report
    active: Report
    settlements: tuple[Report, ...]
    fund: int
    balances: Report


@dataclass(frozen=True)
class BankEnded(TableEvent):
    TYPE: ClassVar[str] = "bank_ended"
    bank: int | None
    ended: str
    fund: int
    balances: Report
    net: Report
    winners: tuple[str, ...]


@dataclass(frozen=True)
class BankCallMade(TableEvent):
    TYPE: ClassVar[str] = "bank_call"
    seat: Seat
    draw: bool


@dataclass(frozen=True)
class BankReadsDropped(TableEvent):
    """Reads that found no hand to take them (named to the dealer only: each read's type here)."""

    TYPE: ClassVar[str] = "bank_dropped"
    reads: tuple[Report, ...]


@dataclass(frozen=True)
class BankCardTakenBack(TableEvent):
    TYPE: ClassVar[str] = "bank_undo"
    card: Card | None  # None: it lay face down
    taken_back: tuple[Report, ...]


Event = (DealStarted | BetPlaced | BetWithdrawn | BetBarred | BetReleased | CardTaken | TurnSettled
         | DealFinished | CardPending | NoCardTaken | CardQueued | CardTakenBack | MisdealCalled | DealEnded
         | Fault | FaultCleared | BankStarted | BankClosed | BankBetPlaced | BancoCalled | WinningsLeftOn
         | BankReadQueued | BankCardPending | CoupStarted | BankCardDealt | CoupSettled | BankEnded
         | BankCallMade | BankReadsDropped | BankCardTakenBack)
EVENT_TYPES: dict[str, type[TableEvent]] = {cls.TYPE: cls for cls in typing.get_args(Event)}


# ----- the codec ----------------------------------------------------------------------------------

def json_value(value: Any) -> Any:
    """A value of an event or a view as JSON: cards as text, enums as their value."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {k: json_value(v) for k, v in value.items()}
    return value


def event_to_json(event: TableEvent) -> dict[str, Any]:
    """The event as the event stream and the pages have it: "type" first, then "seq" and the
    fields (a device fault) or the fields and "seq" (the rest), as the pages have always had it."""
    doc: dict[str, Any] = {"type": event.TYPE}
    if event.SEQ_FIRST:
        doc["seq"] = event.seq
    for f in dataclasses.fields(event):
        if f.name != "seq":
            doc[f.name] = json_value(getattr(event, f.name))
    doc["seq"] = event.seq
    return doc


def _from_json(value: Any, hint: Any, where: str) -> Any:
    if value is None and _optional(hint):
        return None
    base = _strip_none(hint)
    if base is Card:
        return Card.parse(value)
    if isinstance(base, type) and issubclass(base, enum.Enum):
        return base(value)
    if typing.get_origin(base) is tuple:
        if not isinstance(value, list):
            raise ScriptError(f"{where} must be a list, not {value!r:.60}")
        return tuple(_from_json(v, typing.get_args(base)[0], where) for v in value)
    return value


def _optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint)


def _strip_none(hint: Any) -> Any:
    if typing.get_origin(hint) in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return args[0] if len(args) == 1 else hint
    return hint


def event_from_json(doc: Mapping[str, Any]) -> Event:
    """The event a document of ``event_to_json`` describes; ScriptError when it does not fit."""
    kind = doc.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ScriptError(f"unknown event type {kind!r:.40}")
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(doc) - names - {"type"})
    if unknown:
        raise ScriptError(f"the {kind!r} event has unknown field(s) {', '.join(map(repr, unknown))}")
    try:
        fields = {name: _from_json(doc[name], hints[name], f"{kind}.{name}") for name in names if name in doc}
        event: Event = cls(**fields)  # type: ignore[assignment]
    except (TypeError, ValueError) as exc:
        raise ScriptError(f"the {kind!r} event does not fit: {exc}") from None
    return event
