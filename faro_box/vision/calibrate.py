"""Calibration of the camera over the box: where the window is, is it sharp, is it well lit.

Pure: the command (faro_box.commands.calibrate) grabs the frames and writes the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.errors import VisionError
from faro_box.vision.balance import BALANCE, balanced
from faro_box.vision.canonical import (
    LEAST_CARD_PX,
    check_image,
    check_inside,
    longest_side,
    monochrome,
    parse_window,
    warp_window,
)
from faro_box.vision.locate import paper_saturation

# The variance of the Laplacian of the window warped upright, paper scaled to 200: the simulated
# box scores about 170-700, the same pictures blurred by a defocus of 2.5 pixels about 20.
SHARP = 80.0
BRIGHT_RANGE = (110, 250)  # the paper's brightness (75th percentile of grey in the window)
CLIPPED_MAX = 0.02  # at most this share of the window burnt out (255) or black (0)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    value: float
    advice: str  # what to do about it, or "" when ok


@dataclass(frozen=True, slots=True)
class Calibration:
    window: tuple[tuple[float, float], ...]
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def find_window(image: np.ndarray) -> np.ndarray:
    """The box's window: the outline of the card lying in it, clockwise from the top-left.

    The card is the largest region of plain paper (brighter than the box around it). Its rounded corners would cut the
    corners of a fitted polygon, so each side is fitted as a line through the outline's points
    away from the corners, and the corners are where those lines meet (perspective kept).
    """
    image = check_image(image)
    # Balanced first, and paper as plain as the brightest part (find mode's own rules): a
    # camera's bluish white is paper too.
    even = balanced(image)
    hsv = cv2.cvtColor(even, cv2.COLOR_BGR2HSV)
    sat, val = hsv[..., 1], hsv[..., 2]
    unburnt = val[val < BALANCE.clipped]
    paper = float(np.percentile(unburnt if unburnt.size else val, 99.5))
    bright = np.where((val > 0.8 * paper) & (sat < paper_saturation(even, sat)), np.uint8(255), np.uint8(0))
    mask = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contour = _innermost_card(mask)
    hull = cv2.convexHull(contour)
    box = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    points = cv2.approxPolyDP(hull, 0.5, True).reshape(-1, 2).astype(np.float64)
    dense = _densify(points)
    lines = []
    for i in range(4):
        a, b = box[i], box[(i + 1) % 4]
        side = b - a
        length = float(np.hypot(*side))
        normal = np.array([-side[1], side[0]]) / length
        along = (dense - a) @ side / (length * length)
        near = np.abs((dense - a) @ normal) < 0.08 * length + 3
        chosen = dense[near & (along > 0.15) & (along < 0.85)]
        if len(chosen) < 5:
            raise VisionError(_NO_CARD)
        vx, vy, x0, y0 = cv2.fitLine(chosen.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = np.array([_meet(lines[i - 1], lines[i]) for i in range(4)], np.float32)
    return _clockwise_portrait(corners)


def _innermost_card(mask: np.ndarray) -> np.ndarray:
    """The outline of the card: the largest card-shaped region that holds no other one of at
    least WINDOW.inner_share of its size (a pale box around the window, as bright as a real
    card's paper, holds the card: the card is the one inside)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    h, w = mask.shape
    shapes = []
    for contour in contours:
        area = cv2.contourArea(contour)
        x, y, bw, bh = cv2.boundingRect(contour)
        if area < WINDOW.least_share * mask.size or \
                (x <= 1) + (y <= 1) + (x + bw >= w - 1) + (y + bh >= h - 1) >= 3:
            continue  # too small, or the table itself, cut by the picture all round
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(contour)
        if not WINDOW.aspect[0] <= max(rw, rh) / max(min(rw, rh), 1.0) <= WINDOW.aspect[1]:
            continue
        shapes.append((area, (cx, cy), contour))
    shapes.sort(key=lambda s: -s[0])
    for area, _, outer in shapes:
        inside = [a for a, (cx, cy), c in shapes if c is not outer and a < area and a >= WINDOW.inner_share * area
                  and cv2.pointPolygonTest(outer, (cx, cy), False) > 0]
        if not inside:
            return outer
    raise VisionError(_NO_CARD)


@dataclass(frozen=True, slots=True)
class WindowTuning:
    least_share: float = 0.02  # of the picture: a smaller region is no card in the box
    aspect: tuple[float, float] = (1.15, 1.85)  # poker to bridge cards, in perspective
    # A region holding another card-shaped one this much of its size is the box around the card
    # (the card in a box's window is about two thirds of the box's top); a court's picture is no
    # plain paper, so a card holds nothing that large.
    inner_share: float = 0.4


WINDOW = WindowTuning()


def _densify(points: np.ndarray) -> np.ndarray:
    out = []
    for p, q in zip(points, np.roll(points, -1, axis=0), strict=True):
        steps = max(1, int(np.hypot(*(q - p))))
        out.append(p + (q - p) * np.arange(steps)[:, None] / steps)
    return np.concatenate(out)


def _meet(l1: tuple[np.ndarray, np.ndarray], l2: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    (p, d), (q, e) = l1, l2
    t = np.linalg.solve(np.array([d, -e]).T, q - p)[0]
    return p + t * d


def _clockwise_portrait(quad: np.ndarray) -> np.ndarray:
    centre = quad.mean(axis=0)
    quad = quad[np.argsort(np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0]))]
    quad = np.roll(quad, -int(np.argmin(quad.sum(axis=1))), axis=0)
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[3] - quad[0]):
        quad = np.roll(quad, -1, axis=0)  # a card lying sideways: the short side comes first
    return quad.astype(np.float32)


_NO_CARD = ("no card found in the picture: put the deck in the box, face up, and light it "
            "(or give the four corners of the window)")


def focus(image: np.ndarray, window: Sequence[Sequence[float]] | np.ndarray) -> float:
    """Variance of the Laplacian of the window, warped upright: high when the print is crisp."""
    grey = cv2.cvtColor(warp_window(image, _corners(window)), cv2.COLOR_BGR2GRAY).astype(np.float64)
    grey *= 200.0 / max(float(np.percentile(grey, 90)), 1.0)  # dim light is not blur
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def exposure(image: np.ndarray, window: Sequence[Sequence[float]] | np.ndarray) -> tuple[float, float]:
    """(paper brightness 0..255, share of burnt-out or black pixels) inside the window."""
    grey = cv2.cvtColor(warp_window(image, _corners(window)), cv2.COLOR_BGR2GRAY)
    clipped = float(np.count_nonzero((grey >= 255) | (grey <= 0))) / grey.size
    return float(np.percentile(grey, 75)), clipped


def calibrate(image: np.ndarray, window: Sequence[Sequence[float]] | None = None, *,
              card_visible: bool | None = None) -> Calibration:
    """Find (or check) the window and judge focus and exposure. ``card_visible``: the tracker's
    own verdict that the card fills the window edge to edge (None: not judged)."""
    image = check_image(image)
    corners = find_window(image) if window is None else parse_window(window)
    check_inside(corners, image.shape)
    sharpness = focus(image, corners)
    bright, clipped = exposure(image, corners)
    size = longest_side(corners)
    grey = monochrome(image)
    checks = [
        Check("card size", size >= LEAST_CARD_PX, size,
              "" if size >= LEAST_CARD_PX else f"the card is too small in the picture to read (its long side "
              f"{size:.0f} pixels, at least {LEAST_CARD_PX} are read): bring the camera closer or raise its resolution"),
        Check("focus", sharpness >= SHARP, sharpness,
              "" if sharpness >= SHARP else "the card's print is blurred: focus the lens on the card"),
        Check("brightness", BRIGHT_RANGE[0] <= bright <= BRIGHT_RANGE[1], bright,
              "" if BRIGHT_RANGE[0] <= bright <= BRIGHT_RANGE[1] else
              ("too dark: more light on the box" if bright < BRIGHT_RANGE[0] else "too bright: less light or exposure")),
        Check("clipping", clipped <= CLIPPED_MAX, clipped,
              "" if clipped <= CLIPPED_MAX else "parts of the card are burnt out or black: soften the light"),
        Check("colour", not grey, float(not grey),
              "" if not grey else "the camera gives a monochrome picture, where red ink is not told from black "
              "and no card is read: use a colour camera (or its colour mode)"),
    ]
    if card_visible is not None:
        checks.append(Check("card fills the window", card_visible, float(card_visible),
                            "" if card_visible else "the window's edge is not all card: redo the corners "
                            "just inside the card's edge, and keep hands away"))
    return Calibration(tuple((float(x), float(y)) for x, y in corners), tuple(checks))


def draw_window(image: np.ndarray, window: Sequence[Sequence[float]] | np.ndarray, ok: bool = True) -> np.ndarray:
    """A copy of the picture with the window outlined (green when all checks passed, red if not)
    and its first corner marked, so a person sees what the tracker will look at."""
    out = check_image(image).copy()
    corners = np.round(_corners(window)).astype(np.int32)
    colour = (60, 200, 60) if ok else (40, 40, 230)
    cv2.polylines(out, [corners], True, colour, 2, cv2.LINE_AA)
    cv2.circle(out, (int(corners[0][0]), int(corners[0][1])), 5, colour, -1, cv2.LINE_AA)
    return out


def _corners(window: Sequence[Sequence[float]] | np.ndarray) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in np.asarray(window, np.float32).reshape(4, 2)]
