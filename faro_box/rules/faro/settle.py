"""Settlement of one bet: pure functions of the bet, the cards and the house rules.

Nothing here knows the deal, so odds code can ask "what would this bet do on this turn" for
any turn. Amounts are the player's change in half-chips (``halves``): a half-split of an odd
stake is the only fraction faro produces, and whole numbers keep the hot path fast and exact.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from faro_box.cards import Card, Colour, Rank
from faro_box.rules.faro.bets import Bet
from faro_box.rules.faro.profiles import BetKind, GroupBoth, HockRule, Profile, SplitShare, Triple

CAT_HOP_PAYS = 2  # seed 000: two of one rank among the last three
COLOUR_CALL_PAYS = 2  # seed 000/002: three of one rank, the order of the colours


class Result(enum.Enum):
    WIN = "win"
    LOSE = "lose"
    SPLIT = "split"
    PUSH = "push"
    VOID = "void"


class Settlement(NamedTuple):
    """One bet's result on one turn (frozen; a NamedTuple because a deal makes hundreds)."""

    bet_id: str
    player: str
    kind: BetKind
    result: Result
    halves: int  # the player's change in half-chips; the banker's is minus it

    @property
    def amount(self) -> Fraction:
        return Fraction(self.halves, 2)

    def to_json(self) -> dict[str, object]:
        halves = self.halves
        return {"bet": self.bet_id, "player": self.player, "result": self.result._value_,
                "amount": halves >> 1 if not halves & 1 else halves / 2}  # json_amount, inlined

# Enum members bound once: looking one up on its class (Python 3.11) costs more than the
# arithmetic of a settlement, and these names sit on the hot path.
K_EVEN = BetKind.EVEN
K_GROUP = BetKind.GROUP
K_HIGH = BetKind.HIGH
K_ODD = BetKind.ODD
K_RANK = BetKind.RANK
K_WIN_LOSE = BetKind.WIN_LOSE
R_LOSE = Result.LOSE
R_PUSH = Result.PUSH
R_SPLIT = Result.SPLIT
R_VOID = Result.VOID
R_WIN = Result.WIN


def json_amount(halves: int) -> int | float:
    """An int when whole, else a float (only halves occur)."""
    return halves >> 1 if not halves & 1 else halves / 2


# Makes a NamedTuple from all its fields without running its Python-level __new__: a deal
# makes dozens of settlements, and that call is a good part of their cost.
_new_tuple = tuple.__new__


def _make(bet: Bet, result: Result, halves: int) -> Settlement:
    return _new_tuple(Settlement, (bet.id, bet.player, bet.kind, result, halves))


def _won(bet: Bet, won: bool) -> Settlement:
    """Even money: the player gains or loses his stake (twice it in half-chips)."""
    if won:
        return _new_tuple(Settlement, (bet.id, bet.player, bet.kind, R_WIN, 2 * bet.stake))
    return _new_tuple(Settlement, (bet.id, bet.player, bet.kind, R_LOSE, -2 * bet.stake))


def _split(bet: Bet, profile: Profile) -> Settlement:
    # The bank takes half (or, in Stuss, all) of the stake: in half-chips that is stake or 2·stake.
    lost = bet.stake if profile.split is SplitShare.HALF else 2 * bet.stake
    return _make(bet, R_SPLIT, -lost)


def _on_rank(bet: Bet, rank: Rank, loser: Rank, winner: Rank, profile: Profile) -> Settlement | None:
    if loser == rank:
        if winner == rank:
            return _split(bet, profile)
        return _won(bet, bet.copper)
    if winner == rank:
        return _won(bet, not bet.copper)
    return None


def settle_on_turn(bet: Bet, loser: Rank, winner: Rank, profile: Profile) -> Settlement | None:
    """What one turn (loser, winner) does to ``bet``; None when the turn leaves it untouched.

    A barred bet is the caller's concern (it does not play); calls settle in ``settle_call``.
    """
    kind = bet.kind
    # The bets that play every turn come first, and make their settlement here: they make
    # most of a deal's settlements.
    if kind is K_HIGH or kind is K_ODD or kind is K_EVEN:
        if kind is K_HIGH:
            push = loser == winner
            won = (winner > loser) != bet.copper
        else:
            push = loser & 1 == winner & 1
            won = (winner & 1 == 1) == (kind is K_ODD)
        if push:
            return _new_tuple(Settlement, (bet.id, bet.player, kind, R_PUSH, 0))
        if won:
            return _new_tuple(Settlement, (bet.id, bet.player, kind, R_WIN, 2 * bet.stake))
        return _new_tuple(Settlement, (bet.id, bet.player, kind, R_LOSE, -2 * bet.stake))
    if kind is K_RANK:
        return _on_rank(bet, bet.ranks[0], loser, winner, profile)
    if kind is K_GROUP:
        ranks = bet.ranks
        if loser in ranks:
            if winner not in ranks:
                return _on_rank(bet, loser, loser, winner, profile)
            if profile.group_both is GroupBoth.LOSER:
                # seed 003: the whole bet stands on each card, so the loser decides
                return _on_rank(bet, loser, loser, winner, profile)
            return _make(bet, R_PUSH, 0)
        if winner in ranks:
            return _on_rank(bet, winner, loser, winner, profile)
        return None
    if kind is K_WIN_LOSE:
        to_lose, to_win = bet.ranks
        good = loser == to_lose or winner == to_win
        bad = winner == to_lose or loser == to_win
        if good and bad:
            return _make(bet, R_PUSH, 0)
        if good or bad:
            return _won(bet, good)
        return None
    return None


def call_pays(last_three: Sequence[Card], profile: Profile) -> int | None:
    """Odds to 1 for a correct call on these three cards; None when no call is allowed."""
    ranks = {c.rank for c in last_three}
    if len(ranks) == 3:
        return profile.turn_pays
    if len(ranks) == 2:
        return CAT_HOP_PAYS
    return COLOUR_CALL_PAYS if profile.triple is Triple.COLORS else None


def call_fits(order: Sequence[Rank] | Sequence[Colour], last_three: Sequence[Card], profile: Profile) -> str | None:
    """Why this call cannot stand on these three cards, or None when it can."""
    ranks = [c.rank for c in last_three]
    names = [o.symbol if isinstance(o, Rank) else o.value for o in order]
    if len(set(ranks)) == 1:
        if profile.triple is not Triple.COLORS:
            return f"the last three cards are all {ranks[0].symbol}s and the {profile.name!r} profile allows no call on them"
        if not all(isinstance(o, Colour) for o in order):
            return f"the last three cards are all {ranks[0].symbol}s: call the order of their colours, not {names!r}"
        if sorted(c.value for c in order) != sorted(c.colour.value for c in last_three):
            wanted = sorted(c.colour.value for c in last_three)
            return f"the call {names!r} does not fit the colours left in the box {wanted!r}"
        return None
    if not all(isinstance(o, Rank) for o in order):
        return f"a call names ranks unless the last three are of one rank, not {names!r}"
    if sorted(order) != sorted(ranks):  # type: ignore[type-var]
        left = sorted(r.symbol for r in ranks)
        return f"the call {names!r} does not fit the three cards left in the box (ranks {left!r})"
    return None


def settle_call(bet: Bet, loser: Card, winner: Card, hock: Card, profile: Profile) -> Settlement:
    last_three = (loser, winner, hock)
    if bet.order and isinstance(bet.order[0], Colour):
        right = tuple(bet.order) == (loser.colour, winner.colour, hock.colour)
    else:
        right = tuple(bet.order) == (loser.rank, winner.rank, hock.rank)
    if not right:
        return _make(bet, R_LOSE, -2 * bet.stake)
    pays = call_pays(last_three, profile) or 0
    return _make(bet, R_WIN, 2 * bet.stake * pays)


def settle_at_hock(bet: Bet, profile: Profile) -> Settlement:
    """A rank, group or win_lose bet still standing when the deal ends: only the hock is left."""
    result = R_PUSH if profile.hock is HockRule.PUSH else R_VOID
    return _make(bet, result, 0)


def void(bet: Bet) -> Settlement:
    """A bet taken off without a result (a marker forced off, a barred call at the end)."""
    return _make(bet, R_VOID, 0)


def paid(bet: Bet, pays: int = 1) -> Settlement:
    """The bank pays the bet as a winner (a misdeal)."""
    return _make(bet, R_WIN, 2 * bet.stake * pays)
