"""Find mode: where one card lies anywhere in the frame, as its outline, from which the
canonical view is warped (vision.canonical) as from a calibrated window.

Find mode cannot tell a card from the same card turned 180°; it does not need to, since both
corners carry the index the right way up and the reader reads both.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.vision import glare
from faro_box.vision.balance import BALANCE, apply_gains, balance_gains, balanced
from faro_box.vision.canonical import check_image
from faro_box.vision.outline import refine_quad

_FIND_WIDTH = 160  # find mode looks for the card at this width first: enough for most, cheap
_FIND_WIDTH_LARGER = 256  # and at this one when it finds none there (a small, far-off card)
_ASPECT = 1.4  # a poker card; bridge cards (1.56) and old square-cornered ones fit the band below
_MIN_CARD_SHARE = 0.015  # of the searched frame's area: anything smaller is not the card
_CARD_ASPECTS = (1.15, 1.85)  # long sides over short ones of anything taken for a card (seen at an angle)
# A camera's focal length as a share of the picture's long side (about 60 degrees across it: a
# phone's, most webcams', the Pi camera module's). Seen at a steep slant, a card is foreshortened
# along the slant until its sides' proportions leave the band above; a region whose sides do is
# taken for a card where the rectangle it is the picture of, under such a camera, has a card's.
_FOCAL = 0.85
# Each side of anything taken for a card is at least this share of the side opposite it: seen at
# an angle, a card's far side is shorter than its near one only as much as it lies farther off,
# never twice; a sliver of light along the picture's edge is a wedge of any proportions.
_LEAST_SIDE_RATIO = 0.5
# Short side over long side of a picture that may be the card itself (poker 0.72, bridge 0.64);
# a camera's 4:3 frame (0.75) and its wider ones are never taken for a card.
CARD_SHAPED = (0.6, 0.73)
# Paper on this share of a band just outside what was found in such a picture: it is printed on
# the card (a court's frame), and the card is the whole picture.
PRINTED_ON_PAPER = 0.6


@dataclass(frozen=True, slots=True)
class PaperTuning:
    """The find mode's paper mask, on the colour-balanced picture."""

    # Paper is as plain as the picture's brightest part (the balance made that grey) give or
    # take this much saturation: a fixed bar missed a camera's bluish paper and let pale
    # clutter in under a warm light.
    saturation_margin: int = 40
    # The bar stays within these: below 60, warm paper under a lamp falls out of it; above 140
    # the "paper" is a coloured thing.
    saturation_range: tuple[int, int] = (60, 140)
    plain_share: float = 0.25  # the quantile of the brightest tenth's saturation taken as paper's
    # Paper is at least this share of the paper's brightness (its 98th percentile): the
    # lenient level holds a shaded card together; the strict one cuts a white card loose from a
    # bright carpet or cloth that the lenient one joins it to.
    levels: tuple[float, ...] = (0.78,)
    least_level: int = 90  # no paper darker than this, however dim the picture


PAPER = PaperTuning()


@dataclass(frozen=True, slots=True)
class FaceTuning:
    """How much plain paper makes a found region a card."""

    least_paper: float = 0.35  # paper inside (a little off the outline): below it, clutter
    # A court's picture covers most of its face, so little of it is paper; but every card keeps a
    # plain margin all round its edge, which a pale patch of clutter seldom has. A region whose
    # margin band is this much paper is a card with least_paper_in_court inside it.
    margin: float = 0.8
    margin_band: tuple[float, float] = (0.88, 0.97)  # the band, as scales of the region about its centre
    least_paper_in_court: float = 0.15


FACE = FaceTuning()


def find_card(frame: np.ndarray) -> np.ndarray | None:
    """The quadrilateral of the most card-like region (clockwise, long side vertical), or None.

    A card is a bright, low-saturation, convex four-sided region. Up to three masks are tried:
    paper (bright and unsaturated for this frame), whiteness relative to the frame (dark and busy
    tables) and filled outlines (light tables, where the card is barely brighter than the cloth
    but its outline still shows); where none holds a card, the inside of a closed outline, by
    its whiteness (glare has joined the card to the lit table around it in every mask, and the
    paper mask that scores the rest holds only the glare). What is found grows to the smallest
    closed outline of a card's proportions round it, a little larger (GROWTH): the paper mask
    leaves out a card's end in shade. The search looks at a small copy of the frame first and
    refines the sides it finds on a finer one; a card too small for that copy (photos with a
    far-off card) is looked for again at a larger size. A picture of a card's proportions in
    which no card is found is the card itself (a scan, a crop, a rectified photo): its outline
    is the picture's edge.
    """
    frame = check_image(frame)
    fine = frame
    while fine.shape[1] >= 6 * _FIND_WIDTH:
        fine = cv2.resize(fine, (fine.shape[1] // 2, fine.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if fine.shape[1] >= 4 * _FIND_WIDTH:
        # A camera frame: straight to the search's width by a linear resize, which reads about
        # half its rows (most of the cost of a frame fresh from a camera, in no cache yet); the
        # sides are refined on it in steps of two of the search's pixels.
        small = _to_width(fine, _FIND_WIDTH)
    else:
        # A smaller picture: halved by area to twice the search's width, the sides refined there.
        while fine.shape[1] // 2 >= 2 * _FIND_WIDTH:
            fine = cv2.resize(fine, (fine.shape[1] // 2, fine.shape[0] // 2), interpolation=cv2.INTER_AREA)
        small = fine
        while small.shape[1] >= 2 * _FIND_WIDTH:
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        small = _to_width(small, _FIND_WIDTH)
    whole = whole_card(frame)
    # A picture of a card's proportions in which no paper or whiteness is a card is the card
    # itself: the inside of an outline there is printed on it (a court's frame, the pips).
    found, sized = _search(small, inside_outlines=whole is None)
    if found is not None and whole is not None and _printed_on_paper(small, found):
        return whole  # the picture is the card, and what was found is printed on it (a court's frame)
    if found is not None:
        # Pixel centres map as (x + ½)·ratio - ½.
        to_fine = np.array([fine.shape[1] / small.shape[1], fine.shape[0] / small.shape[0]], np.float32)
        to_frame = np.array([frame.shape[1] / fine.shape[1], frame.shape[0] / fine.shape[0]], np.float32)
        quad = refine_quad(fine, (found + 0.5) * to_fine - 0.5, fine.shape[1] / (2 * _FIND_WIDTH))
        return _upright((quad + 0.5) * to_frame - 0.5)
    # Nothing at that size: the frame again at the larger size, its corners as found there
    # (the search as it was before the small one came first). Filled outlines are looked at
    # again only where paper and whiteness showed no region of a card's size: they are for a
    # card on plain light cloth; on clutter (most photos that reach this point) they close
    # around the clutter, and their edge map was most of the second search's cost.
    small = frame
    while small.shape[1] >= 2 * _FIND_WIDTH_LARGER:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
    small = _to_width(small, _FIND_WIDTH_LARGER)
    found, _ = _search(small, outlines=not sized, inside_outlines=whole is None)
    if found is None or (whole is not None and _printed_on_paper(small, found)):
        return whole
    return _upright(found / (_FIND_WIDTH_LARGER / frame.shape[1]))


def whole_card(image: np.ndarray) -> np.ndarray | None:
    """The picture's own corners as the card's (clockwise, long side vertical) where it has a
    card's proportions, else None.

    >>> whole_card(np.zeros((350, 250, 3), np.uint8)).tolist()
    [[0.0, 0.0], [249.0, 0.0], [249.0, 349.0], [0.0, 349.0]]
    >>> whole_card(np.zeros((480, 640, 3), np.uint8)) is None
    True
    """
    h, w = image.shape[:2]
    if not CARD_SHAPED[0] <= min(h, w) / max(h, w) <= CARD_SHAPED[1]:
        return None
    return _upright(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32))


def is_whole_picture(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether ``quad`` is the picture's own outline as whole_card gives it (find mode took the
    picture for the card: a crop or a scan, whose orientation is the picture's)."""
    whole = whole_card(image)
    return whole is not None and bool(np.array_equal(whole, quad))


def _printed_on_paper(small: np.ndarray, quad: np.ndarray) -> bool:
    """Whether paper lies all round ``quad`` (``small``'s own pixels): a frame printed on a card
    that fills the picture, not a card on a table."""
    balanced_small = balanced(small)
    hsv = cv2.cvtColor(balanced_small, cv2.COLOR_BGR2HSV)
    paper = cv2.threshold(next(_candidate_masks(balanced_small, hsv, False)), 0, 1, cv2.THRESH_BINARY)[1]
    return _paper_around(paper, quad) >= PRINTED_ON_PAPER


def _to_width(image: np.ndarray, width: int) -> np.ndarray:
    if image.shape[1] == width:
        return image
    return cv2.resize(image, (width, max(16, round(image.shape[0] * width / image.shape[1]))),
                      interpolation=cv2.INTER_LINEAR)


def _search(small: np.ndarray, *, outlines: bool = True, inside_outlines: bool = True,
            ) -> tuple[np.ndarray | None, bool]:
    """The most card-like quadrilateral in ``small`` (its own pixels) or None, and whether the
    paper or whiteness mask held a region of a card's size (card-like or not); ``outlines``:
    whether the filled-outline mask is tried at all; ``inside_outlines``: whether, with
    ``outlines``, the inside of an outline is looked for where no mask held a card
    (_inside_outline), and, under glare, a card among the picture's straight lines where no
    outline holds one (glare.card_from_lines)."""
    area = small.shape[0] * small.shape[1]
    best: tuple[float, np.ndarray, float, float] | None = None
    sized = False
    burnt = glare.burnt_out(small)
    glary = glare.has_glare(burnt)
    as_seen = small
    small = balanced(small)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    # Glare is allowed for only on a card on a table: a picture that is itself the card holds no
    # region of the table for the glare to join to it, and its print has straight lines.
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if glary and inside_outlines else None
    slope: tuple[np.ndarray, np.ndarray] | None = None
    masks = _candidate_masks(small, hsv, outlines)
    # Paper for scoring: the opened lenient paper mask, where speckled clutter no longer counts as white.
    first = next(masks)
    papers = 2 * len(PAPER.levels)
    paper = cv2.threshold(first, 0, 1, cv2.THRESH_BINARY)[1]
    for k, mask in enumerate(itertools.chain([first], masks)):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            c_area = cv2.contourArea(contour)
            if c_area < _MIN_CARD_SHARE * area or c_area > 0.95 * area:
                continue
            sized = sized or k <= papers
            quad = _as_quad(contour)
            if quad is None or _borders_touched(quad, small.shape) >= 3:
                continue  # (a plain light table, cut by the picture's edges all round, is no card)
            score, white, aspect = _card_score(paper, quad, c_area)
            if score <= 0 or (best is not None and score <= best[0]):
                continue
            if grey is not None:
                slope = slope if slope is not None else glare.slopes(grey)
                if not glare.sides_show(quad, slope, burnt):
                    continue  # glare joined to the card: a side of it neither shows nor lies under the glare
            best = (score, quad, white, aspect)
        # A paper region that is plainly one whole card needs no costlier mask.
        if k < papers and best is not None and _plainly_card(paper, best[1], best[2], best[3]):
            break
    if best is not None:
        return _grown(small, best[1]), sized
    inside = _inside_outline(small, hsv) if outlines and inside_outlines else None
    if inside is None and grey is not None:
        shiny = _glossy_paper(as_seen, burnt)
        lined = glare.card_from_lines(grey, _thin_edges(grey), burnt,
                                      math.sqrt(_MIN_CARD_SHARE * area / _ASPECT),
                                      lambda q: _quad_score(shiny, q, area))
        return (None if lined is None else lined[1]), sized
    return inside, sized


def _glossy_paper(small: np.ndarray, burnt: np.ndarray) -> np.ndarray:
    """The paper of a glossy card under glare in ``small`` (as the camera gave it; ``burnt``: its
    burnt-out light), 1 there: any plain pixel brighter than the least paper, and the burnt-out
    light, the card's own face.

    No level is set by the brightest paper: the glare's lift raised that past the card's own
    unlit paper, and a court's margin fell out of it. Plain is judged once the colour is balanced
    on what no channel burnt out of: the lit wood's pale yellow, balanced grey, made the paper blue.
    """
    unburnt = cv2.inRange(small, (0, 0, 0), (BALANCE.clipped - 1,) * 3)
    even = apply_gains(small, balance_gains(small, unburnt))
    _, sat, val = cv2.split(cv2.cvtColor(even, cv2.COLOR_BGR2HSV))
    plain = cv2.threshold(sat, paper_saturation(even, sat), 1, cv2.THRESH_BINARY_INV)[1]
    bright = cv2.threshold(val, PAPER.least_level, 1, cv2.THRESH_BINARY)[1]
    return cv2.bitwise_or(cv2.bitwise_and(plain, bright), cv2.threshold(burnt, 0, 1, cv2.THRESH_BINARY)[1])


def _plainly_card(paper: np.ndarray, quad: np.ndarray, white: float, aspect: float) -> bool:
    """Whether a region is plainly one whole card: white, a card's shape, and no paper around it
    that could be the rest of a bigger card."""
    return white >= 0.75 and abs(aspect - _ASPECT) <= 0.2 and _paper_around(paper, quad) < 0.05


def _quad_score(paper: np.ndarray, quad: np.ndarray, area: float) -> float:
    """_card_score of a quadrilateral of a card's size in a picture of ``area`` pixels, by its own area."""
    q_area = cv2.contourArea(quad)
    if q_area < _MIN_CARD_SHARE * area or q_area > 0.95 * area:
        return 0.0
    return _card_score(paper, quad, q_area)[0]


def _holes(small: np.ndarray) -> Iterator[tuple[np.ndarray, float]]:
    """(contour, area) of every region an outline closes in ``small``: the holes of its edge map,
    so that texture on the table touching the card's edge from outside leaves the inside of its
    outline whole. (Holes only: on a textured table most of the edge map's pieces are none.)"""
    contours, hierarchy = cv2.findContours(_edges(small), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return
    for i in np.flatnonzero(hierarchy[0, :, 3] >= 0).tolist():
        yield contours[i], cv2.contourArea(contours[i])


def _outline_holes(small: np.ndarray) -> Iterator[tuple[float, np.ndarray]]:
    """(area, quadrilateral) of every hole of a card's size in ``small`` (_holes)."""
    area = small.shape[0] * small.shape[1]
    for contour, c_area in _holes(small):
        if c_area < _MIN_CARD_SHARE * area or c_area > 0.95 * area:
            continue
        quad = _as_quad(contour)
        if quad is not None and _borders_touched(quad, small.shape) < 3:
            yield c_area, quad


def _inside_outline(small: np.ndarray, hsv: np.ndarray) -> np.ndarray | None:
    """The most card-like region an outline closes, each scored by its whiteness: where no paper
    or whiteness region is a card. Glare lifts the table around the card to the paper's white and
    joins the two in those masks, but the card's edge still shows, and the paper mask that
    scores the others holds only the glare then."""
    _, sat, val = cv2.split(hsv)
    white = cv2.threshold(cv2.subtract(val, sat), 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[1]
    best: tuple[float, np.ndarray] | None = None
    for c_area, quad in _outline_holes(small):
        score = _card_score(white, quad, c_area)[0]
        if score > 0 and (best is None or score > best[0]):
            best = (score, quad)
    return None if best is None else best[1]


# A closed outline round the found region, at most this much larger, of a card's proportions,
# is the card: the paper mask leaves out a card's shaded end, and a court may be found by its frame.
# (Under a tenth more, the outline is the same card's, its corners a few pixels off the found ones.)
GROWTH = (1.1, 1.5)


def _grown(small: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad``, or the smallest closed outline that holds it (GROWTH) and has a card's proportions."""
    q_area = cv2.contourArea(quad)
    # Only the part of the picture such an outline can reach is looked at (grown on one side
    # alone, as far as GROWTH allows): the edge map of the whole picture costs more than the rest.
    h, w = small.shape[:2]
    centre = quad.mean(axis=0)
    reach = centre + (2 * GROWTH[1] - 1) * 1.05 * (quad - centre)
    x0, y0 = (max(0, math.floor(v) - 2) for v in reach.min(axis=0).tolist())
    x1, y1 = (min(n, math.ceil(v) + 3) for v, n in zip(reach.max(axis=0).tolist(), (w, h), strict=True))
    inside = quad - np.array([x0, y0], np.float32)
    best: tuple[float, np.ndarray] | None = None
    for contour, c_area in _holes(small[y0:y1, x0:x1]):
        if not GROWTH[0] * q_area < c_area <= GROWTH[1] * q_area or (best is not None and c_area >= best[0]):
            continue
        outer = _as_quad(contour)
        if outer is None or not _CARD_ASPECTS[0] < _aspect(outer) < _CARD_ASPECTS[1]:
            continue
        if cv2.intersectConvexConvex(inside, outer)[0] >= 0.95 * q_area:
            best = (c_area, outer + np.array([x0, y0], np.float32))
    return quad if best is None else best[1]


def _edges(small: np.ndarray) -> np.ndarray:
    """The picture's edges, thickened a pixel so that a card's outline closes."""
    return cv2.dilate(_thin_edges(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)), _OPEN_SMALL)


def _thin_edges(grey: np.ndarray) -> np.ndarray:
    """The picture's edges, a pixel wide (Canny on the picture a little smoothed)."""
    return cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 20, 60)


def _candidate_masks(small: np.ndarray, hsv: np.ndarray, outlines: bool = True) -> Iterator[np.ndarray]:
    """Paper first (cheap, and enough on most tables: leniently, then strictly), then
    whiteness, then filled outlines."""
    # OpenCV's own thresholds on the channels: numpy's on whole frames cost more than the search.
    _, sat, val = cv2.split(hsv)
    # Paper: as plain as the brightest part and bright for this frame; opening cuts the card
    # loose from pale clutter.
    low_sat = cv2.threshold(sat, paper_saturation(small, sat), 255, cv2.THRESH_BINARY_INV)[1]
    if cv2.countNonZero(low_sat):
        hist = cv2.calcHist([val], [0], low_sat, [256], [0, 256]).ravel()
        if hist[:BALANCE.clipped].sum() > 0:
            hist[BALANCE.clipped:] = 0  # glare is burnt out: the paper's level is what it is around it
        v98 = int(np.searchsorted(np.cumsum(hist), 0.98 * hist.sum()))
        for level in PAPER.levels:
            v_thr = max(float(PAPER.least_level), level * v98)
            # val > v_thr: an 8-bit threshold compares with the floor of v_thr, which is the same.
            raw = cv2.bitwise_and(cv2.threshold(val, math.floor(v_thr), 255, cv2.THRESH_BINARY)[1], low_sat)
            yield np.asarray(cv2.morphologyEx(raw, cv2.MORPH_OPEN, _opening(small.shape[1])), np.uint8)
            # Closed first, then opened: a court's printed frame line, a pixel wide here, parts the
            # card's thin outer margin from its face, and the frame alone was taken for the card.
            closed = cv2.morphologyEx(raw, cv2.MORPH_CLOSE, _OPEN_SMALL)
            yield np.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, _opening(small.shape[1])), np.uint8)
    else:
        for _ in range(2 * len(PAPER.levels)):
            yield np.zeros(small.shape[:2], np.uint8)
    whiteness = cv2.subtract(val, sat)  # saturates at 0
    _, by_white = cv2.threshold(whiteness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    kernel = np.ones((3, 3), np.uint8)
    yield cv2.morphologyEx(by_white, cv2.MORPH_CLOSE, kernel, iterations=2)
    if not outlines:
        return
    edges = _edges(small)
    # The card's inside is the region that the outline closes: fill the closed outlines.
    filled = np.zeros_like(edges)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    # An outline too small to hold a card stays out: filled and eroded, it is smaller still.
    least = _MIN_CARD_SHARE * edges.size
    cv2.drawContours(filled, [c for c in contours if cv2.contourArea(c) >= least], -1, 255, -1)
    yield cv2.erode(filled, kernel)


def paper_saturation(small: np.ndarray, sat: np.ndarray) -> int:
    """The saturation below which a pixel may be paper: that of the plainer part of the
    brightest tenth (its lower quartile: a bright orange table shares that tenth with the
    card), plus a margin."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    hist = cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel()
    above = np.cumsum(hist[::-1])[::-1]
    top = int(np.flatnonzero(above >= BALANCE.bright_share * grey.size).max())
    bright = cv2.calcHist([sat], [0], cv2.inRange(grey, top, 255), [256], [0, 256]).ravel()
    plain = int(np.searchsorted(np.cumsum(bright), PAPER.plain_share * bright.sum()))
    lo, hi = PAPER.saturation_range
    return min(hi, max(lo, plain + PAPER.saturation_margin))


_OPEN_SMALL, _OPEN_LARGE = np.ones((3, 3), np.uint8), np.ones((5, 5), np.uint8)


def _opening(width: int) -> np.ndarray:
    """The paper mask's opening: 5×5 at the larger search width (three fifths of it at the small
    one would be 3×3; a 5×5 there cut small cards' outlines and index corners away)."""
    return _OPEN_SMALL if width < _FIND_WIDTH_LARGER else _OPEN_LARGE


def _borders_touched(quad: np.ndarray, shape: tuple[int, ...]) -> int:
    """How many of the picture's four edges ``quad`` reaches (within a pixel)."""
    h, w = shape[:2]
    x0, y0 = quad.min(axis=0).tolist()
    x1, y1 = quad.max(axis=0).tolist()
    return int(x0 <= 1) + int(y0 <= 1) + int(x1 >= w - 2) + int(y1 >= h - 2)


def _as_quad(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or cv2.contourArea(contour) / hull_area < 0.85:
        return None
    peri = cv2.arcLength(hull, True)
    tries = []
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            tries.append(approx.reshape(4, 2).astype(np.float32))
            break
    # Rounded or clipped corners, a speck on the outline: the minimum-area rectangle still fits.
    tries.append(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32))
    for quad in tries:
        if 0.85 * hull_area <= cv2.contourArea(quad) <= 1.2 * hull_area:
            return quad
    return None


def _sides(quad: np.ndarray) -> tuple[float, float, float, float]:
    """The four sides' lengths, in order round the quadrilateral."""
    # Plain floats for four corners: numpy's per-call cost is most of the work at this size.
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad.tolist()
    return math.hypot(bx - ax, by - ay), math.hypot(cx - bx, cy - by), \
        math.hypot(dx - cx, dy - cy), math.hypot(ax - dx, ay - dy)


def _aspect(quad: np.ndarray) -> float:
    """The long sides' length over the short sides'."""
    ab, bc, cd, da = _sides(quad)
    return max(ab + cd, bc + da) / max(min(ab + cd, bc + da), 1e-6)


def _table_aspect(quad: np.ndarray, shape: tuple[int, ...]) -> float:
    """The long sides over the short ones of the rectangle that ``quad`` (convex, its corners in
    order) is the picture of, under a camera of focal length _FOCAL looking at the middle of a
    picture of ``shape`` (Zhang and He's construction from the quadrilateral's vanishing points).
    A quadrilateral with no perspective in it gives its own sides' proportions.

    >>> slanted = np.array([[54.0, 78.7], [105.0, 78.7], [99.8, 127.8], [59.2, 127.8]])  # a poker card tilted 40 degrees
    >>> round(_aspect(slanted), 2), round(_table_aspect(slanted, (213, 160)), 2)
    (1.08, 1.41)
    >>> round(_table_aspect(np.array([[0, 0], [50, 0], [50, 70], [0, 70]]), (213, 160)), 2)
    1.4
    """
    h, w = shape[:2]
    # Plain floats: numpy's calls on 3-vectors cost more than the arithmetic.
    m1, m2, m4, m3 = ((float(x) - (w - 1) / 2, float(y) - (h - 1) / 2) for x, y in quad.tolist())
    d2, d3 = _triple(m2, m4, m3), _triple(m3, m4, m2)
    if abs(d2) < 1e-9 or abs(d3) < 1e-9:
        return _aspect(quad)
    k2, k3 = _triple(m1, m4, m3) / d2, _triple(m1, m4, m2) / d3
    # The rectangle's two sides, in camera coordinates up to scale.
    n2 = (k2 * m2[0] - m1[0], k2 * m2[1] - m1[1], k2 - 1)
    n3 = (k3 * m3[0] - m1[0], k3 * m3[1] - m1[1], k3 - 1)
    f2 = (_FOCAL * max(h, w)) ** 2
    across = (n2[0] ** 2 + n2[1] ** 2) / f2 + n2[2] ** 2
    down = (n3[0] ** 2 + n3[1] ** 2) / f2 + n3[2] ** 2
    if across <= 0 or down <= 0:
        return _aspect(quad)
    r = math.sqrt(across / down)
    return max(r, 1 / r)


def _triple(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    """(a × b) · c of three points of the picture taken as (x, y, 1).

    >>> _triple((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))  # twice the triangle's area, signed
    1.0
    """
    return a[0] * (b[1] - c[1]) - a[1] * (b[0] - c[0]) + (b[0] * c[1] - b[1] * c[0])


def _sides_even(quad: np.ndarray) -> bool:
    """Whether each side is at least _LEAST_SIDE_RATIO of the side opposite it.

    >>> _sides_even(np.array([[0, 0], [100, 0], [110, 140], [-10, 140]], np.float32))  # a card at an angle
    True
    >>> _sides_even(np.array([[0, 16], [8, 72], [6, 84], [0, 81]], np.float32))  # a sliver at the edge
    False
    """
    ab, bc, cd, da = _sides(quad)
    return min(ab, cd) >= _LEAST_SIDE_RATIO * max(ab, cd) and min(bc, da) >= _LEAST_SIDE_RATIO * max(bc, da)


def _card_score(paper: np.ndarray, quad: np.ndarray, c_area: float) -> tuple[float, float, float]:
    """(score, share of paper inside, the proportions it has on the table); score 0 when it is
    no card."""
    aspect = _aspect(quad)
    if not _CARD_ASPECTS[0] < aspect < _CARD_ASPECTS[1] and not _borders_touched(quad, paper.shape):
        # A card at a steep slant, as it is on the table (a region the picture's edge cuts is
        # not the picture of all of a rectangle).
        aspect = _table_aspect(quad, paper.shape)
    if not _CARD_ASPECTS[0] < aspect < _CARD_ASPECTS[1] or not _sides_even(quad):
        return 0.0, 0.0, aspect
    # The share of paper-white pixels inside the quad, shrunk a little off its outline.
    centre = quad.mean(axis=0)
    inner_quad = (centre + 0.9 * (quad - centre)).astype(np.int32)
    # Only the quad's bounding box is drawn and counted: a few candidates per frame, each small.
    h, w = paper.shape
    xs, ys = inner_quad[:, 0].tolist(), inner_quad[:, 1].tolist()
    x0, y0 = min(max(min(xs), 0), w), min(max(min(ys), 0), h)
    x1, y1 = min(max(max(xs) + 1, 0), w), min(max(max(ys) + 1, 0), h)
    if x1 <= x0 or y1 <= y0:
        return 0.0, 0.0, aspect  # outside the frame
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, inner_quad - np.array([x0, y0], np.int32), 1)
    inside = cv2.countNonZero(mask)
    if inside == 0 or inside < 0.8 * cv2.contourArea(inner_quad):
        return 0.0, 0.0, aspect  # mostly outside the frame
    white_share = float(cv2.countNonZero(cv2.bitwise_and(paper[y0:y1, x0:x1], mask))) / inside
    if white_share < FACE.least_paper:
        if white_share < FACE.least_paper_in_court or _band_paper(paper, quad, *FACE.margin_band, none=0.0) < FACE.margin:
            return 0.0, white_share, aspect
        white_share = FACE.least_paper  # a court: scored as the plainest card could be, no more
    # Whiteness dominates: a big patch of clutter holding a card is less white than the card.
    return c_area * white_share**4 / (1.0 + 2.0 * abs(aspect - _ASPECT)), white_share, aspect


def _paper_around(paper: np.ndarray, quad: np.ndarray) -> float:
    """The share of paper in a band just outside ``quad`` (a tenth of its size wide)."""
    return _band_paper(paper, quad, 1.05, 1.2)


def _band_paper(paper: np.ndarray, quad: np.ndarray, inner_scale: float, outer_scale: float,
                none: float = 1.0) -> float:
    """The share of paper in the band between ``quad`` scaled about its centre by the two scales;
    ``none`` where no pixel of the band is in the picture."""
    centre = quad.mean(axis=0)
    outer = np.round(centre + outer_scale * (quad - centre)).astype(np.int32)
    inner = np.round(centre + inner_scale * (quad - centre)).astype(np.int32)
    # Drawn and counted over the band's bounding box only (the frame outside it holds no band).
    h, w = paper.shape
    xs, ys = outer[:, 0].tolist(), outer[:, 1].tolist()
    x0, y0 = min(max(min(xs), 0), w), min(max(min(ys), 0), h)
    x1, y1 = min(max(max(xs) + 1, 0), w), min(max(max(ys) + 1, 0), h)
    if x1 <= x0 or y1 <= y0:
        return none
    band = np.zeros((y1 - y0, x1 - x0), np.uint8)
    shift = np.array([x0, y0], np.int32)
    cv2.fillConvexPoly(band, outer - shift, 1)
    cv2.fillConvexPoly(band, inner - shift, 0)
    n = cv2.countNonZero(band)
    return float(cv2.countNonZero(cv2.bitwise_and(paper[y0:y1, x0:x1], band))) / n if n else none


def _upright(quad: np.ndarray) -> np.ndarray:
    """Order the corners clockwise from a top-left such that the first side is a short one."""
    pts = quad.tolist()
    cx, cy = sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4
    pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))  # clockwise on screen (y down)
    start = min(range(4), key=lambda i: pts[i][0] + pts[i][1])
    pts = pts[start:] + pts[:start]
    if math.dist(pts[1], pts[0]) > math.dist(pts[3], pts[0]):
        pts = pts[1:] + pts[:1]  # landscape: turn a quarter so the long side is vertical
    return np.array(pts, np.float32)
