"""Cards sliding over one another under a lamp's glare: how often the reader names the index's card.

    python benchmarks/bench_glare_sweep.py

The card above sliding off leaves its corner index (the top-left fifth of its face) over the body
of the card beneath, the other corner covered (the card above). Each pip card's index over the
body of a rank one or two away, and an ace's over a 5's, a 9's and each court's, in spades and
diamonds (and the aces in hearts and clubs too), under a glare spot small or large at nine places
over the face (`vision.sim.casts.Glare`; the face dimmed to a photo's paper grey first), without
and with a thumb on the body's lower right: two cards in one picture, so any card named is
wrong. Beside them, each pip card's own body so (the other corner covered, no thumb): what the
glare rule costs a card read in one corner. Window mode (the card's outline given), rendered.
"""

from __future__ import annotations

import sys
from collections import Counter

import cv2
import numpy as np

from faro_box.cards import Card
from faro_box.vision.reader import Reader
from faro_box.vision.sim import synth
from faro_box.vision.sim.casts import Glare, glare
from faro_box.vision.sim.render import render_card

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
SPOTS = [Glare((x, y), size) for x in (0.3, 0.5, 0.7) for y in (0.35, 0.5, 0.7)
         for size in ((0.15, 0.1), (0.25, 0.2))]
THUMB = (0.55, 0.6, 1.0, 1.0)


def sliding(index: str, body: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face (``index``'s corner over ``body``), the quad it lies on and the table."""
    shown, face = render_card(Card.parse(index)), render_card(Card.parse(body))
    h, w = face.shape[:2]
    face[: int(0.2 * h), : int(0.2 * w)] = shown[: int(0.2 * h), : int(0.2 * w)]
    face = synth.occlude(face, (0.75, 0.75, 1.0, 1.0), colour=(240, 240, 240), ellipse=False)
    rng = np.random.default_rng(1)
    quad = synth.card_quad(640, 480, 360, 0, (320, 240), 0.03, rng)
    return face, quad, synth.light_background(640, 480, rng)


def pairs() -> list[tuple[str, str]]:
    out = [(a + s, b + s) for s in "SD" for a in RANKS for b in RANKS if a != b and abs(RANKS.index(a) - RANKS.index(b)) <= 2]
    return out + [("A" + s, b + s) for s in "SDHC" for b in ("5", "9", "J", "Q", "K")]


def read(reader: Reader, face: np.ndarray, quad: np.ndarray, table: np.ndarray, spot: Glare) -> Card | None:
    frame = synth.place_card(table, glare(cv2.convertScaleAbs(face, alpha=0.8), spot), quad)
    return reader.read(frame, window=quad).card


def main() -> int:
    reader = Reader()
    named, reads, by_pair = 0, 0, Counter[str]()
    for index, body in pairs():
        face, quad, table = sliding(index, body)
        for covered in (face, synth.occlude(face, THUMB)):
            for spot in SPOTS:
                reads += 1
                if read(reader, covered, quad, table, spot) is not None:
                    named += 1
                    by_pair[f"{index} over {body}"] += 1
    right, own = 0, 0
    for card in (r + s for s in "SD" for r in RANKS):
        face, quad, table = sliding(card, card)
        for spot in SPOTS:
            own += 1
            right += read(reader, face, quad, table, spot) == Card.parse(card)
    print(f"a card's index over another's body under glare: {named} of {reads} named "
          f"({', '.join(f'{k} {v}' for k, v in by_pair.most_common(6))})")
    print(f"a pip card's own body under glare, its other corner covered: {right} of {own} read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
