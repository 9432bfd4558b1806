"""The Baccarat Banque table's commands: small frozen values with the same strict JSON round trip
as faro's (the codec is table/commands.py), journaled in the same journal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from faro_box.cards import Card
from faro_box.errors import ScriptError
from faro_box.limits import (
    MAX_BANK_PLAYERS,
    MAX_BANK_STAKE,
    MAX_FUND,
    check_player,
    check_players,
    check_stake,
)
from faro_box.table.fields import (
    BareCommand,
    check_candidates,
    check_card,
    check_confidence,
    check_frame,
    check_snapshot,
)

SIDES = ("right", "left")
SEATS = ("right", "left", "banker")
MAX_STAKE = MAX_BANK_STAKE  # the limits are faro_box.limits', shared with settle


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ScriptError(f"{what} must be true or false, not {value!r:.40}")
    return value


def _chips(value: object, what: str, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= limit:
        raise ScriptError(f"{what} must be a whole number of chips from 1 to {limit}, not {value!r:.40}")
    return value


@dataclass(frozen=True)
class StartBank:
    """A new bank: ``players`` in the order bets are taken (counterclockwise from the banker's
    right), each on a side; ``banker`` holds the bank with ``fund`` of his 100 chips."""

    TYPE: ClassVar[str] = "start_bank"
    players: tuple[str, ...]
    sides: dict[str, str]
    banker: str
    fund: int

    def __post_init__(self) -> None:
        players = check_players(self.players, MAX_BANK_PLAYERS, "a bank")
        object.__setattr__(self, "players", players)
        if not isinstance(self.sides, dict):
            raise ScriptError(f"sides must map each player to right or left, not {self.sides!r:.80}")
        sides: dict[str, str] = {}
        for name, side in self.sides.items():
            if name not in players:
                raise ScriptError(f"{name!r:.60} has a side but is not among the players")
            if side not in SIDES:
                raise ScriptError(f"{name!r}'s side must be 'right' or 'left', not {side!r:.40}")
            sides[name] = side
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "banker", check_player(self.banker))
        _chips(self.fund, "the fund", MAX_FUND)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "players": list(self.players), "sides": dict(self.sides),
                "banker": self.banker, "fund": self.fund}


@dataclass(frozen=True)
class BankBet:
    """An ordinary bet on the player's own side; ``cheval`` halves it between the sides; ``cut``
    accepts it cut down to the cover left instead of refusing it."""

    TYPE: ClassVar[str] = "bank_bet"
    player: str
    stake: int
    cheval: bool = False
    cut: bool = False

    def __post_init__(self) -> None:
        check_player(self.player)
        check_stake(self.stake, MAX_STAKE)
        _chips(self.stake, "a stake", MAX_STAKE)
        _flag(self.cheval, "cheval")
        _flag(self.cut, "cut")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "stake": self.stake, "cheval": self.cheval,
                "cut": self.cut}


@dataclass(frozen=True)
class Banco:
    """The player claims the whole fund."""

    TYPE: ClassVar[str] = "banco"
    player: str

    def __post_init__(self) -> None:
        check_player(self.player)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player}


@dataclass(frozen=True)
class LeaveOn:
    """The player leaves last coup's winnings on: a new bet that must fit the cover again."""

    TYPE: ClassVar[str] = "leave_on"
    player: str
    cheval: bool = False
    cut: bool = False

    def __post_init__(self) -> None:
        check_player(self.player)
        _flag(self.cheval, "cheval")
        _flag(self.cut, "cut")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "cheval": self.cheval, "cut": self.cut}


@dataclass(frozen=True)
class BankCard:
    """The camera read the next card out of the shoe."""

    TYPE: ClassVar[str] = "bank_card"
    card: Card
    confidence: float = 1.0
    frame: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", check_card(self.card))
        object.__setattr__(self, "confidence", check_confidence(self.confidence))
        check_frame(self.frame)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": str(self.card), "confidence": self.confidence, "frame": self.frame}


@dataclass(frozen=True)
class BankUnread:
    """The camera saw a card it could not read: the dealer names it (``BankConfirm``)."""

    TYPE: ClassVar[str] = "bank_unread"
    candidates: tuple[Card, ...] = ()
    snapshot: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "candidates", check_candidates(self.candidates))
        check_snapshot(self.snapshot)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "candidates": [str(c) for c in self.candidates], "snapshot": self.snapshot}


@dataclass(frozen=True)
class BankConfirm:
    """The dealer names the card waiting for confirmation, or enters the next card by hand."""

    TYPE: ClassVar[str] = "bank_confirm"
    card: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", check_card(self.card))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": str(self.card)}


@dataclass(frozen=True)
class BankCall:
    """A hand's call after the first six cards: ``draw`` (a card) or stand. Right and left call on
    any total (the table checks the call against the rules: a choice only on 5); the banker
    chooses freely on 0–7."""

    TYPE: ClassVar[str] = "bank_call"
    seat: str
    draw: bool

    def __post_init__(self) -> None:
        if self.seat not in SEATS:
            raise ScriptError(f"a call belongs to right, left or banker, not {self.seat!r:.40}")
        _flag(self.draw, "draw")

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "draw": self.draw}


@dataclass(frozen=True)
class BankerLeaves(BareCommand):
    TYPE: ClassVar[str] = "bank_leave"


@dataclass(frozen=True)
class BankUndo(BareCommand):
    """Take back the last card (and whatever the table took after it)."""

    TYPE: ClassVar[str] = "bank_undo"


BankCommand = (StartBank | BankBet | Banco | LeaveOn | BankCard | BankUnread | BankConfirm | BankCall
               | BankerLeaves | BankUndo)
BANK_COMMANDS: tuple[type[BankCommand], ...] = (StartBank, BankBet, Banco, LeaveOn, BankCard, BankUnread, BankConfirm,
                                   BankCall, BankerLeaves, BankUndo)
# What the dealer's page may send (the camera's own reads, bank_card and bank_unread, are not).
DEALER_BANK_COMMANDS = frozenset({"start_bank", "bank_bet", "banco", "leave_on", "bank_confirm", "bank_call",
                                  "bank_leave", "bank_undo"})
