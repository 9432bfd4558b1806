"""The canonical view of a card: an upright face CANON_W×CANON_H whose top-left corner holds an
index, warped from a calibrated window or from the outline find mode found; what a camera shows
(a whole face or an index corner); and the checks on the images and windows that come in."""

from __future__ import annotations

import enum
from collections.abc import Sequence

import cv2
import numpy as np

from faro_box.errors import VisionError


class View(enum.Enum):
    """What the camera shows: a whole card face, or a close-up of the index corner only."""

    FACE = "face"
    CORNER = "corner"


CANON_W, CANON_H = 200, 280
_CANON_DST = np.array([[0, 0], [CANON_W - 1, 0], [CANON_W - 1, CANON_H - 1], [0, CANON_H - 1]], np.float32)


def check_image(image: object) -> np.ndarray:
    """The image as HxWx3 uint8 BGR (a grey image is widened), or a VisionError saying why not."""
    if not isinstance(image, np.ndarray):
        raise VisionError(f"an image must be a numpy array, not {type(image).__name__!r}")
    if image.dtype != np.uint8:
        raise VisionError(f"an image must be uint8, not {str(image.dtype)!r}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim != 3 or image.shape[2] not in (3, 4) or min(image.shape[:2]) < 16:
        raise VisionError(f"an image must be HxWx3 and at least 16 pixels a side, not {image.shape!r}")
    if image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image


def monochrome(image: np.ndarray) -> bool:
    """Whether a picture's three channels are one: a monochrome camera's (no colour camera's
    noise leaves them equal over a whole picture).

    >>> grey = np.full((8, 8, 3), 120, np.uint8)
    >>> monochrome(grey), monochrome(grey + np.array([0, 0, 1], np.uint8))
    (True, False)
    """
    b, g, r = cv2.split(image)
    return not cv2.countNonZero(cv2.absdiff(b, g)) and not cv2.countNonZero(cv2.absdiff(g, r))


def parse_window(corners: Sequence[Sequence[float]] | Sequence[float]) -> np.ndarray:
    """Four (x, y) corners clockwise from top-left (or 8 numbers) as a 4×2 float32 array."""
    try:
        arr = np.asarray(corners, np.float32).reshape(4, 2)
    except (ValueError, TypeError):
        raise VisionError(f"a window is 4 corners x1,y1,...,x4,y4, not {corners!r}") from None
    if not np.all(np.isfinite(arr)):
        raise VisionError(f"a window's corners must be finite numbers, not {corners!r}")
    area = cv2.contourArea(arr)
    if area < 64:
        raise VisionError(f"the window {arr.ravel().tolist()!r} encloses no area (corners repeated or in a line)")
    # Shoelace sign in image coordinates (y down): positive means clockwise on screen. In float64:
    # corners far out (1e30) overflow float32's products to a NaN that no sign test refuses.
    x, y = arr[:, 0].astype(np.float64), arr[:, 1].astype(np.float64)
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:
        raise VisionError(f"the window {arr.ravel().tolist()!r} runs anticlockwise: give the corners "
                          "clockwise from the top-left")
    return arr


def check_inside(window: np.ndarray, shape: tuple[int, ...]) -> None:
    """VisionError unless every corner of ``window`` (parse_window's) lies on the picture of
    ``shape``: a window given by hand that reaches past the picture reads its border, not a card.

    >>> check_inside(parse_window([0, 0, 99, 0, 99, 139, 0, 139]), (140, 100, 3))
    >>> check_inside(parse_window([0, 0, 300, 0, 300, 139, 0, 139]), (140, 100, 3))
    Traceback (most recent call last):
    faro_box.errors.VisionError: the window [0.0, 0.0, 300.0, 0.0, 300.0, 139.0, 0.0, 139.0] reaches outside the 100x140 picture
    """
    h, w = shape[:2]
    if window[:, 0].min() < 0 or window[:, 1].min() < 0 or window[:, 0].max() > w or window[:, 1].max() > h:
        raise VisionError(f"the window {window.ravel().round(1).tolist()!r} reaches outside the {w}x{h} picture")


# A card whose long side is shorter than this in the picture is not read: its index glyphs are a
# few pixels tall, where a spade's point and a club's leaf blur into one.
LEAST_CARD_PX = 80
TOO_SMALL = "the card is too small in the picture to read its index"


def too_small(quad: np.ndarray) -> bool:
    """Whether the card at ``quad`` is under LEAST_CARD_PX along its longest side.

    >>> too_small(np.array([[0, 0], [40, 0], [40, 56], [0, 56]], np.float32))
    True
    >>> too_small(np.array([[0, 0], [64, 0], [64, 90], [0, 90]], np.float32))
    False
    """
    return longest_side(quad) < LEAST_CARD_PX


def longest_side(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).max())


def canonical_size(face: np.ndarray) -> np.ndarray:
    """An upright face at CANON_W×CANON_H, resized only where it is another size."""
    if face.shape[:2] != (CANON_H, CANON_W):
        face = cv2.resize(face, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    return face


def warp_quad(frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
    return _warp(frame, _canon_matrix(quad), (CANON_W, CANON_H))


def _canon_matrix(quad: np.ndarray) -> np.ndarray:
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32), _CANON_DST)


def _warp(frame: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class CardView:
    """A card located in a frame, warped to the canonical view only where a reader looks.

    The index corners are a fifth of the face and the pips a half: warping just those, and the
    rest only when a reader asks for the whole face, is most of a whole warp saved per frame.
    """

    __slots__ = ("_face", "_frame", "_m")

    def __init__(self, frame: np.ndarray, quad: np.ndarray) -> None:
        self._frame, self._m = frame, _canon_matrix(quad)
        self._face: np.ndarray | None = None

    def face(self) -> np.ndarray:
        """The whole canonical face (warp_quad's result)."""
        if self._face is None:
            self._face = _warp(self._frame, self._m, (CANON_W, CANON_H))
        return self._face

    def region(self, rows: tuple[int, int], cols: tuple[int, int], *, turned: bool = False) -> np.ndarray:
        """``face()[r0:r1, c0:c1]``; ``turned``: the same rectangle of the face turned half way
        round (``face()[H-r1:H-r0, W-c1:W-c0][::-1, ::-1]``), warped on its own."""
        (r0, r1), (c0, c1) = rows, cols
        if self._face is not None:
            part = self._face[CANON_H - r1: CANON_H - r0, CANON_W - c1: CANON_W - c0][::-1, ::-1] if turned \
                else self._face[r0:r1, c0:c1]
            return np.ascontiguousarray(part)
        # Canonical (x, y) -> region (x - c0, y - r0), or turned: (W - 1 - c0 - x, H - 1 - r0 - y).
        sign = -1.0 if turned else 1.0
        shift = np.array([[sign, 0.0, (CANON_W - 1 - c0) if turned else -c0],
                          [0.0, sign, (CANON_H - 1 - r0) if turned else -r0],
                          [0.0, 0.0, 1.0]])
        return _warp(self._frame, shift @ self._m, (c1 - c0, r1 - r0))


def warp_window(frame: np.ndarray, corners: Sequence[tuple[float, float]]) -> np.ndarray:
    """The calibrated quadrilateral (clockwise from top-left) warped to the canonical card view."""
    return warp_quad(check_image(frame), parse_window(corners))
