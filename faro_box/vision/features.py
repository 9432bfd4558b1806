"""Feature vectors the profile stores and the reader compares: index glyphs, pips, whole faces."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.vision import glyphs
from faro_box.vision.canonical import CANON_H, CANON_W, CardView, View, canonical_size

FACE_SHAPE = (56, 40)
# The index sits in the top-left of the canonical face; a margin lets a loose warp still hold it.
_INDEX_REGION = (0.0, 0.0, 0.3, 0.36)
_RANK_HEIGHT = 0.09 * CANON_H  # the rank glyph's height in the canonical face (printers vary ±40%)


@dataclass(frozen=True, slots=True)
class IndexFeatures:
    rank: np.ndarray  # (k, d): the glyph as segmented, then any alternative segmentations
    suit_whole: np.ndarray | None
    suit_tops: dict[float, np.ndarray]  # every SUIT_TOPS fraction the pip shows
    redness: float
    contrast: float
    pip: np.ndarray | None = None  # the whole pip's ink (None when it is cut)

    def pip_growth(self) -> float | None:
        """glyphs.pip_growth of the whole pip, measured when asked: only black ink needs it."""
        return glyphs.pip_growth(self.pip) if self.pip is not None else None


def index_features(index: glyphs.Index, *, reading: bool = False) -> IndexFeatures:
    """Features of one index; ``reading``: only those a reader compares (the whole pip, or the
    largest top a cut pip shows), where a profile keeps every top of every pip."""
    rank = np.stack([glyphs.glyph_feature(m, glyphs.RANK_SHAPE) for m in (index.rank, *index.rank_alternatives)])
    tops: dict[float, np.ndarray] = {}
    source = index.suit if index.suit is not None else None
    for f in glyphs.SUIT_TOPS:
        if reading and (source is not None or f != index.top):
            continue
        if source is not None:
            tops[f] = glyphs.glyph_feature(glyphs.pip_top(source, index.rank_box.h, f), glyphs.SUIT_SHAPE)
        elif f <= index.top:
            tops[f] = glyphs.glyph_feature(glyphs.pip_top(index.suit_top, index.rank_box.h, f), glyphs.SUIT_SHAPE)
    whole = glyphs.glyph_feature(index.suit, glyphs.SUIT_SHAPE) if index.suit is not None else None
    return IndexFeatures(rank, whole, tops, index.redness, index.contrast, index.suit)


def _index_bounds(h: int, w: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = _INDEX_REGION
    return round(y0 * h), round(y1 * h), round(x0 * w), round(x1 * w)


def corner_regions(face: np.ndarray) -> list[np.ndarray]:
    """The index regions of a canonical face: top-left, and bottom-right turned upright."""
    h, w = face.shape[:2]
    r0, r1, c0, c1 = _index_bounds(h, w)
    tl = face[r0:r1, c0:c1]
    br = face[h - r1: h - r0, w - c1: w - c0][::-1, ::-1]  # only the corner is turned, not the face
    return [np.ascontiguousarray(tl), np.ascontiguousarray(br)]


def read_index_region(image: np.ndarray, view: View, *, which: int = 0) -> glyphs.Index | None:
    if view is View.CORNER:
        return glyphs.find_index(image)
    region = corner_regions(image)[which]
    return glyphs.find_index(region, expect_height=_RANK_HEIGHT * image.shape[0] / CANON_H, paper_kernel=21)


def view_index(view: CardView, which: int) -> glyphs.Index | None:
    """read_index_region(view.face(), View.FACE, which=which), warping only that corner."""
    r0, r1, c0, c1 = _index_bounds(CANON_H, CANON_W)
    region = view.region((r0, r1), (c0, c1), turned=which == 1)
    return glyphs.find_index(region, expect_height=_RANK_HEIGHT, paper_kernel=21)


def face_feature(face: np.ndarray) -> np.ndarray:
    """The whole face, ink only and small: court art and pip layout, blind to light and tint."""
    face = canonical_size(face)
    ink, balanced = glyphs.ink_map(face, 31)
    redness = cv2.subtract(balanced[..., 2], balanced[..., 1]).astype(np.float32) * (1.0 / 255.0)
    rows, cols = FACE_SHAPE
    shape = cv2.resize(ink, (cols, rows), interpolation=cv2.INTER_AREA).ravel()
    red = cv2.resize(redness, (cols, rows), interpolation=cv2.INTER_AREA).ravel()
    # One norm for both planes: a black card's red plane stays near zero instead of amplified noise.
    v = np.concatenate([shape - shape.mean(), red - red.mean()])
    n = float(np.linalg.norm(v))
    return (v / n if n > 1e-6 else v).astype(np.float32)


def pip_feature(face: np.ndarray) -> np.ndarray | None:
    from faro_box.vision.pips import first_pip

    face = canonical_size(face)
    pip = first_pip(face)
    return glyphs.glyph_feature(pip, glyphs.SUIT_SHAPE) if pip is not None else None
