"""A hurried dealer's thumb lands on the next card the moment the card above clears the window,
and pushes it off at once: that card never lies in full view. Two cards of one rank and colour
(a 2S, then the 2C) look alike to the tracker's print likeness as one card twice does."""

from __future__ import annotations

import pytest
from track_helpers import run_box

from faro_box.cards import FULL_DECK, Card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import CardExposed, NeedsConfirmation

C = Card.parse


_SKIPPED = pytest.mark.xfail(strict=True, reason="a card of the previous card's rank and colour under the thumb "
                              "passes for the card read last, and no question comes for it; reading the covered "
                              "picture mends it but breaks the rule that the reader reads only a clean picture")


@pytest.mark.parametrize(("before", "hurried"), [pytest.param("2S", "2C", marks=_SKIPPED),
                                                 pytest.param("10S", "10C", marks=_SKIPPED),
                                                 pytest.param("4C", "4S", marks=_SKIPPED), ("6H", "6D")])
def test_a_card_seen_only_under_the_thumb_is_asked_about_never_skipped(before, hurried):
    head = [C("AC"), C(before), C(hurried), C("KH"), C("4D")]
    deck = head + [c for c in FULL_DECK if c not in head]
    box = SimBox(deck, seed=300, nuisance=0.5, cards=5, hurried=[2])
    events = run_box(box, Reader())  # type: ignore[arg-type]
    named = [(e.index, e.card) for e in events if isinstance(e, CardExposed)]
    assert [(i, str(c)) for i, c in named if box.deck[i] != c] == []
    asked = [e for e in events if isinstance(e, NeedsConfirmation) and e.index == 2]
    assert asked and asked[0].candidates[0] == C(hurried)


def test_a_hurried_card_is_one_between_two_others():
    with pytest.raises(ValueError, match="hurried"):
        SimBox(seed=1, cards=5, hurried=[0])
    with pytest.raises(ValueError, match="hurried"):
        SimBox(seed=1, cards=5, hurried=[4])
