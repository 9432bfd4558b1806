"""The renderer: deterministic faces, real indices and pips in every style."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from faro_box.cards import FULL_DECK, Card, Rank, Suit
from faro_box.vision.features import corner_regions
from faro_box.vision.pips import count_pips
from faro_box.vision.sim.render import (
    CLASSIC_PIPS,
    ENGLISH,
    FRENCH,
    INDEXLESS,
    RUSSIAN,
    PipShape,
    draw_pip,
    index_text,
    render_card,
)


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


def _pip(suit: Suit, shape: PipShape = CLASSIC_PIPS, size: int = 120) -> np.ndarray:
    img = np.full((size + 20, size + 20, 3), 255, np.uint8)
    draw_pip(img, suit, ((size + 20) / 2, (size + 20) / 2), size, (0, 0, 0), shape=shape)
    return (img[..., 0] < 128).astype(np.uint8)


def _holes(ink: np.ndarray) -> int:
    """Paper pixels inside the pip, not reached from the image's border, beyond the odd pixel
    where two lobes nearly touch (a crevice a printer's ink fills as well)."""
    paper = (1 - ink).copy()
    h, w = paper.shape
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.floodFill(paper, mask, (0, 0), 2)
    return max(0, int((paper == 1).sum()) - int(0.001 * ink.sum()))


@pytest.mark.parametrize("suit", list(Suit), ids=str)
def test_a_large_pip_is_solid_ink_as_printed(suit):
    # A club is three lobes, a stem and a centre drawn together: they must join, not cancel
    # where they overlap (a real club has no paper inside it).
    assert _holes(_pip(suit)) == 0
    assert _holes(_pip(suit, PipShape(stem_waist=0.06, flare=2.5, stem_foot=0.18, spade_foot=0.2))) == 0


def test_the_training_corpus_varies_the_pips_and_keeps_the_four_suits_apart():
    training = pytest.importorskip("training.corpus")
    rng = np.random.default_rng(3)
    shapes = [training.pip_shape(rng) for _ in range(40)]
    assert len(set(shapes)) > 30  # shapes vary deck to deck
    for shape in shapes:
        inks = {s: _pip(s, shape) for s in Suit}
        for s, ink in inks.items():
            ys, xs = np.nonzero(ink)
            assert _holes(ink) == 0 and 100 <= ys.max() - ys.min() <= 125, (s, shape)
        for a in Suit:
            for b in Suit:
                if a.value < b.value:
                    overlap = (inks[a] & inks[b]).sum() / (inks[a] | inks[b]).sum()
                    assert overlap < 0.85, (a, b, shape)
