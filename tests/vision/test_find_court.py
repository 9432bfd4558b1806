"""Find mode on a court card whose picture covers most of its face, as printed decks' courts do."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.vision.locate import find_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import render_card
from faro_box.vision.sim.synth import card_quad, light_background, place_card


def printed_court(card: Card, rng: np.random.Generator) -> np.ndarray:
    """The rendered card with a picture in saturated blocks over most of its face, inside the
    plain margin and beside the corner indices (about a third of the face stays paper)."""
    face = render_card(card)
    h, w = face.shape[:2]
    x0, y0, x1, y1 = round(0.15 * w), round(0.08 * h), round(0.85 * w), round(0.92 * h)
    colours = [(30, 40, 200), (200, 120, 20), (20, 180, 230), (40, 40, 40), (60, 160, 60)]
    for y in range(y0, y1, 12):
        for x in range(x0, x1, 12):
            colour = colours[int(rng.integers(len(colours)))]
            cv2.rectangle(face, (x, y), (min(x + 11, x1), min(y + 11, y1)), colour, -1)
    cv2.rectangle(face, (x0, y0), (x1, y1), (150, 60, 40), 2)
    return face


def dark_table(rng: np.random.Generator) -> np.ndarray:
    wood = np.full((480, 640, 3), (35, 55, 95), np.float32) + rng.normal(0, 6, (480, 640, 1)).astype(np.float32)
    return np.clip(wood, 0, 255).astype(np.uint8)


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4))


@pytest.mark.parametrize("table", ["dark wood", "light cloth"])
def test_a_court_whose_picture_fills_its_face_is_found_and_never_misread(table: str) -> None:
    # A court leaves little of its face plain paper (a real deck's measured 0.20-0.34 of it,
    # under the 0.35 that tells a card from a pale patch of clutter): its plain margin all round
    # says it is a card. Before, find mode found no card on such courts at all.
    rng = np.random.default_rng(3)
    for text in ("KH", "QS", "JD"):
        card = Card.parse(text)
        quad = card_quad(640, 480, float(rng.uniform(280, 340)), float(rng.uniform(-15, 15)),
                         (float(rng.uniform(280, 360)), float(rng.uniform(220, 260))), 0.03, rng)
        background = dark_table(rng) if table == "dark wood" else light_background(640, 480, rng)
        frame = place_card(background, printed_court(card, rng), quad)
        found = find_card(frame)
        assert found is not None, text
        assert _corner_error(found, quad) <= 0.05 * 300 / 1.4, (text, found, quad)
        # The reader sees a card there (the dealer is asked where it is unsure), never another card.
        reading = Reader().read(frame)
        assert reading.present and reading.why != "no card found", (text, reading)
        assert reading.card in (card, None), (text, reading)


def test_a_patchwork_with_as_much_paper_but_no_plain_margin_is_no_card() -> None:
    # A card-sized tile of coloured and white squares (a quarter of it white, as much paper as a
    # court shows) with a coloured edge: paper inside, but no margin round it, so no card.
    rng = np.random.default_rng(4)
    tile = np.zeros((350, 250, 3), np.uint8)
    colours = [(30, 40, 200), (200, 120, 20), (20, 180, 230), (60, 160, 60), (245, 245, 245)]
    for y in range(0, 350, 14):
        for x in range(0, 250, 14):
            colour = colours[4] if rng.random() < 0.3 else colours[int(rng.integers(4))]
            cv2.rectangle(tile, (x, y), (x + 13, y + 13), colour, -1)
    cv2.rectangle(tile, (0, 0), (249, 349), (30, 40, 200), 10)
    quad = card_quad(640, 480, 300, 5, (320, 240))
    frame = place_card(dark_table(rng), tile, quad, shadow=False)
    found = find_card(frame)
    assert found is None or _corner_error(found, quad) > 0.2 * 300 / 1.4, found
