"""Counting the pips of a face: a rank cue that no font can change (A–10)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.cards import Rank, Suit
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
    return _count(glyphs.ink_mask(region, 41, 0.4))


# The face out to its border: most decks print their outer columns of pips across the pip area's
# sides, where count_pips finds no pip card.
WHOLE_PIPS = (0.1, 0.9, 0.04, 0.96)
# Within a corner's square (the first figure) what starts in the index's band (x under the second,
# or y under the third, of the face from that corner's sides) is an index, and is left out: a deck
# prints two indices or four.
_INDEX_CORNER = (0.3, 0.2, 0.12)


def count_pips_whole(face: np.ndarray) -> int | None:
    """count_pips over the face out to its border (WHOLE_PIPS), the corner indices left out;
    where something reaches the border (a frame, a thumb), over the pip area as count_pips, with
    this count's bound on a pip's size."""
    h, w = face.shape[:2]
    x0, x1, y0, y1 = _whole_region(h, w)
    # Pips of one face are one size: two run together (a dark print's clubs) are twice one. (A
    # smaller one is a pip glare has eaten into, and still a pip.)
    whole = _count(glyphs.ink_mask(face[y0:y1, x0:x1], 41, 0.4), _index_of(h, w), largest=1.5)
    if whole is not None:
        return whole
    (y0, y1), (x0, x1) = pip_area(h, w)
    return _count(glyphs.ink_mask(face[y0:y1, x0:x1], 41, 0.4), largest=1.5)


def count_pips_showing(face: np.ndarray) -> int | None:
    """The pips showing whole over the face out to its border (WHOLE_PIPS), the corner indices
    and whatever reaches the border (a thumb, and the pips under it) left out: the card has at
    least so many. None where what shows is not clearly pips (courts, clutter, one blob).

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> face = render_card(Card.parse("8C"))
    >>> h, w = face.shape[:2]
    >>> face[int(0.55 * h):, int(0.5 * w):] = (120, 150, 200)  # a thumb over a quarter of the face
    >>> count_pips_showing(face)
    5
    """
    at = pips_showing(face)
    return None if at is None else len(at)


def pips_showing(face: np.ndarray) -> tuple[tuple[float, float], ...] | None:
    """The centres (fractions of the face's width and height) of the pips count_pips_showing
    counts, or None where it counts none.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> face = render_card(Card.parse("8C"))
    >>> face[int(0.55 * face.shape[0]):, int(0.5 * face.shape[1]):] = (120, 150, 200)  # a thumb
    >>> count_pips_whole(face), [(round(x, 1), round(y, 1)) for x, y in pips_showing(face)]
    (None, [(0.3, 0.2), (0.7, 0.2), (0.5, 0.4), (0.3, 0.5), (0.3, 0.8)])
    """
    return _centres(face, _boxes_showing(face))


def _centres(face: np.ndarray, boxes: list[tuple[int, int, int, int]] | None) -> tuple[tuple[float, float], ...] | None:
    """The centres of ``boxes`` (_boxes_showing) as fractions of the face's width and height."""
    h, w = face.shape[:2]
    return None if boxes is None else tuple(((x + bw / 2) / w, (y + bh / 2) / h) for x, y, bw, bh in boxes)


def _boxes_showing(face: np.ndarray) -> list[tuple[int, int, int, int]] | None:
    """The boxes (x, y, width, height on the face) of the pips pips_showing finds."""
    x0, x1, y0, y1 = _whole_region(*face.shape[:2])
    boxes = _pips(glyphs.ink_mask(face[y0:y1, x0:x1], 41, 0.4), _index_of(*face.shape[:2]), largest=1.5, cut=False)
    return None if boxes is None else [(x + x0, y + y0, bw, bh) for x, y, bw, bh in boxes]


# How far (0-255, in any channel) a pixel's colour may lie from the whole pips' ink and still be
# taken for that ink: a thumb's skin and a sleeve lie further from black or red print.
PIP_INK_REACH = 50
_INKED_SHARE = 0.5  # of the patch round a place (_BARE) the pips' own ink: a pip lies over it


def inked_points(face: np.ndarray, ink: np.ndarray | None = None,
                 boxes: list[tuple[int, int, int, int]] | None = None) -> frozenset[tuple[float, float]]:
    """The LAYOUT_POINTS of ``face`` that lie under a pip that does not show whole: the ink of
    the whole pips' colour over most of the patch round the point, outside every whole pip (a
    pip a thumb half covers). ``ink``: face_ink, ``boxes``: the whole pips (_boxes_showing),
    where made already.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> face = render_card(Card.parse("8S"))
    >>> h, w = face.shape[:2]
    >>> _ = cv2.ellipse(face, (w // 4, int(0.78 * h)), (w // 4, int(0.2 * h)), 0, 0, 360, (120, 150, 200), -1)
    >>> sorted(inked_points(face))  # the 8's lower odd pip, half under a thumb
    [(0.5, 0.65)]
    >>> inked_points(render_card(Card.parse("8S")))
    frozenset()
    """
    h, w = face.shape[:2]
    boxes = _boxes_showing(face) if boxes is None else boxes
    ink = face_ink(face) if ink is None else ink
    if not boxes:
        return frozenset()
    whole = np.zeros((h, w), bool)
    for x, y, bw, bh in boxes:
        whole[y:y + bh, x:x + bw] = True
    printed = face[whole & (ink > 0)]
    if not len(printed):
        return frozenset()
    pip_ink = np.median(printed, axis=0)
    out = set()
    for px, py in LAYOUT_POINTS:
        rows = slice(round((py - _BARE[1]) * h), round((py + _BARE[1]) * h))
        cols = slice(round((px - _BARE[0]) * w), round((px + _BARE[0]) * w))
        like = np.abs(face[rows, cols].astype(np.int16) - pip_ink).max(axis=2) <= PIP_INK_REACH
        if np.count_nonzero(like & (ink[rows, cols] > 0) & ~whole[rows, cols]) >= _INKED_SHARE * like.size:
            out.add((px, py))
    return frozenset(out)


def _index_of(h: int, w: int) -> Callable[[int, int, int, int], bool]:
    """Whether a box (x, y, width, height within WHOLE_PIPS of an h×w face) is a corner index:
    within a corner's square it starts in the index's band (_INDEX_CORNER)."""
    x0, _, y0, _ = _whole_region(h, w)
    square, band_x, band_y = _INDEX_CORNER

    def index(x: int, y: int, bw: int, bh: int) -> bool:
        fx0, fy0, fx1, fy1 = (x + x0) / w, (y + y0) / h, (x + bw + x0) / w, (y + bh + y0) / h
        # Each side: the box within the corner's square there, and its distance from that side.
        left, right = (fx0 if fx1 < square else None), (1 - fx1 if fx0 > 1 - square else None)
        top, bottom = (fy0 if fy1 < square else None), (1 - fy1 if fy0 > 1 - square else None)
        return any(a is not None and b is not None and (a < band_x or b < band_y)
                   for a in (left, right) for b in (top, bottom))

    return index


@dataclass(frozen=True, slots=True)
class PipCheck:
    """What a face's pips say of the rank that one corner's index names alone.

    >>> PipCheck(6).refusal(Rank.SEVEN)
    '6 pips contradict the index 7'
    >>> PipCheck(7).refusal(Rank.SEVEN) is None, PipCheck(None).refusal(Rank.SEVEN) is None
    (True, True)
    >>> PipCheck(None, glare=True).refusal(Rank.SEVEN)
    'glare hides the pips that would check the index 7'
    """

    seen: int | None  # count_pips_whole: None where they cannot be counted
    glare: bool = False  # glare_over_pips
    red: Suit | None = None  # heart or diamond by a body pip's outline (red_suit_by_outline)
    # Where ``seen`` is None or glare may hide a pip: the pips showing whole (pips_showing).
    at: tuple[tuple[float, float], ...] | None = None
    middle: bool | None = None  # where ``seen`` is None: a pip at the face's very middle (pip_in_the_middle)
    # Where ``at`` is: the places a pip card prints a pip that are plain paper (bare_points).
    bare: frozenset[tuple[float, float]] = frozenset()
    # Where they cannot be counted, or glare may hide one: a whole pip alone at the face's middle
    # (lone_pip_in_the_middle).
    lone: bool = False
    figure: bool = False  # where they cannot be counted: the middle printed twice, as a court's (double_headed)
    # Where they cannot be counted: the places under a pip that does not show whole (inked_points).
    inked: frozenset[tuple[float, float]] = frozenset()

    @property
    def showing(self) -> int | None:
        """How many pips show whole (count_pips_showing), where ``at`` is given."""
        return None if self.at is None else len(self.at)

    def refusal(self, rank: Rank, suit: Suit | None = None) -> str | None:
        """Why the face refuses an index of ``rank`` (and ``suit``) read in one corner alone, or
        None.

        >>> PipCheck(1, red=Suit.DIAMONDS).refusal(Rank.ACE, Suit.HEARTS)
        "the body's pip is a diamond's outline, not the index's heart"
        >>> PipCheck(1, red=Suit.DIAMONDS).refusal(Rank.ACE, Suit.DIAMONDS) is None
        True
        >>> six = ((0.31, 0.2), (0.69, 0.2), (0.31, 0.5), (0.69, 0.5), (0.31, 0.8), (0.69, 0.8))
        >>> PipCheck(None, at=six).refusal(Rank.THREE), PipCheck(None, at=six).refusal(Rank.SIX)
        ('6 pips or more contradict the index 3', None)
        >>> PipCheck(None, at=six[:5], bare=frozenset({(0.5, 0.35), (0.5, 0.65)})).refusal(Rank.SEVEN)
        "the pips' places contradict the index 7"
        >>> eight = ((0.31, 0.2), (0.69, 0.2), (0.5, 0.35), (0.69, 0.5), (0.69, 0.8))  # a thumb lower left
        >>> PipCheck(None, at=eight, inked=frozenset({(0.5, 0.65)})).refusal(Rank.SEVEN)  # half its odd pip shows
        "the pips' places contradict the index 7"
        >>> PipCheck(None, at=eight).refusal(Rank.SEVEN) is None
        True
        >>> stretched = ((0.27, 0.21), (0.71, 0.22), (0.27, 0.57), (0.7, 0.57))  # an outline cut short
        >>> PipCheck(None, at=stretched, bare=frozenset({(0.31, 0.8), (0.69, 0.8)})).refusal(Rank.SIX) is None
        True
        >>> PipCheck(None, middle=False).refusal(Rank.FIVE), PipCheck(None, middle=False).refusal(Rank.SIX)
        ("no pip in the face's middle contradicts the index 5", None)
        >>> PipCheck(None, middle=True).refusal(Rank.NINE), PipCheck(None, middle=True).refusal(Rank.ACE) is None
        ("no whole pip in the face's middle, as the index 9 prints one", True)
        >>> PipCheck(None, middle=True, figure=True).refusal(Rank.ACE)
        "a court's figure in the face's middle contradicts the index A"
        >>> PipCheck(None, at=six).refusal(Rank.KING), PipCheck(None, at=six[:2]).refusal(Rank.KING) is None
        ("a pip card's pips contradict the index K", True)
        >>> PipCheck(None, at=six[:2], bare=frozenset({(0.5, 0.35), (0.5, 0.65)})).refusal(Rank.KING)  # a 3's
        "plain paper in the face's middle contradicts the index K"
        >>> corners = six[:2] + six[4:]  # a 4's, or a 5's with glare over its middle pip
        >>> PipCheck(4, glare=True, at=corners).refusal(Rank.FOUR)
        'glare hides the pips that would check the index 4'
        """
        if suit in (Suit.HEARTS, Suit.DIAMONDS) and self.red is not None and self.red is not suit:
            # Half a diamond's index pip under a strip is half a heart: the body's pip is whole.
            return f"the body's pip is a {_singular(self.red)}'s outline, not the index's {_singular(suit)}"
        if rank > Rank.TEN:
            # A court's index over a pip card's body (the card above sliding off): a court
            # prints its figure where the pips would be, and beside it two pips at most.
            pip_card = (self.showing or 0) >= COURT_PIPS and any(
                fits_layout(other, self.at, self.bare) for other in PIP_RANKS)
            if pip_card:
                return f"a pip card's pips contradict the index {rank.symbol}"
            # Where a thumb leaves two pips or one, the middle tells: a court's figure (or its
            # emblem) covers the face's middle, and the trunk above and below it, where every
            # pip card leaves plain paper at the middle or both sides of it.
            if FACE_MIDDLE in self.bare or FIGURE_TRUNK <= self.bare:
                return f"plain paper in the face's middle contradicts the index {rank.symbol}"
            return None
        if self.seen is not None and (self.seen > int(rank) or not self.glare):
            return None if self.seen == int(rank) else f"{self.seen} pips contradict the index {rank.symbol}"
        if self.seen is not None:
            # Glare over the pips may have burnt out the very pips that tell a 5 from a 4 (the
            # card above sliding off), or one of the card's own: only where the pips still
            # showing lie in the index rank's places and no other's do they check it.
            if self.names(rank):
                return None
            return f"{self.seen} pips contradict the index {rank.symbol}" if self.seen != int(rank) \
                else f"glare hides the pips that would check the index {rank.symbol}"
        if self.showing is not None and self.showing > int(rank):
            # An 8's index with a strip over its left part is a 3's: the pips beside a thumb
            # still number more.
            return f"{self.showing} pips or more contradict the index {rank.symbol}"
        if self.middle is not None and self.middle != (rank in MIDDLE_PIP_RANKS):
            # A 6's index with a strip over its left part is a 5's: a 5 prints a pip in the
            # face's middle, a 6 none, and a thumb on the corner leaves the middle in view.
            return (f"a pip in the face's middle contradicts the index {rank.symbol}" if self.middle
                    else f"no pip in the face's middle contradicts the index {rank.symbol}")
        if self.middle and rank in MIDDLE_PIP_RANKS and rank is not Rank.ACE \
                and not any(_near(pip, {(0.5, 0.5)}) for pip in self.at or ()):
            # A 9's index over a court's body: the figure's ink fills the middle, but no pip
            # lies there whole.
            return f"no whole pip in the face's middle, as the index {rank.symbol} prints one"
        if self.middle and rank is Rank.ACE and not self.lone and self.figure:
            # An ace's index over a court's body: an ace's one pip, often drawn in lines, need
            # not show whole, nor lie alone (an ornate spade runs on to its banner), but it is
            # never printed twice, the lower half the upper turned round, as a court's figure is.
            return "a court's figure in the face's middle contradicts the index A"
        # The pips showing whole, and with them the places under pips half shown (inked): each
        # may refuse the index, neither may let it through where the other refuses it.
        whole, placed = self.at or (), (self.at or ()) + tuple(sorted(self.inked))
        if (self.showing or 0) >= 2 and any(
                not fits_layout(rank, pips, self.bare)
                and any(fits_layout(other, pips, self.bare) for other in PIP_RANKS if other is not rank)
                for pips in (whole, placed)):
            # A 7's index over a 6's body, a thumb on it: five pips show, none in the middle,
            # but the paper is plain where a 7 prints its odd pip, and the places are a 6's.
            # Over an 8's, the thumb on the 8's lower odd pip: half of it still shows where a
            # 7 prints none. Where no rank's places fit, the outline found is not the card's (a
            # face warped from a cut-off outline has its pips out of every place); where no two
            # pips show whole, the print is too faint or blurred for plain paper to mean no pip.
            return f"the pips' places contradict the index {rank.symbol}"
        # Uncountable for a lamp's glare is not a face with no pips to count: the pips that
        # would have refused the index of a card sliding over another may lie in the glare.
        return f"glare hides the pips that would check the index {rank.symbol}" \
            if self.glare and not self.names(rank) else None

    def names(self, rank: Rank) -> bool:
        """Whether the pips showing whole and the plain paper fit ``rank``'s places and no other
        pip rank's: the face alone names the rank, whatever glare hides.

        >>> seven = ((0.69, 0.2), (0.31, 0.5), (0.69, 0.5), (0.5, 0.65), (0.31, 0.8), (0.69, 0.8))
        >>> PipCheck(6, glare=True, at=seven, bare=frozenset({(0.5, 0.35), (0.31, 0.4)})).names(Rank.SEVEN)
        True
        >>> PipCheck(6, glare=True, at=seven, bare=frozenset({(0.31, 0.4)})).names(Rank.SEVEN)  # an 8's place unseen
        False

        An ace's one pip fits no layout alone: it must lie alone in the middle, and a 3, a 5 and
        a 9 each have a place of plain paper.

        >>> ace = PipCheck(None, glare=True, bare=frozenset({(0.5, 0.8), (0.31, 0.8)}), lone=True)
        >>> ace.names(Rank.ACE), PipCheck(None, glare=True, bare=frozenset({(0.31, 0.8)}), lone=True).names(Rank.ACE)
        (True, False)
        """
        if rank is Rank.ACE:
            # One pip, where a 3, a 5 and a 9 print one too: an ace's only where each of them
            # prints another on what is plain paper here.
            return self.lone and not any(
                fits_layout(other, ((0.5, 0.5),), self.bare) for other in MIDDLE_PIP_RANKS if other is not Rank.ACE)
        return named_by_places(self.at, self.bare) is rank


def face_ink(face: np.ndarray) -> np.ndarray:
    """The ink of a canonical face as a 0/1 mask: what the checks of its middle and its places
    share, made once per face."""
    return glyphs.ink_mask(face, 41, 0.4)


def check_pips(face: np.ndarray, *, red: bool = False, court: bool = False) -> PipCheck:
    """The face's pips (count_pips_whole), whether glare burnt out part of them and, for a red
    card (``red``), heart or diamond by a body pip's outline; for a court (``court``), which has
    no pips to count, that outline (of the pip printed beside its figure, for a red court) and
    whatever pips show whole where a pip card prints them."""
    red_suit = red_suit_by_outline(face) if red else None
    if court:
        return PipCheck(None, red=red_suit, at=pips_showing(face), bare=bare_points(face))
    seen = count_pips_whole(face)
    glare = glare_over_pips(face)
    if seen is not None and not glare:
        return PipCheck(seen, glare, red_suit)
    ink = face_ink(face)
    lone = lone_pip_in_the_middle(face, ink)
    if seen is not None:
        # Glare may have burnt out a pip the count missed: where the pips still showing name the
        # rank alone, they check the index as a full count would.
        return PipCheck(seen, glare, red_suit, pips_showing(face), bare=bare_points(face, ink), lone=lone)
    boxes = _boxes_showing(face)
    return PipCheck(None, glare, red_suit, _centres(face, boxes), pip_in_the_middle(face, ink), bare_points(face, ink),
                    lone, double_headed(face, ink), inked_points(face, ink, boxes))


# The ranks whose pips include one at the face's very middle (an ace's, the middle one of a 3, 5
# or 9), in the layout every standard deck prints.
MIDDLE_PIP_RANKS = frozenset({Rank.ACE, Rank.THREE, Rank.FIVE, Rank.NINE})
_MIDDLE = (0.45, 0.55, 0.46, 0.54)  # x0, x1, y0, y1 of the face: inside any middle pip


def pip_in_the_middle(face: np.ndarray, ink: np.ndarray | None = None) -> bool | None:
    """Whether a pip lies at the face's very middle: ink over most of it, or paper over nearly
    all; None in between (a pip's edge, a blur). ``ink``: face_ink, where made already.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> [pip_in_the_middle(render_card(Card.parse(c))) for c in ("5S", "6S", "9H", "10H", "AD")]
    [True, False, True, False, True]
    """
    h, w = face.shape[:2]
    x0, x1, y0, y1 = _MIDDLE
    ink = face_ink(face) if ink is None else ink
    middle = ink[round(y0 * h): round(y1 * h), round(x0 * w): round(x1 * w)]
    share = float(np.count_nonzero(middle)) / max(middle.size, 1)
    return True if share > 0.5 else False if share < 0.05 else None


_LONE = (0.3, 0.7)  # of each side of the face: a pip alone at the middle lies within, a figure does not


def lone_pip_in_the_middle(face: np.ndarray, ink: np.ndarray | None = None) -> bool:
    """Whether a whole pip lies alone at the face's very middle: the ink there one solid blob,
    within the middle _LONE of each side, touching nothing (an ace's pip, not a figure's middle).
    ``ink``: face_ink, where made already.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> [lone_pip_in_the_middle(render_card(Card.parse(c))) for c in ("AH", "5S", "JD", "6S")]
    [True, True, False, False]
    """
    h, w = face.shape[:2]
    ink = face_ink(face) if ink is None else ink
    _, labels, stats = glyphs.components(ink)
    label = int(labels[h // 2, w // 2])
    if label == 0:
        return False
    x, y, bw, bh, area = (int(v) for v in stats[label])
    lo, hi = _LONE
    return x >= lo * w and x + bw <= hi * w and y >= lo * h and y + bh <= hi * h and area >= 0.3 * bw * bh


_FIGURE = (0.15, 0.85, 0.1, 0.9)  # x0, x1, y0, y1 of the face: a court's frame and figure
# The share of two opposite quarters' ink that lies in both, one turned half round, from which
# the figure's area is printed twice: above what the real decks' ornate aces of spades share,
# below a court's clear double print (benchmarks/RESULTS.md, the rules written after looking).
DOUBLE_HEADED = 0.7


def double_headed(face: np.ndarray, ink: np.ndarray | None = None) -> bool:
    """Whether the face's middle is printed twice, the lower half the upper turned half round,
    as a court's figure is: in one pair of opposite quarters (a thumb may cover a quarter of the
    other pair) most of the ink lies where the other, turned, has ink too. An ace's pip, however
    ornate, points one way. ``ink``: face_ink, where made already.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> [double_headed(render_card(Card.parse(c))) for c in ("KS", "JH", "AS", "AC")]
    [True, True, False, False]
    """
    h, w = face.shape[:2]
    ink = face_ink(face) if ink is None else ink
    x0, x1, y0, y1 = _FIGURE
    m = ink[round(y0 * h): round(y1 * h), round(x0 * w): round(x1 * w)] > 0
    mh, mw = m.shape
    qh, qw = mh // 2, mw // 2

    def alike(a: np.ndarray, b: np.ndarray) -> float:
        b = b[::-1, ::-1]
        either = int(np.count_nonzero(a | b))
        return int(np.count_nonzero(a & b)) / either if either else 0.0

    upper_left, upper_right = m[:qh, :qw], m[:qh, mw - qw:]
    lower_left, lower_right = m[mh - qh:, :qw], m[mh - qh:, mw - qw:]
    return max(alike(upper_left, lower_right), alike(upper_right, lower_left)) >= DOUBLE_HEADED


def pip_layout(rank: Rank) -> list[tuple[float, float]]:
    """Pip centres of A–10 as fractions of width and height: the classic French-suited layouts,
    which a standard deck prints give or take a few hundredths.

    >>> pip_layout(Rank.SEVEN)
    [(0.31, 0.2), (0.69, 0.2), (0.31, 0.8), (0.69, 0.8), (0.31, 0.5), (0.69, 0.5), (0.5, 0.35)]
    """
    left, mid, right = 0.31, 0.5, 0.69
    top, bottom = 0.2, 0.8
    n = int(rank)
    if n == 1:
        return [(mid, 0.5)]
    if n in (2, 3):
        return [(mid, top), (mid, bottom)] + ([(mid, 0.5)] if n == 3 else [])
    corners = [(left, top), (right, top), (left, bottom), (right, bottom)]
    if n in (4, 5):
        return corners + ([(mid, 0.5)] if n == 5 else [])
    if n in (6, 7, 8):
        extra = {6: [], 7: [(mid, 0.35)], 8: [(mid, 0.35), (mid, 0.65)]}[n]
        return corners + [(left, 0.5), (right, 0.5)] + extra
    rows = [top, 0.4, 0.6, bottom]
    columns = [(x, y) for y in rows for x in (left, right)]
    return columns + ([(mid, 0.5)] if n == 9 else [(mid, 0.3), (mid, 0.7)])


def layouts(rank: Rank) -> tuple[frozenset[tuple[float, float]], ...]:
    """pip_layout of ``rank`` upright, and turned half round where that differs: a 7 prints its
    odd pip in one half, and a card found on a table may lie either way up.

    >>> len(layouts(Rank.SEVEN)), len(layouts(Rank.EIGHT))
    (2, 1)
    """
    upright = frozenset((round(x, 3), round(y, 3)) for x, y in pip_layout(rank))
    turned = frozenset((round(1 - x, 3), round(1 - y, 3)) for x, y in upright)
    return (upright,) if turned == upright else (upright, turned)


PIP_RANKS = tuple(rank for rank in Rank if rank <= Rank.TEN)
# Pips showing whole in a pip card's places that no court shows: a court prints one beside its
# figure in each of two corners.
COURT_PIPS = 3
# Every place A–10 print a pip, either way up.
LAYOUT_POINTS = tuple(sorted({p for rank in PIP_RANKS for lay in layouts(rank) for p in lay}))
# The face's very middle, and the places above and below it on its middle line: a court's figure
# covers all three, an A-10 leaves the middle or both the others plain paper.
FACE_MIDDLE = (0.5, 0.5)
FIGURE_TRUNK = frozenset({(0.5, 0.35), (0.5, 0.65)})
# A pip showing further than this (a share of the face, its width across and height down) from
# every place the rank prints one is not that rank's: a deck's own places lie a few hundredths
# off the classic ones, a neighbouring rank's odd pip a tenth and more.
LAYOUT_SLACK = 0.12
# Half the width and half the height of the patch round a layout point that must be plain paper
# for "no pip there": well inside any pip.
_BARE = (0.04, 0.03)
_BARE_SHARE = 0.95  # of the patch plain paper: no ink, as bright as paper, not burnt out
# Half the width and half the height round a layout point within which burnt-out glare leaves
# it unknown: glare bright enough to wash a pip's ink away burns out the paper round the pip.
_GLARE_REACH = (0.08, 0.06)


def bare_points(face: np.ndarray, ink: np.ndarray | None = None) -> frozenset[tuple[float, float]]:
    """The LAYOUT_POINTS of ``face`` on plain paper: no ink round them (``ink``: face_ink,
    where it was made already), as bright as the face's paper, no glare burnt out
    within a pip's reach. A thumb, another card's print or glare over or beside a point leaves
    it out: no pip shows there, but one may lie under it.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> sorted(bare_points(render_card(Card.parse("6S"))) & {(0.5, 0.35), (0.31, 0.5)})
    [(0.5, 0.35)]
    """
    h, w = face.shape[:2]
    ink = face_ink(face) if ink is None else ink
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    x0, x1, y0, y1 = _whole_region(h, w)
    burnt = face.min(axis=2) >= BURNT
    # The paper's grey where it is neither ink nor burnt out: glare's halo lifts a part of it.
    plain = (ink[y0:y1, x0:x1] == 0) & ~burnt[y0:y1, x0:x1]
    paper = float(np.median(grey[y0:y1, x0:x1][plain])) if plain.any() else 255.0
    out = set()
    for px, py in LAYOUT_POINTS:
        rows = slice(round((py - _BARE[1]) * h), round((py + _BARE[1]) * h))
        cols = slice(round((px - _BARE[0]) * w), round((px + _BARE[0]) * w))
        reach = (slice(max(round((py - _GLARE_REACH[1]) * h), 0), round((py + _GLARE_REACH[1]) * h)),
                 slice(max(round((px - _GLARE_REACH[0]) * w), 0), round((px + _GLARE_REACH[0]) * w)))
        plain = (ink[rows, cols] == 0) & (grey[rows, cols] >= 0.8 * paper)
        if np.count_nonzero(plain) >= _BARE_SHARE * plain.size and not burnt[reach].any():
            out.add((px, py))
    return frozenset(out)


def fits_layout(rank: Rank, at: tuple[tuple[float, float], ...] | None, bare: frozenset[tuple[float, float]]) -> bool:
    """Whether pips showing at ``at`` (pips_showing) and plain paper at ``bare`` (bare_points)
    may be ``rank``'s, one way up or the other: no place the rank prints a pip is plain paper,
    and every pip showing lies near one of them (LAYOUT_SLACK).

    >>> sixes = ((0.31, 0.2), (0.69, 0.2), (0.31, 0.5), (0.69, 0.5), (0.31, 0.8))  # a thumb on the sixth
    >>> fits_layout(Rank.SIX, sixes, frozenset({(0.5, 0.35), (0.5, 0.65)}))
    True
    >>> fits_layout(Rank.SEVEN, sixes, frozenset({(0.5, 0.35), (0.5, 0.65)}))
    False
    >>> fits_layout(Rank.FOUR, sixes, frozenset())
    False
    """
    return any(not (lay & bare) and all(_near(pip, lay) for pip in at or ()) for lay in layouts(rank))


def named_by_places(at: tuple[tuple[float, float], ...] | None, bare: frozenset[tuple[float, float]]) -> Rank | None:
    """The one pip rank whose places fit two or more pips showing at ``at`` and plain paper at
    ``bare`` (fits_layout), or None where no rank's or several ranks' do.

    >>> three = ((0.5, 0.2), (0.5, 0.48))  # glare over the third
    >>> named_by_places(three, frozenset()), named_by_places(three[:1], frozenset())
    (<Rank.THREE: 3>, None)
    """
    if len(at or ()) < 2:
        return None
    fit = [rank for rank in PIP_RANKS if fits_layout(rank, at, bare)]
    return fit[0] if len(fit) == 1 else None


def pips_printed(face: np.ndarray) -> int | None:
    """How many pips the face prints: those counted whole (count_pips_whole), or where glare may
    have burnt some out (glare_over_pips), the rank whose places alone the pips still showing
    fit (named_by_places); None where neither tells.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> pips_printed(render_card(Card.parse("7S")))
    7
    """
    if not glare_over_pips(face):
        return count_pips_whole(face)
    named = named_by_places(pips_showing(face), bare_points(face))
    return None if named is None else int(named)


def _near(pip: tuple[float, float], places: Iterable[tuple[float, float]]) -> bool:
    """Whether ``pip`` lies within LAYOUT_SLACK of one of ``places``."""
    return any(math.hypot(pip[0] - x, pip[1] - y) <= LAYOUT_SLACK for x, y in places)


BURNT = 250  # every channel at least this: burnt out, no ink shows through
# The share of the face's pip area burnt out that may hide a pip: a few pips' worth, since a pip
# washed out whole has its paper round it burnt out too.
GLARE_OVER_PIPS = 0.06


def glare_over_pips(face: np.ndarray) -> bool:
    """Whether glare has burnt out GLARE_OVER_PIPS or more of the face's pip area (WHOLE_PIPS).

    >>> paper = np.full((280, 200, 3), 200, np.uint8)
    >>> glare_over_pips(paper)
    False
    >>> paper[60:160, 40:160] = 255
    >>> glare_over_pips(paper)
    True
    """
    x0, x1, y0, y1 = _whole_region(*face.shape[:2])
    return float((face[y0:y1, x0:x1].min(axis=2) >= BURNT).mean()) >= GLARE_OVER_PIPS


def _whole_region(h: int, w: int) -> tuple[int, int, int, int]:
    """x0, x1, y0, y1 of WHOLE_PIPS on an h×w face.

    >>> _whole_region(280, 200)
    (20, 180, 11, 269)
    """
    return round(WHOLE_PIPS[0] * w), round(WHOLE_PIPS[1] * w), round(WHOLE_PIPS[2] * h), round(WHOLE_PIPS[3] * h)


def _count(binary: np.ndarray, left_out: Callable[[int, int, int, int], bool] | None = None, *,
           largest: float = 2.0, cut: bool = True) -> int | None:
    """The pips of ``binary`` (_pips), counted."""
    boxes = _pips(binary, left_out, largest=largest, cut=cut)
    return None if boxes is None else len(boxes)


# Of the pip area's side: a thumb a soft camera blurs fades out this close to the border, its ink
# run together with the pips it half covers into one outsized blob.
SHOWING_EDGE = 0.03


def _pips(binary: np.ndarray, left_out: Callable[[int, int, int, int], bool] | None = None, *,
          largest: float = 2.0, cut: bool = True) -> list[tuple[int, int, int, int]] | None:
    """The boxes (x, y, width, height) of the pips of ``binary``, or None where it is not clearly
    pips; ``cut``: something running out of it makes them None, else it is left out (the pips
    that show whole), and so is a blob within SHOWING_EDGE of the border larger than ``largest``
    times the median of the others (a thumb run together with pips: no pip)."""
    n, _, stats = glyphs.components(binary)
    rh, rw = binary.shape
    edge_x, edge_y = round(SHOWING_EDGE * rw), round(SHOWING_EDGE * rh)
    found, near = [], []
    # Specks and print dust dropped at once: a noisy frame holds hundreds.
    stats = stats[1:]
    for x, y, bw, bh, area in stats[stats[:, 4] >= 0.0015 * rh * rw].tolist():
        if left_out is not None and left_out(x, y, bw, bh):
            continue
        if x == 0 or y == 0 or x + bw >= rw or y + bh >= rh:
            if not cut:
                continue
            return None  # something runs out of the pip area: a frame, a hand, a misplaced warp
        if not cut and (x <= edge_x or y <= edge_y or x + bw >= rw - edge_x or y + bh >= rh - edge_y):
            near.append((x, y, bw, bh, area))
            continue
        if area < 0.3 * bw * bh:
            return None  # outlines and line art: a court card or clutter
        found.append((x, y, bw, bh, area))
    if near:
        # Near the border, a pip is one like the others (a deck may print its outer pips there);
        # one outsized is a thumb that fades out before the border, whatever its shape.
        med = float(np.median([f[4] for f in found or near]))
        for x, y, bw, bh, area in near:
            if area <= largest * med:
                if area < 0.3 * bw * bh:
                    return None
                found.append((x, y, bw, bh, area))
    if not found:
        return None
    if len(found) == 1:
        # An ace: one large pip in the middle.
        return [found[0][:4]] if found[0][4] > 0.03 * rh * rw else None
    med = float(np.median([f[4] for f in found]))
    if any(f[4] < 0.5 * med or f[4] > largest * med for f in found) or len(found) > 10:
        return None
    return [f[:4] for f in found]


_UPPER_PIPS = (_PIP_AREA[0], _PIP_AREA[1], _PIP_AREA[2], 0.5)
# Out to the card's edges but for the border: the outer columns' pips whole (most decks print
# them across the pip area's sides), an index cut by its side and so never taken for a pip.
UPPER_PIPS_WHOLE = (WHOLE_PIPS[0], WHOLE_PIPS[1], 0.05, 0.5)


def first_pip(face: np.ndarray, within: tuple[float, float, float, float] = _UPPER_PIPS, *,
              black: bool = False) -> np.ndarray | None:
    """The ink of the top-left pip of a pip card (upright, in the upper half), for its suit's
    shape; ``within``: x0, x1, y0, y1 of the face to look in, a pip touching its sides not taken;
    ``black``: black ink alone (glyphs.black_ink_map), a tinted ground round it taken for paper."""
    h, w = face.shape[:2]
    x0, x1, y0, y1 = (round(within[0] * w), round(within[1] * w), round(within[2] * h), round(within[3] * h))
    part = face[y0:y1, x0:x1]
    ink = glyphs.black_ink_map(part, 41) if black else glyphs.ink_map(part, 41)[0]
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


def _singular(suit: Suit) -> str:
    return suit.name.lower()[:-1]  # HEARTS: heart



# glyphs.pip_taper's bars: a heart's well under one, a diamond's about one; between them the
# outline names neither.
HEART_TAPER, DIAMOND_TAPER = 0.6, 0.7
_MIDDLE_PIP = (0.2, 0.8, 0.25, 0.75)  # where an ace prints its one pip


def red_suit_by_outline(face: np.ndarray, upper: np.ndarray | None = None) -> Suit | None:
    """Heart or diamond by the outline of the face's first upper pip (printed upright; ``upper``
    where it was found already), else of an ace's middle pip (printed one way up only, so either
    way up); None where neither shows.

    >>> from faro_box.cards import Card
    >>> from faro_box.vision.sim.render import render_card
    >>> [red_suit_by_outline(render_card(Card.parse(c))) for c in ("5H", "5D", "AH", "AD")]
    [<Suit.HEARTS: 'H'>, <Suit.DIAMONDS: 'D'>, <Suit.HEARTS: 'H'>, <Suit.DIAMONDS: 'D'>]
    >>> red_suit_by_outline(render_card(Card.parse("AD"))[::-1, ::-1])
    <Suit.DIAMONDS: 'D'>
    """
    t = _taper(upper if upper is not None else first_pip(face, UPPER_PIPS_WHOLE))
    if t is None:
        t = _taper(first_pip(face, _MIDDLE_PIP))
        if t is not None and t > 1.0:
            t = 1.0 / t
    if t is None:
        return None
    return Suit.HEARTS if t <= HEART_TAPER else Suit.DIAMONDS if t >= DIAMOND_TAPER else None


def _taper(pip: np.ndarray | None) -> float | None:
    return None if pip is None else glyphs.pip_taper(pip)
