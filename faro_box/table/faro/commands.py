"""Faro's table commands: what the tracker, the dealer's page and the buttons send during a deal,
as small frozen values with a strict JSON round trip (the codec is table/commands.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from faro_box.cards import Card
from faro_box.limits import MAX_BET_ID, MAX_PLAYERS, MAX_STAKE, check_player, check_players, check_stake
from faro_box.table.fields import (
    MAX_PROFILE_NAME,
    BareCommand,
    check_candidates,
    check_card,
    check_confidence,
    check_frame,
    check_index,
    check_json_object,
    check_snapshot,
    check_text,
)


@dataclass(frozen=True)
class StartDeal:
    TYPE: ClassVar[str] = "start_deal"
    profile: str
    players: tuple[str, ...]
    house_rules: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_text(self.profile, "the profile name", MAX_PROFILE_NAME)
        players = check_players(self.players, MAX_PLAYERS, "a deal", fewest=1)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "house_rules", check_json_object(self.house_rules, "house_rules"))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "profile": self.profile, "players": list(self.players),
                "house_rules": dict(self.house_rules)}


@dataclass(frozen=True)
class PlaceBet:
    TYPE: ClassVar[str] = "place"
    player: str
    spec: dict[str, Any]

    def __post_init__(self) -> None:
        check_player(self.player)
        spec = check_json_object(self.spec, "a bet (place)")
        if "id" in spec:
            check_text(spec["id"], "a bet id", MAX_BET_ID)
        check_stake(spec.get("stake"), MAX_STAKE)
        object.__setattr__(self, "spec", spec)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "spec": dict(self.spec)}


@dataclass(frozen=True)
class _OnBet:
    """A player's word about one of his bets (withdraw, bar, release): the same two fields."""

    TYPE: ClassVar[str]
    player: str
    bet_id: str

    def __post_init__(self) -> None:
        check_player(self.player)
        check_text(self.bet_id, "a bet id", MAX_BET_ID)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "bet_id": self.bet_id}


@dataclass(frozen=True)
class WithdrawBet(_OnBet):
    TYPE: ClassVar[str] = "withdraw"


@dataclass(frozen=True)
class BarBet(_OnBet):
    """The player freezes a bet: it neither wins nor loses until he says "it goes"."""

    TYPE: ClassVar[str] = "bar"


@dataclass(frozen=True)
class ReleaseBet(_OnBet):
    """"It goes": a barred bet plays again."""

    TYPE: ClassVar[str] = "release"


@dataclass(frozen=True)
class CardSeen:
    """The tracker read card ``index`` (0 = soda) with this confidence."""

    TYPE: ClassVar[str] = "card"
    card: Card
    index: int
    confidence: float = 1.0
    frame: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", check_card(self.card))
        check_index(self.index)
        object.__setattr__(self, "confidence", check_confidence(self.confidence))
        check_frame(self.frame)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": str(self.card), "index": self.index,
                "confidence": self.confidence, "frame": self.frame}


@dataclass(frozen=True)
class CardUnread:
    """The tracker saw card ``index`` leave the box but could not read it: ask the dealer.

    ``candidates`` are the reader's guesses, best first; ``snapshot`` a URL of the frame.
    """

    TYPE: ClassVar[str] = "unread"
    index: int
    candidates: tuple[Card, ...] = ()
    snapshot: str | None = None

    def __post_init__(self) -> None:
        check_index(self.index)
        object.__setattr__(self, "candidates", check_candidates(self.candidates))
        check_snapshot(self.snapshot)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "index": self.index, "candidates": [str(c) for c in self.candidates],
                "snapshot": self.snapshot}


@dataclass(frozen=True)
class ConfirmCard:
    """The dealer names card ``index``: confirms or corrects an unread card, or enters one by hand."""

    TYPE: ClassVar[str] = "confirm"
    index: int
    card: Card

    def __post_init__(self) -> None:
        check_index(self.index)
        object.__setattr__(self, "card", check_card(self.card))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "index": self.index, "card": str(self.card)}


@dataclass(frozen=True)
class NoCard:
    """The dealer's answer to the question about card ``index``: no card left the box, the card
    before it still lies on top (a hand passed over it, or it was put back)."""

    TYPE: ClassVar[str] = "no_card"
    index: int

    def __post_init__(self) -> None:
        check_index(self.index)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "index": self.index}


@dataclass(frozen=True)
class UndoCard(BareCommand):
    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True)
class EndDeal(BareCommand):
    TYPE: ClassVar[str] = "end_deal"


@dataclass(frozen=True)
class Misdeal(BareCommand):
    TYPE: ClassVar[str] = "misdeal"


FaroCommand = (StartDeal | PlaceBet | WithdrawBet | BarBet | ReleaseBet | CardSeen | CardUnread | ConfirmCard
               | NoCard | UndoCard | EndDeal | Misdeal)
FARO_COMMANDS: tuple[type[FaroCommand], ...] = (
    StartDeal, PlaceBet, WithdrawBet, BarBet, ReleaseBet, CardSeen, CardUnread, ConfirmCard, NoCard, UndoCard,
    EndDeal, Misdeal)
# What the dealer's page may send (the tracker's own reads, card and unread, come from the camera).
DEALER_FARO_COMMANDS = frozenset({"start_deal", "place", "withdraw", "bar", "release", "confirm", "no_card", "undo",
                                  "end_deal", "misdeal"})
