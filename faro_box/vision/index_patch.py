"""The index patch: the square of a card's corner that the learned reader looks at.

Training and reading cut the same patch: PATCH×PATCH pixels, BGR, taken from a square window of
the canonical face (or the whole corner close-up), then white-balanced on its own paper so a
camera's colour cast does not reach the network.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.vision.canonical import CANON_H, CANON_W, CardView

PATCH = 64  # the network's input side, pixels


@dataclass(frozen=True, slots=True)
class IndexWindow:
    """Where a deck prints its index: a square of the canonical face, as fractions of its width.

    The default square, half the card's width from the very corner, holds every index from the
    smallest we render (rank glyph 6% of the card's height) to the largest (17%) with its pip.
    Enrolment may learn a tighter or shifted one for its deck.
    """

    x: float = 0.0
    y: float = 0.0
    side: float = 0.5

    def bounds(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(rows, cols) of the window in the canonical face, clipped to it."""
        x0, y0 = round(self.x * CANON_W), round(self.y * CANON_W)
        s = round(self.side * CANON_W)
        return (max(0, y0), min(CANON_H, y0 + s)), (max(0, x0), min(CANON_W, x0 + s))


@dataclass(frozen=True, slots=True)
class Balance:
    """White balance on the patch's own paper: each channel over its PAPER_PERCENTILE."""

    # The paper is the patch's brightest large area: above the 97th percentile lies glare or
    # the odd specular pixel, below it the paper even where ink fills most of the patch.
    paper_percentile: float = 97.0
    ceiling: float = 1.25  # glare brighter than the paper, clipped: it carries no ink
    floor: float = 8.0  # a black frame has no paper: its level is not divided by ~0


BALANCE = Balance()


def face_patches(view: CardView, window: IndexWindow = IndexWindow()) -> list[np.ndarray]:
    """Both index corners of a found card (top-left, bottom-right turned upright), PATCH² BGR."""
    rows, cols = window.bounds()
    return [cv2.resize(view.region(rows, cols, turned=which == 1), (PATCH, PATCH), interpolation=cv2.INTER_AREA)
            for which in (0, 1)]


def corner_patch(image: np.ndarray) -> np.ndarray:
    """A corner close-up (the whole image is the corner), PATCH² BGR."""
    return cv2.resize(image, (PATCH, PATCH), interpolation=cv2.INTER_AREA)


def prepare(patches: np.ndarray, balance: Balance = BALANCE) -> np.ndarray:
    """(n, PATCH, PATCH, 3) uint8 BGR -> (n, 3, PATCH, PATCH) float32 network input."""
    x = patches.astype(np.float32)
    paper = np.maximum(channel_percentile(patches, balance.paper_percentile), balance.floor).astype(np.float32)
    x = np.minimum(x / paper[:, None, None, :], balance.ceiling) - 0.5
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def channel_percentile(patches: np.ndarray, q: float) -> np.ndarray:
    """(n, 3) float32: each patch's ``q``th percentile per channel, to the bit what
    ``np.percentile(patches.astype(np.float32).reshape(n, -1, 3), q, axis=1)`` gives (numpy's
    linear method), without sorting the whole patch: the two order statistics it interpolates between
    are taken from the patch's own values (a float32 cast keeps their order), and the
    interpolation is numpy's, in float32."""
    values = patches.reshape(len(patches), -1, patches.shape[-1]).transpose(0, 2, 1)
    m = values.shape[-1]
    at = (m - 1) * (q / 100)
    lo = min(max(math.floor(at), 0), m - 1)
    hi = min(lo + 1, m - 1)
    part = np.partition(values, (lo, hi) if hi != lo else lo, axis=-1)
    a = part[..., lo].astype(np.float32)
    if at >= m - 1 or at < 0:
        return a
    b = part[..., hi].astype(np.float32)
    t = at - lo
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t
