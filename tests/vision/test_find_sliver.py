"""A sliver of light along the picture's edge (a window's, a screen's) is no card: its outline is
a wedge, one side many times the side opposite it, which no card seen at any angle makes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.commands.vision import load_image
from faro_box.vision.locate import find_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import CardStyle, render_card
from faro_box.vision.sim.synth import dark_background, place_card


def lit_edge(seed: int) -> np.ndarray:
    """A dark table with a wedge of white light along its left edge."""
    rng = np.random.default_rng(seed)
    image = dark_background(640, 480, rng, level=35)
    top, bottom = rng.uniform(40, 90), rng.uniform(320, 380)
    wedge = np.array([[0, top], [rng.uniform(28, 40), bottom - 50], [rng.uniform(20, 30), bottom], [0, bottom - 10]],
                     np.int32)
    cv2.fillConvexPoly(image, wedge, (235, 235, 235))
    return image


@pytest.mark.parametrize("seed", range(8))
def test_a_sliver_of_light_at_the_edge_is_no_card(seed: int) -> None:
    image = lit_edge(seed)
    assert find_card(image) is None
    reading = Reader().read(image)
    assert reading.card is None and not reading.present


@pytest.mark.parametrize("seed", range(4))
def test_a_card_beside_the_sliver_is_found(seed: int) -> None:
    card = Card.parse(("7C", "QH", "3S", "10D")[seed])
    x, y = 300 + 20 * seed, 120
    quad = np.array([[x, y], [x + 160, y + 8], [x + 150, y + 232], [x - 10, y + 224]], np.float32)
    image = place_card(lit_edge(seed), render_card(card, style=CardStyle()), quad)
    found = find_card(image)
    assert found is not None
    assert np.linalg.norm(found.mean(axis=0) - quad.mean(axis=0)) < 10  # the card's, not the wedge's
    assert Reader().read(image).card == card


@pytest.mark.shared_data
def test_the_card_before_a_screen_is_found_past_the_screens_lit_edge(shared_data: Path) -> None:
    """phone-wood-table's q5: an ace of clubs held before a monitor, a lit sliver of the screen at
    the photo's edge; the sliver was taken for the card, and the card itself was never looked for."""
    image = load_image(shared_data / "phone-wood-table" / "images" / "query" / "q5.jpg")
    assert Reader().read(image).card == Card.parse("AC")
