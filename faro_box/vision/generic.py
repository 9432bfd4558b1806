"""The generic profile: English corner indices composed from real typefaces, with print variation.

The glyphs come from an atlas of free serif and sans faces (``data/generic_glyphs.npz``, drawn
at build time by benchmarks/render_generic_glyphs.py; the package needs neither Pillow nor the
fonts). Each rank glyph is set above a suit pip on paper, squeezed or widened, made bolder or
thinner, turned a little and blurred as printers and cameras do, and then goes through the very
segmentation the reader uses, so the templates are what the reader will see. No real deck
went into it.
"""

from __future__ import annotations

import dataclasses
from importlib import resources
from io import BytesIO

import cv2
import numpy as np

from faro_box.cards import Card, Rank, Suit
from faro_box.vision.canonical import View
from faro_box.vision.features import index_features
from faro_box.vision.glyphs import find_index
from faro_box.vision.profile import DeckProfile, Sample, build_profile, sample_from_view
from faro_box.vision.sim.render import ENGLISH, render_card

GLYPH_ATLAS = "generic_glyphs.npz"
HERSHEY_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                 cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
ATLAS_H, ATLAS_W = 48, 80  # every atlas glyph is ATLAS_H rows tall, left-aligned in ATLAS_W columns
# Printed reds run from scarlet to a faded pink; black ink reads near 0 (see glyphs._ink_colour).
GENERIC_RED_THRESHOLD = 0.15
# Rank and suit margins (runner-up distance / winner distance): with templates of 27 faces the
# right class's nearest template is rarely the deck's own shape, so 2.0 would abstain too often.
# The rank margin was chosen on the February half of feeder-corners (0 wrong there from 1.2 up),
# checked on September; suits keep 2.0: a blurred club is spade-like to templates of many faces.
GENERIC_MARGINS = (1.3, 2.0)
RANK_TOO_NEAR, SUIT_TOO_NEAR = 0.02, 0.005
_BLACK, _RED, _PAPER = (30, 30, 30), (40, 30, 200), (242, 244, 245)


@dataclasses.dataclass(frozen=True, slots=True)
class Print:
    """How one index is printed and seen: width squeeze, ink spread, slant, pip size, blur, size."""

    squeeze: float  # glyph width factor (condensed faces are narrower still)
    ink: float  # threshold on the softened glyph: low is bold, high is thin
    angle: float  # degrees
    pip: float  # pip height relative to the rank glyph's
    pip_wide: float  # pip width factor: card pips are broader than the suit characters of most faces
    blur: float  # camera blur, pixels
    height: int  # rank glyph height, pixels


PRINTS = (
    Print(0.8, 0.5, 0.0, 0.75, 1.3, 0.7, 40),
    Print(1.0, 0.35, 1.5, 0.8, 1.15, 1.0, 40),
    Print(0.65, 0.5, -1.5, 0.7, 1.4, 0.8, 34),
    Print(0.85, 0.65, 0.0, 0.85, 1.0, 0.6, 44),
    Print(0.75, 0.3, -1.0, 0.75, 1.25, 1.2, 26),
    Print(1.1, 0.5, 1.0, 0.7, 1.1, 0.7, 30),
)


def load_atlas() -> dict[str, np.ndarray]:
    data = resources.files("faro_box.vision").joinpath(f"data/{GLYPH_ATLAS}").read_bytes()
    with np.load(BytesIO(data), allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


def _shape(mask: np.ndarray, width: int, height: int, ink: float) -> np.ndarray:
    """The atlas glyph at ``height``×``width``, its strokes thickened or thinned by ``ink``."""
    soft = cv2.GaussianBlur(mask.astype(np.float32) * (1.0 / 255.0), (0, 0), 1.0)
    sized = cv2.resize(soft, (max(2, width), max(2, height)), interpolation=cv2.INTER_AREA)
    # Re-threshold softly: the edge stays anti-aliased, its position follows ``ink``.
    return np.clip((sized - ink) * 4.0 + 0.5, 0.0, 1.0)


def compose_index(rank: np.ndarray, rank_w: int, suit: np.ndarray, suit_w: int, p: Print, *, red: bool,
                  margin: int = 14) -> np.ndarray:
    """A corner close-up (BGR) with ``rank`` set above ``suit`` as printed by ``p``."""
    rh = p.height
    rw = round(rank_w * rh / ATLAS_H * p.squeeze)
    sh = round(p.pip * rh)
    sw = round(suit_w * sh / ATLAS_H * p.pip_wide)
    r = _shape(rank[:, :rank_w], rw, rh, p.ink)
    s = _shape(suit[:, :suit_w], sw, sh, 0.3)  # a pip's thin stem must survive the shrinking
    gap = round(0.14 * rh)
    width = max(rw, sw) + 2 * margin + rh
    height = rh + gap + sh + 2 * margin + rh // 2
    ink: np.ndarray = np.zeros((height, width), np.float32)
    cx = margin + max(rw, sw) // 2
    ink[margin: margin + rh, cx - rw // 2: cx - rw // 2 + rw] = r
    y = margin + rh + gap
    ink[y: y + sh, cx - sw // 2: cx - sw // 2 + sw] = s
    if p.angle:
        m = cv2.getRotationMatrix2D((cx, margin + rh), p.angle, 1.0)
        ink = cv2.warpAffine(ink, m, (width, height), flags=cv2.INTER_LINEAR)
    if p.blur:
        ink = cv2.GaussianBlur(ink, (0, 0), p.blur)
    paper, colour = np.array(_PAPER, np.float32), np.array(_RED if red else _BLACK, np.float32)
    img = paper * (1.0 - ink[..., None]) + colour * ink[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def generic_samples(atlas: dict[str, np.ndarray], prints: tuple[Print, ...] = PRINTS) -> list[Sample]:
    """One sample per rank glyph of the atlas and print, each with a pip of a rotating face and suit."""
    suits = tuple(Suit)
    n_suits = len(atlas["suits"])
    samples: list[Sample] = []
    k = 0
    for glyph, label, width in zip(atlas["ranks"], atlas["rank_labels"], atlas["rank_widths"], strict=True):
        for p in prints:
            j = k % n_suits
            k += 7  # steps through faces and suits alike (7 is prime to their count)
            suit = suits[int(atlas["suit_labels"][j])]
            img = compose_index(glyph, int(width), atlas["suits"][j], int(atlas["suit_widths"][j]), p,
                                red=suit in (Suit.HEARTS, Suit.DIAMONDS))
            index = find_index(img)
            if index is not None and index.suit is not None:
                samples.append(Sample(Card(Rank(int(label)), suit), index_features(index), None))
    return samples


def hershey_samples() -> list[Sample]:
    """Our renderer's own cards in OpenCV's Hershey faces: the simulated box and tests draw these."""
    suits = tuple(Suit)
    samples: list[Sample] = []
    for font in HERSHEY_FONTS:
        for stroke in (0.6, 1.0, 1.5):
            style = dataclasses.replace(ENGLISH, font=font, stroke=stroke)
            for i, rank in enumerate(Rank):
                card = Card(rank, suits[i % 4])
                face = render_card(card, style=style, width=400, height=560)
                samples.append(sample_from_view(card, face, View.FACE))
                # The same at the canonical size, softened as a camera does: blur rounds a club's
                # leaves into a spade-like blob that sharp templates of other faces pull away.
                small = cv2.GaussianBlur(render_card(card, style=style, width=200, height=280), (0, 0), 1.0)
                samples.append(sample_from_view(card, small, View.FACE))
    return samples


def _thin(feats: np.ndarray, labels: np.ndarray, too_near: float) -> np.ndarray:
    """Rows to keep: a template within ``too_near`` (the reader's distance, 1 - similarity) of
    one kept already of its class adds nothing but size."""
    kept: list[int] = []
    for i in range(len(feats)):
        same = [k for k in kept if labels[k] == labels[i]]
        if not same or float(np.min(0.5 * ((feats[same] - feats[i]) ** 2).sum(axis=1))) >= too_near:
            kept.append(i)
    return np.array(kept, np.int64)


def build_generic_profile(atlas: dict[str, np.ndarray] | None = None) -> DeckProfile:
    samples = generic_samples(atlas if atlas is not None else load_atlas()) + hershey_samples()
    p = build_profile(samples, name="generic", view=View.FACE)
    ranks = _thin(p.rank_feats, p.rank_labels, RANK_TOO_NEAR)
    suits = _thin(p.suit_feats["whole"], p.suit_labels, SUIT_TOO_NEAR)
    return dataclasses.replace(
        p, rank_feats=p.rank_feats[ranks], rank_labels=p.rank_labels[ranks],
        suit_feats={k: v[suits] for k, v in p.suit_feats.items()}, suit_labels=p.suit_labels[suits],
        face_feats=p.face_feats[:0], face_labels=p.face_labels[:0], pip_feats=p.pip_feats[:0],
        red_threshold=GENERIC_RED_THRESHOLD, margins=GENERIC_MARGINS)
