"""Recolourings of real photos: a Raspberry Pi camera's cast, a lamp's glare on glossy stock.

The recognition benchmarks and tests put real sets through these to measure a reader under a
camera and a light it was not tuned on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class PiCast:
    # Channel gains (B, G, R) of a Pi camera module without white balance: white paper comes out
    # blue, saturation about 150 of 255, as the Pi camera photos showed.
    gains: tuple[float, float, float] = (1.0, 0.86, 0.45)
    gamma: float = 1.1  # its darker mid-tones


def pi_camera(image: np.ndarray, cast: PiCast = PiCast()) -> np.ndarray:
    out = 255.0 * (image.astype(np.float32) / 255.0) ** cast.gamma * np.array(cast.gains, np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class Glare:
    # The blob's centre (fractions of the image), its half-widths, and how far it lifts the paper:
    # enough to saturate the paper and wash out ink under its middle.
    centre: tuple[float, float] = (0.5, 0.5)
    size: tuple[float, float] = (0.22, 0.18)
    lift: float = 230.0


def glare(image: np.ndarray, spot: Glare = Glare()) -> np.ndarray:
    h, w = image.shape[:2]
    cx, cy = spot.centre[0] * w, spot.centre[1] * h
    sx, sy = spot.size[0] * w, spot.size[1] * h
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    blob = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2)
    out = image.astype(np.float32) + spot.lift * blob[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def glare_at(seed: int) -> Glare:
    """A glare spot placed by ``seed``: deterministic per image, somewhere over the card."""
    rng = np.random.default_rng(seed)
    return Glare((float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8))),
                 (float(rng.uniform(0.15, 0.3)), float(rng.uniform(0.1, 0.25))))
