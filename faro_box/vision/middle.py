"""A deck with no corner index, read by what it prints in the face's middle and by its corner pips.

Such a deck still shows its rank large somewhere: a numeral or a figure in the middle of the face.
Its ink, cut to its own bounds and squared, is compared with the deck's enrolled faces either way
up, so the rank does not hang on how the warp placed the paper's margins (what limits the
whole-face templates) nor on how large the deck prints it. The suit is the small pip in the
corners, compared with the deck's own enrolled corner pips: each corner that shows a pip must
name it (one corner may be under a thumb).

Turned over, a card shows the same corners and its middle upside down: a 6 is then a 9 unless the
deck draws them apart. Each way up is therefore judged alone too, and a way that is sure of
another rank than the two together leaves the rank unsure.

>>> from faro_box.cards import Card
>>> from faro_box.vision.sim.render import INDEXLESS, render_card
>>> middle_feature(render_card(Card.parse("7D"), style=INDEXLESS)).shape
(576,)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.cards import RANKS, SUITS, Colour, Rank, Suit
from faro_box.vision import glyphs
from faro_box.vision.canonical import canonical_size
from faro_box.vision.nearest import ClassTemplates, pick
from faro_box.vision.pips import BURNT, first_pip

MIDDLE = (0.2, 0.8)  # of each side of the face: clear of the corner pips, holding the rank's print
MIDDLE_SIDE = 24  # the squared ink's side in the feature
_INK = 0.4  # ink strength that counts for the print's bounds
_LEAST_INK = 30  # pixels of ink below which the middle shows nothing to compare
_CUT_SHARE = 0.5  # a piece cut by the middle's sides is kept only when this large against the largest
# Where the corner pip sits: the face's top-left corner, a pip touching the corner's inner sides
# not taken (first_pip). Wider than where decks print it: a card found with some of the table
# round it (a loose outline, a crop with a margin) brings the pip inward.
CORNER_PIP = (0.0, 0.35, 0.0, 0.35)
RANK_ACCEPT = (0.6, 2.5)  # the nearest enrolled face of one rank against every other rank's nearest
SUIT_ACCEPT = (0.6, 2.0)
# The share of a deck's enrolled corner pips that must name their own suit against the other
# cards' (corner_pips_name_their_suits) for its corners and middles to be read at all.
SUITS_NAMED = 0.9
COLOUR_BAND = 0.04  # the print's redness this near the deck's threshold: its colour unclear (as an index's)


def _turned(face: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(face[::-1, ::-1])


def _middle(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ink strength of the face's middle (MIDDLE) and its colour, balanced to white paper."""
    face = canonical_size(face)
    ink, balanced = glyphs.ink_map(face, 31)
    h, w = ink.shape
    lo, hi = MIDDLE
    rows, cols = slice(int(lo * h), int(hi * h)), slice(int(lo * w), int(hi * w))
    return ink[rows, cols], balanced[rows, cols]


def middle_feature(face: np.ndarray) -> np.ndarray | None:
    """The ink of the face's middle cut to its own bounds, squared, scaled and softened, unit norm
    about its mean; None where the middle holds almost no ink."""
    region, _ = _middle(face)
    ys, xs = np.nonzero(_print(region))
    if len(ys) < _LEAST_INK:
        return None
    cut = region[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    side = max(cut.shape)
    square = np.zeros((side, side), np.float32)
    oy, ox = (side - cut.shape[0]) // 2, (side - cut.shape[1]) // 2
    square[oy:oy + cut.shape[0], ox:ox + cut.shape[1]] = cut
    small = cv2.resize(square, (MIDDLE_SIDE, MIDDLE_SIDE), interpolation=cv2.INTER_AREA)
    # Softened as glyphs.glyph_feature softens an index: a print turned a few degrees (a crop
    # that is not warped upright) or drawn a little thicker stays near its enrolled self.
    v = cv2.GaussianBlur(small, (3, 3), 0.8).ravel()
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return (v / n).astype(np.float32) if n > 1e-6 else None


def print_redness(face: np.ndarray) -> float | None:
    """How red the middle's print is: red less green of its inkiest pixels, against white paper
    (0..1; a black print near 0); None where the middle holds almost no ink. The deck's corner
    pips are printed in the same colour as its print."""
    region, balanced = _middle(face)
    printed = _print(region)
    if np.count_nonzero(printed) < _LEAST_INK:
        return None
    inkiest = printed & (region >= 0.7 * float(region[printed].max()))
    red = balanced[..., 2][inkiest].astype(np.float32) - balanced[..., 1][inkiest].astype(np.float32)
    return float(red.mean()) / 255.0


def _print(region: np.ndarray) -> np.ndarray:
    """The ink of what the middle prints. A small piece cut by the region's sides is a corner pip
    reaching in (a card found tight to its paper); one lying wholly where the corner pips are
    looked for (CORNER_PIP, a loose outline) is a corner pip too, not the print."""
    binary = (region > _INK).view(np.uint8)
    n, labels, stats = glyphs.components(binary)
    if n <= 1:
        return binary
    rh, rw = binary.shape
    lo, hi = MIDDLE
    near = (CORNER_PIP[1] - lo) / (hi - lo)  # the corner pip's square within the region, from each corner
    largest = int(stats[1:, cv2.CC_STAT_AREA].max())
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        cut = x == 0 or y == 0 or x + bw >= rw or y + bh >= rh
        cornered = (x + bw <= near * rw and y + bh <= near * rh) or (x >= (1 - near) * rw and y >= (1 - near) * rh)
        keep[i] = not (cut or cornered) or area >= _CUT_SHARE * largest
    return keep[labels]


def corner_pips(face: np.ndarray, within: tuple[float, float, float, float] = CORNER_PIP) -> list[np.ndarray]:
    """The ink of the pip in each corner that shows one clearly (pips.first_pip ``within`` the
    face either way up): its top-left corner's, then its bottom-right's."""
    face = canonical_size(face)
    return [pip for upright in (face, _turned(face)) if (pip := first_pip(upright, within)) is not None]


def corner_pip_features(face: np.ndarray) -> list[np.ndarray]:
    """corner_pips as glyphs (glyphs.glyph_feature), what enrolment keeps and reading compares."""
    return [glyphs.glyph_feature(pip, glyphs.SUIT_SHAPE) for pip in corner_pips(face)]


@dataclass(frozen=True, slots=True)
class MiddleReading:
    rank: Rank | None
    suit: Suit | None
    confidence: float  # the rank's and the suit's least; 0.5 at the acceptance line
    suits_named: frozenset[Suit] = frozenset()  # what the corner pips name, each where it is sure
    why: str = ""


def read_middle(face: np.ndarray, middles: np.ndarray, middle_ranks: np.ndarray,
                corner_pips: ClassTemplates, red_threshold: float) -> MiddleReading:
    """The rank by the face's middle against ``middles`` (rows, their Rank values in
    ``middle_ranks``) and the suit by the corner pips against the deck's own, each where it is
    sure, and never of another colour than the print's ink (``red_threshold``: the deck's
    print_redness between its black and red cards)."""
    face = canonical_size(face)
    named = [pick(corner_pips.best(f[None]), SUIT_ACCEPT) for f in corner_pip_features(face)]
    suits = frozenset(SUITS[i] for i, sure in named if sure >= 0.5)
    if glare_over_middle(face):
        return MiddleReading(None, None, 0.0, suits, "glare over the face's middle")
    feats = [f for f in (middle_feature(face), middle_feature(_turned(face))) if f is not None]
    if not feats or not len(middles):
        return MiddleReading(None, None, 0.0, suits, "nothing printed in the face's middle")
    ways = [_per_rank(middles @ f, middle_ranks) for f in feats]
    r_i, confidence = pick(np.max(ways, axis=0), RANK_ACCEPT)
    rank = RANKS[r_i]
    for way in ways:
        other, sure = pick(way, RANK_ACCEPT)
        if sure >= 0.5 and other != r_i:
            return MiddleReading(None, None, min(confidence, 0.49), suits,
                                 f"the middle reads {rank.symbol} one way up and {RANKS[other].symbol} the other")
    if confidence < 0.5:
        return MiddleReading(None, None, confidence, suits, "the middle's rank unsure")
    if not named or len(suits) != 1 or any(sure < 0.5 for _, sure in named):
        return MiddleReading(rank, None, confidence, suits, "the corner pips name no one suit")
    suit = next(iter(suits))
    redness = print_redness(face)
    if redness is None or abs(redness - red_threshold) < COLOUR_BAND \
            or (redness > red_threshold) is not (suit.colour is Colour.RED):
        # A blurred pip of one colour can take the shape of the other colour's (a club's, a diamond's).
        ink = "unclear" if redness is None or abs(redness - red_threshold) < COLOUR_BAND \
            else "red" if redness > red_threshold else "black"
        return MiddleReading(rank, None, min(confidence, 0.49), suits,
                             f"the print's ink is {ink}, the corner pips name {suit.name.lower()}")
    return MiddleReading(rank, suit, min(confidence, *(sure for _, sure in named)), suits)


def corner_pips_name_their_suits(feats: np.ndarray, suits: np.ndarray, cards: np.ndarray) -> float:
    """The share of enrolled corner pips (``feats``, their suits' indices in ``suits``) that the
    other cards' corner pips (``cards``: each row's card) name as their own suit, surely. What
    lies first in the corner of a deck that prints an index there is its rank's glyph, which the
    same rank of another suit names: such a deck's corners name no suit, and are not kept.

    >>> glyph_of_rank = np.eye(4, dtype=np.float32)[[0, 0, 1, 1]]  # an A and a 2, in two suits each
    >>> corner_pips_name_their_suits(glyph_of_rank, np.array([0, 1, 0, 1]), np.arange(4))
    0.0
    >>> suits = np.array([0, 1, 2, 3, 0, 1, 2, 3])
    >>> corner_pips_name_their_suits(np.eye(4, dtype=np.float32)[suits], suits, np.arange(8))
    1.0
    """
    named = 0
    for k in range(len(feats)):
        others = cards != cards[k]
        if not others.any():
            continue
        i, sure = pick(ClassTemplates(feats[others], suits[others], 4, 0).best(feats[k][None]), SUIT_ACCEPT)
        named += sure >= 0.5 and i == suits[k]
    return float(named) / len(feats) if len(feats) else 0.0


# The share of the middle burnt out that refuses its print: what is left of a print washed out
# there can be the shape of another rank's.
GLARE_OVER_MIDDLE = 0.15


def glare_over_middle(face: np.ndarray) -> bool:
    """Whether glare has burnt out GLARE_OVER_MIDDLE or more of the face's middle."""
    h, w = face.shape[:2]
    lo, hi = MIDDLE
    region = face[int(lo * h):int(hi * h), int(lo * w):int(hi * w)]
    return float((region.min(axis=2) >= BURNT).mean()) >= GLARE_OVER_MIDDLE


def _per_rank(similarities: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    best = np.full(len(RANKS), -1.0, np.float32)
    np.maximum.at(best, np.searchsorted([int(r) for r in RANKS], ranks), similarities.astype(np.float32))
    return best
