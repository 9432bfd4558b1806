"""One coup's cards and decisions, card by card, as the banker deals them (seed 001 §04–§05).

No money here: the bank (``bank.py``) takes the bets and settles the outcomes of a finished coup.
"""

from __future__ import annotations

import enum

from faro_box.cards import Card
from faro_box.errors import RuleError
from faro_box.rules.baccarat.hands import (
    CHOICE,
    DEAL_ORDER,
    MAX_CARDS,
    MUST_DRAW,
    Outcome,
    Seat,
    Side,
    compare,
    is_natural,
    total,
)
from faro_box.rules.baccarat.shoe import Shoe


class Step(enum.Enum):
    """What the coup waits for next."""

    CARD_RIGHT = "card_right"
    CARD_LEFT = "card_left"
    CARD_BANKER = "card_banker"
    DECIDE_RIGHT = "decide_right"
    DECIDE_LEFT = "decide_left"
    DECIDE_BANKER = "decide_banker"

    @property
    def seat(self) -> Seat:
        return _SEAT_OF[self]

    @property
    def is_card(self) -> bool:
        return self in _CARD_STEPS

    def describe(self) -> str:
        who = "the banker" if self.seat is Seat.BANKER else self.seat.value
        return f"a card for {who}" if self.is_card else f"{who}'s decision to draw or stand"

    @classmethod
    def card(cls, seat: Seat) -> Step:
        return _CARD_STEP[seat]

    @classmethod
    def decide(cls, seat: Seat) -> Step:
        return _DECIDE_STEP[seat]


_SEAT_OF = {step: Seat(step.value.split("_")[1]) for step in Step}
_CARD_STEPS = frozenset(step for step in Step if step.value.startswith("card_"))
_CARD_STEP = {_SEAT_OF[step]: step for step in _CARD_STEPS}
_DECIDE_STEP = {_SEAT_OF[step]: step for step in Step if step not in _CARD_STEPS}


class Coup:
    """Mutable: ``deal(card)`` in the deal order, ``decide(seat, draw)`` when asked; RuleError otherwise."""

    def __init__(self, shoe: Shoe) -> None:
        self._shoe = shoe
        self._hands: dict[Seat, list[Card]] = {seat: [] for seat in Seat}
        self._choices: dict[Seat, bool] = {}
        self._dealt = 0
        self._natural = False
        self._next: Step | None = Step.CARD_RIGHT

    # -- state -------------------------------------------------------------------------------
    @property
    def hands(self) -> dict[Seat, tuple[Card, ...]]:
        return {seat: tuple(cards) for seat, cards in self._hands.items()}

    @property
    def cards_dealt(self) -> int:
        return self._dealt

    def total(self, seat: Seat) -> int:
        return total(self._hands[seat])

    @property
    def totals(self) -> dict[Seat, int]:
        return {seat: self.total(seat) for seat in Seat}

    @property
    def natural(self) -> bool:
        """A two-card 8 or 9 in any hand once the first six cards are out: nobody draws."""
        return self._natural

    def has_choice(self, seat: Seat) -> bool:
        """Whether ``seat`` decides for itself: a side on 5, the banker on any total 0–7."""
        if self._dealt < len(DEAL_ORDER) or self._natural:
            return False
        return seat is Seat.BANKER or self.total_of_two(seat) == CHOICE

    def draws(self, seat: Seat) -> bool | None:
        """Whether ``seat`` draws a third card: the rules' answer, the choice made, or None (undecided)."""
        if self._dealt < len(DEAL_ORDER):
            return None
        if self._natural:
            return False
        if seat is not Seat.BANKER:
            two = self.total_of_two(seat)
            if two != CHOICE:
                return two in MUST_DRAW
        return self._choices.get(seat)

    def total_of_two(self, seat: Seat) -> int:
        return total(self._hands[seat][:2])

    @property
    def next_step(self) -> Step | None:
        return self._next

    def _advance(self) -> None:
        dealt = self._dealt
        if dealt < len(DEAL_ORDER):
            self._next = Step.card(DEAL_ORDER[dealt])
            return
        self._natural = any(is_natural(cards) for cards in self._hands.values())
        self._next = None
        if self._natural:
            return
        # Right decides and takes its third card, then left, then the banker who has seen both.
        for seat in (Seat.RIGHT, Seat.LEFT, Seat.BANKER):
            draws = self.draws(seat)
            if draws is None:
                self._next = Step.decide(seat)
                return
            if draws and len(self._hands[seat]) < MAX_CARDS:
                self._next = Step.card(seat)
                return

    @property
    def finished(self) -> bool:
        return self._next is None

    def outcomes(self) -> dict[Side, Outcome]:
        if not self.finished:
            raise RuleError(f"the coup is not over: it waits for {self._waiting()}")
        banker = self.total(Seat.BANKER)
        return {side: compare(self.total(side.seat), banker) for side in Side}

    def shown(self) -> dict[Seat, tuple[Card | None, ...]]:
        """What the table sees: first pairs face down (None) until the coup ends, third cards face up."""
        hide = 0 if self.finished else 2
        return {seat: tuple(None if i < hide else card for i, card in enumerate(cards))
                for seat, cards in self._hands.items()}

    # -- actions -----------------------------------------------------------------------------
    def deal(self, card: Card) -> Seat:
        """The next card out of the shoe goes to the hand the deal order names; return that hand."""
        step = self.next_step
        if step is None:
            full = [seat.value for seat, cards in self._hands.items() if len(cards) == MAX_CARDS]
            why = f"{' and '.join(full)} already hold{'s' if len(full) == 1 else ''} three cards" if full \
                else "no hand draws"
            raise RuleError(f"the coup is over ({why}): {str(card)!r} would be a card too many, "
                            f"and no hand takes a fourth")
        if not step.is_card:
            raise RuleError(f"{str(card)!r} out of turn: the coup waits for {step.describe()}")
        self._shoe.check(card)
        self._shoe.draw(card)
        self._hands[step.seat].append(card)
        self._dealt += 1
        self._advance()
        return step.seat

    def decide(self, seat: Seat, draw: bool) -> None:
        """Record a choice to draw (True) or stand (False) for ``seat``; RuleError if it is not its to make."""
        if not isinstance(seat, Seat):
            raise RuleError(f"a decision belongs to right, left or the banker, not {seat!r}")
        if not isinstance(draw, bool):
            raise RuleError(f"a decision is draw (true) or stand (false), not {draw!r}")
        word = "draw" if draw else "stand"
        if self._dealt < len(DEAL_ORDER):
            raise RuleError(f"{seat.value} cannot {word} yet: the first two cards of each hand are still "
                            f"being dealt ({self.cards_dealt} of {len(DEAL_ORDER)})")
        if self._natural:
            raise RuleError(f"{seat.value} cannot {word}: a natural ended the coup and nobody draws")
        if seat is not Seat.BANKER:
            two = self.total_of_two(seat)
            if two != CHOICE:
                rule = "must draw" if two in MUST_DRAW else "stands"
                raise RuleError(f"{seat.value} cannot choose to {word} on {two}: a side {rule} on {two} "
                                f"and chooses only on {CHOICE}")
        if seat in self._choices:
            done = "draw" if self._choices[seat] else "stand"
            raise RuleError(f"{seat.value} has already decided to {done}")
        step = self.next_step
        if step != Step.decide(seat):
            raise RuleError(f"{seat.value}'s decision out of turn: the coup waits for {self._waiting()}")
        self._choices[seat] = draw
        self._advance()

    def _waiting(self) -> str:
        step = self.next_step
        return "nothing: it is over" if step is None else step.describe()
