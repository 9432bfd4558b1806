"""A card under a lamp's glare: its quadrilateral from the straight sides that still show.

Glare burns out part of a glossy card and of a varnished table alike, and joins the two in every
mask of bright plain paper: the region found is the card and a bright patch of table, of no
card's shape, and where the glare lies across the card's edge its outline never closes. But a
card's sides are long straight edges wherever the glare has left them, and glare has no sharp
edge of its own. So in a picture with burnt-out light in it, a region is a card only where each
of its sides either shows as an edge or lies under the burnt-out light (which is why it does not
show), and the card is also looked for among the picture's long straight lines: four, two and
two nearly parallel, or three, the fourth side lost under the glare where the two beside it end.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class GlareTuning:
    """When a picture has glare in it, and what counts as a side that shows."""

    burnt: int = 245  # every channel at or above this: burnt out, no colour and no edge left
    least_share: float = 0.01  # of the searched picture burnt out: below it, no glare to allow for
    # A side shows where this share of points along it (clear of the corners) is on an edge, or
    # lies under the glare where this share of them is burnt out.
    side_shown: float = 0.5
    side_samples: int = 20
    # Steep: a slope (3x3 Sobel of the smoothed picture: 8 per level a pixel) of at least this
    # across the side, and this many times the slope along it, at one of these offsets across it.
    least_slope: float = 40.0
    across_over_along: float = 2.0
    across: tuple[float, ...] = (-1.5, 0.0, 1.5)
    least_shown: int = 2  # sides that show as edges: a patch of glare alone is bounded by none
    # Lines: the strongest few straight lines of the picture (Hough votes of at least this share
    # of a card's smallest side), near-duplicates within these of one another dropped.
    lines: int = 10
    least_votes: float = 0.75
    same_line: tuple[float, float] = (5.0, 5.0)  # degrees, pixels
    parallel: float = 20.0  # degrees: a card's opposite sides, seen at an angle, are this near parallel
    crossing: float = 55.0  # degrees: and its neighbouring sides at least this far from it
    near_line: float = 1.5  # pixels: an edge point this near a line lies on it
    least_apart: float = 8.0  # pixels: two opposite sides nearer than this are one


GLARE = GlareTuning()
_ALONG = np.linspace(0.1, 0.9, GLARE.side_samples, dtype=np.float32)  # clear of the corners
_ACROSS = np.asarray(GLARE.across, np.float32)
_ACROSS_ON = int(np.flatnonzero(_ACROSS == 0)[0])  # the offset on the side itself

Line = tuple[float, float, float]  # (nx, ny, c): the points with nx·x + ny·y = c, (nx, ny) a unit vector


def burnt_out(small: np.ndarray) -> np.ndarray:
    """Where ``small`` (BGR, before any colour balance) is burnt out, a pixel wider each way: 255
    there, 0 elsewhere."""
    burnt = cv2.inRange(small, (GLARE.burnt,) * 3, (255, 255, 255))
    return cv2.dilate(burnt, np.ones((3, 3), np.uint8))


def has_glare(burnt: np.ndarray) -> bool:
    """Whether enough of the picture is burnt out (burnt_out) to allow for glare.

    >>> has_glare(np.zeros((120, 160), np.uint8)), has_glare(np.full((120, 160), 255, np.uint8))
    (False, True)
    """
    return cv2.countNonZero(burnt) >= GLARE.least_share * burnt.size


def slopes(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The brightness slopes (x, y) of ``grey`` a little smoothed, for sides_show."""
    smooth = cv2.GaussianBlur(grey, (5, 5), 0)
    return cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)


def sides_show(quad: np.ndarray, slope: tuple[np.ndarray, np.ndarray], burnt: np.ndarray) -> bool:
    """Whether each side of ``quad`` shows as an edge along it (slopes, slope) or lies under the
    burnt-out light (``burnt``, nonzero there), and at least GLARE.least_shown of them show.

    A side shows at a point where the brightness changes steeply across it, far more than along
    it, within a pixel or two of it: a table's grain or a court's print running another way
    shows no side there.

    >>> grey = np.full((60, 60), 40, np.uint8)
    >>> square = np.array([[10, 10], [50, 10], [50, 50], [10, 50]], np.float32)
    >>> _ = cv2.fillConvexPoly(grey, square.astype(np.int32), 220)
    >>> burnt = np.zeros((60, 60), np.uint8)
    >>> sides_show(square, slopes(grey), burnt)
    True
    >>> grey[40:, :] = 255  # glare over the bottom of the card and the table below it
    >>> sides_show(square, slopes(grey), burnt)
    False
    >>> burnt[38:, :] = 255
    >>> sides_show(square, slopes(grey), burnt)
    True
    """
    gx, gy = slope
    h, w = burnt.shape[:2]
    q = quad.astype(np.float32)
    step = np.roll(q, -1, axis=0) - q
    length = np.sqrt((step * step).sum(axis=1))
    if length.min() < 1:
        return False
    d = step / length[:, None]
    n = d[:, ::-1] * np.array([-1, 1], np.float32)
    # Every side at once: (side, point along it, offset across it, x and y).
    points = q[:, None, None, :] + _ALONG[None, :, None, None] * step[:, None, None, :] \
        + _ACROSS[None, None, :, None] * n[:, None, None, :]
    at = np.rint(points).astype(np.int32)
    on = at[:, :, _ACROSS_ON]
    inside = (on[..., 0] >= 0) & (on[..., 0] < w) & (on[..., 1] >= 0) & (on[..., 1] < h)
    counted = inside.sum(axis=1)
    if counted.min() == 0:
        return False
    flat = np.clip(at[..., 1], 0, h - 1) * w + np.clip(at[..., 0], 0, w - 1)
    sx, sy = gx.ravel().take(flat), gy.ravel().take(flat)
    over = np.abs(sx * n[:, None, None, 0] + sy * n[:, None, None, 1])
    lengthwise = np.abs(sx * d[:, None, None, 0] + sy * d[:, None, None, 1])
    steep = ((over >= GLARE.least_slope) & (over >= GLARE.across_over_along * lengthwise)).any(axis=2)
    lit = burnt.ravel().take(flat[:, :, _ACROSS_ON]) > 0
    shows = (steep & inside).sum(axis=1) >= GLARE.side_shown * counted
    hidden = (lit & inside).sum(axis=1) >= GLARE.side_shown * counted
    return bool((shows | hidden).all()) and int(shows.sum()) >= GLARE.least_shown


def card_from_lines(grey: np.ndarray, thin: np.ndarray, burnt: np.ndarray, least_side: float,
                    score: Callable[[np.ndarray], float]) -> tuple[float, np.ndarray] | None:
    """(score, quadrilateral) of the best card the picture's long straight lines make, or None.

    ``grey``: the picture; ``thin``: its edge map, a pixel wide (nonzero on an edge); ``burnt``:
    its burnt-out light (burnt_out); ``least_side``: the
    shortest side a card may have, in pixels; ``score``: a quadrilateral's score as a card
    (corners in order round it), 0 for none. Every corner must lie inside the picture and every
    side show (sides_show).
    """
    lines = _strongest_lines(thin, GLARE.least_votes * least_side)
    if len(lines) < 3:
        return None
    points = np.column_stack(np.nonzero(thin)[::-1]).astype(np.float64)
    on = [points[np.abs(points @ np.array([nx, ny]) - c) < GLARE.near_line] for nx, ny, c in lines]
    h, w = grey.shape[:2]
    slope: tuple[np.ndarray, np.ndarray] | None = None
    best: tuple[float, np.ndarray] | None = None
    for corners in _quads(lines, on):
        if not _whole_and_convex(corners, w, h):
            continue
        quad = np.array(corners, np.float32)
        s = score(quad)
        if s > 0 and (best is None or s > best[0]):
            slope = slope if slope is not None else slopes(grey)
            if sides_show(quad, slope, burnt):
                best = (s, quad)
    return best


def _whole_and_convex(corners: list[tuple[float, float]], w: int, h: int) -> bool:
    """Whether the quadrilateral lies inside a w×h picture, clear of its edge (which would cut
    it: no card's whole outline), and is convex.

    >>> _whole_and_convex([(10, 10), (50, 10), (50, 60), (10, 60)], 100, 100)
    True
    >>> _whole_and_convex([(10, 10), (50, 10), (20, 20), (10, 60)], 100, 100)
    False
    >>> _whole_and_convex([(0, 10), (50, 10), (50, 60), (0, 60)], 100, 100)
    False
    """
    if any(x <= 1 or y <= 1 or x >= w - 2 or y >= h - 2 for x, y in corners):
        return False
    turns = [(corners[(i + 1) % 4][0] - x) * (corners[(i + 2) % 4][1] - corners[(i + 1) % 4][1])
             - (corners[(i + 1) % 4][1] - y) * (corners[(i + 2) % 4][0] - corners[(i + 1) % 4][0])
             for i, (x, y) in enumerate(corners)]
    return all(t > 0 for t in turns) or all(t < 0 for t in turns)


def _strongest_lines(thin: np.ndarray, votes: float) -> list[Line]:
    """The GLARE.lines strongest straight lines of the edge map ``thin``, near-duplicates dropped."""
    found = cv2.HoughLines(thin, 1, math.pi / 180, max(1, round(votes)))
    if found is None:
        return []
    same_angle, same_offset = math.radians(GLARE.same_line[0]), GLARE.same_line[1]
    kept: list[tuple[float, float]] = []
    for rho, theta in found.reshape(-1, 2).tolist():  # strongest first
        if not any((abs(theta - t) < same_angle and abs(rho - r) < same_offset)
                   or (abs(abs(theta - t) - math.pi) < same_angle and abs(rho + r) < same_offset)
                   for r, t in kept):
            kept.append((rho, theta))
            if len(kept) == GLARE.lines:
                break
    return [(math.cos(t), math.sin(t), r) for r, t in kept]


def _quads(lines: list[Line], on: list[np.ndarray]) -> Iterator[list[tuple[float, float]]]:
    """The corners, in order round it, of every quadrilateral of two pairs of nearly parallel
    lines that cross, and of one such pair and a line across it, closed where the pair's edge
    points (``on``: each line's) end: the fourth side under glare."""
    angles = [math.atan2(ny, nx) % math.pi for nx, ny, _ in lines]
    parallel, crossing = math.radians(GLARE.parallel), math.radians(GLARE.crossing)
    pairs = [(i, j) for i, j in itertools.combinations(range(len(lines)), 2)
             if _apart(angles[i], angles[j]) <= parallel]
    for (i, j), (k, m) in itertools.combinations(pairs, 2):
        if _apart(angles[i], angles[k]) >= crossing:
            corners = _corners(lines[i], lines[k], lines[j], lines[m])
            if corners is not None:
                yield corners
    ends: dict[tuple[int, int], float | None] = {}
    for i, j in pairs:
        for k in range(len(lines)):
            if k in (i, j) or _apart(angles[i], angles[k]) < crossing:
                continue
            for line in (i, j):
                if (line, k) not in ends:
                    ends[line, k] = _end(on[line], lines[k])
            one, other = ends[i, k], ends[j, k]
            if one is None or other is None or (one > 0) != (other > 0):
                continue
            far = max(one, other, key=abs)
            if abs(far) >= GLARE.least_apart:
                nx, ny, c = lines[k]
                corners = _corners(lines[i], lines[k], lines[j], (nx, ny, c + far))
                if corners is not None:
                    yield corners


def _apart(a: float, b: float) -> float:
    """The angle between two directions (radians, modulo a half turn)."""
    d = abs(a - b) % math.pi
    return min(d, math.pi - d)


def _end(on: np.ndarray, across: Line) -> float | None:
    """How far from ``across`` the edge points ``on`` a line reach (signed: on the side of it
    where most of them lie), or None where too few lie on the line."""
    if len(on) < 5:
        return None
    ax, ay, ac = across
    reach = on @ np.array([ax, ay]) - ac
    beyond, before = reach[reach > 0], reach[reach < 0]
    if len(beyond) >= len(before):
        return _quantile(beyond, 0.98) if len(beyond) else None
    return -_quantile(-before, 0.98)


def _quantile(values: np.ndarray, share: float) -> float:
    """numpy.quantile(values, share) (linear), by a partial sort: the whole one cost most of the search.

    >>> values = np.random.default_rng(1).normal(size=101)
    >>> bool(np.isclose(_quantile(values, 0.98), np.quantile(values, 0.98)))
    True
    """
    at = (len(values) - 1) * share
    lo = math.floor(at)
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, [lo, hi])
    return float(part[lo] + (at - lo) * (part[hi] - part[lo]))


def _corners(a: Line, b: Line, c: Line, d: Line) -> list[tuple[float, float]] | None:
    """Where a meets b, b meets c, c meets d and d meets a; None where two are parallel."""
    out = []
    for p, q in ((a, b), (b, c), (c, d), (d, a)):
        det = p[0] * q[1] - q[0] * p[1]
        if abs(det) < 1e-6:
            return None
        out.append(((p[2] * q[1] - q[2] * p[1]) / det, (p[0] * q[2] - q[0] * p[2]) / det))
    return out
