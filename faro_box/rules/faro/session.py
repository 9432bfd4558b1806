"""Several deals in a row: running balances, and who holds the bank.

- foster, french: the house banks every deal (seed 000: "the bank is always the casino").
- teaching (seed 002): the participants take turns; every one banks once, the bank passes to
  the left (the next name in seating order) between decks, the highest final balance wins and
  equal leaders share. The first banker is drawn at random by the players: pass it in.
- stuss (seed 004): before a deal the bank goes to the highest bidder, whose bid is his bank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType

from faro_box.errors import RuleError
from faro_box.rules.faro.deal import BANKER, Deal
from faro_box.rules.faro.profiles import Profile

HOUSE = "house"


class Session:
    def __init__(self, profile: Profile, participants: Sequence[str], first_banker: str | None = None) -> None:
        names = tuple(participants)
        if not names or not all(isinstance(n, str) and n for n in names) or BANKER in names or HOUSE in names or len(
                set(names)) != len(names):
            raise RuleError(
                f"participants must be distinct non-empty names other than 'banker' and 'house', not {names!r}")
        self.profile = profile
        self.participants = names
        self.rotating = profile.name == "teaching"
        self.auctioned = profile.name == "stuss"
        if self.rotating:
            if len(names) < 2:
                raise RuleError(f"the teaching game needs at least two participants, not {names!r}")
            if first_banker not in names:
                raise RuleError(f"the first banker must be one of {', '.join(names)}, not {first_banker!r}")
        elif first_banker is not None and not self.auctioned:
            raise RuleError(f"in the {profile.name!r} profile the house banks: no first banker ({first_banker!r})")
        self._banker: str | None = first_banker if self.rotating else (None if self.auctioned else HOUSE)
        self._bank: int | None = None
        self._halves: dict[str, int] = dict.fromkeys(names, 0)
        if not (self.rotating or self.auctioned):
            self._halves[HOUSE] = 0
        self._bankers: list[str] = []  # who banked each finished deal
        self._deal: Deal | None = None

    @property
    def banker(self) -> str | None:
        """Who banks the next (or current) deal; None in Stuss until the auction."""
        return self._banker

    @property
    def bank(self) -> int | None:
        """Stuss: the winning bid, the banker's stake for the deal."""
        return self._bank

    @property
    def deals_played(self) -> int:
        return len(self._bankers)

    @property
    def balances(self) -> Mapping[str, Fraction]:
        return MappingProxyType({who: Fraction(h, 2) for who, h in self._halves.items()})

    @property
    def finished(self) -> bool:
        """Teaching: once every participant has banked once. Other profiles play on."""
        return self.rotating and len(self._bankers) == len(self.participants)

    def auction(self, bids: Mapping[str, int]) -> str:
        """Stuss: the highest bidder takes the bank; his bid becomes the bank."""
        if not self.auctioned:
            raise RuleError(f"the bank is auctioned only in Stuss, not in the {self.profile.name!r} profile")
        self._check_no_deal("hold an auction")
        if not bids:
            raise RuleError("an auction needs at least one bid")
        for who, bid in bids.items():
            if who not in self.participants:
                raise RuleError(f"unknown bidder {who!r}: the participants are {', '.join(self.participants)}")
            if isinstance(bid, bool) or not isinstance(bid, int) or bid < 1:
                raise RuleError(f"{who!r} bids {bid!r}: a bid is a positive whole number of chips")
        top = max(bids.values())
        leaders = [who for who, bid in bids.items() if bid == top]
        if len(leaders) > 1:
            raise RuleError(f"{' and '.join(map(repr, leaders))} bid the same {top}: the auction goes on")
        self._banker, self._bank = leaders[0], top
        return leaders[0]

    def new_deal(self) -> Deal:
        """The next deal: every participant but the banker punts."""
        self._check_no_deal("start a deal")
        if self.finished:
            raise RuleError("every participant has banked once: the teaching session is over")
        if self._banker is None:
            raise RuleError("nobody holds the bank yet: hold the auction first")
        players = [p for p in self.participants if p != self._banker]
        self._deal = Deal(self.profile, players)
        return self._deal

    def close_deal(self, deal: Deal) -> Mapping[str, Fraction]:
        """Book a finished (or misdealt) deal; the bank passes on. Returns the deal's changes."""
        if deal is not self._deal:
            raise RuleError("that deal is not the one this session is playing")
        if not (deal.finished or deal.misdealt):
            raise RuleError(f"the deal is not over: {deal.next_index} of 52 cards are out")
        assert self._banker is not None
        changes = dict(deal.balance_halves)
        changes[self._banker] = changes.pop(BANKER)
        for who, h in changes.items():
            self._halves[who] += h
        self._bankers.append(self._banker)
        self._deal = None
        if self.rotating:
            # The bank passes to the left: the next name in seating order.
            seat = self.participants.index(self._banker)
            self._banker = self.participants[(seat + 1) % len(self.participants)]
        elif self.auctioned:
            self._banker, self._bank = None, None
        return MappingProxyType({who: Fraction(h, 2) for who, h in changes.items()})

    def leaders(self) -> tuple[str, ...]:
        """The highest balance wins; equal leaders share (the house never 'wins' a session)."""
        scores = {who: h for who, h in self._halves.items() if who != HOUSE}
        top = max(scores.values())
        return tuple(who for who, h in scores.items() if h == top)

    def _check_no_deal(self, what: str) -> None:
        if self._deal is not None:
            raise RuleError(f"cannot {what}: a deal is in progress (close it first)")
