"""Counting the pips of a face: a rank cue that no font can change (A–10)."""

from __future__ import annotations

import numpy as np

from faro_box.vision import glyphs

_PIP_AREA = (0.2, 0.8, 0.07, 0.93)  # x0, x1, y0, y1 of the canonical face: the pips, not the indices


def pip_area(h: int, w: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The rows and columns of an h×w face where the pips lie."""
    return (round(_PIP_AREA[2] * h), round(_PIP_AREA[3] * h)), (round(_PIP_AREA[0] * w), round(_PIP_AREA[1] * w))


def count_pips(face: np.ndarray) -> int | None:
    """How many pips the face shows, or None when that is not clearly a pip card (courts, clutter)."""
    (y0, y1), (x0, x1) = pip_area(*face.shape[:2])
    return count_pips_in(face[y0:y1, x0:x1])


def count_pips_in(region: np.ndarray) -> int | None:
    """count_pips on the face's pip area alone (pip_area)."""
    binary = glyphs.ink_mask(region, 41, 0.4)
    n, _, stats = glyphs.components(binary)
    rh, rw = binary.shape
    areas, boxes = [], []
    # Specks and print dust dropped at once: a noisy frame holds hundreds.
    stats = stats[1:]
    for x, y, bw, bh, area in stats[stats[:, 4] >= 0.0015 * rh * rw].tolist():
        if x == 0 or y == 0 or x + bw >= rw or y + bh >= rh:
            return None  # something runs out of the pip area: a frame, a hand, a misplaced warp
        if area < 0.3 * bw * bh:
            return None  # outlines and line art: a court card or clutter
        areas.append(area)
        boxes.append((bw, bh))
    if not areas:
        return None
    if len(areas) == 1:
        # An ace: one large pip in the middle.
        return 1 if areas[0] > 0.03 * rh * rw else None
    med = float(np.median(areas))
    if any(a < 0.5 * med or a > 2.0 * med for a in areas) or len(areas) > 10:
        return None
    return len(areas)


def first_pip(face: np.ndarray) -> np.ndarray | None:
    """The ink of the top-left pip of a pip card (upright, in the upper half), for its suit's shape."""
    h, w = face.shape[:2]
    x0, x1, y0, y1 = (round(_PIP_AREA[0] * w), round(_PIP_AREA[1] * w), round(_PIP_AREA[2] * h), round(0.5 * h))
    ink, _ = glyphs.ink_map(face[y0:y1, x0:x1], 41)
    binary = (ink > 0.4).view(np.uint8)
    n, labels, stats = glyphs.components(binary)
    rh, rw = binary.shape
    best: tuple[int, int] | None = None
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < 0.004 * rh * rw or x == 0 or y == 0 or x + bw >= rw or y + bh >= rh or area < 0.3 * bw * bh:
            continue
        if best is None or x + y < best[0]:
            best = (x + y, i)
    if best is None:
        return None
    x, y, bw, bh, _ = (int(v) for v in stats[best[1]])
    own = labels[y:y + bh, x:x + bw] == best[1]
    return np.where(own, ink[y:y + bh, x:x + bw], 0.0).astype(np.float32)
