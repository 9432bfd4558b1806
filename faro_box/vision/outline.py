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
_LEAST_STEP = 6.0  # grey levels per pixel: a weaker change is no card edge
_LEAST_SHARE = 0.55  # of a side's probes, after the outliers are dropped


def refine_quad(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (4×2, in ``image``'s pixels, corners in order round the card) with each side moved
    onto the card's edge in ``image`` (grey or BGR: the channels' sum) where it shows; float32 4×2."""
    q = quad.astype(np.float32)
    along, reach, outlier = _ALONG, _REACH, _OUTLIER
    # Plain floats for four sides: numpy's per-call cost would be most of the work at this size.
    corners = q.tolist()
    sides = []
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        if length < 4 * reach:
            return q
        sides.append((x0, y0, dx, dy, dy / length, -dx / length))  # start, direction, normal (across)
    geo = np.array(sides, np.float32)[:, :, None, None]
    # Probe points (4 sides, n along, 2·reach + 3 across: one more each end for the gradient).
    n = len(along)
    t = along[None, :, None]
    across = np.arange(-reach - 1, reach + 2, dtype=np.float32)[None, None, :]
    xs = (geo[:, 0] + t * geo[:, 2] + across * geo[:, 4]).reshape(4 * n, -1)
    ys = (geo[:, 1] + t * geo[:, 3] + across * geo[:, 5]).reshape(4 * n, -1)
    samples = cv2.remap(image, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    level = samples.sum(axis=2, dtype=np.int32) if samples.ndim == 3 else samples.astype(np.int32)
    step = np.abs(level[:, 2:] - level[:, :-2])  # central differences (×2, ×channels) at -reach .. reach
    at = step.argmax(axis=1)
    rows = np.arange(4 * n)
    top = step[rows, at]
    # Sub-pixel: the vertex of the parabola through the peak and its neighbours.
    left = step[rows, np.maximum(at - 1, 0)]
    right = step[rows, np.minimum(at + 1, 2 * reach)]
    curve = left - 2 * top + right
    inner = (at > 0) & (at < 2 * reach) & (curve < 0)
    offset = (at - reach + np.where(inner, 0.5 * (left - right) / np.where(inner, curve, -1), 0.0)).tolist()
    clear = (top >= 2 * _LEAST_STEP * (samples.shape[2] if samples.ndim == 3 else 1)).tolist()
    spots = along.tolist()
    fits = []
    for k in range(4):
        use = [j for j in range(n) if clear[k * n + j]]
        fits.append(_fit([spots[j] for j in use], [offset[k * n + j] for j in use], _LEAST_SHARE * n, outlier))
    out = q.copy()
    for i in range(4):
        p = _meet(sides[i - 1], fits[i - 1], sides[i], fits[i])
        if p is not None and max(abs(p[0] - corners[i][0]), abs(p[1] - corners[i][1])) <= 3 * reach:
            out[i] = p
    return out


def _fit(ts: list[float], offsets: list[float], least: float, outlier: float) -> tuple[float, float]:
    """offset ≈ a + (b - a)·t by least squares, twice (probes far from the first line dropped):
    (a, b), the offsets at the side's ends; (0, 0) when fewer than ``least`` probes fit."""
    a = b = 0.0
    for _ in range(2):
        n = len(ts)
        if n < least:
            return 0.0, 0.0
        st, so = sum(ts), sum(offsets)
        stt, sto = sum(t * t for t in ts), sum(t * o for t, o in zip(ts, offsets, strict=True))
        det = n * stt - st * st
        if det <= 1e-6:
            return 0.0, 0.0
        slope = (n * sto - st * so) / det
        a = (so - slope * st) / n
        b = a + slope
        keep = [i for i in range(n) if abs(offsets[i] - (a + slope * ts[i])) <= outlier]
        ts, offsets = [ts[i] for i in keep], [offsets[i] for i in keep]
    return (a, b) if len(ts) >= least else (0.0, 0.0)


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
