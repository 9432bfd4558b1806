"""The coup card by card: deal order, naturals, the drawing rules and every refusal."""

from __future__ import annotations

import pytest

from faro_box.cards import Card
from faro_box.errors import RuleError
from faro_box.rules.baccarat import Coup, Seat, Shoe, Side, Step
from faro_box.rules.baccarat.hands import Outcome


def dealt(right: str, left: str, banker: str) -> Coup:
    """A coup after its first six cards; hands given as 'R1 R2'."""
    r, lf, b = right.split(), left.split(), banker.split()
    coup = Coup(Shoe())
    for text in [r[0], lf[0], b[0], r[1], lf[1], b[1]]:
        coup.deal(Card.parse(text))
    return coup


def test_the_deal_order_is_right_left_banker_twice():
    coup = Coup(Shoe())
    steps = []
    for text in ["2S", "3S", "4S", "AS", "AH", "AD"]:
        steps.append(coup.next_step)
        coup.deal(Card.parse(text))
    assert steps == [Step.CARD_RIGHT, Step.CARD_LEFT, Step.CARD_BANKER] * 2
    assert coup.hands == {Seat.RIGHT: tuple(map(Card.parse, ["2S", "AS"])),
                          Seat.LEFT: tuple(map(Card.parse, ["3S", "AH"])),
                          Seat.BANKER: tuple(map(Card.parse, ["4S", "AD"]))}


@pytest.mark.parametrize("hands", [("9C KD", "2H 3H", "2S 3S"), ("2H 3H", "4D 4C", "2S 3S"),
                                   ("2H 3H", "2S 3S", "AS 7H")])
def test_a_natural_anywhere_ends_the_coup_at_once(hands):
    coup = dealt(*hands)
    assert coup.natural and coup.finished and coup.next_step is None
    for seat in Seat:
        with pytest.raises(RuleError, match="natural ended the coup"):
            coup.decide(seat, True)
    with pytest.raises(RuleError, match="coup is over"):
        coup.deal(Card.parse("5H"))


@pytest.mark.parametrize(("right", "left", "first"), [
    ("AS 3H", "6D KC", Step.CARD_RIGHT),     # right 4 must draw; left 6 stands
    ("3S 3H", "AD KC", Step.CARD_LEFT),      # right 6 stands, left 1 must draw
    ("KS 7H", "QD KC", Step.CARD_LEFT),      # right 7 stands, left 0 must draw
    ("KS 6H", "2D 5C", Step.DECIDE_BANKER),  # 6 and 7: both stand, the banker decides
    ("KS 5H", "2D 5C", Step.DECIDE_RIGHT),   # right on 5 chooses first
    ("KS 6H", "2D 3C", Step.DECIDE_LEFT),    # right stands on 6, left on 5 chooses
])
def test_sides_draw_on_0_to_4_stand_on_6_7_and_choose_on_5(right, left, first):
    assert dealt(right, left, "2S 3S").next_step is first


def test_right_decides_and_takes_its_card_before_left_then_the_banker_decides():
    coup = dealt("KS 5H", "2D 3C", "2S 3S")
    assert coup.next_step is Step.DECIDE_RIGHT
    with pytest.raises(RuleError, match="left's decision out of turn: the coup waits for right's decision"):
        coup.decide(Seat.LEFT, True)
    with pytest.raises(RuleError, match="banker's decision out of turn"):
        coup.decide(Seat.BANKER, True)
    coup.decide(Seat.RIGHT, True)
    assert coup.next_step is Step.CARD_RIGHT
    with pytest.raises(RuleError, match="left's decision out of turn: the coup waits for a card for right"):
        coup.decide(Seat.LEFT, False)
    coup.deal(Card.parse("2C"))
    assert coup.next_step is Step.DECIDE_LEFT
    coup.decide(Seat.LEFT, False)
    assert coup.next_step is Step.DECIDE_BANKER
    coup.decide(Seat.BANKER, True)
    assert coup.next_step is Step.CARD_BANKER
    coup.deal(Card.parse("4H"))
    assert coup.finished
    assert coup.totals == {Seat.RIGHT: 7, Seat.LEFT: 5, Seat.BANKER: 9}
    assert coup.outcomes() == {Side.RIGHT: Outcome.LOSE, Side.LEFT: Outcome.LOSE}


@pytest.mark.parametrize("banker", ["KS QS", "2S 3S", "3S 4S"])  # 0, 5, 7: free on any of them
@pytest.mark.parametrize("draw", [True, False])
def test_the_banker_is_free_to_draw_or_stand_on_0_to_7(banker, draw):
    coup = dealt("KS 6H", "2D 5C", banker)
    coup.decide(Seat.BANKER, draw)
    assert coup.finished is (not draw)


@pytest.mark.parametrize(("right", "seat", "draw", "message"), [
    ("KS 6H", Seat.RIGHT, True, "right cannot choose to draw on 6: a side stands on 6"),
    ("KS 7H", Seat.RIGHT, True, "right cannot choose to draw on 7"),
    ("KS 4H", Seat.RIGHT, False, "right cannot choose to stand on 4: a side must draw on 4"),
    ("KS KH", Seat.RIGHT, False, "must draw on 0"),
])
def test_a_draw_or_stand_the_rules_forbid_is_refused(right, seat, draw, message):
    coup = dealt(right, "2D 5C", "2S 3S")
    before = (coup.hands, coup.next_step)
    with pytest.raises(RuleError, match=message):
        coup.decide(seat, draw)
    assert (coup.hands, coup.next_step) == before


def test_decisions_before_the_six_cards_are_out_are_refused():
    coup = Coup(Shoe())
    coup.deal(Card.parse("5S"))
    with pytest.raises(RuleError, match="right cannot draw yet: the first two cards"):
        coup.decide(Seat.RIGHT, True)


def test_a_decision_taken_twice_is_refused():
    coup = dealt("KS 6H", "2D 5C", "2S 3S")
    coup.decide(Seat.BANKER, True)
    with pytest.raises(RuleError, match="already decided to draw"):
        coup.decide(Seat.BANKER, False)


def test_a_card_while_a_decision_is_due_is_refused():
    coup = dealt("KS 5H", "2D 5C", "2S 3S")
    with pytest.raises(RuleError, match="'9H' out of turn: the coup waits for right's decision"):
        coup.deal(Card.parse("9H"))
    assert coup.cards_dealt == 6


def test_no_hand_takes_a_fourth_card():
    coup = dealt("KS AH", "KD 2C", "QS JS")
    coup.deal(Card.parse("2S"))
    coup.deal(Card.parse("3S"))
    coup.decide(Seat.BANKER, True)
    coup.deal(Card.parse("4S"))
    assert all(len(cards) == 3 for cards in coup.hands.values())
    with pytest.raises(RuleError, match="right and left and banker already hold three cards.*fourth"):
        coup.deal(Card.parse("5S"))
    with pytest.raises(RuleError, match="already decided"):
        coup.decide(Seat.BANKER, True)
    assert coup.cards_dealt == 9


def test_first_pairs_stay_face_down_and_third_cards_face_up_until_the_end():
    coup = dealt("KS 2H", "KD 6C", "QS 3S")
    coup.deal(Card.parse("4D"))
    shown = coup.shown()
    assert shown[Seat.RIGHT] == (None, None, Card.parse("4D"))
    assert shown[Seat.BANKER] == (None, None)
    coup.decide(Seat.BANKER, False)
    assert coup.shown() == coup.hands


def test_a_coup_cannot_give_outcomes_before_it_ends():
    coup = dealt("KS 5H", "2D 5C", "2S 3S")
    with pytest.raises(RuleError, match="not over: it waits for right's decision"):
        coup.outcomes()


@pytest.mark.parametrize(("seat", "draw", "message"), [
    ("right", True, "right, left or the banker, not 'right'"), (Seat.RIGHT, "yes", "not 'yes'")])
def test_a_decision_must_name_a_hand_and_draw_or_stand(seat, draw, message):
    coup = dealt("KS 5H", "2D 5C", "2S 3S")
    with pytest.raises(RuleError, match=message):
        coup.decide(seat, draw)
    assert coup.next_step is Step.DECIDE_RIGHT
