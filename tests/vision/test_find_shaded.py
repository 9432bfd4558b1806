"""Find mode on a card whose far end lies in shade: the paper mask leaves that end out, and the
card's closed outline round what it found is the card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.commands.vision import load_image
from faro_box.vision.locate import find_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import render_card
from faro_box.vision.sim.synth import card_quad, dark_background, place_card

CARDS = ("AS", "KH", "3C", "9D")


def shaded_scene(seed: int) -> tuple[np.ndarray, np.ndarray, Card]:
    """A card on a dark table under a lamp over its top, the light falling off towards its far
    end: the picture, the card's corners and the card."""
    rng = np.random.default_rng(seed)
    table = dark_background(640, 480, rng, level=22)
    quad = card_quad(640, 480, float(rng.uniform(260, 340)), float(rng.uniform(-8, 8)), (320, 240))
    card = Card.parse(CARDS[seed % 4])
    scene = place_card(table, render_card(card), quad)
    top, bottom = float(quad[:, 1].min()), float(quad[:, 1].max())
    start = top + float(rng.uniform(0.55, 0.7)) * (bottom - top)
    rows = np.arange(480, dtype=np.float32)[:, None, None]
    fall = 1.0 - float(rng.uniform(0.4, 0.55)) * np.clip((rows - start) / (bottom - start), 0, 1)
    return np.clip(scene * fall, 0, 255).astype(np.uint8), quad, card


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4))


# Each of these the finder cut short (its shaded end left out) before it looked for the outline
# round what it found.
@pytest.mark.parametrize("seed", [40, 44, 42, 46, 55, 79])
def test_a_card_whose_far_end_is_in_shade_is_found_whole(seed: int) -> None:
    image, truth, card = shaded_scene(seed)
    found = find_card(image)
    assert found is not None
    assert _corner_error(found, truth) < 3.0  # pixels, of a card 190-245 wide
    assert Reader().read(image).card == card


# Found whole before, and still: an outline that is the same card's, or another shape, is not taken.
@pytest.mark.parametrize("seed", [43, 45, 48, 53, 57, 61])
def test_a_card_found_whole_keeps_its_outline(seed: int) -> None:
    image, truth, _ = shaded_scene(seed)
    found = find_card(image)
    assert found is not None and _corner_error(found, truth) < 3.0


# Real photos whose card's far end the paper mask left out: the index there was cut in half,
# and the two corners disagreed (K against J) or the rank was unsure.
@pytest.mark.shared_data
@pytest.mark.parametrize(("name", "card"), [("Aspades.jpg", "AS"), ("Khearts.jpg", "KH")])
def test_a_real_card_with_a_shaded_end_is_read(shared_data: Path, name: str, card: str) -> None:
    image = load_image(shared_data / "phone-black-pink" / "images" / name)
    assert Reader().read(image).card == Card.parse(card)
