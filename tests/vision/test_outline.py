"""Refining a rough card quadrilateral onto the card's edges (find mode's last step)."""

import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.vision.outline import refine_quad
from faro_box.vision.sim.render import render_card
from faro_box.vision.sim.synth import busy_background, card_quad, light_background, place_card


@pytest.mark.parametrize("table", [busy_background, light_background])
def test_rough_corners_move_onto_the_card(table) -> None:  # noqa: ANN001
    rng = np.random.default_rng(11)
    errors_before, errors_after = [], []
    for card in ("QH", "7C", "AS", "10D"):
        quad = card_quad(640, 480, float(rng.uniform(240, 360)), float(rng.uniform(0, 360)),
                         (float(rng.uniform(260, 380)), float(rng.uniform(220, 260))), 0.05, rng)
        frame = place_card(table(640, 480, rng), render_card(Card.parse(card)), quad)
        rough = quad + rng.uniform(-5.0, 5.0, quad.shape).astype(np.float32)
        found = refine_quad(frame, rough, 2.0)
        assert found.shape == (4, 2) and found.dtype == np.float32
        errors_before.append(float(np.abs(rough - quad).max()))
        errors_after.append(float(np.abs(found - quad).max()))
    assert max(errors_after) <= 2.0, errors_after
    assert np.mean(errors_after) < 0.5 * np.mean(errors_before)


def test_a_quad_on_a_blank_frame_stays_put() -> None:
    frame = np.full((480, 640, 3), 128, np.uint8)
    rough = np.array([[200, 100], [400, 100], [400, 380], [200, 380]], np.float32)
    np.testing.assert_array_equal(refine_quad(frame, rough, 2.0), rough)
