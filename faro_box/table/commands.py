"""The commands that enter the live table, as small frozen values with a JSON round trip.

Every command a dealer, a button or the tracker sends is one of these; the journal stores
``to_json()`` and replays ``command_from_json``. Parsing is strict: a command from the web or a
journal row that does not fit is refused with one ScriptError quoting the bad value, so nothing
half-read ever reaches the table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from faro_box.cards import DECK_SIZE, Card
from faro_box.errors import CardError, ScriptError
from faro_box.limits import (
    MAX_BET_ID,
    MAX_PLAYERS,
    MAX_STAKE,
    check_player,
    check_players,
    check_stake,
    check_text,
)

MAX_PROFILE_NAME = 40
MAX_CANDIDATES = 10
MAX_SNAPSHOT = 500
# A bet spec or a house-rules table is a handful of keys; anything bigger is not a bet.
MAX_OBJECT_JSON = 2000


# The limits are faro_box.limits', shared with settle's script readers.
_text = check_text
_player = check_player


def _index(value: object, what: str = "a card index") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < DECK_SIZE:
        raise ScriptError(f"{what} must be a whole number 0..{DECK_SIZE - 1}, not {value!r:.40}")
    return value


def _card(value: object) -> str:
    try:
        return str(Card.parse(value))  # type: ignore[arg-type]
    except CardError as exc:
        raise ScriptError(str(exc)) from None


def _confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0.0 <= value <= 1.0:
        raise ScriptError(f"a confidence must be a number 0..1, not {value!r:.40}")
    return float(value)


def _frame(value: object) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ScriptError(f"a frame number must be a whole number >= 0 or null, not {value!r:.40}")
    return value


def _candidates(value: object) -> tuple[str, ...]:
    """The reader's guesses for a card it could not read, best first."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise ScriptError(f"candidates must be a list of cards, not {value!r:.80}")
    if len(value) > MAX_CANDIDATES:
        raise ScriptError(f"at most {MAX_CANDIDATES} candidates, got {len(value)}")
    return tuple(_card(c) for c in value)


def _snapshot(value: object) -> None:
    if value is not None:
        _text(value, "a snapshot URL", MAX_SNAPSHOT)


def _json_object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ScriptError(f"{what} must be a JSON object, not {value!r:.80}")
    if not all(isinstance(k, str) for k in value):
        raise ScriptError(f"{what} must have text keys: {dict(value)!r:.80}")
    try:
        text = json.dumps(value, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ScriptError(f"{what} is not plain JSON ({exc}): {dict(value)!r:.80}") from None
    if len(text) > MAX_OBJECT_JSON:
        raise ScriptError(f"{what} is too large ({len(text)} characters, at most {MAX_OBJECT_JSON})")
    # A private copy: the caller's dict can change afterwards without changing the command.
    return dict(json.loads(text))


@dataclass(frozen=True)
class StartDeal:
    TYPE: ClassVar[str] = "start_deal"
    profile: str
    players: tuple[str, ...]
    house_rules: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _text(self.profile, "the profile name", MAX_PROFILE_NAME)
        players = check_players(self.players, MAX_PLAYERS, "a deal", fewest=1)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "house_rules", _json_object(self.house_rules, "house_rules"))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "profile": self.profile, "players": list(self.players),
                "house_rules": dict(self.house_rules)}


@dataclass(frozen=True)
class PlaceBet:
    TYPE: ClassVar[str] = "place"
    player: str
    spec: dict[str, Any]

    def __post_init__(self) -> None:
        _player(self.player)
        spec = _json_object(self.spec, "a bet (place)")
        if "id" in spec:
            _text(spec["id"], "a bet id", MAX_BET_ID)
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
        _player(self.player)
        _text(self.bet_id, "a bet id", MAX_BET_ID)

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
    card: str
    index: int
    confidence: float = 1.0
    frame: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _card(self.card))
        _index(self.index)
        object.__setattr__(self, "confidence", _confidence(self.confidence))
        _frame(self.frame)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "card": self.card, "index": self.index,
                "confidence": self.confidence, "frame": self.frame}


@dataclass(frozen=True)
class CardUnread:
    """The tracker saw card ``index`` leave the box but could not read it: ask the dealer.

    ``candidates`` are the reader's guesses, best first; ``snapshot`` a URL of the frame.
    """

    TYPE: ClassVar[str] = "unread"
    index: int
    candidates: tuple[str, ...] = ()
    snapshot: str | None = None

    def __post_init__(self) -> None:
        _index(self.index)
        object.__setattr__(self, "candidates", _candidates(self.candidates))
        _snapshot(self.snapshot)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "index": self.index, "candidates": list(self.candidates),
                "snapshot": self.snapshot}


@dataclass(frozen=True)
class ConfirmCard:
    """The dealer names card ``index``: confirms or corrects an unread card, or enters one by hand."""

    TYPE: ClassVar[str] = "confirm"
    index: int
    card: str

    def __post_init__(self) -> None:
        _index(self.index)
        object.__setattr__(self, "card", _card(self.card))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "index": self.index, "card": self.card}


@dataclass(frozen=True)
class NoCard:
    """The dealer's answer to the question about card ``index``: no card left the box, the card
    before it still lies on top (a hand passed over it, or it was put back)."""

    TYPE: ClassVar[str] = "no_card"
    index: int

    def __post_init__(self) -> None:
        _index(self.index)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "index": self.index}


@dataclass(frozen=True)
class BareCommand:
    """A command that is its type alone (undo, end of deal, misdeal, the banker leaving)."""

    TYPE: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class UndoCard(BareCommand):
    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True)
class EndDeal(BareCommand):
    TYPE: ClassVar[str] = "end_deal"


@dataclass(frozen=True)
class Misdeal(BareCommand):
    TYPE: ClassVar[str] = "misdeal"


Command = (StartDeal | PlaceBet | WithdrawBet | BarBet | ReleaseBet | CardSeen | CardUnread | ConfirmCard
           | NoCard | UndoCard | EndDeal | Misdeal)

COMMAND_TYPES: dict[str, type] = {
    cls.TYPE: cls
    for cls in (StartDeal, PlaceBet, WithdrawBet, BarBet, ReleaseBet, CardSeen, CardUnread, ConfirmCard,
                NoCard, UndoCard, EndDeal, Misdeal)
}
_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # type: (required fields, optional fields)
    "start_deal": (("profile", "players"), ("house_rules",)),
    "place": (("player", "spec"), ()),
    "withdraw": (("player", "bet_id"), ()),
    "bar": (("player", "bet_id"), ()),
    "release": (("player", "bet_id"), ()),
    "card": (("card", "index"), ("confidence", "frame")),
    "unread": (("index",), ("candidates", "snapshot")),
    "confirm": (("index", "card"), ()),
    "no_card": (("index",), ()),
    "undo": ((), ()),
    "end_deal": ((), ()),
    "misdeal": ((), ()),
}


def command_from_json(doc: object) -> Command:
    """The command a JSON object describes; ScriptError quoting the object when it does not fit."""
    if not isinstance(doc, Mapping):
        raise ScriptError(f"a command must be a JSON object, not {doc!r:.80}")
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise ScriptError(f"unknown command type {kind!r:.40}: expected one of {', '.join(COMMAND_TYPES)}")
    required, optional = _FIELDS[kind]
    missing = [name for name in required if name not in doc]
    if missing:
        raise ScriptError(f"the {kind!r} command lacks {', '.join(missing)}: {dict(doc)!r:.120}")
    unknown = sorted(set(doc) - set(required) - set(optional) - {"type"})
    if unknown:
        raise ScriptError(f"the {kind!r} command has unknown field(s) {', '.join(map(repr, unknown))}")
    fields = {name: doc[name] for name in required + optional if name in doc}
    if kind == "start_deal" and isinstance(fields.get("players"), list):
        fields["players"] = tuple(fields["players"])
    if kind == "unread" and isinstance(fields.get("candidates"), list):
        fields["candidates"] = tuple(fields["candidates"])
    command: Command = COMMAND_TYPES[kind](**fields)
    return command


def command_to_text(command: Command) -> str:
    """The canonical one-line JSON of a command (what the journal stores)."""
    return json.dumps(command.to_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def command_from_text(text: str) -> Command:
    try:
        doc = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ScriptError(f"a command must be JSON ({exc}): {text!r:.80}") from None
    return command_from_json(doc)


# The Baccarat Banque table's commands share this parser and the journal: importing the module
# registers them (at the end, so it finds everything above defined).
import faro_box.table.baccarat.commands  # noqa: E402,F401
