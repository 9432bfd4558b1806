import pytest

from faro_box.cards import FULL_DECK, Card, Colour, Rank, Suit, parse_deck
from faro_box.errors import CardError, FaroBoxError


@pytest.mark.parametrize(
    "text, rank, suit",
    [("QH", Rank.QUEEN, Suit.HEARTS), ("10h", Rank.TEN, Suit.HEARTS), ("Th", Rank.TEN, Suit.HEARTS),
     ("Q♥", Rank.QUEEN, Suit.HEARTS), ("as", Rank.ACE, Suit.SPADES), ("7♣", Rank.SEVEN, Suit.CLUBS),
     (" kd ", Rank.KING, Suit.DIAMONDS)],
)
def test_parse_accepts_every_written_form(text, rank, suit):
    assert Card.parse(text) == Card(rank, suit)


def test_str_round_trips_for_every_card():
    for card in FULL_DECK:
        assert Card.parse(str(card)) == card
    assert str(Card.parse("Th")) == "10H"


@pytest.mark.parametrize("bad", ["", "Q", "QX", "11H", "1", None, 12, "QHH"])
def test_bad_card_is_one_clear_error_quoting_the_input(bad):
    with pytest.raises(CardError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, FaroBoxError)


def test_cards_are_frozen_and_hashable():
    card = Card.parse("QH")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert len({Card.parse("QH"), Card.parse("Q♥")}) == 1


def test_colours_and_parity():
    assert Card.parse("QH").colour is Colour.RED and Card.parse("2D").colour is Colour.RED
    assert Card.parse("QS").colour is Colour.BLACK and Card.parse("2C").colour is Colour.BLACK
    assert [r.symbol for r in Rank if r.is_odd] == ["A", "3", "5", "7", "9", "J", "K"]


def test_parse_deck_requires_52_distinct_cards():
    deck = [str(c) for c in FULL_DECK]
    assert parse_deck(deck) == FULL_DECK
    with pytest.raises(CardError, match="51"):
        parse_deck(deck[:-1])
    with pytest.raises(CardError, match="'AS' twice"):
        parse_deck(deck[:-1] + ["AS"])
    with pytest.raises(CardError):
        parse_deck("AS KD")
