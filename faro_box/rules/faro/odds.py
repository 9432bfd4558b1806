"""Live odds: exact chances and expected values from the cards still in the box.

Everything is a ``Fraction`` computed by counting, never by sampling. The deal's remaining cards
are exchangeable: whatever was shown, every order of the cards still in the box is equally
likely. So the ranks that matter to a bet ("marked" cards: one rank, or a group's ranks) occupy a
uniformly random set of the remaining positions, and a bet's fate is fixed by the first turn
that shows a marked card: marked loser only, marked winner only, both (a split when they are of
one rank), or no turn at all (the marked cards are the soda or the hock: the hock result).

Positions still to come, in order: ``neutral`` cards that decide nothing (the soda, when betting
before it), then the turns (loser, winner), then the hock.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from math import comb

from faro_box.cards import DECK_SIZE, FULL_DECK, Card, Colour, Rank
from faro_box.errors import RuleError
from faro_box.rules.faro.bets import Bet
from faro_box.rules.faro.deal import Deal
from faro_box.rules.faro.layout import GROUPS, PAIRS
from faro_box.rules.faro.profiles import BetKind, GroupBoth, HockRule, Profile, SplitShare, Triple
from faro_box.rules.faro.settle import CAT_HOP_PAYS, COLOUR_CALL_PAYS

CARDS_PER_RANK = 4
LAST_TURN = 25
LAST_BETTING_INDEX = 2 * LAST_TURN - 1  # before the last turn: loser at 49, winner 50, hock 51

ZERO = Fraction(0)
ONE = Fraction(1)


class CallKind(enum.Enum):
    TURN = "turn"  # three different ranks: six orders
    CAT_HOP = "cat_hop"  # two of one rank: three orders of ranks
    TRIPLE = "triple"  # three of one rank: three orders of colours (or no call)


def split_share(profile: Profile) -> Fraction:
    """The part of a rank bet's stake the bank takes on a split of that rank."""
    return Fraction(1, 2) if profile.split is SplitShare.HALF else ONE


# ---------------------------------------------------------------------------------------------
# The state: what is still in the box and where the deal stands


@dataclass(frozen=True, slots=True)
class BoxState:
    """The cards still in the box at a betting moment: counts per rank (A first) and position.

    ``next_index`` is the index (0..52) of the next card to leave the box: 0 before the soda,
    1, 3, ..., 49 before turns 1..25; 51 and 52 once the last turn is over (no turn left).
    ``cards``: the remaining cards themselves when known (a triple's colour call needs them).
    """

    counts: tuple[int, ...]
    next_index: int
    cards: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.counts) != len(Rank) or any(
            isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= CARDS_PER_RANK for c in self.counts
        ):
            raise RuleError(f"a case needs 13 counts of 0..4 cards (A to K), not {self.counts!r}")
        index = self.next_index
        if isinstance(index, bool) or not isinstance(index, int) or not (
            index in (0, DECK_SIZE - 1, DECK_SIZE) or (index % 2 == 1 and 1 <= index <= LAST_BETTING_INDEX)
        ):
            raise RuleError(
                f"odds are computed at a betting moment: next card index 0 (before the soda), "
                f"1, 3, ..., 49 (before a turn), or 51/52 (deal over), not {index!r}"
            )
        if sum(self.counts) != DECK_SIZE - index:
            raise RuleError(
                f"the case holds {sum(self.counts)} cards but {DECK_SIZE - index} remain "
                f"before card index {index}: counts {self.counts!r}"
            )
        if self.cards is not None and _count_ranks(self.cards) != self.counts:
            raise RuleError(f"the remaining cards {[str(c) for c in self.cards]!r} do not match the counts")

    @classmethod
    def of(cls, remaining: Mapping[Rank, int] | Iterable[Rank | Card], next_index: int) -> BoxState:
        """From the case (counts per rank), or from the remaining ranks or cards themselves."""
        if isinstance(remaining, Mapping):
            try:
                counts = tuple(remaining.get(rank, 0) for rank in Rank)
            except TypeError:
                raise RuleError(f"a case maps ranks to counts, not {remaining!r}") from None
            unknown = [key for key in remaining if not isinstance(key, Rank)]
            if unknown:
                raise RuleError(f"a case maps ranks to counts; {unknown[0]!r} is not a Rank")
            return cls(counts, next_index)
        items = tuple(remaining)
        if all(isinstance(item, Card) for item in items):
            cards = tuple(item for item in items if isinstance(item, Card))
            if len(set(cards)) != len(cards):
                raise RuleError(f"the remaining cards {[str(c) for c in cards]!r} hold a card twice")
            return cls(_count_ranks(cards), next_index, cards)
        if all(isinstance(item, Rank) for item in items):
            return cls(tuple(items.count(rank) for rank in Rank), next_index)
        raise RuleError(f"remaining cards must be all Ranks or all Cards, not {items!r:.120}")

    @property
    def cards_left(self) -> int:
        return DECK_SIZE - self.next_index

    @property
    def neutral(self) -> int:
        """Cards before the next turn that decide nothing: the soda when betting before it."""
        return 1 if self.next_index == 0 else 0

    @property
    def turns_left(self) -> int:
        return max(0, (self.cards_left - self.neutral - 1) // 2)

    @property
    def next_turn(self) -> int | None:
        return LAST_TURN - self.turns_left + 1 if self.turns_left else None

    def count(self, rank: Rank) -> int:
        return self.counts[rank - 1]


def _count_ranks(cards: Iterable[Card]) -> tuple[int, ...]:
    ranks = [card.rank for card in cards]
    return tuple(ranks.count(rank) for rank in Rank)


def fresh_state() -> BoxState:
    """A full deck before the soda."""
    return BoxState((CARDS_PER_RANK,) * len(Rank), 0, FULL_DECK)


# ---------------------------------------------------------------------------------------------
# The one combinatorial fact everything rests on


@dataclass(frozen=True, slots=True)
class FirstShow:
    """Where the first turn showing a marked card falls, for ``marked`` cards among the rest.

    ``loser_only`` + ``winner_only`` + ``both`` + ``never`` == 1; ``never``: no turn shows one
    (every marked card is a neutral card or the hock), so the bet ends with the hock result.
    """

    loser_only: Fraction
    winner_only: Fraction
    both: Fraction
    never: Fraction


@lru_cache(maxsize=4096)
def first_show(marked: int, cards_left: int, neutral: int = 0) -> FirstShow:
    """Exact chances for ``marked`` of ``cards_left`` cards (``neutral`` leading, then turns, hock).

    The marked cards fill a uniformly random ``marked``-subset of the positions. The first
    marked turn is turn i (0-based) with a given pattern when no marked card stands in the 2i
    turn positions before it: the other marked cards then choose among the n - 2i - 2 positions
    left (later turns, the neutral cards and the hock).
    """
    n, g = cards_left, marked
    if not (0 < g <= n) or neutral < 0 or (n - neutral - 1) % 2:
        raise RuleError(f"no deal position has {g!r} marked of {n!r} cards with {neutral!r} neutral")
    turns = (n - neutral - 1) // 2
    total = comb(n, g)
    single = sum(comb(n - 2 * i - 2, g - 1) for i in range(turns))
    both = sum(comb(n - 2 * i - 2, g - 2) for i in range(turns)) if g >= 2 else 0
    never = comb(neutral + 1, g)
    return FirstShow(Fraction(single, total), Fraction(single, total), Fraction(both, total), Fraction(never, total))


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class RankTurn:
    """One rank in the next turn: its chance to lose, win, or split (both cards of the turn)."""

    rank: Rank
    cards: int
    loses: Fraction
    wins: Fraction
    splits: Fraction

    def to_json(self) -> dict[str, object]:
        return {"rank": self.rank.symbol, "cards": self.cards, "loses": float(self.loses),
                "wins": float(self.wins), "splits": float(self.splits),
                "odds_against_split": odds_against(self.splits)}


@dataclass(frozen=True, slots=True)
class Chances:
    """How a bet ends, per unit of stake: the five results, what a win pays, what a split costs."""

    win: Fraction
    lose: Fraction
    split: Fraction
    push: Fraction
    void: Fraction
    pays: Fraction = ONE  # to 1, on a win
    split_share: Fraction = Fraction(1, 2)  # of the stake, lost on a split
    ev: Fraction = field(init=False)  # the expected change per unit of stake

    def __post_init__(self) -> None:
        if self.win + self.lose + self.split + self.push + self.void != 1:
            raise RuleError(f"chances must add up to 1: {self!r}")
        object.__setattr__(self, "ev", self.win * self.pays - self.lose - self.split * self.split_share)


@dataclass(frozen=True, slots=True)
class BetOdds:
    """One bet's chances and its expected change per unit of stake (``ev``; the edge is -ev).

    Rank, group and win_lose bets: over the rest of the deal, until the bet settles (``push``
    and ``void`` include the hock result). High, odd and even (``per_turn``): the next turn; such
    a bet left standing to the end expects ``ev`` on every remaining turn, since every remaining
    turn is alike in distribution. A call: one order of the last three cards.
    """

    kind: BetKind
    ranks: tuple[Rank, ...]
    copper: bool
    chances: Chances
    order: tuple[Rank | Colour, ...] = ()

    @property
    def win(self) -> Fraction:
        return self.chances.win

    @property
    def lose(self) -> Fraction:
        return self.chances.lose

    @property
    def split(self) -> Fraction:
        return self.chances.split

    @property
    def push(self) -> Fraction:
        return self.chances.push

    @property
    def void(self) -> Fraction:
        return self.chances.void

    @property
    def pays(self) -> Fraction:
        return self.chances.pays

    @property
    def ev(self) -> Fraction:
        return self.chances.ev

    @property
    def per_turn(self) -> bool:
        return self.kind in _EVERY_TURN

    @property
    def edge(self) -> Fraction:
        """The house's edge: what the bank expects to keep per unit staked."""
        return -self.ev

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {"kind": self.kind.value}
        if self.ranks:
            doc["ranks"] = [r.symbol for r in self.ranks]
        if self.order:
            doc["order"] = [o.symbol if isinstance(o, Rank) else o.value for o in self.order]
        if self.copper:
            doc["copper"] = True
        doc |= _chances_json(self.chances)
        if self.per_turn:
            doc["per_turn"] = True
        return doc


_EVERY_TURN = frozenset({BetKind.HIGH, BetKind.ODD, BetKind.EVEN})


@lru_cache(maxsize=8192)
def _chances_json(c: Chances) -> dict[str, object]:
    return {
        "win": float(c.win), "lose": float(c.lose), "split": float(c.split),
        "push": float(c.push), "void": float(c.void),
        "pays": odds_text(c.pays), "odds_against_win": odds_against(c.win),
        "ev": float(c.ev), "edge": float(-c.ev),
    }


@dataclass(frozen=True, slots=True)
class CallOdds:
    """Calling the turn before the last turn: every order of the last three cards."""

    kind: CallKind
    pays: Fraction | None  # None: the profile allows no call on these three cards
    orders: tuple[BetOdds, ...]  # empty when no call is allowed, or a triple's colours are unknown
    chance: Fraction  # of one order: 1/6 for three ranks, 1/3 for a cat-hop or a triple's colours

    @property
    def true_odds(self) -> Fraction:
        """The true odds against one order: 5 (to 1) for three different ranks."""
        return (1 - self.chance) / self.chance

    @property
    def ev(self) -> Fraction | None:
        return None if self.pays is None else self.chance * self.pays - (1 - self.chance)

    def to_json(self) -> dict[str, object]:
        ev = self.ev
        return {
            "kind": self.kind.value,
            "pays": odds_text(self.pays),
            "true_odds": odds_text(self.true_odds),
            "ev": None if ev is None else float(ev),
            "edge": None if ev is None else float(-ev),
            "orders": [o.to_json() for o in self.orders],
        }


@dataclass(frozen=True, slots=True)
class LastThree:
    """What the last three cards (turn 25's loser and winner, the hock) will be."""

    turn: Fraction  # three different ranks
    cat_hop: Fraction
    triple: Fraction

    def to_json(self) -> dict[str, object]:
        return {"turn": float(self.turn), "cat_hop": float(self.cat_hop), "triple": float(self.triple)}


@dataclass(frozen=True, slots=True)
class KindEdge:
    """The house's edge for one bet kind (plain or coppered): lowest and highest over its bets.

    For a call before the last turn: the edge averaged over what the last three cards may be.
    """

    kind: BetKind
    copper: bool
    low: Fraction
    high: Fraction

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind.value, "copper": self.copper, "low": float(self.low), "high": float(self.high)}


@dataclass(frozen=True, slots=True)
class OpenBetOdds:
    """A bet standing on the layout, with the odds of its kind and its expected change in chips."""

    bet: Bet
    odds: BetOdds

    @property
    def expected(self) -> Fraction:
        return self.odds.ev * self.bet.stake

    def to_json(self) -> dict[str, object]:
        return {"bet": self.bet.id, "player": self.bet.player, "barred": self.bet.barred,
                "expected": float(self.expected), "odds": self.odds.to_json()}


@dataclass(frozen=True, slots=True)
class LiveOdds:
    """The full refresh for one betting moment."""

    state: BoxState
    profile: Profile
    next_turn: tuple[RankTurn, ...]  # all 13 ranks (zeros for a finished one); empty at the end
    rank_bets: tuple[BetOdds, ...]  # plain then coppered, every rank with cards left
    group_bets: tuple[BetOdds, ...]  # plain then coppered, every layout group the deal accepts now
    win_lose_bets: tuple[BetOdds, ...]  # both directions of every two-rank group
    turn_bets: tuple[BetOdds, ...]  # high, high coppered, odd, even: the next turn
    call: CallOdds | None  # before the last turn only
    last_three: LastThree | None
    edges: tuple[KindEdge, ...]
    open_bets: tuple[OpenBetOdds, ...] = ()

    @property
    def bets(self) -> tuple[BetOdds, ...]:
        calls = self.call.orders if self.call else ()
        return self.rank_bets + self.group_bets + self.win_lose_bets + self.turn_bets + calls

    def edge(self, kind: BetKind, copper: bool = False) -> KindEdge | None:
        return next((e for e in self.edges if e.kind is kind and e.copper == copper), None)

    def find(self, kind: BetKind, ranks: Sequence[Rank] = (), copper: bool = False,
             order: Sequence[Rank | Colour] = ()) -> BetOdds | None:
        """The odds of one bet on the layout (a group's ranks in any order), or None."""
        wanted = tuple(ranks)
        for odds in self.bets:
            if odds.kind is not kind or odds.copper != copper:
                continue
            if kind is BetKind.CALL:
                if tuple(order) == odds.order:
                    return odds
            elif kind is BetKind.GROUP:
                if frozenset(wanted) == frozenset(odds.ranks):
                    return odds
            elif wanted == odds.ranks:
                return odds
        return None

    def to_json(self) -> dict[str, object]:
        """For the display: floats, and odds as "a to b" text."""
        state = self.state
        return {
            "profile": self.profile.name,
            "next_index": state.next_index,
            "turn": state.next_turn,
            "turns_left": state.turns_left,
            "cards_left": state.cards_left,
            "next_turn": [t.to_json() for t in self.next_turn],
            "bets": [b.to_json() for b in self.bets if b.kind is not BetKind.CALL],
            "call": self.call.to_json() if self.call else None,
            "last_three": self.last_three.to_json() if self.last_three else None,
            "edges": [e.to_json() for e in self.edges],
            "open_bets": [o.to_json() for o in self.open_bets],
        }


# ---------------------------------------------------------------------------------------------
# Display helpers


def odds_text(ratio: Fraction | None) -> str | None:
    """``Fraction(5)`` -> "5 to 1"; ``Fraction(7, 2)`` -> "7 to 2"; awkward ratios as "x.xx to 1"."""
    if ratio is None:
        return None
    if ratio.denominator <= 12 and ratio.numerator <= 1000:
        return f"{ratio.numerator} to {ratio.denominator}"
    return f"{float(ratio):.2f} to 1"


@lru_cache(maxsize=4096)
def odds_against(p: Fraction) -> str | None:
    """The odds against an event of chance ``p``: 1/6 -> "5 to 1"; an impossible one -> None."""
    if p <= 0:
        return None
    return odds_text((1 - p) / p)


# ---------------------------------------------------------------------------------------------
# The computations


def next_turn_odds(state: BoxState) -> tuple[RankTurn, ...]:
    """Each rank in the next turn: any two positions hold a uniformly random ordered pair."""
    if not state.turns_left:
        return ()
    n = state.cards_left
    pairs = n * (n - 1)
    result = []
    for rank in Rank:
        c = state.count(rank)
        single = Fraction(c * (n - c), pairs)
        result.append(RankTurn(rank, c, single, single, Fraction(c * (c - 1), pairs)))
    return tuple(result)


def bet_odds(state: BoxState, profile: Profile, kind: BetKind, ranks: Sequence[Rank],
             copper: bool = False) -> BetOdds:
    """A rank, group or win_lose bet (win_lose: to lose, to win) placed now, until it settles."""
    ranks = tuple(ranks)
    if kind not in (BetKind.RANK, BetKind.GROUP, BetKind.WIN_LOSE):
        raise RuleError(f"{kind!r} is not a bet on ranks (rank, group, win_lose)")
    if kind is BetKind.WIN_LOSE and (len(ranks) != 2 or copper):
        raise RuleError(f"a win_lose bet names two ranks and is never coppered, not {ranks!r}")
    counts = tuple(state.count(r) for r in ranks)
    if not sum(counts) or not state.turns_left:
        raise RuleError(f"no turn is left to show {'+'.join(r.symbol for r in ranks)!r}")
    if kind is not BetKind.WIN_LOSE:
        counts = tuple(sorted(counts))  # the order of a rank or group bet's ranks does not matter
    chances = _ranked_chances(kind, counts, state.cards_left, state.neutral, copper,
                              profile.split, profile.group_both, profile.hock)
    return BetOdds(kind, ranks, copper, chances)


@lru_cache(maxsize=8192)
def _ranked_chances(kind: BetKind, counts: tuple[int, ...], cards_left: int, neutral: int, copper: bool,
                    split_rule: SplitShare, group_both: GroupBoth | None, hock: HockRule) -> Chances:
    g = sum(counts)
    show = first_show(g, cards_left, neutral)
    pairs = g * (g - 1)
    share = ONE if split_rule is SplitShare.ALL else Fraction(1, 2)
    hock_push = show.never if hock is HockRule.PUSH else ZERO
    hock_void = show.never - hock_push
    if kind is BetKind.WIN_LOSE:
        to_lose, to_win = counts
        # Both cards marked: a uniform ordered pair of marked cards; (to_lose, to_win) wins,
        # the reverse loses, two of one rank push (good and bad at once).
        crossed = show.both * Fraction(to_lose * to_win, pairs) if pairs else ZERO
        win = show.loser_only * Fraction(to_lose, g) + show.winner_only * Fraction(to_win, g) + crossed
        lose = show.loser_only * Fraction(to_win, g) + show.winner_only * Fraction(to_lose, g) + crossed
        push = show.both - 2 * crossed + hock_push
        return Chances(win, lose, ZERO, push, hock_void, ONE, share)
    win, lose = (show.loser_only, show.winner_only) if copper else (show.winner_only, show.loser_only)
    split = push = ZERO
    if kind is BetKind.RANK:
        split = show.both
    elif group_both is GroupBoth.LOSER:
        # Seed 003: the stake counts whole on each card, so the loser decides; one rank: a split.
        split = show.both * Fraction(sum(c * (c - 1) for c in counts), pairs)
        if copper:
            win += show.both - split
        else:
            lose += show.both - split
    else:
        push = show.both
    return Chances(win, lose, split, push + hock_push, hock_void, ONE, share)


def turn_bet_odds(state: BoxState, profile: Profile) -> tuple[BetOdds, ...]:
    """High (plain and coppered), odd and even for the next turn; a pair of one kind pushes."""
    if not state.turns_left:
        return ()
    n = state.cards_left
    pairs = n * (n - 1)
    c = state.counts
    # The loser lower than the winner, or the reverse: equally likely.
    ascending = Fraction(sum(c[a] * c[b] for a in range(len(c)) for b in range(a + 1, len(c))), pairs)
    odd = sum(x for rank, x in zip(Rank, c, strict=True) if rank.is_odd)
    crossed = Fraction(odd * (n - odd), pairs)
    share = split_share(profile)
    chances = {BetKind.HIGH: ascending, BetKind.ODD: crossed, BetKind.EVEN: crossed}
    return tuple(
        BetOdds(kind, (), copper, Chances(p, p, ZERO, 1 - 2 * p, ZERO, ONE, share))
        for kind, coppers in ((BetKind.HIGH, (False, True)), (BetKind.ODD, (False,)), (BetKind.EVEN, (False,)))
        if profile.allows(kind)
        for copper in coppers
        for p in (chances[kind],)
    )


def _call_pays(kind: CallKind, profile: Profile) -> int | None:
    if kind is CallKind.TURN:
        return profile.turn_pays
    if kind is CallKind.CAT_HOP:
        return CAT_HOP_PAYS
    return COLOUR_CALL_PAYS if profile.triple is Triple.COLORS else None


def call_odds(state: BoxState, profile: Profile) -> CallOdds | None:
    """Before the last turn: each order of the last three cards (loser, winner, hock)."""
    if state.cards_left != 3 or not profile.allows(BetKind.CALL):
        return None
    ranks = [rank for rank in Rank for _ in range(state.count(rank))]
    kind = {3: CallKind.TURN, 2: CallKind.CAT_HOP, 1: CallKind.TRIPLE}[len(set(ranks))]
    chance = Fraction(1, 6) if kind is CallKind.TURN else Fraction(1, 3)
    pays = _call_pays(kind, profile)
    if pays is None or (kind is CallKind.TRIPLE and state.cards is None):
        return CallOdds(kind, None if pays is None else Fraction(pays), (), chance)
    names: list[Rank | Colour] = (
        [card.colour for card in state.cards] if kind is CallKind.TRIPLE and state.cards else list(ranks))
    # Each of the 3! orders of the three cards is equally likely; count the ones each call names.
    seen: dict[tuple[Rank | Colour, ...], int] = {}
    for perm in itertools.permutations(names):
        seen[perm] = seen.get(perm, 0) + 1
    share = split_share(profile)
    orders = tuple(
        BetOdds(BetKind.CALL, (), False,
                Chances(Fraction(k, 6), 1 - Fraction(k, 6), ZERO, ZERO, ZERO, Fraction(pays), share), order)
        for order, k in sorted(seen.items(), key=lambda item: [_order_key(o) for o in item[0]])
    )
    assert all(o.win == chance for o in orders)
    return CallOdds(kind, Fraction(pays), orders, chance)


def _order_key(name: Rank | Colour) -> int:
    return name.value if isinstance(name, Rank) else (0 if name is Colour.RED else 1)


def last_three_odds(state: BoxState) -> LastThree | None:
    """The last three cards are a uniformly random three of the cards still in the box."""
    n = state.cards_left
    if n < 3 or not state.turns_left:
        return None
    total = comb(n, 3)
    triple = Fraction(sum(comb(c, 3) for c in state.counts), total)
    cat_hop = Fraction(sum(comb(c, 2) * (n - c) for c in state.counts), total)
    return LastThree(1 - triple - cat_hop, cat_hop, triple)


def call_edge(last: LastThree, profile: Profile) -> Fraction | None:
    """The edge of calling the turn, averaged over the last three cards the deal may leave."""
    if not profile.allows(BetKind.CALL):
        return None
    weighted = []
    for kind, weight in ((CallKind.TURN, last.turn), (CallKind.CAT_HOP, last.cat_hop), (CallKind.TRIPLE, last.triple)):
        pays = _call_pays(kind, profile)
        if pays is not None and weight:
            chance = Fraction(1, 6) if kind is CallKind.TURN else Fraction(1, 3)
            weighted.append((weight, (1 - chance) - chance * pays))
    allowed = sum(w for w, _ in weighted)
    if not allowed:
        return None
    return sum((w * edge for w, edge in weighted), ZERO) / allowed


def odds_for_state(state: BoxState, profile: Profile) -> LiveOdds:
    """The full refresh: every rank's next turn, every bet the deal accepts now, every edge."""
    rank_bets: list[BetOdds] = []
    group_bets: list[BetOdds] = []
    win_lose_bets: list[BetOdds] = []
    if state.turns_left:
        live = [rank for rank in Rank if state.count(rank)]
        if profile.allows(BetKind.RANK):
            rank_bets = [bet_odds(state, profile, BetKind.RANK, (r,), copper) for copper in (False, True) for r in live]
        # The deal accepts a group or win_lose bet only while each of its ranks has a card left.
        standing = [g for g in _LAYOUT_GROUPS if all(state.count(r) for r in g)]
        if profile.allows(BetKind.GROUP):
            group_bets = [bet_odds(state, profile, BetKind.GROUP, g, copper)
                          for copper in (False, True) for g in standing]
        if profile.allows(BetKind.WIN_LOSE):
            win_lose_bets = [bet_odds(state, profile, BetKind.WIN_LOSE, pair)
                             for g in standing if frozenset(g) in PAIRS for pair in (g, g[::-1])]
    call = call_odds(state, profile)
    last = last_three_odds(state)
    odds = LiveOdds(state, profile, next_turn_odds(state), tuple(rank_bets), tuple(group_bets),
                    tuple(win_lose_bets), turn_bet_odds(state, profile), call, last, ())
    spans: dict[tuple[BetKind, bool], tuple[Fraction, Fraction]] = {}
    for bet in odds.bets:
        ev = bet.chances.ev
        worst, best = spans.get((bet.kind, bet.copper), (ev, ev))
        spans[(bet.kind, bet.copper)] = (min(worst, ev), max(best, ev))
    if call is None and last is not None:
        forward = call_edge(last, profile)
        if forward is not None:
            spans[(BetKind.CALL, False)] = (-forward, -forward)
    edges = tuple(KindEdge(kind, copper, -best, -worst) for (kind, copper), (worst, best) in spans.items())
    return replace(odds, edges=edges)


_DECK_ORDER = {card: i for i, card in enumerate(FULL_DECK)}
_LAYOUT_GROUPS: tuple[tuple[Rank, ...], ...] = tuple(
    sorted((tuple(sorted(g)) for g in GROUPS), key=lambda g: (len(g), g)))


def live_odds(remaining: Mapping[Rank, int] | Iterable[Rank | Card], next_index: int,
              profile: Profile) -> LiveOdds:
    """The full refresh from the case (counts per rank) or the remaining ranks or cards."""
    return odds_for_state(BoxState.of(remaining, next_index), profile)


def deal_edges(profile: Profile) -> tuple[KindEdge, ...]:
    """The house's edge of each bet kind over a whole deal: bets placed before the soda."""
    return odds_for_state(fresh_state(), profile).edges


def odds_for_deal(deal: Deal) -> LiveOdds:
    """The refresh for a deal between turns, with the odds of each bet standing on the layout."""
    if not (deal.between_turns or deal.next_index >= DECK_SIZE - 1):
        raise RuleError(
            f"odds are computed between turns; the deal is inside turn {deal.next_turn!r} "
            f"(next card index {deal.next_index!r}): ask again after the winner")
    remaining: list[Card] = sorted(deal.remaining, key=_DECK_ORDER.__getitem__)
    state = BoxState.of(remaining, deal.next_index)
    odds = odds_for_state(state, deal.profile)
    standing = []
    for bet in deal.open_bets:
        found = odds.find(bet.kind, bet.ranks, bet.copper, bet.order)
        if found is not None:
            standing.append(OpenBetOdds(bet, found))
    return replace(odds, open_bets=tuple(standing))
