"""The colour of a corner index's ink against its paper: spades and clubs print in black.

A four-colour deck prints its diamonds blue and its clubs green, and a network taught on black
and red indices takes blue or green ink for black. Through a small, soft camera, whose blur
leaves no pip shape for the templates to object with, it names the seven of diamonds the seven
of spades. Black ink keeps as little of the paper's red as of its blue and green; blue and
green ink keep their own colour and lose the red. A patch's ink is its darkest pixels and its
paper its lightest, each channel as a share of the paper's own, so that a light's tint cancels.
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from faro_box.vision.balance import BALANCE

INK_SHARE = 0.08  # of a patch's pixels, its darkest: the index's ink
PAPER_SHARE = 0.4  # its lightest: the paper round the index (each share to the nearest grey level)
# Ink this much darker than the paper at least (1 - its darkest channel's share of the paper's),
# and paper this bright in every channel and short of burnt out in each: fainter ink, dimmer
# paper (a camera's floor is no share of the paper's level) or paper burnt out (its own tint
# lost, while the ink keeps the camera's) tell no colour.
LEAST_DARK = 0.2
LEAST_PAPER = 40.0
# Coolness over which ink is blue or green, not black: set between real black ink's, under a Pi
# camera's cast and glare too, and rendered blue and green ink's through a soft camera (where
# each lies: benchmarks/RESULTS.md).
COOL = 0.3


def coolness(patch: np.ndarray) -> float | None:
    """How much more of the paper's blue or green than of its red the darkest ink of ``patch``
    (BGR) keeps, over how dark it is: about 0 for black ink, below it for red, above it for
    blue or green; None where the patch shows no ink dark enough, or paper too dim, to tell.

    >>> paper = np.full((20, 20, 3), 230, np.uint8)
    >>> black, blue, red = paper.copy(), paper.copy(), paper.copy()
    >>> black[5:12, 5:12], blue[5:12, 5:12], red[5:12, 5:12] = (30, 30, 30), (200, 90, 20), (40, 40, 200)
    >>> [round(coolness(p), 2) for p in (black, blue, red)]
    [0.0, 0.86, -0.84]
    >>> coolness(paper) is None, coolness(np.where(blue == 230, 255, blue).astype(np.uint8)) is None
    (True, True)
    """
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    # The darkest and the lightest shares by a histogram of grey levels and OpenCV's masked means:
    # sorting the pixels cost more than the rest of a card's reading.
    below = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    ink_upto = int(np.searchsorted(below, INK_SHARE * grey.size))
    paper_from = int(np.searchsorted(below, (1.0 - PAPER_SHARE) * grey.size))
    ink = np.array(cv2.mean(patch, mask=cv2.inRange(grey, 0, ink_upto))[:3])
    paper = np.array(cv2.mean(patch, mask=cv2.inRange(grey, paper_from, 255))[:3])
    if float(paper.min()) < LEAST_PAPER or float(paper.max()) >= BALANCE.clipped:
        return None
    kept = (ink + 1.0) / (paper + 1.0)  # B, G, R
    dark = 1.0 - float(kept.min())
    if dark < LEAST_DARK:
        return None
    return (max(float(kept[0]), float(kept[1])) - float(kept[2])) / dark


def not_black(patches: Iterable[np.ndarray]) -> bool:
    """Whether the index ink of a card's corners (each patch a corner; a stack of them is one
    too) is plainly blue or green: every corner whose colour can be told shows it, and one at
    least can be.

    >>> paper = np.full((20, 20, 3), 230, np.uint8)
    >>> blue = paper.copy(); blue[5:12, 5:12] = (200, 90, 20)
    >>> black = paper.copy(); black[5:12, 5:12] = (30, 30, 30)
    >>> not_black([blue, blue]), not_black([blue, black]), not_black([blue, paper]), not_black([paper])
    (True, False, True, False)
    """
    known = [c for c in (coolness(p) for p in patches) if c is not None]
    return bool(known) and all(c > COOL for c in known)
