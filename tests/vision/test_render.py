"""The renderer: deterministic faces, real indices and pips in every style."""

from __future__ import annotations

import numpy as np
import pytest

from faro_box.cards import FULL_DECK, Card, Rank
from faro_box.vision.features import corner_regions
from faro_box.vision.pips import count_pips
from faro_box.vision.sim.render import ENGLISH, FRENCH, INDEXLESS, RUSSIAN, index_text, render_card


def test_a_face_is_deterministic_bgr_of_the_asked_size():
    a = render_card(Card.parse("QH"), width=250, height=350)
    assert a.shape == (350, 250, 3) and a.dtype == np.uint8
    assert np.array_equal(a, render_card(Card.parse("QH")))
    assert not np.array_equal(a, render_card(Card.parse("QD")))


def test_the_bottom_right_index_is_the_top_left_one_turned():
    face = render_card(Card.parse("7C"))
    tl, br = corner_regions(face)
    assert np.abs(tl.astype(int) - br.astype(int)).mean() < 3


def test_index_letters_follow_the_style():
    assert [index_text(r, ENGLISH) for r in (Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING)] == ["A", "J", "Q", "K"]
    assert [index_text(r, FRENCH) for r in (Rank.JACK, Rank.QUEEN, Rank.KING)] == ["V", "D", "R"]
    assert index_text(Rank.TEN, RUSSIAN) == "10"
    english, russian = (render_card(Card.parse("QS"), style=s) for s in (ENGLISH, RUSSIAN))
    assert not np.array_equal(corner_regions(english)[0], corner_regions(russian)[0])


def test_index_less_faces_have_no_corner_ink():
    tl = corner_regions(render_card(Card.parse("9H"), style=INDEXLESS))[0]
    assert tl[12:70, 6:42].min() > 200  # the index area, past the rounded corner: paper only


@pytest.mark.parametrize("card", [c for c in FULL_DECK if c.rank <= Rank.TEN], ids=str)
def test_pip_cards_show_as_many_pips_as_their_rank(card):
    assert count_pips(render_card(card)) == int(card.rank)


def test_a_court_card_is_not_counted_as_pips():
    assert count_pips(render_card(Card.parse("KD"))) is None


def test_too_small_a_face_is_refused():
    with pytest.raises(ValueError, match="too small"):
        render_card(Card.parse("AS"), width=10, height=14)
