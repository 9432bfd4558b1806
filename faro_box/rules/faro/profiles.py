"""House rules as frozen profiles: where the seeds disagree, a profile names the choice.

``find_profile("foster")`` gives the registry's profile; ``profile.with_rules({...})`` applies a
deal's ``house_rules``. Every field is listed in docs/faro.md's profiles table (the last three are
the foster house options of seed 000 and are off by default everywhere).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType

from faro_box.errors import ProfileError


class BetKind(enum.Enum):
    RANK = "rank"
    GROUP = "group"
    WIN_LOSE = "win_lose"
    HIGH = "high"
    ODD = "odd"
    EVEN = "even"
    CALL = "call"

    # Members are singletons, so identity is their equality: hash them in C. Enum's own
    # __hash__ runs Python code, and every bet placed asks its profile for its kind.
    __hash__ = object.__hash__


class SplitShare(enum.Enum):
    """How much of a rank bet the bank takes when the turn splits that rank."""

    HALF = "half"  # seeds 000, 002
    ALL = "all"  # seed 004, Stuss


class GroupBoth(enum.Enum):
    """A group bet when the loser and the winner both fall in the group."""

    PUSH = "push"  # seed 000: a split of a group returns the stake
    LOSER = "loser"  # seed 003: the whole bet stands on each card, so the loser decides


class HockRule(enum.Enum):
    """What becomes of a rank bet left standing on the hock's rank."""

    PUSH = "push"  # seed 000: the stake is returned
    VOID = "void"  # seed 002: the prediction ends without a result


class Triple(enum.Enum):
    """The call when the last three cards are of one rank."""

    COLORS = "colors"  # seeds 000, 002 after Foster: name the order of the colours
    NONE = "none"  # seed 003: no call


ALL_KINDS = frozenset(BetKind)


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    kinds: frozenset[BetKind]
    split: SplitShare
    group_both: GroupBoth | None  # None: the profile has no group bets
    hock: HockRule
    turn_pays: int
    triple: Triple
    even_stakes: bool
    markers: bool = False
    case_ban: bool = False

    def allows(self, kind: BetKind) -> bool:
        return kind in self.kinds

    def with_rules(self, overrides: Mapping[str, object]) -> Profile:
        """This profile with a deal's ``house_rules`` applied; ProfileError names a bad one."""
        if not isinstance(overrides, Mapping):
            raise ProfileError(f"house_rules must be an object of rule: value, not {overrides!r:.80}")
        changes: dict[str, object] = {}
        for key, value in overrides.items():
            parse = _FIELD_PARSERS.get(key)
            if parse is None:
                raise ProfileError(
                    f"unknown house rule {key!r}: the rules are {', '.join(sorted(_FIELD_PARSERS))}")
            changes[key] = parse(key, value)
        profile = replace(self, **changes)  # type: ignore[arg-type]
        if BetKind.GROUP in profile.kinds and profile.group_both is None:
            raise ProfileError(
                f"profile {profile.name!r} allows group bets but has no group_both rule: "
                "add \"group_both\": \"push\" or \"loser\"")
        return profile

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kinds": [k.value for k in BetKind if k in self.kinds],
            "split": self.split.value,
            "group_both": self.group_both.value if self.group_both else None,
            "hock": self.hock.value,
            "turn_pays": self.turn_pays,
            "triple": self.triple.value,
            "even_stakes": self.even_stakes,
            "markers": self.markers,
            "case_ban": self.case_ban,
        }


def _enum_parser(cls: type[enum.Enum], optional: bool = False) -> Callable[[str, object], object]:
    def parse(key: str, value: object) -> object:
        if value is None and optional:
            return None
        for member in cls:
            if member.value == value:
                return member
        choices = ", ".join(repr(m.value) for m in cls)
        raise ProfileError(f"house rule {key!r} cannot be {value!r}: use one of {choices}")
    return parse


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ProfileError(f"house rule {key!r} must be true or false, not {value!r}")
    return value


def _pays(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ProfileError(f"house rule {key!r} must be a whole number of chips to 1 (like 4 or 5), not {value!r}")
    return value


def _kinds(key: str, value: object) -> frozenset[BetKind]:
    if not isinstance(value, (list, tuple)) or not value:
        raise ProfileError(f"house rule {key!r} must be a list of bet kinds, not {value!r}")
    by_value = {k.value: k for k in BetKind}
    kinds = set()
    for item in value:
        if not isinstance(item, str) or item not in by_value:
            raise ProfileError(
                f"house rule {key!r}: {item!r} is not a bet kind: use {', '.join(by_value)}")
        kinds.add(by_value[item])
    return frozenset(kinds)


_FIELD_PARSERS = {
    "kinds": _kinds,
    "split": _enum_parser(SplitShare),
    "group_both": _enum_parser(GroupBoth, optional=True),
    "hock": _enum_parser(HockRule),
    "turn_pays": _pays,
    "triple": _enum_parser(Triple),
    "even_stakes": _bool,
    "markers": _bool,
    "case_ban": _bool,
}
assert set(_FIELD_PARSERS) == {f.name for f in fields(Profile)} - {"name"}

PROFILES: Mapping[str, Profile] = MappingProxyType({
    "foster": Profile("foster", ALL_KINDS, SplitShare.HALF, GroupBoth.PUSH, HockRule.PUSH, 4,
                      Triple.COLORS, even_stakes=False),
    "teaching": Profile("teaching", frozenset({BetKind.RANK, BetKind.CALL}), SplitShare.HALF, None,
                        HockRule.VOID, 4, Triple.COLORS, even_stakes=True),
    "french": Profile("french", frozenset({BetKind.RANK, BetKind.GROUP, BetKind.CALL}), SplitShare.HALF,
                      GroupBoth.LOSER, HockRule.PUSH, 4, Triple.NONE, even_stakes=False),
    "stuss": Profile("stuss", frozenset({BetKind.RANK, BetKind.CALL}), SplitShare.ALL, None,
                     HockRule.PUSH, 4, Triple.NONE, even_stakes=False),
})


def find_profile(name: str) -> Profile:
    profile = PROFILES.get(name) if isinstance(name, str) else None
    if profile is None:
        raise ProfileError(f"unknown profile {name!r}: the profiles are {', '.join(PROFILES)}")
    return profile


def house_profile(name: str, house_rules: Mapping[str, object] | None = None) -> Profile:
    """The rules a deal is dealt by: profile ``name`` with the deal's ``house_rules`` (None: none)
    applied; ProfileError names a bad profile or rule."""
    profile = find_profile(name)
    return profile if house_rules is None else profile.with_rules(house_rules)
