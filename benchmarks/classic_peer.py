"""The classical peer: threshold + largest contour + corner crop + rank/suit template matching.

This is the well-known hobby reader (grey threshold at the background level + 60, the card as
the largest bright contour, the corner split into an upper rank half and a lower suit half, the
largest dark contour of each resized and compared by absolute difference, "unknown" above a
difference limit), adapted to index close-ups: the corner is the top-left part of the card's
bounding box. Templates come from the same enrolment images as our profile.
"""

from __future__ import annotations

import cv2
import numpy as np

from faro_box.cards import Card, Rank, Suit

RANK_SIZE, SUIT_SIZE = (70, 125), (70, 100)
RANK_DIFF_MAX, SUIT_DIFF_MAX = 2000, 700  # the peer's own limits (sum of |difference| / 255)


def _glyphs(image: np.ndarray, otsu: bool) -> tuple[np.ndarray, np.ndarray] | None:
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    h, w = grey.shape
    if otsu:
        _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    else:
        bkg = int(grey[h // 100, w // 2])
        _, bright = cv2.threshold(grey, min(250, bkg + 60), 255, cv2.THRESH_BINARY)
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    x, y, cw, ch = cv2.boundingRect(max(contours, key=cv2.contourArea))
    if cw * ch < 0.05 * h * w:
        return None
    corner = grey[y: y + ch, x: x + max(8, int(0.45 * cw))]
    _, ink = cv2.threshold(corner, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    split = int(0.55 * ink.shape[0])
    out = []
    for half, size in ((ink[:split], RANK_SIZE), (ink[split:], SUIT_SIZE)):
        cs, _ = cv2.findContours(half, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not cs:
            return None
        bx, by, bw, bh = cv2.boundingRect(max(cs, key=cv2.contourArea))
        out.append(cv2.resize(half[by: by + bh, bx: bx + bw], size))
    return out[0], out[1]


class ClassicPeer:
    """``otsu=False`` is the peer as published (background level + 60); ``otsu=True`` gives it
    the benefit of an Otsu threshold for the card, which the feeder's bright lip otherwise defeats."""

    def __init__(self, *, otsu: bool = False) -> None:
        self.otsu = otsu
        self.ranks: list[tuple[Rank, np.ndarray]] = []
        self.suits: list[tuple[Suit, np.ndarray]] = []

    def enroll(self, card: Card, image: np.ndarray) -> None:
        g = _glyphs(image, self.otsu)
        if g is not None:
            self.ranks.append((card.rank, g[0]))
            self.suits.append((card.suit, g[1]))

    def read(self, image: np.ndarray) -> Card | None:
        g = _glyphs(image, self.otsu)
        if g is None or not self.ranks:
            return None
        rank_d = [(int(cv2.absdiff(g[0], t).sum()) // 255, r) for r, t in self.ranks]
        suit_d = [(int(cv2.absdiff(g[1], t).sum()) // 255, s) for s, t in self.suits]
        (rd, rank), (sd, suit) = min(rank_d, key=lambda p: p[0]), min(suit_d, key=lambda p: p[0])
        if rd > RANK_DIFF_MAX or sd > SUIT_DIFF_MAX:
            return None
        return Card(rank, suit)


def main(argv: list[str]) -> int:
    """``classic_peer.py ENROL.csv IMAGE...``: enrol on ENROL.csv's images (path,card), then one
    line per image: the process bench_vision.py times beside ``faro-box vision read``."""
    import csv
    import sys
    from pathlib import Path

    enrol_csv = Path(argv[0])
    peer = ClassicPeer(otsu=True)
    with enrol_csv.open() as f:
        for row in csv.DictReader(f):
            image = cv2.imread(str(enrol_csv.parent / row["path"]))
            if image is not None:
                peer.enroll(Card.parse(row["card"]), image)
    for path in argv[1:]:
        image = cv2.imread(path)
        card = peer.read(image) if image is not None else None
        sys.stdout.write(f'{{"path": "{path}", "card": {f"{chr(34)}{card}{chr(34)}" if card else "null"}}}\n')
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
