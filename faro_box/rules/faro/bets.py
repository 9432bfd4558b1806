"""A bet on the layout as a frozen value, and the reading of a script's ``place`` object.

``parse_bet`` checks only what the bet says by itself (its fields, its shape on the layout,
its stake); what the deal allows at that moment (cards left, the turn, the house options) is
checked by ``Deal.place``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from faro_box.cards import Colour, Rank
from faro_box.errors import CardError, RuleError
from faro_box.rules.faro.layout import GROUPS, PAIRS
from faro_box.rules.faro.profiles import BetKind, Profile

# Tuples, not sets: `in` on a tuple compares by identity first, while hashing an Enum member
# runs Python code, and these tests sit on the settlement hot path.
# Bets that stand until the first turn that shows one of their ranks.
RANKED = (BetKind.RANK, BetKind.GROUP, BetKind.WIN_LOSE)
# Bets that play every turn until the player takes them down.
EVERY_TURN = (BetKind.HIGH, BetKind.ODD, BetKind.EVEN)
COPPERABLE = (BetKind.RANK, BetKind.GROUP, BetKind.HIGH)

SPEC_FIELDS = ("id", "kind", "ranks", "stake", "copper", "order", "marker", "barred")
_SPEC_FIELD_SET = frozenset(SPEC_FIELDS)
_KIND_BY_VALUE = {k.value: k for k in BetKind}
_RANK_BY_SYMBOL = {r.symbol: r for r in Rank}
# Groups as bit masks of rank values: hashing an IntEnum member runs Python code, ints do not.
_GROUP_MASKS = frozenset(sum(1 << r for r in g) for g in GROUPS)
_PAIR_MASKS = frozenset(sum(1 << r for r in g) for g in PAIRS)
_COLOUR_BY_VALUE = {c.value: c for c in Colour}


class Bet(NamedTuple):
    """A bet on the layout (frozen; a NamedTuple because it is cheap to make, and deals make many)."""

    id: str
    player: str
    kind: BetKind
    ranks: tuple[Rank, ...]  # rank: one; group: 2–4; win_lose: (to lose, to win); others: ()
    stake: int
    copper: bool = False
    order: tuple[Rank, ...] | tuple[Colour, ...] = ()  # call: loser, winner, hock
    barred: bool = False  # frozen by the player until he says "it goes"
    marker: bool = False  # staked with betting markers (credit), not chips

    def to_json(self) -> dict[str, object]:
        """The script's ``place`` object for this bet (``Deal.place`` reads it back)."""
        spec: dict[str, object] = {"id": self.id, "kind": self.kind.value}
        if self.ranks:
            spec["ranks"] = [r.symbol for r in self.ranks]
        if self.order:
            spec["order"] = [o.symbol if isinstance(o, Rank) else o.value for o in self.order]
        spec["stake"] = self.stake
        for flag in ("copper", "marker", "barred"):
            if getattr(self, flag):
                spec[flag] = True
        return spec

    def describe(self) -> str:
        what = "-".join(r.symbol for r in self.ranks) or "-".join(
            o.symbol if isinstance(o, Rank) else o.value for o in self.order)
        copper = " coppered" if self.copper else ""
        return f"{self.kind.value}{copper} {what}".rstrip()

# Makes a NamedTuple from all its fields without running its Python-level __new__ (a deal
# places many bets, and that call is a good part of their cost).
_new_tuple = tuple.__new__

# Enum members bound once: looking one up on its class (Python 3.11) costs more than the
# arithmetic of a settlement, and these names sit on the hot path.
K_CALL = BetKind.CALL
K_GROUP = BetKind.GROUP
K_RANK = BetKind.RANK


def _parse_ranks(value: object, bet_id: str) -> tuple[Rank, ...]:
    if not isinstance(value, (list, tuple)):
        raise RuleError(f"bet {bet_id!r}: ranks must be a list like [\"9\"], not {value!r:.60}")
    try:
        return tuple([_RANK_BY_SYMBOL[r] for r in value])
    except (KeyError, TypeError):
        pass
    try:
        return tuple(Rank.parse(r) for r in value)
    except CardError as exc:
        raise RuleError(f"bet {bet_id!r}: {exc}") from None


def _parse_order(value: object, bet_id: str) -> tuple[Rank, ...] | tuple[Colour, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RuleError(
            f"bet {bet_id!r}: a call's order names three cards (loser, winner, hock), like "
            f"[\"7\", \"J\", \"3\"] or [\"red\", \"black\", \"red\"], not {value!r:.60}")
    if all(isinstance(v, str) and v.lower() in _COLOUR_BY_VALUE for v in value):
        return tuple(_COLOUR_BY_VALUE[v.lower()] for v in value)
    return _parse_ranks(value, bet_id)


def parse_bet(player: str, spec: object, profile: Profile) -> Bet:
    """Read a ``place`` object; RuleError quoting the input when the bet cannot stand anywhere."""
    if spec.__class__ is not dict and not isinstance(spec, Mapping):
        raise RuleError(f"a bet must be an object like {{\"id\": \"a1\", \"kind\": \"rank\", ...}}, not {spec!r:.80}")
    if not spec.keys() <= _SPEC_FIELD_SET:
        unknown = [k for k in spec if k not in _SPEC_FIELD_SET]
        raise RuleError(f"unknown bet field {unknown[0]!r}: a bet has {', '.join(SPEC_FIELDS)}")
    bet_id = spec.get("id")
    if not isinstance(bet_id, str) or not bet_id:
        raise RuleError(f"a bet needs an \"id\" (non-empty text), not {bet_id!r}")
    kind_value = spec.get("kind")
    kind = _KIND_BY_VALUE.get(kind_value) if isinstance(kind_value, str) else None
    if kind is None:
        raise RuleError(f"bet {bet_id!r}: unknown kind {spec.get('kind')!r}: use {', '.join(_KIND_BY_VALUE)}")
    if kind not in profile.kinds:
        allowed = ", ".join(k.value for k in BetKind if k in profile.kinds)
        raise RuleError(f"bet {bet_id!r}: the {profile.name!r} profile has no {kind.value!r} bets (only {allowed})")

    stake = spec.get("stake")
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise RuleError(f"bet {bet_id!r}: the stake must be a positive whole number of chips, not {stake!r}")
    if profile.even_stakes and stake % 2:
        raise RuleError(f"bet {bet_id!r}: the {profile.name!r} profile takes even stakes only, not {stake!r}")

    copper = spec.get("copper", False)
    marker = spec.get("marker", False)
    barred = spec.get("barred", False)
    if copper.__class__ is not bool or marker.__class__ is not bool or barred.__class__ is not bool:
        flag, value = next((f, spec[f]) for f in ("copper", "marker", "barred") if spec.get(f, False).__class__ is not bool)
        raise RuleError(f"bet {bet_id!r}: {flag!r} must be true or false, not {value!r}")
    if copper and kind not in COPPERABLE:
        raise RuleError(f"bet {bet_id!r}: a {kind.value!r} bet cannot be coppered")
    if marker and not profile.markers:
        raise RuleError(f"bet {bet_id!r}: this house takes no betting markers (house rule \"markers\" is off)")

    ranks: tuple[Rank, ...] = ()
    order: tuple[Rank, ...] | tuple[Colour, ...] = ()
    if kind is K_CALL:
        if "ranks" in spec:
            raise RuleError(f"bet {bet_id!r}: a call names its cards in \"order\", not \"ranks\"")
        order = _parse_order(spec.get("order"), bet_id)
    else:
        if "order" in spec:
            raise RuleError(f"bet {bet_id!r}: only a call has an \"order\"")
        if kind in RANKED:
            ranks = _parse_ranks(spec.get("ranks"), bet_id)
            _check_shape(kind, ranks, bet_id)
        elif "ranks" in spec:
            raise RuleError(f"bet {bet_id!r}: a {kind.value!r} bet stands on no rank, so it has no \"ranks\"")
    return _new_tuple(Bet, (bet_id, player, kind, ranks, stake, copper, order, barred, marker))


def _check_shape(kind: BetKind, ranks: tuple[Rank, ...], bet_id: str) -> None:
    if kind is K_RANK:
        if len(ranks) != 1:
            raise RuleError(f"bet {bet_id!r}: a rank bet stands on exactly one rank, not {_symbols(ranks)!r}")
        return
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    if mask.bit_count() != len(ranks):
        raise RuleError(f"bet {bet_id!r}: ranks {_symbols(ranks)!r} name one rank twice")
    if kind is K_GROUP:
        if mask not in _GROUP_MASKS:
            raise RuleError(f"bet {bet_id!r}: ranks {_symbols(ranks)!r} are not a group on the layout")
    elif mask not in _PAIR_MASKS:
        raise RuleError(
            f"bet {bet_id!r}: a win_lose bet stands on two neighbouring ranks (to lose, to win), "
            f"and {_symbols(ranks)!r} are not")


def _symbols(ranks: tuple[Rank, ...]) -> list[str]:
    return [r.symbol for r in ranks]
