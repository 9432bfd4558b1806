"""A card's four sides found precisely near a rough quadrilateral: the warp needs them to a pixel.

The card search looks at a small copy of the frame, where a corner is only known to a few of
the frame's pixels. Each side is looked for again across the rough one, on a finer image: the
strongest change of brightness across the side at several points along it (clear of the rounded
corners), a straight line through those points (points far from the line are dropped: a
finger, a printed frame line, the table's pattern), and the corners where the lines meet.
A side that shows too few clear points keeps its rough line. The probes reach far across the
middle of each side: a rough corner may be cut off by several pixels, which tilts its sides.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

_ALONG = np.linspace(0.25, 0.75, 7, dtype=np.float32)  # where each side is probed: clear of the corners
_REACH = 8  # pixels probed on either side of the rough side: a rough corner may be cut off by several
_OUTLIER = 1.5  # pixels off the fitted line: that probe saw something else
_LEAST_STEP = 6.0  # levels per pixel (mean of the channels): a weaker change is no card edge
_LEAST_SHARE = 0.55  # of a side's probes, after the outliers are dropped
_SPOTS = _ALONG.tolist()
_N, _M = len(_ALONG), 2 * _REACH + 3  # probes per side; samples across each (one more each end)
# Rows (1, t, s) for every probe sample, t along the side and s across it in pixels.
_DESIGN = np.array([(1.0, t, s) for t in _SPOTS for s in range(-_REACH - 1, _REACH + 2)], np.float32)


def refine_quad(image: np.ndarray, quad: np.ndarray, unit: float = 1.0) -> np.ndarray:
    """``quad`` (4×2, in ``image``'s pixels, corners in order round the card) with each side moved
    onto the card's edge in ``image`` (BGR) where it shows; float32 4×2. ``unit``: the probes'
    step across a side, in pixels (reach and tolerances count in these steps)."""
    q = quad.astype(np.float32)
    # Plain floats for four sides: numpy's per-call cost would be most of the work at this size.
    corners = q.tolist()
    sides = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        if length < 4 * _REACH * unit:
            return q
        # Start, direction, and the normal (across) one step long.
        sides.append((x0, y0, dx, dy, unit * dy / length, -unit * dx / length))
    # All probe points by one product: (along, across) -> x = x0 + t·dx + s·nx, y likewise.
    coefficients = np.array(sides, np.float32).T[[0, 2, 4, 1, 3, 5]].reshape(2, 3, 4)
    xs, ys = (_DESIGN @ coefficients).transpose(0, 2, 1).reshape(2, 4 * _N, _M)
    samples = cv2.remap(image, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    level = samples.sum(axis=2, dtype=np.int16)  # the three channels alike: a red edge counts too
    step = cv2.absdiff(level[:, 2:], level[:, :-2])  # 2 × 3 × the central differences, at -reach .. reach
    peaks = step.argmax(axis=1).tolist()
    rows = step.tolist()
    fits = []
    for k in range(4):
        ts, offsets = [], []
        for j in range(_N):
            row, at = rows[k * _N + j], peaks[k * _N + j]
            top = row[at]
            if top < 6 * _LEAST_STEP:
                continue
            shift = 0.0
            if 0 < at < 2 * _REACH:
                # Sub-pixel: the vertex of the parabola through the peak and its neighbours.
                curve = row[at - 1] - 2 * top + row[at + 1]
                if curve < 0:
                    shift = 0.5 * (row[at - 1] - row[at + 1]) / curve
            ts.append(_SPOTS[j])
            offsets.append(at - _REACH + shift)
        fits.append(_fit(ts, offsets))
    out = q.copy()
    for i in range(4):
        p = _meet(sides[i - 1], fits[i - 1], sides[i], fits[i])
        if p is not None and max(abs(p[0] - corners[i][0]), abs(p[1] - corners[i][1])) <= 3 * _REACH * unit:
            out[i] = p
    return out


def _fit(ts: list[float], offsets: list[float]) -> tuple[float, float]:
    """offset ≈ a + (b - a)·t by least squares, twice (probes far from the first line dropped):
    (a, b), the offsets at the side's ends; (0, 0) when fewer than ``least`` probes fit."""
    least = _LEAST_SHARE * _N
    for _ in range(2):
        n = len(ts)
        if n < least:
            return 0.0, 0.0
        st = so = stt = sto = 0.0
        for t, o in zip(ts, offsets, strict=True):
            st += t
            so += o
            stt += t * t
            sto += t * o
        det = n * stt - st * st
        if det <= 1e-6:
            return 0.0, 0.0
        slope = (n * sto - st * so) / det
        a = (so - slope * st) / n
        keep = [i for i in range(n) if abs(offsets[i] - (a + slope * ts[i])) <= _OUTLIER]
        if len(keep) == n:
            break  # nothing dropped: the second fit would be this one
        ts, offsets = [ts[i] for i in keep], [offsets[i] for i in keep]
    return (a, a + slope) if len(ts) >= least else (0.0, 0.0)


def _meet(side0: tuple[float, ...], fit0: tuple[float, float],
          side1: tuple[float, ...], fit1: tuple[float, float]) -> tuple[float, float] | None:
    """Where side 0, moved across itself by its fit's offsets at its ends, meets side 1 moved."""
    x0, y0, dx0, dy0, nx0, ny0 = side0
    x1, y1, dx1, dy1, nx1, ny1 = side1
    (a0, b0), (a1, b1) = fit0, fit1
    px0, py0, ex0, ey0 = x0 + a0 * nx0, y0 + a0 * ny0, dx0 + (b0 - a0) * nx0, dy0 + (b0 - a0) * ny0
    px1, py1, ex1, ey1 = x1 + a1 * nx1, y1 + a1 * ny1, dx1 + (b1 - a1) * nx1, dy1 + (b1 - a1) * ny1
    det = ex0 * ey1 - ey0 * ex1
    if abs(det) < 1e-6:
        return None
    u = ((px1 - px0) * ey1 - (py1 - py0) * ex1) / det
    return px0 + u * ex0, py0 + u * ey0
