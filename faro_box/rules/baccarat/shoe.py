"""The shoe: three 52-card decks shuffled together, 156 cards (seed 001 §02)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from faro_box.cards import DECK_SIZE, Card, Rank
from faro_box.errors import CardError, RuleError, ScriptError

DECKS = 3
SHOE_SIZE = DECKS * DECK_SIZE
# Three full hands need at most nine cards: a bank ends rather than start a coup with fewer (§07).
MIN_CARDS_FOR_COUP = 9


class Shoe:
    """The cards that have left the shoe, in order; each card exists in three copies."""

    def __init__(self) -> None:
        self._dealt: list[Card] = []
        self._copies: Counter[Card] = Counter()

    @property
    def dealt(self) -> tuple[Card, ...]:
        return tuple(self._dealt)

    @property
    def remaining(self) -> int:
        return SHOE_SIZE - len(self._dealt)

    def copies_left(self, card: Card) -> int:
        return DECKS - self._copies[card]

    def check(self, card: Card) -> None:
        """RuleError if ``card`` cannot come out of the shoe now; changes nothing."""
        if not isinstance(card, Card):
            raise RuleError(f"{card!r} is not a card")
        if self._copies[card] >= DECKS:
            raise RuleError(f"{str(card)!r} has already left the shoe {DECKS} times: the shoe holds "
                            f"{DECKS} decks, so this would be a fourth copy")

    def draw(self, card: Card) -> int:
        """Record ``card`` leaving the shoe; return which physical copy it is (1, 2 or 3)."""
        self.check(card)
        self._dealt.append(card)
        self._copies[card] += 1
        return self._copies[card]

    def remaining_by_rank(self) -> dict[Rank, int]:
        """Cards of each rank still in the shoe (what the display shows in place of a case-keeper)."""
        left = {rank: 4 * DECKS for rank in Rank}
        for card, copies in self._copies.items():
            left[card.rank] -= copies
        return left

    def copies_dealt(self) -> Mapping[Card, int]:
        return dict(self._copies)


def parse_shoe(cards: object) -> tuple[Card, ...]:
    """A script's shoe: the cards in the order they leave it, at most 156, each at most three times."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise ScriptError(f"'shoe' must be a list of cards in the order they leave the shoe, not {cards!r:.80}")
    if len(cards) > SHOE_SIZE:
        raise ScriptError(f"'shoe' lists {len(cards)} cards: a shoe of {DECKS} decks holds {SHOE_SIZE}")
    parsed: list[Card] = []
    copies: Counter[Card] = Counter()
    known: dict[str, Card] = {}  # each card text comes up to three times: parse it once
    for index, text in enumerate(cards):
        card = known.get(text) if isinstance(text, str) else None
        if card is None:
            try:
                card = Card.parse(text)
            except CardError as exc:
                raise ScriptError(f"shoe card {index}: {exc}") from None
            if isinstance(text, str):
                known[text] = card
        copies[card] += 1
        if copies[card] > DECKS:
            raise ScriptError(f"shoe card {index}: {str(card)!r} appears a fourth time, "
                              f"but the shoe holds {DECKS} decks")
        parsed.append(card)
    return tuple(parsed)
