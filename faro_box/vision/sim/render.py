"""Synthetic card faces: corner indices, pips, court boxes, in several index styles.

The tests, the simulated dealing box and the generic deck profile are all built on these faces,
so the renderer draws what a real deck shows: a rank glyph (from a cv2 Hershey font, squeezed
into a fixed index box as printers do), a suit pip drawn as a shape (fonts have no suits), the
same index turned 180° in the bottom-right corner, the pip layouts of A–10 and a framed figure
for the courts. Russian decks index the courts В Д К (and the ace Т), French ones V D R.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.cards import Card, Colour, Rank, Suit
from faro_box.vision.pips import pip_layout

BGR = tuple[int, int, int]


class IndexKind(enum.Enum):
    ENGLISH = "english"
    RUSSIAN = "russian"
    FRENCH = "french"
    NONE = "none"  # the index-less reproduction decks: pips and court art decide


@dataclass(frozen=True, slots=True)
class PipShape:
    """How a deck draws its suit pips, as fractions of half the pip's height; the defaults are
    the renderer's own shapes. Printers differ most in the club: round lobes set close or apart,
    a stem straight or flared at its foot; spades and hearts in width, diamonds in their sides.

    >>> PipShape().stem_foot, PipShape().flare
    (0.3, 1.0)
    """

    lobe: float = 0.36  # the club's lobe radius
    lobe_spread: float = 0.48  # the side lobes' centres off the pip's axis
    lobe_rise: float = 0.52  # the top lobe's centre above the pip's middle
    stem_foot: float = 0.3  # half the club's stem's width at its foot
    spade_foot: float = 0.32
    stem_waist: float = 0.0  # half its width where it leaves the body
    flare: float = 1.0  # 1: straight sides; above 1 the sides curve in and flare out at the foot
    spade_width: float = 0.85
    heart_width: float = 1.0
    diamond_width: float = 0.72
    diamond_bow: float = 0.0  # the diamond's sides bowed out (above 0) or drawn in (below)


CLASSIC_PIPS = PipShape()


@dataclass(frozen=True, slots=True)
class CardStyle:
    index: IndexKind = IndexKind.ENGLISH
    font: int = cv2.FONT_HERSHEY_SIMPLEX
    stroke: float = 1.0  # glyph stroke weight, relative to the font's natural weight
    red: BGR = (40, 30, 200)
    black: BGR = (30, 30, 30)
    paper: BGR = (245, 245, 242)
    court_frame: BGR = (150, 60, 40)
    table: BGR = (40, 90, 30)  # what shows outside the rounded corners
    pips: PipShape = CLASSIC_PIPS
    pip_scale: float = 1.0  # the body's pips against the renderer's own size

    def ink(self, colour: Colour) -> BGR:
        return self.red if colour is Colour.RED else self.black


ENGLISH = CardStyle()
RUSSIAN = CardStyle(index=IndexKind.RUSSIAN, font=cv2.FONT_HERSHEY_COMPLEX)
FRENCH = CardStyle(index=IndexKind.FRENCH, font=cv2.FONT_HERSHEY_TRIPLEX)
INDEXLESS = CardStyle(index=IndexKind.NONE)

# Court and ace letters per index style; '' means a shape drawn by strokes below.
_LETTERS = {
    IndexKind.ENGLISH: {Rank.ACE: "A", Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},
    # В, К and Т have the very shapes of Latin B, K, T; only Д needs strokes of its own.
    IndexKind.RUSSIAN: {Rank.ACE: "T", Rank.JACK: "B", Rank.QUEEN: "", Rank.KING: "K"},
    IndexKind.FRENCH: {Rank.ACE: "A", Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"},
}

# Index geometry as fractions of the card's width (x) and height (y): rank box, then suit pip.
INDEX_X0, INDEX_X1 = 0.035, 0.165
RANK_Y0, RANK_Y1 = 0.035, 0.125
SUIT_CY, SUIT_SIZE = 0.165, 0.095
PIP_SIZE = 0.17  # of the width


def index_text(rank: Rank, style: CardStyle) -> str:
    """The characters printed in the corner for ``rank`` ('' for the stroked Д)."""
    if style.index is IndexKind.NONE:
        return ""
    return _LETTERS[style.index].get(rank, str(rank.value))


def render_card(card: Card, *, style: CardStyle | None = None, width: int = 250, height: int = 350) -> np.ndarray:
    """An upright face of ``card``: BGR uint8, ``height``×``width``×3, deterministic."""
    style = style or ENGLISH
    if width < 40 or height < 56:
        raise ValueError(f"a card face of {width}x{height} is too small to draw")
    img = np.empty((height, width, 3), np.uint8)
    img[:] = style.table
    mask = card_mask(width, height)
    img[mask > 0] = style.paper
    ink = style.ink(card.colour)
    if card.rank >= Rank.JACK:
        _draw_court(img, card, style, ink)
    else:
        for x, y in pip_layout(card.rank):
            size = PIP_SIZE * width * (2.2 if card.rank is Rank.ACE else 1.0) * style.pip_scale
            draw_pip(img, card.suit, (x * width, y * height), size, ink, flip=y > 0.5, shape=style.pips)
    if style.index is not IndexKind.NONE:
        _draw_index(img, card, style, ink)
        turned = np.ascontiguousarray(img[::-1, ::-1])
        _draw_index(turned, card, style, ink)
        img = np.ascontiguousarray(turned[::-1, ::-1])
    return img


def card_mask(width: int, height: int) -> np.ndarray:
    """255 inside the rounded outline of a card face of this size, 0 outside."""
    mask = np.zeros((height, width), np.uint8)
    r = max(2, round(0.045 * width))
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def suit_outline(suit: Suit, size: float, shape: PipShape = CLASSIC_PIPS) -> list[np.ndarray]:
    """Polygons (float, centred on 0, y down, about ``size`` tall) whose union is the pip."""
    s = size / 2.0
    t = np.linspace(0.0, 2.0 * math.pi, 72, endpoint=False)
    # The classic heart curve, scaled to a unit box, point down.
    hx = 16 * np.sin(t) ** 3
    hy = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    hy = (hy - hy.min()) / (hy.max() - hy.min()) * 2.0 - 1.0  # exactly -1..1: the pip fills its box
    heart = np.stack([hx / 17.0, hy], axis=1)
    if suit is Suit.HEARTS:
        return [heart * np.array([shape.heart_width, 1.0]) * s]
    if suit is Suit.DIAMONDS:
        return [_diamond(shape.diamond_width, shape.diamond_bow) * s]
    if suit is Suit.SPADES:
        body = heart * np.array([shape.spade_width, -0.8]) + np.array([0.0, -0.2])
        return [body * s, _stem(0.2, shape.stem_waist, shape.spade_foot, shape.flare) * s]
    circle = np.stack([np.cos(t), np.sin(t)], axis=1) * shape.lobe
    lobes = [circle + np.array(c) for c in ((0.0, -shape.lobe_rise), (-shape.lobe_spread, 0.1),
                                           (shape.lobe_spread, 0.1))]
    stem = _stem(0.0, shape.stem_waist, shape.stem_foot, shape.flare)
    centre = np.array([[-0.2, -0.2], [0.2, -0.2], [0.25, 0.25], [-0.25, 0.25]])
    # The lobes' centres joined: lobes set far apart still meet in ink, with no paper between.
    between = np.array([[0.0, -shape.lobe_rise], [shape.lobe_spread, 0.1], [-shape.lobe_spread, 0.1]])
    return [p * s for p in [*lobes, stem, centre, between]]


def _stem(top: float, waist: float, foot: float, flare: float) -> np.ndarray:
    """A stem from ``top`` down to the pip's foot (y = 1), ``waist`` to ``foot`` half wide."""
    if waist == 0.0 and flare == 1.0:
        return np.array([[0, top], [foot, 1.0], [-foot, 1.0]])
    u = np.linspace(0.0, 1.0, 12)
    right = np.stack([waist + (foot - waist) * u ** flare, top + (1.0 - top) * u], axis=1)
    return np.concatenate([right, right[::-1] * np.array([-1.0, 1.0])])


def _diamond(width: float, bow: float) -> np.ndarray:
    if bow == 0.0:
        return np.array([[0, -1], [width, 0], [0, 1], [-width, 0]], float)
    corners = np.array([[0, -1], [width, 0], [0, 1], [-width, 0]], float)
    u = np.linspace(0.0, 1.0, 9)[:-1, None]
    sides = []
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        mid = (a + b) / 2
        out = mid * (1.0 + bow)  # the side's middle pushed away from (or toward) the centre
        sides.append((1 - u) ** 2 * a + 2 * (1 - u) * u * out + u ** 2 * b)
    return np.concatenate(sides)


def draw_pip(img: np.ndarray, suit: Suit, centre: tuple[float, float], size: float,
             colour: BGR, *, flip: bool = False, shape: PipShape = CLASSIC_PIPS) -> None:
    """Fill one suit pip of height ``size`` at ``centre`` (turned upside down if ``flip``)."""
    cx, cy = centre
    sign = -1.0 if flip else 1.0
    shift = 4  # sub-pixel precision for small index pips
    for p in suit_outline(suit, size, shape):
        # One polygon at a time: fillPoly given several leaves their overlaps as holes.
        poly = np.round((np.array([cx, cy]) + p * np.array([sign, sign])) * (1 << shift)).astype(np.int32)
        cv2.fillPoly(img, [poly], colour, cv2.LINE_AA, shift)


def glyph_mask(text: str, font: int, stroke: float = 1.0, *, stroked: Rank | None = None) -> np.ndarray:
    """A tight float mask (0..1) of ``text`` in a Hershey font, or of the stroked Д."""
    scale, thick = 4.0, max(1, round(8 * stroke))
    if stroked is not None:
        canvas = np.zeros((160, 140), np.uint8)
        _draw_de(canvas, thick)
    else:
        (w, h), base = cv2.getTextSize(text, font, scale, thick)
        canvas = np.zeros((h + base + 2 * thick + 8, w + 2 * thick + 8), np.uint8)
        cv2.putText(canvas, text, (thick + 4, h + thick + 4), font, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas > 40)
    if len(xs) == 0:
        raise ValueError(f"font {font!r} drew nothing for {text!r}")
    crop = canvas[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    return crop.astype(np.float32) / 255.0


def _draw_de(canvas: np.ndarray, thick: int) -> None:
    """Д in strokes: a trapezoid body on a base with two feet (cv2 fonts have no Cyrillic)."""
    pts = [(40, 20), (100, 20), (100, 120)]
    cv2.polylines(canvas, [np.array(pts)], False, 255, thick, cv2.LINE_AA)
    cv2.line(canvas, (40, 20), (28, 120), 255, thick, cv2.LINE_AA)
    cv2.line(canvas, (12, 120), (116, 120), 255, thick, cv2.LINE_AA)
    cv2.line(canvas, (12, 120), (12, 145), 255, thick, cv2.LINE_AA)
    cv2.line(canvas, (116, 120), (116, 145), 255, thick, cv2.LINE_AA)


def _paste(img: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int], colour: BGR) -> None:
    x0, y0, x1, y1 = box
    m = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)[..., None]
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (region * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)


def _draw_index(img: np.ndarray, card: Card, style: CardStyle, ink: BGR) -> None:
    h, w = img.shape[:2]
    text = index_text(card.rank, style)
    stroked = card.rank if (text == "" and style.index is IndexKind.RUSSIAN) else None
    mask = glyph_mask(text, style.font, style.stroke, stroked=stroked)
    x0, x1 = round(INDEX_X0 * w), round(INDEX_X1 * w)
    y0, y1 = round(RANK_Y0 * h), round(RANK_Y1 * h)
    gh, gw = mask.shape
    # Keep a glyph's own proportions unless it is too wide for the index column ("10").
    width = min(x1 - x0, max(2, round((y1 - y0) * gw / gh)))
    cx = (x0 + x1) // 2
    _paste(img, mask, (cx - width // 2, y0, cx - width // 2 + width, y1), ink)
    draw_pip(img, card.suit, ((x0 + x1) / 2, SUIT_CY * h), SUIT_SIZE * w, ink, shape=style.pips)


def _draw_court(img: np.ndarray, card: Card, style: CardStyle, ink: BGR) -> None:
    """A framed figure, mirrored top to bottom as court cards are, with a suit pip beside it."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = round(0.21 * w), round(0.12 * h), round(0.79 * w), round(0.88 * h)
    half = np.ascontiguousarray(img[y0: (y0 + y1) // 2, x0:x1])
    _draw_figure(half, card.rank, ink, style)
    draw_pip(half, card.suit, (0.18 * half.shape[1], 0.16 * half.shape[0]), 0.1 * w, ink, shape=style.pips)
    img[y0: (y0 + y1) // 2, x0:x1] = half
    img[(y0 + y1) // 2: y1, x0:x1] = half[::-1, ::-1][: y1 - (y0 + y1) // 2]
    cv2.rectangle(img, (x0, y0), (x1, y1), style.court_frame, max(1, w // 125), cv2.LINE_AA)


def _draw_figure(half: np.ndarray, rank: Rank, ink: BGR, style: CardStyle) -> None:
    """Head, headgear and robe: a crown of spikes (king), a round crown with a veil (queen),
    a cap with a feather (jack), so that index-less decks still tell the courts apart."""
    hh, hw = half.shape[:2]
    t = max(1, hw // 70)
    cx, head_y, r = hw // 2, int(0.5 * hh), int(0.13 * hw)
    robe = np.array([[cx - int(0.32 * hw), hh], [cx, head_y + r], [cx + int(0.32 * hw), hh]])
    cv2.fillPoly(half, [robe], style.court_frame, cv2.LINE_AA)
    cv2.circle(half, (cx, head_y), r, (170, 200, 235), -1, cv2.LINE_AA)
    cv2.circle(half, (cx, head_y), r, ink, t, cv2.LINE_AA)
    top = head_y - r
    if rank is Rank.KING:
        crown = np.array([[cx - r, top], [cx - r, top - r], [cx - r // 2, top - r // 2], [cx, top - int(1.3 * r)],
                          [cx + r // 2, top - r // 2], [cx + r, top - r], [cx + r, top]])
        cv2.fillPoly(half, [crown], (40, 180, 230), cv2.LINE_AA)
        beard = np.array([[cx - r, head_y], [cx, head_y + int(1.4 * r)], [cx + r, head_y]])
        cv2.fillPoly(half, [beard], ink, cv2.LINE_AA)
    elif rank is Rank.QUEEN:
        cv2.ellipse(half, (cx, top), (r, r // 2), 0, 180, 360, (40, 180, 230), -1, cv2.LINE_AA)
        for dx in (-r, 0, r):
            cv2.circle(half, (cx + dx, top - r // 2), max(2, r // 4), ink, -1, cv2.LINE_AA)
        cv2.line(half, (cx - r, head_y), (cx - int(1.5 * r), hh), ink, t, cv2.LINE_AA)
        cv2.line(half, (cx + r, head_y), (cx + int(1.5 * r), hh), ink, t, cv2.LINE_AA)
    else:
        cv2.rectangle(half, (cx - r, top - r // 2), (cx + r, top + r // 4), ink, -1, cv2.LINE_AA)
        cv2.line(half, (cx + r, top - r // 2), (cx + 2 * r, top - int(1.6 * r)), ink, 2 * t, cv2.LINE_AA)
