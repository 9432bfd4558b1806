"""A court's printed frame touching its corner index's suit pip, as on real decks (a Bicycle
jack's club sits against the frame line): the classical reader still finds the index."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from faro_box.cards import Card, Rank, Suit
from faro_box.vision import glyphs
from faro_box.vision.canonical import CardView
from faro_box.vision.classical import ClassicalReader
from faro_box.vision.locate import whole_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import render_card

COURTS = [Card(rank, suit) for rank in (Rank.JACK, Rank.QUEEN, Rank.KING) for suit in Suit]


def framed_against_the_pip(card: Card) -> np.ndarray:
    """The rendered card with a thin dark frame line down the side of each corner's suit pip,
    touching it, the length of the face."""
    face = render_card(card)
    h, w = face.shape[:2]
    index = glyphs.find_index(face[: round(0.36 * h), : round(0.3 * w)])
    assert index is not None, card
    x = index.suit_box.x1  # the pip's last column of ink is x1 - 1: the line touches it
    cv2.line(face, (x, index.suit_box.y0), (x, h - 1 - index.suit_box.y0), (60, 40, 30), 2)
    cv2.line(face, (w - 1 - x, index.suit_box.y0), (w - 1 - x, h - 1 - index.suit_box.y0), (60, 40, 30), 2)
    return face


def test_a_frame_line_touching_the_pip_leaves_the_index_readable():
    reader = ClassicalReader()
    unread = []
    for card in COURTS:
        face = framed_against_the_pip(card)
        got = reader.read_view(CardView(face, whole_card(face)))
        assert got.card in (None, card), (card, got)
        assert got.candidates, (card, got.why)  # an index seen, not "no readable index"
        if got.card is None:
            unread.append(str(card))
    # A club's lobe loses its column of ink under the line, and spade or club may stay unsure.
    assert all(card.endswith("C") for card in unread), unread


def test_the_line_is_what_joined_the_pip_to_the_frame():
    """Without the frame line's removal, no glyph pair is there: the pip and the line are one
    component too tall for a glyph (the case the second search is for)."""
    face = framed_against_the_pip(Card.parse("JC"))
    corner = face[: round(0.36 * face.shape[0]), : round(0.3 * face.shape[1])]
    darkness, _ = glyphs._darkness(corner, 21)
    binary = cv2.threshold(darkness, glyphs._GLYPH_ABOVE, 1, cv2.THRESH_BINARY)[1]
    assert glyphs._glyph_pair(binary, None, None) is None
    assert glyphs._glyph_pair(cv2.subtract(binary, glyphs._long_lines(binary)), None, None) is not None


def test_a_rank_glyph_the_frame_touches_is_not_cut_from_it():
    """Where the line touches the rank glyph itself, the glyph cut loose from it may read as
    another rank (a Dutch deck's H, its serif on the frame, read as a J): no index there."""
    for card in COURTS[::3]:
        face = render_card(card)
        h, w = face.shape[:2]
        corner = face[: round(0.36 * h), : round(0.3 * w)].copy()
        clean = glyphs.find_index(corner)
        assert clean is not None, card
        x = clean.rank_box.x0 - 1
        cv2.line(corner, (x, clean.rank_box.y0), (x, corner.shape[0] - 1), (60, 40, 30), 2)
        assert glyphs.find_index(corner) is None, card


@pytest.mark.shared_data
@pytest.mark.slow
def test_a_real_jack_whose_club_touches_the_frame_is_read(shared_data):
    """The Bicycle jack of clubs (bicycle-brown-table) the second look was written for: its index's
    club sits against the court's frame line. The templates see the index, and the box's joint
    reading names the card."""
    image = cv2.imread(str(shared_data / "bicycle-brown-table" / "images" / "Jclubs.jpg"))
    view = Reader().locate(image)
    assert view is not None
    assert ClassicalReader().read_view(view).candidates
    assert Reader().read(image).card == Card.parse("JC")
