"""Hands, points and the two sides of Baccarat Banque (seed 001 §04, §06).

A = 1, 2–9 at face value, 10/J/Q/K = 0; a hand counts the last digit of its sum.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from faro_box.cards import Card, Rank


class Side(enum.Enum):
    """The two tableaux that play against the bank."""

    RIGHT = "right"
    LEFT = "left"

    @property
    def other(self) -> Side:
        return Side.LEFT if self is Side.RIGHT else Side.RIGHT

    @property
    def seat(self) -> Seat:
        return Seat(self.value)


class Seat(enum.Enum):
    """The three hands on the table."""

    RIGHT = "right"
    LEFT = "left"
    BANKER = "banker"

    @property
    def side(self) -> Side | None:
        return None if self is Seat.BANKER else Side(self.value)


class Outcome(enum.Enum):
    """A side's result against the bank, from the side's point of view."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


# Face down, right, left, banker, then again (seed 001 §04).
DEAL_ORDER: tuple[Seat, ...] = (Seat.RIGHT, Seat.LEFT, Seat.BANKER) * 2
MAX_CARDS = 3
# A side must draw on these, stands on 6–7, and its active player chooses on 5 (§05).
MUST_DRAW = frozenset(range(5))
CHOICE = 5


_POINTS = {rank: rank.value if rank <= Rank.NINE else 0 for rank in Rank}


def point(card: Card) -> int:
    return _POINTS[card.rank]


def total(cards: Iterable[Card]) -> int:
    """A hand's total: the last digit of its points (courts and tens count 0).

    >>> total([Card.parse("9C"), Card.parse("7H")]), total([Card.parse("KD"), Card.parse("AS")])
    (6, 1)
    """
    points = _POINTS
    return sum([points[card.rank] for card in cards]) % 10


def is_natural(cards: tuple[Card, ...] | list[Card]) -> bool:
    """A two-card 8 or 9.

    >>> is_natural((Card.parse("5S"), Card.parse("3D"))), is_natural((Card.parse("5S"), Card.parse("2D")))
    (True, False)
    """
    return len(cards) == 2 and total(cards) >= 8


def compare(side_total: int, banker_total: int) -> Outcome:
    """A side's result against the bank's total.

    >>> compare(7, 5), compare(5, 5), compare(0, 9)
    (<Outcome.WIN: 'win'>, <Outcome.PUSH: 'push'>, <Outcome.LOSE: 'lose'>)
    """
    if side_total > banker_total:
        return Outcome.WIN
    if side_total < banker_total:
        return Outcome.LOSE
    return Outcome.PUSH
