"""The corner index cut into its two glyphs (rank above, suit pip below), and their features.

Ink is measured against the paper around it, after white-balancing on that paper, so a blue or
yellow light changes neither what is ink nor whether it is red: the colour cross-check compares
red against green *relative to the paper's own colour*.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

RANK_SHAPE = (24, 16)  # rows, columns of a normalised rank glyph
SUIT_SHAPE = (20, 20)
_MIN_GLYPH_PX = 7
SUIT_TOPS = (0.22, 0.4)  # pip tops compared when the pip is cut, as fractions of the rank height


@dataclass(frozen=True, slots=True)
class Box:
    x0: int
    y0: int
    x1: int
    y1: int
    parts: tuple[int, ...] = ()  # the connected components (labels) that make up the glyph

    @property
    def w(self) -> int:
        return self.x1 - self.x0

    @property
    def h(self) -> int:
        return self.y1 - self.y0

    def union(self, other: Box) -> Box:
        return Box(min(self.x0, other.x0), min(self.y0, other.y0), max(self.x1, other.x1), max(self.y1, other.y1),
                   self.parts + other.parts)


@dataclass(frozen=True, slots=True)
class Index:
    """One corner index found in an image: glyph masks (0..1 ink) and the ink's redness."""

    rank: np.ndarray
    rank_alternatives: tuple[np.ndarray, ...]  # the glyph without a thin stroke merged on its left
    suit: np.ndarray | None  # None when the view's bottom edge cuts the pip
    suit_top: np.ndarray  # the pip's top part, ``top`` rank heights: all a cut pip may show
    top: float  # the largest of SUIT_TOPS that the pip shows in full
    rank_box: Box
    suit_box: Box
    redness: float  # > 0 red ink, < 0 black ink, in paper-relative units
    contrast: float  # how dark the ink is against the paper, 0..1


def ink_map(bgr: np.ndarray, paper_kernel: int) -> tuple[np.ndarray, np.ndarray]:
    """Ink strength 0..1 per pixel, and the white-balanced image (uint8, paper ≈ 255 per channel)."""
    darkness, balanced = _darkness(bgr, paper_kernel)
    return _strength(darkness), balanced


def black_ink_map(bgr: np.ndarray, paper_kernel: int) -> np.ndarray:
    """Ink strength 0..1 of black ink alone: what is dark in every channel against the paper. A
    court's frame tinted pale blue or yellow is dark in one channel, and ink_map takes it for ink
    round the black pip printed on it."""
    _, balanced = _darkness(bgr, paper_kernel)
    b, g, r = cv2.split(balanced)
    return _strength(255 - cv2.max(cv2.max(b, g), r))


def ink_mask(bgr: np.ndarray, paper_kernel: int, strength: float) -> np.ndarray:
    """``(ink_map(bgr, paper_kernel)[0] > strength)`` as a 0/1 uint8 mask, without the float map."""
    level = int(np.flatnonzero(_STRENGTHS <= strength)[-1])
    return cv2.threshold(_darkness(bgr, paper_kernel)[0], level, 1, cv2.THRESH_BINARY)[1]


def _darkness(bgr: np.ndarray, paper_kernel: int, work: _Work | None = None) -> tuple[np.ndarray, np.ndarray]:
    """ink_map's ink as 0..255 (uint8), and the white-balanced image; in ``work``'s arrays
    when given (the same numbers)."""
    k = _rect_kernel(paper_kernel)
    if work is None:
        # The paper is the local bright envelope of each channel; ink is what falls below it.
        paper = cv2.blur(cv2.dilate(bgr, k), (paper_kernel, paper_kernel))
        balanced = cv2.divide(bgr, cv2.max(paper, _EIGHTS), scale=255)  # type: ignore[call-overload, unused-ignore]
        b, g, r = cv2.split(balanced)
        return 255 - cv2.min(cv2.min(b, g), r), balanced
    paper = cv2.blur(cv2.dilate(bgr, k, dst=work.spread), (paper_kernel, paper_kernel), dst=work.paper)
    paper = cv2.max(paper, _EIGHTS, dst=paper)  # type: ignore[call-overload, unused-ignore]
    balanced = cv2.divide(bgr, paper, dst=work.spread, scale=255)
    lowest = cv2.extractChannel(balanced, 0, dst=work.lowest)
    lowest = cv2.min(lowest, cv2.extractChannel(balanced, 1, dst=work.channel), dst=lowest)
    lowest = cv2.min(lowest, cv2.extractChannel(balanced, 2, dst=work.channel), dst=lowest)
    return cv2.bitwise_not(lowest, dst=work.darkness), balanced  # 255 - lowest, for uint8


def _strength(darkness: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    return np.multiply(darkness, np.float32(1.0 / 255.0), dtype=np.float32, out=out)


# Thresholds on the ink strength as levels of the darkness it comes from (the strength is a
# float32 function of the level, rising with it): OpenCV's 8-bit thresholds give the same masks
# as the float comparisons, for a fraction of their cost.
_STRENGTHS = _strength(np.arange(256, dtype=np.uint8))
_GLYPH_ABOVE = int(np.flatnonzero(_STRENGTHS <= 0.35)[-1])  # strength > 0.35 <=> level > this
_PAPER_UPTO = int(np.flatnonzero(_STRENGTHS < 0.15)[-1])  # strength < 0.15 <=> level <= this


_EIGHTS = (8.0, 8.0, 8.0, 8.0)  # a bare number would be a scalar for the first channel only
_KERNELS: dict[int, np.ndarray] = {}
_KERNEL_3 = np.ones((3, 3), np.uint8)
_KERNEL_5 = np.ones((5, 5), np.uint8)


class _Work:
    """find_index's work arrays for images of one shape, kept from call to call: the few hundred
    kilobytes a corner's reading needs, allocated and freed anew for every image, are handed
    back to the system by the C library and faulted in again at the next."""

    __slots__ = ("shape", "spread", "paper", "lowest", "channel", "darkness", "ink", "binary", "labels")

    def __init__(self, shape: tuple[int, ...]) -> None:
        h, w = shape[:2]
        self.shape = shape
        self.spread = np.empty((h, w, 3), np.uint8)  # the dilated image, then the balanced one
        self.paper = np.empty((h, w, 3), np.uint8)
        self.lowest = np.empty((h, w), np.uint8)
        self.channel = np.empty((h, w), np.uint8)
        self.darkness = np.empty((h, w), np.uint8)
        self.ink = np.empty((h, w), np.float32)
        self.binary = np.empty((h, w), np.uint8)
        self.labels = np.empty((h, w), np.uint16)


# Work arrays not in use now. Each call takes its own (a list's pop and append are atomic, so two
# readers in two threads never share one) and puts it back; a few are kept, for images up to a
# camera frame's size (a larger one's arrays are its own, as before).
_IDLE_WORK: list[_Work] = []
_KEEP_WORK = 2
_WORK_MAX_PIXELS = 640 * 480


def _take_work(shape: tuple[int, ...]) -> _Work | None:
    if len(shape) != 3 or shape[2] != 3 or shape[0] * shape[1] > _WORK_MAX_PIXELS:
        return None
    try:
        work = _IDLE_WORK.pop()
    except IndexError:
        return _Work(shape)
    return work if work.shape == shape else _Work(shape)


def _rect_kernel(size: int) -> np.ndarray:
    """The size×size rectangle, made once per size (the reader asks for the same few every frame)."""
    k = _KERNELS.get(size)
    if k is None:
        k = _KERNELS[size] = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    return k


def components(binary: np.ndarray, labels: np.ndarray | None = None) -> tuple[int, np.ndarray, np.ndarray]:
    """8-connected components of a 0/1 image: count, labels, stats (cv2.CC_STAT_* columns);
    the labels in ``labels`` where it is given and they are 16-bit.

    16-bit labels wherever they cannot overflow (8-connected components need a pixel between
    them: an h×w image holds at most ⌈h/2⌉·⌈w/2⌉): OpenCV's 16-bit path gave the same labels
    2-3x faster on our index and pip areas.
    """
    h, w = binary.shape
    ltype = cv2.CV_16U if ((h + 1) // 2) * ((w + 1) // 2) < 65535 else cv2.CV_32S
    if ltype != cv2.CV_16U:
        labels = None
    n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, labels=labels, connectivity=8, ltype=ltype)
    return n, labels, stats


def find_index(bgr: np.ndarray, *, expect_height: float | None = None, paper_kernel: int = 0) -> Index | None:
    """The rank-over-suit pair nearest the top-left of ``bgr``, or None if none is there.

    ``expect_height`` (pixels) is the rank glyph height when the view is calibrated (the
    canonical face); for free corner crops it is None and glyph pairs of any size compete.
    """
    work = _take_work(bgr.shape)
    try:
        return _find_index(bgr, expect_height, paper_kernel, work)
    finally:
        if work is not None and len(_IDLE_WORK) < _KEEP_WORK:
            _IDLE_WORK.append(work)


def _find_index(bgr: np.ndarray, expect_height: float | None, paper_kernel: int, work: _Work | None) -> Index | None:
    """find_index, in ``work``'s arrays where given: nothing it returns is one of them."""
    h, w = bgr.shape[:2]
    if paper_kernel <= 0:
        paper_kernel = max(9, (min(h, w) // 6) | 1)
    darkness, _ = _darkness(bgr, paper_kernel, work)
    ink = _strength(darkness, work.ink if work is not None else None)
    binary = cv2.threshold(darkness, _GLYPH_ABOVE, 1, cv2.THRESH_BINARY,
                           dst=work.binary if work is not None else None)[1]
    found = _glyph_pair(binary, expect_height, work)
    if found is None:
        # A court's frame line, or the card's edge, can touch the suit pip and join it to a
        # component too large for a glyph: the same search without the long straight lines.
        # A rank glyph the lines touched is not taken: cut from them, it may read as another.
        lines = _long_lines(binary)
        found = _glyph_pair(cv2.subtract(binary, lines), expect_height, work)
        if found is not None:
            r = found[2]
            if cv2.countNonZero(lines[max(0, r.y0 - 1): r.y1 + 1, max(0, r.x0 - 1): r.x1 + 1]):
                return None
    if found is None:
        return None
    labels, singles, rbox, sbox = found
    if sum(cv2.mean(bgr[rbox.y0:rbox.y1, rbox.x0:rbox.x1])[:3]) < 3 * 25:
        return None  # a black hole in a black frame, not ink on paper
    rank = _crop(ink, labels, rbox)
    # A "10" and a card edge beside a "9" look alike to the segmentation: offer both readings.
    alternatives = tuple(_crop(ink, labels, singles[p]) for p in rbox.parts[1:]
                         if singles[rbox.parts[0]].w < 0.35 * rbox.h)
    suit = _crop(ink, labels, sbox)
    shown = [f for f in SUIT_TOPS if sbox.h >= round(f * rbox.h)]
    if not shown:
        return None  # too little of the pip shows to tell its suit
    top_frac = shown[-1] if sbox.y1 >= h else SUIT_TOPS[-1]
    top = pip_top(suit, rbox.h, top_frac)
    redness, contrast = _ink_colour(bgr, ink, darkness, rbox.union(sbox))
    if redness is None:
        return None
    whole = suit if sbox.y1 < h else None
    return Index(rank, alternatives, whole, top, top_frac, rbox, sbox, redness, contrast)


def _glyph_pair(binary: np.ndarray, expect_height: float | None, work: _Work | None,
                ) -> tuple[np.ndarray, dict[int, Box], Box, Box] | None:
    """The best rank-over-suit pair of glyphs among ``binary``'s components: (labels, the single
    components' boxes, rank box, suit box), or None."""
    h, w = binary.shape
    n, labels, stats = components(binary, work.labels if work is not None else None)
    boxes: list[Box] = []
    singles: dict[int, Box] = {}
    # A plain loop: a corner holds a few dozen components, fewer than numpy's per-call cost pays for.
    for i, (x, y, bw, bh, area) in enumerate(stats.tolist()):
        # Cut by the view's left, top or right edge: not a whole glyph. A glyph cut by the bottom
        # edge can still be the suit pip (its top part identifies it). Thin frame lines and
        # outlines (little ink in their box) are not glyphs.
        if i == 0 or bh < _MIN_GLYPH_PX or area < 20 or bw > 0.6 * w or bh > 0.6 * h \
                or x <= 0 or y <= 0 or x + bw >= w or area < 0.12 * bw * bh:
            continue
        singles[i] = Box(x, y, x + bw, y + bh, (i,))
        boxes.append(singles[i])
    boxes = _merge_side_by_side(boxes)
    best: tuple[float, Box, Box] | None = None
    for r in boxes:
        if r.y1 >= h:
            continue
        for s in boxes:
            if s is r or s.y0 < r.y1 - 0.15 * r.h:
                continue
            score = _pair_score(r, s, expect_height, h)
            if score is not None and (best is None or score < best[0]):
                best = (score, r, s)
    if best is None:
        return None
    return labels, singles, best[1], best[2]


def _long_lines(binary: np.ndarray) -> np.ndarray:
    """The thin runs of ``binary`` straight across half its height or width: frame lines and
    edges, no glyph. A thick blob is left whole (a thumb over the index: cut to pieces, a piece
    of it beside the pip was read as a rank)."""
    down = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((max(3, binary.shape[0] // 2), 1), np.uint8))
    across = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, max(3, binary.shape[1] // 2)), np.uint8))
    thick = cv2.morphologyEx(binary, cv2.MORPH_OPEN, _KERNEL_5)
    return cv2.subtract(cv2.bitwise_or(down, across), thick)


def _ink_colour(bgr: np.ndarray, ink: np.ndarray, darkness: np.ndarray, box: Box) -> tuple[float | None, float]:
    """Redness of the index ink against the paper right around it (so the light's tint cancels)."""
    pad = max(2, box.h // 6)
    y0, y1 = max(0, box.y0 - pad), min(bgr.shape[0], box.y1 + pad)
    x0, x1 = max(0, box.x0 - pad), min(bgr.shape[1], box.x1 + pad)
    patch = bgr[y0:y1, x0:x1]
    strength = ink[y0:y1, x0:x1]
    # OpenCV reductions under masks: numpy's per-pixel reductions over three channels cost more
    # than the rest of the index read on a camera frame.
    b, g, r = cv2.split(patch)
    lightness = cv2.min(cv2.min(b, g), r)
    # Paper is light *and* not ink: the dark table beside a card's edge is neither. (Lightness at
    # least 0.75 of its top, a whole number: more than the next whole number down.)
    light_above = math.ceil(0.75 * cv2.minMaxLoc(lightness)[1]) - 1
    paper_sel = cv2.bitwise_and(cv2.threshold(darkness[y0:y1, x0:x1], _PAPER_UPTO, 1, cv2.THRESH_BINARY_INV)[1],
                                cv2.threshold(lightness, light_above, 1, cv2.THRESH_BINARY)[1])
    # Ink only inside the glyphs' own box: the pad may reach past the card's edge onto the table.
    inner = strength[box.y0 - y0: box.y1 - y0, box.x0 - x0: box.x1 - x0]
    ink_sel = (inner >= max(0.3, 0.7 * cv2.minMaxLoc(inner)[1])).view(np.uint8)
    n_ink = cv2.countNonZero(ink_sel)
    if cv2.countNonZero(paper_sel) < 10 or n_ink < 5:
        return None, 0.0
    paper = cv2.mean(patch, mask=paper_sel)
    ink_bgr = cv2.mean(patch[box.y0 - y0: box.y1 - y0, box.x0 - x0: box.x1 - x0], mask=ink_sel)
    # The mean of (ink + 1) / (paper + 1) per channel, red minus green: red and pink inks both
    # swallow green.
    redness = (ink_bgr[2] + 1.0) / (paper[2] + 1.0) - (ink_bgr[1] + 1.0) / (paper[1] + 1.0)
    return float(redness), float(cv2.mean(inner, mask=ink_sel)[0])


def _merge_side_by_side(boxes: list[Box]) -> list[Box]:
    """Join glyphs that stand side by side at the same height ("10", a broken stroke)."""
    boxes = sorted(boxes, key=lambda b: b.x0)
    merged: list[Box] = []
    for b in boxes:
        for i, m in enumerate(merged):
            overlap = min(m.y1, b.y1) - max(m.y0, b.y0)
            gap = b.x0 - m.x1
            tall = max(m.h, b.h)
            # "1" and "0" share their top and bottom lines; a frame line or card edge does not.
            aligned = abs(m.y0 - b.y0) < 0.12 * tall and abs(m.y1 - b.y1) < 0.12 * tall
            if aligned and overlap > 0.8 * min(m.h, b.h) and abs(m.h - b.h) < 0.25 * max(m.h, b.h) \
                    and gap < 0.35 * max(m.h, b.h) and m.union(b).w < 1.3 * max(m.h, b.h):
                merged[i] = m.union(b)
                break
        else:
            merged.append(b)
    return merged


# A rank glyph's height against the one expected (find_index's ``expect_height``). Some decks
# print a much larger index than the usual 0.09 of the card's height (one phone deck's is 0.13 to
# 0.14), and an outline found a little small makes it larger still.
RANK_HEIGHTS = (0.6, 2.0)


def _pair_score(r: Box, s: Box, expect: float | None, bottom: int) -> float | None:
    """Lower is better: a rank glyph with its suit pip close under it, near the top-left."""
    if r.h < 1.5 * _MIN_GLYPH_PX * 0.8:
        return None
    if expect is not None and not RANK_HEIGHTS[0] * expect < r.h < RANK_HEIGHTS[1] * expect:
        return None
    cx_r, cx_s = (r.x0 + r.x1) / 2, (s.x0 + s.x1) / 2
    if abs(cx_r - cx_s) > 0.45 * max(r.w, s.w, 0.5 * r.h):
        return None
    gap = s.y0 - r.y1
    if gap > 0.7 * r.h or gap < -0.15 * r.h:
        return None
    if not (0.3 * r.h < s.h or s.y1 >= bottom) or s.h > 1.15 * r.h or not 0.22 * r.h < s.w < 1.3 * r.h:
        return None
    if r.w > 1.3 * r.h:
        return None
    return r.x0 + r.y0 + 2.0 * abs(cx_r - cx_s)


def pip_top(suit: np.ndarray, rank_height: int, fraction: float) -> np.ndarray:
    """The pip's top rows, trimmed to their own ink: what a pip cut at that height shows."""
    top = suit[: max(2, round(fraction * rank_height))]
    cols = np.nonzero((top > 0.35).any(axis=0))[0]
    return top[:, cols[0]: cols[-1] + 1] if len(cols) else top


_MIN_OUTLINE_PX = 24  # a smaller pip's leaves merge into one blob (measured on our own drawn clubs)


def pip_growth(pip: np.ndarray) -> float | None:
    """How much a pip widens from its top (8 % down) to 30 % down, as a share of its width.

    A spade widens steadily from its point (about 0.4–0.55 in every face and deck measured); a
    club's round top leaf is as wide at 30 % as near its top, with a waist between (about 0–0.15).
    The faces and the real decks measured all keep to this once the pip is big enough to show its
    leaves, so it settles spade v club where the templates of many faces cannot.
    """
    m = _scaled(pip)
    if m is None:
        return None
    # Blur fills a club's waist: a soft outline (much of the ink mid-grey) says nothing.
    some = m > 0.15
    if np.count_nonzero(some & (m < 0.75)) > 0.3 * np.count_nonzero(some):
        return None
    b = _outline(m, _MIN_OUTLINE_PX)
    if b is None:
        return None
    width = cv2.countNonZero(cv2.reduce(b, 0, cv2.REDUCE_MAX))
    h = len(b)
    return float(cv2.countNonZero(b[int(0.3 * h)]) - cv2.countNonZero(b[int(0.08 * h)])) / max(width, 1)


_MIN_TAPER_PX = 12  # rows of a pip: fewer are too coarse for a quarter of its height to mean much


def pip_taper(pip: np.ndarray) -> float | None:
    """A pip's width three quarters of the way down over its width a quarter down: a heart
    narrows from its lobes to its point, a diamond is about as wide at both. None where the pip
    is too small to measure."""
    m = _scaled(pip)
    b = None if m is None else _outline(m, _MIN_TAPER_PX)
    if b is None:
        return None

    def width(share: float) -> int:
        cols = np.flatnonzero(b[int(share * len(b))])
        return int(cols[-1] - cols[0] + 1) if len(cols) else 0

    return width(0.75) / max(width(0.25), 1)


def _scaled(pip: np.ndarray) -> np.ndarray | None:
    """A pip's ink over its 95th percentile (its solid ink about 1); None where too little ink."""
    inked = pip > 0.05
    if np.count_nonzero(inked) < 30:
        return None
    return pip / max(_percentile(pip[inked], 0.95), 1e-3)


def _outline(scaled: np.ndarray, least_rows: int) -> np.ndarray | None:
    """The pip's solid ink (uint8 0/1) cut to its rows; None where it spans fewer than
    ``least_rows``."""
    b = (scaled > 0.5).view(np.uint8)
    rows = np.flatnonzero(cv2.reduce(b, 1, cv2.REDUCE_MAX))
    if len(rows) < least_rows:
        return None
    return b[rows[0]: rows[-1] + 1]


def _percentile(values: np.ndarray, q: float) -> float:
    """numpy's default (linear) percentile, by partition: a full percentile call costs more than
    the rest of the pip's outline measure."""
    k = q * (len(values) - 1)
    lo = int(k)
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, (lo, hi))
    return float(part[lo]) + (k - lo) * (float(part[hi]) - float(part[lo]))


def _crop(ink: np.ndarray, labels: np.ndarray, box: Box) -> np.ndarray:
    """The glyph's own ink: a neighbour's stroke reaching into its box (a frame line) is left out."""
    window = labels[box.y0:box.y1, box.x0:box.x1]
    own = window == box.parts[0]
    for part in box.parts[1:]:
        own |= window == part
    own = cv2.dilate(own.view(np.uint8), _KERNEL_3)  # keep the soft rim
    # Ink where the glyph is, 0.0 elsewhere (all bits clear: a float 0.0).
    glyph = np.zeros((box.h, box.w), np.float32)
    return cv2.copyTo(ink[box.y0:box.y1, box.x0:box.x1], own, glyph)


def glyph_feature(mask: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A glyph resized to ``shape``, softened (so stroke weight and font matter less), unit norm."""
    rows, cols = shape
    small = cv2.resize(mask.astype(np.float32, copy=False), (cols, rows), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0.8)
    out = np.empty(rows * cols + 1, np.float32)
    # small.mean() to the bit (the same float32 sum and division), without its Python wrapper.
    mean = np.float32(np.add.reduce(small, axis=None) / small.size)
    v = np.subtract(small.ravel(), mean, out=out[:-1])
    norm = float(np.sqrt(v.dot(v)))
    if norm > 1e-6:
        np.divide(v, norm, out=v)
    # Aspect travels with the shape: a "1" and an "I" differ mostly in width once normalised.
    out[-1] = 0.6 * mask.shape[1] / max(mask.shape[0], 1)
    return out
