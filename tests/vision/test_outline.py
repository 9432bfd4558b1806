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


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, the best of the four ways round (a card and itself turned 180°)."""
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4))


@pytest.mark.parametrize("trouble", ["Pi camera cast", "glare", "both"])
def test_a_bluish_or_glaring_card_on_a_light_table_is_found_to_its_corners(trouble: str) -> None:
    from faro_box.vision.locate import find_card
    from faro_box.vision.sim.synth import PI_CAMERA_CAST, glare, lighting

    rng = np.random.default_rng(5)
    for card in ("KS", "3H", "JD", "9C"):
        quad = card_quad(640, 480, float(rng.uniform(260, 340)), float(rng.uniform(-20, 20)),
                         (float(rng.uniform(280, 360)), float(rng.uniform(220, 260))), 0.04, rng)
        frame = place_card(light_background(640, 480, rng), render_card(Card.parse(card)), quad)
        if trouble != "glare":
            frame = lighting(frame, tint=PI_CAMERA_CAST)
        if trouble != "Pi camera cast":
            frame = glare(frame, quad, rng)
        found = find_card(frame)
        assert found is not None, card
        assert _corner_error(found, quad) <= 0.05 * 300 / 1.4, (card, found, quad)
