"""Cards as small frozen values: ``Card.parse("QH")`` and ``str(card) == "QH"``.

Ranks run ace low (A=1 … K=13), as faro counts them for high card and odd/even.

>>> card = Card.parse("10♥")
>>> str(card), card.rank, card.suit.glyph, card.colour.value
('10H', <Rank.TEN: 10>, '♥', 'red')
>>> Card.parse(str(card)) == card
True
>>> len(FULL_DECK), str(FULL_DECK[0]), str(FULL_DECK[-1])
(52, 'AS', 'KC')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from faro_box.errors import CardError


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"


class Rank(enum.IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    @property
    def is_odd(self) -> bool:
        return self.value % 2 == 1

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``A 2 … 10 J Q K``, ``T`` for 10, either case.

        >>> Rank.parse("q"), Rank.parse("T"), str(Rank.ACE)
        (<Rank.QUEEN: 12>, <Rank.TEN: 10>, 'A')
        >>> Rank.parse("B")
        Traceback (most recent call last):
        ...
        faro_box.errors.CardError: 'B' is not a rank: use A 2 3 4 5 6 7 8 9 10 J Q K (T for 10)
        """
        if isinstance(text, Rank):
            return text
        if not isinstance(text, str):
            raise CardError(f"a rank must be text like 'Q' or '10', not {text!r}")
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise CardError(f"{text!r} is not a rank: use A 2 3 4 5 6 7 8 9 10 J Q K (T for 10)")
        return rank

    def __str__(self) -> str:
        return self.symbol


_RANK_SYMBOLS = {
    Rank.ACE: "A", Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5",
    Rank.SIX: "6", Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
    Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K",
}
_RANK_BY_TEXT = {symbol: rank for rank, symbol in _RANK_SYMBOLS.items()} | {"T": Rank.TEN, "1": Rank.ACE}


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def glyph(self) -> str:
        return _SUIT_GLYPHS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter ``S H D C`` or its glyph.

        >>> Suit.parse("♣"), Suit.parse("h").colour
        (<Suit.CLUBS: 'C'>, <Colour.RED: 'red'>)
        """
        if isinstance(text, Suit):
            return text
        if not isinstance(text, str):
            raise CardError(f"a suit must be text like 'H' or '♥', not {text!r}")
        suit = _SUIT_BY_TEXT.get(text.strip().upper())
        if suit is None:
            raise CardError(f"{text!r} is not a suit: use S H D C (or ♠ ♥ ♦ ♣)")
        return suit

    def __str__(self) -> str:
        return self.value


_SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {g: s for s, g in _SUIT_GLYPHS.items()} | {
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: Rank
    suit: Suit
    # str(card), made once: a settled deal writes each of its cards out, and the result
    # documents of a season of simulated deals are mostly card names.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"{_RANK_SYMBOLS[self.rank]}{self.suit._value_}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``QH``, ``10h``, ``Th``, ``Q♥``; raise CardError naming the text otherwise.

        >>> [str(Card.parse(t)) for t in ("QH", "10h", "Th", "Q♥", " as ")]
        ['QH', '10H', '10H', 'QH', 'AS']
        >>> Card.parse("QX")
        Traceback (most recent call last):
        ...
        faro_box.errors.CardError: 'QX' is not a card: 'X' is not a suit: use S H D C (or ♠ ♥ ♦ ♣)
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card must be text like 'QH' or '10♥', not {text!r}")
        stripped = text.strip()
        if len(stripped) < 2:
            raise CardError(f"{text!r} is not a card: write a rank then a suit, like 'QH'")
        try:
            return cls(Rank.parse(stripped[:-1]), Suit.parse(stripped[-1]))
        except CardError as exc:
            raise CardError(f"{text!r} is not a card: {exc}") from None

    @property
    def colour(self) -> Colour:
        return self.suit.colour

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"


DECK_SIZE = 52
# Ranks ace to king and suits in their enum's order: the order of every score table (the network's
# outputs, the templates' votes, a deck profile's arrays).
RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)


def parse_deck(cards: Iterable[object]) -> tuple[Card, ...]:
    """A faro deck in the order it leaves the box: exactly the 52 cards, each once.

    >>> deck = parse_deck(str(card) for card in FULL_DECK)
    >>> deck == FULL_DECK
    True
    >>> parse_deck(["AS"] * 52)
    Traceback (most recent call last):
    ...
    faro_box.errors.CardError: the deck holds 'AS' twice
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise CardError(f"a deck must be a list of 52 cards, not {cards!r:.80}")
    deck = tuple(Card.parse(c) for c in cards)  # type: ignore[arg-type]
    if len(deck) != DECK_SIZE:
        raise CardError(f"a deck must hold 52 cards, this one holds {len(deck)}")
    seen: set[Card] = set()
    for card in deck:
        if card in seen:
            raise CardError(f"the deck holds {str(card)!r} twice")
        seen.add(card)
    return deck
