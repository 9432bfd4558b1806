from __future__ import annotations

import pytest

from faro_box.cards import Card, Rank
from faro_box.errors import RuleError, ScriptError
from faro_box.rules.baccarat import Shoe, is_natural, parse_shoe, point, total
from faro_box.rules.baccarat.hands import Outcome, compare


def cards(*texts: str) -> list[Card]:
    return [Card.parse(t) for t in texts]


@pytest.mark.parametrize(("card", "value"), [
    ("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("10S", 0), ("JH", 0), ("QD", 0), ("KC", 0)])
def test_card_points(card, value):
    assert point(Card.parse(card)) == value


@pytest.mark.parametrize(("hand", "value", "natural"), [
    (("9C", "4C"), 3, False), (("7H", "6D"), 3, False), (("KS", "8H"), 8, True), (("4S", "5H"), 9, True),
    (("QS", "JH"), 0, False), (("9S", "9H"), 8, True), (("AS", "7H"), 8, True),
    (("9C", "4C", "4D"), 7, False), (("5S", "2H", "AC"), 8, False)])
def test_a_hand_counts_the_last_digit_and_only_two_cards_make_a_natural(hand, value, natural):
    assert total(cards(*hand)) == value
    assert is_natural(cards(*hand)) is natural


@pytest.mark.parametrize(("side", "bank", "outcome"), [(7, 5, Outcome.WIN), (5, 5, Outcome.PUSH), (0, 1, Outcome.LOSE)])
def test_a_side_against_the_bank(side, bank, outcome):
    assert compare(side, bank) is outcome


def test_a_fresh_shoe_holds_three_decks_and_counts_down_by_rank():
    shoe = Shoe()
    assert shoe.remaining == 156
    assert shoe.remaining_by_rank() == {rank: 12 for rank in Rank}
    assert [shoe.draw(Card.parse("QH")) for _ in range(3)] == [1, 2, 3]  # the three physical copies
    shoe.draw(Card.parse("QS"))
    assert shoe.remaining == 152
    assert shoe.remaining_by_rank()[Rank.QUEEN] == 8
    assert shoe.remaining_by_rank()[Rank.KING] == 12


def test_a_fourth_copy_is_refused_and_changes_nothing():
    shoe = Shoe()
    for _ in range(3):
        shoe.draw(Card.parse("7D"))
    with pytest.raises(RuleError, match="'7D'.*fourth"):
        shoe.draw(Card.parse("7D"))
    assert shoe.dealt == tuple(cards("7D", "7D", "7D")) and shoe.remaining == 153


@pytest.mark.parametrize(("shoe", "message"), [
    ("9C 4C", "must be a list"),
    (["9C", "XX"], "shoe card 1: 'XX' is not a card"),
    (["9C", 4], "shoe card 1"),
    (["AS", "AS", "AS", "2H", "AS"], "shoe card 4: 'AS' appears a fourth time"),
    (["2H"] * 0 + [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"] * 3 + ["AS"], "lists 157 cards"),
])
def test_a_bad_shoe_is_a_bad_document(shoe, message):
    with pytest.raises(ScriptError, match=message):
        parse_shoe(shoe)


def test_a_full_shoe_of_three_decks_parses():
    full = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"] * 3
    assert len(parse_shoe(full)) == 156
