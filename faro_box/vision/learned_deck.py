"""Enrolment for the learned reader: where one deck prints its index, how large, and its own
prototypes (class means in the network's embedding) for every rank and suit.

Everything here is deterministic: the "augmented copies" are a fixed set of shifted, scaled,
blurred and tinted cuts of each enrolment image.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from faro_box.cards import RANKS, SUITS, Card
from faro_box.vision.canonical import CANON_H, CANON_W, CardView
from faro_box.vision.index_patch import PATCH, IndexWindow, corner_patch, face_patches
from faro_box.vision.learned import NO_INDEX, IndexNet


class Mode(enum.Enum):
    """How an enrolled deck is read; a profile says which, and enrolment says why."""

    GENERIC_AND_OWN = "index: generic glyphs and the deck's own prototypes"  # the network knows its glyphs
    OWN = "index: the deck's own prototypes"  # glyphs the network does not know (B V H, odd fonts)
    # The weaker classical reader (its glyph and whole-face templates), said out loud.
    FACE = "the classical templates (the network saw too few indices)"


@dataclass(frozen=True, slots=True)
class EnrolSettings:
    # Candidate index windows (x, y, side as fractions of the card's width): from a small index
    # hard in the corner to a large one set in from the edge.
    windows: tuple[tuple[float, float, float], ...] = (
        (0.0, 0.0, 0.4), (0.0, 0.0, 0.5), (0.0, 0.0, 0.6), (0.0, 0.0, 0.7),
        (0.03, 0.03, 0.4), (0.03, 0.03, 0.5), (0.03, 0.03, 0.6))
    # Jitters of the chosen window for the prototypes (dx, dy, side factor): where a found
    # outline puts the window varies by a few percent from frame to frame.
    jitters: tuple[tuple[float, float, float], ...] = (
        (0.0, 0.0, 1.0), (0.02, 0.0, 1.0), (-0.02, 0.0, 1.0), (0.0, 0.02, 1.0), (0.0, -0.02, 1.0),
        (0.0, 0.0, 0.9), (0.0, 0.0, 1.1))
    blur_sigma: float = 1.2  # one blurred copy of each cut: the box's motion blur
    # An index is "found" on a card when the network sees one there (P(no index) below this)
    # and names the card's suit from it.
    found_no_index: float = 0.5
    # Below this share of the deck with a found index the deck is read by whole faces.
    min_found_share: float = 0.9
    # The generic glyph head must name the enrolment card's rank on this share of the deck to
    # be trusted beside the deck's own prototypes.
    generic_agree_share: float = 0.95
    temperature: float = 0.1  # cosine similarity -> probability over the prototypes


ENROL = EnrolSettings()


@dataclass(frozen=True, eq=False)
class LearnedDeck:
    mode: Mode
    window: IndexWindow
    rank_protos: np.ndarray  # (13, the network's embedding width) unit rows, RANKS order
    suit_protos: np.ndarray  # (4, the same width) unit rows, SUITS order
    found: int  # cards whose index the network saw at the chosen window
    total: int
    glyph_height: float | None  # rank glyph height / card height (face view) or / image height (corner)
    generic_agree: int  # cards whose rank the generic head named right
    temperature: float = ENROL.temperature
    network: str = ""  # the fingerprint of the network whose embedding holds the prototypes ("": not recorded)
    # The bar its prototypes are read at (vision.deck_bar), found from the deck at enrolment;
    # None: a deck read by whole faces (no prototypes), or a profile enrolled before the bar was
    # kept, read at the strictest (learned_reader.ENROLLED).
    bar: float | None = None

    def summary(self) -> str:
        size = f", rank glyph {100 * self.glyph_height:.1f}% of the card's height" if self.glyph_height else ""
        return (f"index found on {self.found}/{self.total} cards{size}; window x={self.window.x:.2f} "
                f"y={self.window.y:.2f} side={self.window.side:.2f} of the card's width; generic glyph head "
                f"right on {self.generic_agree}/{self.total}; read by {self.mode.value}"
                + (f" at a bar of {self.bar:.3f} where both corners agree" if self.bar is not None else ""))


def _cuts(image: np.ndarray, window: IndexWindow | None, settings: EnrolSettings) -> list[np.ndarray]:
    """The augmented copies of one enrolment image: both corners of every jittered window."""
    out = []
    for dx, dy, k in settings.jitters:
        if window is None:  # a corner close-up: the jitter crops the image instead
            h, w = image.shape[:2]
            x0, y0 = round(max(0.0, dx) * w), round(max(0.0, dy) * h)
            x1, y1 = w - round(max(0.0, -dx) * w), h - round(max(0.0, -dy) * h)
            patches = [corner_patch(image[y0:y1, x0:x1])]
        else:
            win = IndexWindow(window.x + dx, window.y + dy, window.side * k)
            patches = face_patches(_face_view(image), win)
        out += patches
        if (dx, dy, k) == settings.jitters[0]:
            out += [cv2.GaussianBlur(p, (0, 0), settings.blur_sigma) for p in patches]
    return out


def plain_patches(image: np.ndarray, window: IndexWindow | None) -> list[np.ndarray]:
    """The index patches of one enrolment picture as the reader cuts them: both corners of the
    canonical face at ``window``, or the whole corner close-up (``window`` None)."""
    return [corner_patch(image)] if window is None else face_patches(_face_view(image), window)


def _face_view(face: np.ndarray) -> CardView:
    """A canonical face as a CardView over itself."""
    quad = np.array([[0, 0], [CANON_W - 1, 0], [CANON_W - 1, CANON_H - 1], [0, CANON_H - 1]], np.float32)
    return CardView(face, quad)


GLYPH_ROW = 0.25  # of the top blob's height: how far level the parts of one rank glyph lie


def glyph_height(patch: np.ndarray) -> float | None:
    """Height of the top ink row (the rank glyph: '10' is two blobs) as a share of the patch."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    _, ink = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    blobs = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        # Specks and whatever touches the patch's edge (the card's border, the table) are not glyphs.
        if area < PATCH // 4 or x == 0 or y == 0 or x + w >= PATCH or y + h >= PATCH:
            continue
        blobs.append((y, y + h))
    if not blobs:
        return None
    top = min(blobs)
    h = top[1] - top[0]
    # The glyph's other parts ('10') start and end level with it; the court's frame or a pip
    # reaching up beside the index does not.
    row = [b for b in blobs if abs(b[0] - top[0]) <= GLYPH_ROW * h and abs(b[1] - top[1]) <= GLYPH_ROW * h]
    return (max(b[1] for b in row) - min(b[0] for b in row)) / PATCH


def learn_deck(net: IndexNet, pictures: Sequence[tuple[Card, np.ndarray]], *, corner: bool,
               settings: EnrolSettings = ENROL) -> LearnedDeck:
    """``pictures``: (card, canonical face) or, with ``corner``, (card, corner close-up)."""
    cards = [c for c, _ in pictures]
    suits = np.array([SUITS.index(c.suit) for c in cards])
    ranks = np.array([RANKS.index(c.rank) for c in cards])
    window: IndexWindow | None = None
    if corner:
        out = net(np.stack([corner_patch(im) for _, im in pictures]))
        seen = (out.rank[:, NO_INDEX] < settings.found_no_index) & (out.suit.argmax(1) == suits)
        heads = out.rank[:, :NO_INDEX].argmax(1) == ranks
        heights = [glyph_height(corner_patch(im)) for _, im in pictures]
    else:
        best = None
        for x, y, side in settings.windows:
            win = IndexWindow(x, y, side)
            patches = np.stack([p for _, im in pictures for p in face_patches(_face_view(im), win)])
            out = net(patches)
            # Per card, the better of its two corners (a thumb or a flaw may spoil one).
            p_suit = out.suit[np.arange(len(out.suit)), np.repeat(suits, 2)] * (1 - out.rank[:, NO_INDEX])
            score = p_suit.reshape(-1, 2).max(1)
            if best is None or score.mean() > best[0]:
                seen2 = (out.rank[:, NO_INDEX] < settings.found_no_index) & (out.suit.argmax(1) == np.repeat(suits, 2))
                heads2 = out.rank[:, :NO_INDEX].argmax(1) == np.repeat(ranks, 2)
                best = (float(score.mean()), win, seen2.reshape(-1, 2).any(1), heads2.reshape(-1, 2).any(1),
                        [patches[2 * i] for i in range(len(pictures))])
        assert best is not None
        _, window, seen, heads, tops = best
        scale = window.side * CANON_W / CANON_H
        heights = [h * scale if h is not None else None for h in (glyph_height(p) for p in tops)]
    found, agree = int(seen.sum()), int(heads.sum())
    measured = [h for h, s in zip(heights, seen, strict=True) if h is not None and s]
    height = float(np.median(measured)) if measured else None
    total = len(pictures)
    if found < settings.min_found_share * total:
        mode = Mode.FACE
    elif agree >= settings.generic_agree_share * total:
        mode = Mode.GENERIC_AND_OWN
    else:
        mode = Mode.OWN
    emb_r = np.zeros((len(RANKS), net.embed), np.float32)
    emb_s = np.zeros((len(SUITS), net.embed), np.float32)
    for (card, image), ok in zip(pictures, seen, strict=True):
        if not ok and mode is not Mode.FACE:
            continue  # a card whose index was not seen teaches the prototypes nothing
        e = net(np.stack(_cuts(image, window, settings))).embedding
        emb_r[RANKS.index(card.rank)] += e.sum(0)
        emb_s[SUITS.index(card.suit)] += e.sum(0)
    norms_r = np.linalg.norm(emb_r, axis=1, keepdims=True)
    norms_s = np.linalg.norm(emb_s, axis=1, keepdims=True)
    return LearnedDeck(mode, window or IndexWindow(), emb_r / np.maximum(norms_r, 1e-6),
                       emb_s / np.maximum(norms_s, 1e-6), found, total, height, agree, settings.temperature,
                       net.fingerprint)


def missing(deck: LearnedDeck) -> list[str]:
    """Ranks and suits with no prototype (no enrolment card of theirs had a seen index)."""
    out = [r.symbol for r, row in zip(RANKS, deck.rank_protos, strict=True) if not row.any()]
    return out + [str(s) for s, row in zip(SUITS, deck.suit_protos, strict=True) if not row.any()]
