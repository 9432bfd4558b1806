"""Helpers for the vision tests: rendered cards placed in seeded synthetic frames."""

from __future__ import annotations

import numpy as np

from faro_box.vision.sim import synth
from faro_box.vision.sim.render import render_card


def scene(card, *, seed: int, light: bool = True, height: float = 360, angle: float = 0.0,
          centre=(320, 240), tilt: float = 0.04, style=None):
    """A 640×480 frame holding ``card`` and the quad where it lies (clockwise from its top-left)."""
    rng = np.random.default_rng(seed)
    bg = synth.light_background(640, 480, rng) if light else synth.busy_background(640, 480, rng)
    quad = synth.card_quad(640, 480, height, angle, centre, tilt, rng)
    return synth.place_card(bg, render_card(card, style=style), quad), quad


def near_miss(card, miss: str, *, seed: int, covers: dict, blur: float):
    """A 640×480 frame holding ``card`` damaged as near misses are, and the quad where it lies:
    ``miss`` "heavy blur" (Gaussian sigma ``blur``), or a key of ``covers``: (x0, y0, x1, y1) as
    fractions of the face and whether an ellipse, laid over both index corners."""
    face = render_card(card)
    if miss == "heavy blur":
        face = synth.blur(face, blur)
    else:
        box, ellipse = covers[miss]
        x0, y0, x1, y1 = box
        face = synth.occlude(face, box, ellipse=ellipse)
        face = synth.occlude(face, (1 - x1, 1 - y1, 1 - x0, 1 - y0), ellipse=ellipse)
    rng = np.random.default_rng(seed)
    bg = synth.light_background(640, 480, rng)
    quad = synth.card_quad(640, 480, 360, 0, (320, 240), 0.03, rng)
    return synth.place_card(bg, face, quad), quad


def enrolment_faces(make=render_card, *, seed: int) -> list:
    """Each card of the deck as ``make`` draws it, found upright in a frame and cut to its
    canonical face, as `faro-box enroll` takes a photo: (card, face) pairs."""
    from faro_box.cards import FULL_DECK
    from faro_box.vision.canonical import warp_quad

    seen = []
    rng = np.random.default_rng(seed)
    for card in FULL_DECK:
        quad = synth.card_quad(640, 480, 360, 0, (320, 240), 0.02, rng)
        frame = synth.place_card(synth.light_background(640, 480, rng), make(card), quad)
        seen.append((card, warp_quad(frame, quad)))
    return seen
