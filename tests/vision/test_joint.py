"""Method.JOINT: the learned and the classical reader on the same card, one reading."""

from __future__ import annotations

import pytest

from faro_box.cards import Card, Rank, Suit
from faro_box.vision.joint import joined
from faro_box.vision.reader import Method, Reader
from faro_box.vision.reading import Reading

C = Card.parse


def learned(card: str | None, *guesses: str) -> Reading:
    named = C(card) if card else None
    return Reading(named, 0.8 if named else 0.3, tuple(C(g) for g in guesses), present=True)


def classical(card: str | None, *guesses: str, rank: Rank | None = None, suit: Suit | None = None,
              confidence: float | None = None, against_ink: Suit | None = None) -> Reading:
    named = C(card) if card else None
    return Reading(named, confidence if confidence is not None else 0.9 if named else 0.2, tuple(C(g) for g in guesses), present=True, rank=rank, suit=suit,
                   why="" if named else "suit unsure" if guesses else "no readable index",
                   shape_against_ink=against_ink)


@pytest.mark.parametrize(("net", "templates", "expected"), [
    (learned("QH", "QH"), classical("QH", "QH"), "QH"),                        # both: that card
    (learned("QH", "QH"), classical("QD", "QD"), None),                        # they disagree: ask
    (learned("QH", "QH"), classical(None, "QH", "QD", rank=Rank.QUEEN), "QH"),  # templates unsure of the suit only
    (learned("QH", "QH"), classical(None, "JH", rank=Rank.JACK), None),         # templates sure of another rank
    (learned("QH", "QH"), classical(None), None),                              # templates saw no index: covered?
    (learned(None, "9S", "9C"), classical("9C", "9C"), "9C"),                  # among the network's two best
    (learned(None, "9S", "6S", "9C"), classical("9C", "9C"), None),            # not among them
    (learned(None, "AS", "AC"), classical("AC", "AC", confidence=0.52), None),  # the network's second, barely
    (learned(None, "AC", "AS"), classical("AC", "AC", confidence=0.52), "AC"),  # its first: the templates' line
    (learned(None, "9S"), classical(None, "9S"), None),                        # neither names it
    # the templates' pip is plainly a diamond, though the ink is not red (a four-colour deck's blue):
    (learned("4S", "4S"), classical(None, "4D", "4S", rank=Rank.FOUR, against_ink=Suit.DIAMONDS), None),
    (learned("4S", "4S"), classical(None, "4D", "4S", rank=Rank.FOUR), "4S"),  # unsure of the suit: the network's
])
def test_one_reading_from_both(net: Reading, templates: Reading, expected: str | None) -> None:
    reading = joined(net, templates)
    assert reading.card == (C(expected) if expected else None)
    if expected is None:
        assert reading.why and reading.confidence < 0.5


@pytest.mark.parametrize(("each_corner", "expected"), [
    ("QH", "QH"),  # every corner read names it, sure: the templates cannot find a small index
    (None, None),  # one corner read, or one unsure: the index may be covered
    ("QD", None),  # the corners name another card than the reading: never taken
])
def test_templates_that_saw_no_index_let_a_card_each_corner_names_stand(each_corner: str | None,
                                                                         expected: str | None) -> None:
    reading = joined(learned("QH", "QH"), classical(None), each_corner=C(each_corner) if each_corner else None)
    assert reading.card == (C(expected) if expected else None)


def test_each_corner_never_overrules_templates_that_saw_the_index() -> None:
    assert joined(learned("QH", "QH"), classical("QD", "QD"), each_corner=C("QH")).card is None
    assert joined(learned("QH", "QH"), classical(None, "JH", rank=Rank.JACK), each_corner=C("QH")).card is None


def test_a_disagreement_names_both_cards_and_offers_them() -> None:
    reading = joined(learned("QH", "QH", "KH"), classical("QD", "QD"))
    assert "QH" in reading.why and "QD" in reading.why
    assert set(reading.candidates) >= {C("QH"), C("QD")}


def test_the_generic_reader_is_joint_and_an_enrolled_one_classical() -> None:
    assert Reader().method is Method.JOINT
    assert Reader(learned=True).method is Method.LEARNED
    assert Reader(method=Method.CLASSICAL).method is Method.CLASSICAL
