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
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb

from faro_box.cards import DECK_SIZE, FULL_DECK, Card, Colour, Rank
from faro_box.errors import RuleError

CARDS_PER_RANK = 4
LAST_TURN = 25
LAST_BETTING_INDEX = 2 * LAST_TURN - 1  # before the last turn: loser at 49, winner 50, hock 51

ZERO = Fraction(0)
ONE = Fraction(1)


class Outcome(enum.Enum):
    """How a bet on marked cards ends: the names are those of a plain (uncoppered) rank bet."""

    LOSE = "lose"
    WIN = "win"
    SPLIT = "split"
    PUSH = "push"
    VOID = "void"


class CallKind(enum.Enum):
    TURN = "turn"  # three different ranks: six orders
    CAT_HOP = "cat_hop"  # two of one rank: three orders of ranks
    TRIPLE = "triple"  # three of one rank: three orders of colours (or no call)


@dataclass(frozen=True, slots=True)
class House:
    """The profile fields odds depend on, as plain values (read from a rules ``Profile``)."""

    split: Fraction = Fraction(1, 2)  # share of a rank bet's stake the bank takes on a split
    group_both: str = "push"  # "push" or "loser"
    hock: str = "push"  # "push" or "void"
    turn_pays: int = 4
    cat_hop_pays: int = 2
    triple: str = "colors"  # "colors" or "none"
    kinds: frozenset[str] = frozenset({"rank", "group", "win_lose", "high", "odd", "even", "call"})

    def __post_init__(self) -> None:
        if not (ZERO < self.split <= ONE):
            raise RuleError(f"a split share must be in (0, 1], not {self.split!r}")
        if self.group_both not in ("push", "loser"):
            raise RuleError(f"group_both must be 'push' or 'loser', not {self.group_both!r}")
        if self.hock not in ("push", "void"):
            raise RuleError(f"hock must be 'push' or 'void', not {self.hock!r}")
        if self.triple not in ("colors", "none"):
            raise RuleError(f"triple must be 'colors' or 'none', not {self.triple!r}")
        if self.turn_pays < 1:
            raise RuleError(f"turn_pays must be a positive whole number, not {self.turn_pays!r}")


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


@dataclass(frozen=True, slots=True)
class BetOdds:
    """One bet's chances and its expected change per unit of stake (``ev``; the edge is -ev).

    For rank, group and win_lose bets: over the rest of the deal, until the bet settles.
    For high, odd and even (``per_turn``): for the next turn; such a bet standing to the end of
    the deal expects ``ev * turns_left`` since every remaining turn is alike in distribution.
    For a call: one order of the last three cards.
    """

    kind: str
    ranks: tuple[Rank, ...]
    copper: bool
    win: Fraction
    lose: Fraction
    split: Fraction
    push: Fraction
    void: Fraction
    pays: Fraction
    split_share: Fraction
    order: tuple[Rank | Colour, ...] = ()
    per_turn: bool = False
    ev: Fraction = field(init=False)

    def __post_init__(self) -> None:
        ev = self.win * self.pays - self.lose - self.split * self.split_share
        object.__setattr__(self, "ev", ev)

    @property
    def edge(self) -> Fraction:
        """The house's edge: what the bank expects to keep per unit staked."""
        return -self.ev

    @property
    def label(self) -> str:
        names = "+".join(r.symbol for r in self.ranks)
        if self.kind == "win_lose":
            names = f"{self.ranks[0].symbol} to lose, {self.ranks[1].symbol} to win"
        if self.kind == "call":
            names = " ".join(o.symbol if isinstance(o, Rank) else o.value for o in self.order)
        return f"{self.kind} {names}".strip() + (" coppered" if self.copper else "")

    def to_json(self) -> dict[str, object]:
        doc: dict[str, object] = {"kind": self.kind, "ranks": [r.symbol for r in self.ranks]}
        if self.copper:
            doc["copper"] = True
        if self.order:
            doc["order"] = [o.symbol if isinstance(o, Rank) else o.value for o in self.order]
        doc |= {
            "win": float(self.win), "lose": float(self.lose), "split": float(self.split),
            "push": float(self.push), "void": float(self.void),
            "pays": odds_text(self.pays), "odds_against_win": odds_against(self.win),
            "ev": float(self.ev), "edge": float(self.edge),
        }
        if self.per_turn:
            doc["per_turn"] = True
        return doc


@dataclass(frozen=True, slots=True)
class CallOdds:
    """Calling the turn before the last turn: every order of the last three cards."""

    kind: CallKind
    orders: tuple[BetOdds, ...]  # each order equally likely; empty when the profile has no call
    pays: Fraction | None  # None: the profile allows no call for these cards

    @property
    def true_odds(self) -> Fraction:
        """The true odds against one order: 5 (to 1) for three different ranks."""
        return (1 - self.orders[0].win) / self.orders[0].win if self.orders else ZERO

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "pays": odds_text(self.pays) if self.pays is not None else None,
            "true_odds": odds_text(self.true_odds) if self.orders else None,
            "orders": [o.to_json() for o in self.orders],
        }


@dataclass(frozen=True, slots=True)
class LastThree:
    """What the last three cards (loser, winner, hock of turn 25) will be: the call's kind."""

    turn: Fraction  # three different ranks
    cat_hop: Fraction
    triple: Fraction


@dataclass(frozen=True, slots=True)
class KindEdge:
    """The house's edge for one bet kind (plain or coppered): lowest and highest over its bets."""

    kind: str
    copper: bool
    low: Fraction
    high: Fraction

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "copper": self.copper, "low": float(self.low), "high": float(self.high)}


@dataclass(frozen=True, slots=True)
class LiveOdds:
    state: BoxState
    house: House
    next_turn: tuple[RankTurn, ...]  # all 13 ranks (zeros for a finished rank); empty at the end
    rank_bets: tuple[BetOdds, ...]  # plain then coppered, for every rank with cards left
    group_bets: tuple[BetOdds, ...]
    win_lose_bets: tuple[BetOdds, ...]
    turn_bets: tuple[BetOdds, ...]  # high, high coppered, odd, even: the next turn
    call: CallOdds | None  # before the last turn only
    last_three: LastThree | None
    call_edge: Fraction | None  # a call made before turn 25, over all the last three may be
    edges: tuple[KindEdge, ...]

    @property
    def bets(self) -> tuple[BetOdds, ...]:
        calls = self.call.orders if self.call else ()
        return self.rank_bets + self.group_bets + self.win_lose_bets + self.turn_bets + calls

    def find(self, kind: str, ranks: Sequence[Rank] = (), copper: bool = False,
             order: Sequence[Rank | Colour] = ()) -> BetOdds | None:
        for bet in self.bets:
            if bet.kind != kind or bet.copper != copper:
                continue
            if kind == "call":
                if tuple(order) == bet.order:
                    return bet
            elif kind in ("group",) and frozenset(ranks) == frozenset(bet.ranks):
                return bet
            elif tuple(ranks) == bet.ranks:
                return bet
        return None

    def to_json(self) -> dict[str, object]:
        state = self.state
        return {
            "next_index": state.next_index,
            "turn": state.next_turn,
            "turns_left": state.turns_left,
            "cards_left": state.cards_left,
            "next_turn": [
                {"rank": t.rank.symbol, "cards": t.cards, "loses": float(t.loses), "wins": float(t.wins),
                 "splits": float(t.splits), "odds_against_split": odds_against(t.splits)}
                for t in self.next_turn
            ],
            "bets": [b.to_json() for b in self.bets],
            "call": self.call.to_json() if self.call else None,
            "last_three": None if self.last_three is None else {
                "turn": float(self.last_three.turn), "cat_hop": float(self.last_three.cat_hop),
                "triple": float(self.last_three.triple)},
            "call_edge": None if self.call_edge is None else float(self.call_edge),
            "edges": [e.to_json() for e in self.edges],
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


def odds_against(p: Fraction) -> str | None:
    """The odds against an event of chance ``p``: 1/6 -> "5 to 1"; impossible -> None."""
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


def marked_bet_odds(state: BoxState, house: House, kind: str, ranks: Sequence[Rank],
                    copper: bool = False) -> BetOdds:
    """A rank, group or win_lose bet standing from now until it settles (or the hock)."""
    ranks = tuple(ranks)
    counts = [state.count(r) for r in ranks]
    g = sum(counts)
    if g == 0:
        raise RuleError(f"no card of {'+'.join(r.symbol for r in ranks)!r} is left in the box")
    show = first_show(g, state.cards_left, state.neutral)
    pairs = g * (g - 1)
    # Given that both cards of the turn are marked, they are a uniform ordered pair of marked cards.
    same = Fraction(sum(c * (c - 1) for c in counts), pairs) if pairs else ZERO
    hock_push = show.never if house.hock == "push" else ZERO
    hock_void = show.never - hock_push
    if kind == "win_lose":
        if len(ranks) != 2 or copper:
            raise RuleError(f"a win_lose bet names two ranks and is never coppered, not {ranks!r}")
        cx, cy = counts
        crossed = show.both * Fraction(cx * cy, pairs) if pairs else ZERO
        win = show.loser_only * Fraction(cx, g) + show.winner_only * Fraction(cy, g) + crossed
        lose = show.loser_only * Fraction(cy, g) + show.winner_only * Fraction(cx, g) + crossed
        push = show.both - 2 * crossed + hock_push
        return BetOdds(kind, ranks, False, win, lose, ZERO, push, hock_void, ONE, house.split)
    if kind not in ("rank", "group"):
        raise RuleError(f"{kind!r} is not a bet on ranks (rank, group, win_lose)")
    win, lose = (show.loser_only, show.winner_only) if copper else (show.winner_only, show.loser_only)
    split = push = ZERO
    if kind == "rank":
        split = show.both
    elif house.group_both == "push":
        push = show.both
    else:
        # Seed 003: the stake counts whole on each card, so the loser decides; one rank: a split.
        split = show.both * same
        if copper:
            win += show.both - split
        else:
            lose += show.both - split
    return BetOdds(kind, ranks, copper, win, lose, split, push + hock_push, hock_void, ONE, house.split)


def turn_bet_odds(state: BoxState, house: House) -> tuple[BetOdds, ...]:
    """High (plain and coppered), odd and even for the next turn; a pair of one kind pushes."""
    if not state.turns_left:
        return ()
    n = state.cards_left
    pairs = n * (n - 1)
    c = state.counts
    ascending = Fraction(sum(c[a] * c[b] for a in range(len(c)) for b in range(a + 1, len(c))), pairs)
    odd = sum(x for rank, x in zip(Rank, c, strict=True) if rank.is_odd)
    crossed = Fraction(odd * (n - odd), pairs)

    def bet(kind: str, copper: bool, win: Fraction, lose: Fraction) -> BetOdds:
        return BetOdds(kind, (), copper, win, lose, ZERO, 1 - win - lose, ZERO, ONE, house.split, per_turn=True)

    bets = []
    if "high" in house.kinds:
        bets += [bet("high", False, ascending, ascending), bet("high", True, ascending, ascending)]
    for kind in ("odd", "even"):
        if kind in house.kinds:
            bets.append(bet(kind, False, crossed, crossed))
    return tuple(bets)


def call_odds(state: BoxState, house: House) -> CallOdds | None:
    """Before the last turn: each order of the last three cards (loser, winner, hock)."""
    if state.cards_left != 3 or state.neutral:
        return None
    ranks = [rank for rank in Rank for _ in range(state.count(rank))]
    kind = {3: CallKind.TURN, 2: CallKind.CAT_HOP, 1: CallKind.TRIPLE}[len(set(ranks))]
    if "call" not in house.kinds or (kind is CallKind.TRIPLE and house.triple == "none"):
        return CallOdds(kind, (), None)
    pays = Fraction(house.turn_pays if kind is CallKind.TURN else house.cat_hop_pays)
    names: list[Rank | Colour]
    if kind is CallKind.TRIPLE:
        if state.cards is None:
            return CallOdds(kind, (), pays)  # the colours are unknown from counts alone
        names = [card.colour for card in state.cards]
    else:
        names = list(ranks)
    # Each of the 3! orders of the three physical cards is equally likely.
    orders: dict[tuple[Rank | Colour, ...], int] = {}
    for perm in itertools.permutations(names):
        orders[perm] = orders.get(perm, 0) + 1
    called = tuple(dict.fromkeys(ranks))
    return CallOdds(kind, tuple(
        BetOdds("call", called, False, Fraction(k, 6), 1 - Fraction(k, 6), ZERO, ZERO, ZERO, pays,
                house.split, order=order)
        for order, k in sorted(orders.items(), key=lambda item: [_order_key(o) for o in item[0]])
    ), pays)


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


def forward_call_edge(last: LastThree, house: House) -> Fraction | None:
    """The edge of calling the turn, averaged over the last three cards the deal may leave."""
    if "call" not in house.kinds:
        return None
    # One order wins 1 in 6 (turn) or 2 in 6 (cat-hop, a triple's colours).
    weighted = [(last.turn, Fraction(1, 6), house.turn_pays), (last.cat_hop, Fraction(1, 3), house.cat_hop_pays)]
    if house.triple == "colors":
        weighted.append((last.triple, Fraction(1, 3), house.cat_hop_pays))
    allowed = sum(w for w, _, _ in weighted)
    if not allowed:
        return None
    return sum((w * ((1 - p) - p * pays) for w, p, pays in weighted), ZERO) / allowed


def live_odds(state: BoxState, house: House, groups: Iterable[frozenset[Rank]] = ()) -> LiveOdds:
    """The full refresh: every rank's next turn, every bet on the layout, every kind's edge."""
    rank_bets: list[BetOdds] = []
    group_bets: list[BetOdds] = []
    win_lose_bets: list[BetOdds] = []
    if state.turns_left:
        live = [rank for rank in Rank if state.count(rank)]
        if "rank" in house.kinds:
            for copper in (False, True):
                rank_bets += [marked_bet_odds(state, house, "rank", (r,), copper) for r in live]
        ordered = sorted((tuple(sorted(g)) for g in groups), key=lambda g: (len(g), g))
        if "group" in house.kinds:
            for copper in (False, True):
                group_bets += [marked_bet_odds(state, house, "group", g, copper)
                               for g in ordered if any(state.count(r) for r in g)]
        if "win_lose" in house.kinds:
            for x, y in (g for g in ordered if len(g) == 2):
                for pair in ((x, y), (y, x)):
                    if state.count(x) + state.count(y):
                        win_lose_bets.append(marked_bet_odds(state, house, "win_lose", pair))
    call = call_odds(state, house)
    last = last_three_odds(state)
    call_edge = forward_call_edge(last, house) if last is not None else None
    result = LiveOdds(
        state, house, next_turn_odds(state), tuple(rank_bets), tuple(group_bets), tuple(win_lose_bets),
        turn_bet_odds(state, house), call, last, call_edge, (),
    )
    return _with_edges(result)


def _with_edges(odds: LiveOdds) -> LiveOdds:
    spans: dict[tuple[str, bool], tuple[Fraction, Fraction]] = {}
    for bet in odds.bets:
        key = (bet.kind, bet.copper)
        low, high = spans.get(key, (bet.edge, bet.edge))
        spans[key] = (min(low, bet.edge), max(high, bet.edge))
    if odds.call is None and odds.call_edge is not None:
        spans[("call", False)] = (odds.call_edge, odds.call_edge)
    edges = tuple(KindEdge(kind, copper, low, high) for (kind, copper), (low, high) in spans.items())
    return LiveOdds(odds.state, odds.house, odds.next_turn, odds.rank_bets, odds.group_bets,
                    odds.win_lose_bets, odds.turn_bets, odds.call, odds.last_three, odds.call_edge, edges)
