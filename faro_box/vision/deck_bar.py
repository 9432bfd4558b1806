"""The bar an enrolled deck's prototypes are read at, found at enrolment from the deck itself.

A deck enrolled from sharp pictures has prototypes that a blurred card drifts between (a six's
smeared index lands near a five's, a spade's near a club's): it must be read only where its
prototypes are all but certain. A deck enrolled through a small, soft camera is already as
blurred in its prototypes as the box will ever see it: a lower bar reads more of it and names
nothing wrong. But a soft camera also blurs away what tells one suit's shape from another's,
leaving colour to tell them, and another deck (a four-colour deck prints its diamonds blue) is
then read as this one's wrong suit.

So enrolment reads the deck's own index patches again, smeared as a card moving under the camera
smears, and unsmeared with red and blue swapped (its red ink blue), and the bar is the first step
of BARS above the surest wrong card they gave where both corners were read and agree: never
below the generic heads' bar (enrolling a deck must not make a wrong card easier to name than not
enrolling it), never above the bar every deck had before (ENROLLED). A card read in one corner
alone keeps ENROLLED (Acceptance.one_corner): that is where a card sliding off another shows its
index over the other's body, which the deck's own pictures cannot try.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import cv2
import numpy as np

from faro_box.cards import RANKS, SUITS, Card
from faro_box.vision.canonical import CANON_H, CANON_W
from faro_box.vision.index_patch import PATCH, IndexWindow
from faro_box.vision.learned import IndexNet, NetOutput
from faro_box.vision.learned_deck import LearnedDeck, Mode, plain_patches
from faro_box.vision.learned_reader import ENROLLED, GENERIC, Acceptance, pooled, scores

# The steps a deck's bar is chosen among, from the generic heads' bar to ENROLLED's.
BARS = (GENERIC.rank, 0.9, 0.95, 0.97, 0.98, 0.99, ENROLLED.rank)
# How far the card moves during one exposure, as a share of its length: a dealer's hand sliding
# a card off the box (21 px of a card 360 px tall, the blur of the rendered near-misses).
SMEAR = 0.06
SMEAR_ANGLES = (0.0, 45.0, 90.0, 135.0)  # degrees: along the card, across it and both diagonals


def smear_kernel(length: int, angle: float) -> np.ndarray:
    """A straight motion blur ``length`` pixels long at ``angle`` degrees, summing to one.

    >>> k = smear_kernel(5, 0.0)
    >>> k.shape, round(float(k.sum()), 6), int((k[2] > 0).sum())
    ((5, 5), 1.0, 5)
    """
    line = np.zeros((length, length), np.float32)
    line[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle, 1.0)
    kernel = cv2.warpAffine(line, turn, (length, length))
    return np.asarray(kernel / kernel.sum(), np.float32)


def smear_length(window: IndexWindow) -> int:
    """SMEAR of the card's length, in pixels of an index patch cut at ``window``, odd.

    >>> smear_length(IndexWindow(0.0, 0.0, 0.5)), smear_length(IndexWindow(0.0, 0.0, 0.7))
    (11, 9)
    """
    return max(3, round(SMEAR * CANON_H * PATCH / (window.side * CANON_W)) | 1)


def surest_wrong(net: IndexNet, deck: LearnedDeck, faces: Sequence[tuple[Card, np.ndarray]]) -> float:
    """The surest the deck's prototypes are of a wrong card among its own enrolment pictures
    smeared (every angle of SMEAR_ANGLES) and with red and blue swapped: min(P(rank), P(suit))
    pooled over both corners, where both were read and agree; 0.0 where none is wrong.
    ``faces``: (card, canonical face), as enrolment saw them. The prototypes alone: the templates
    that may refuse such a card at reading are not asked, so the bar errs high."""
    kernels = [smear_kernel(smear_length(deck.window), a) for a in SMEAR_ANGLES]
    worst = 0.0
    for card, face in faces:
        plain = plain_patches(face, deck.window)
        # One picture's copies at a time: the network's working memory grows with the batch.
        copies = [[cv2.filter2D(p, -1, kernel, borderType=cv2.BORDER_REPLICATE) for p in plain]
                  for kernel in kernels]
        copies.append([np.ascontiguousarray(p[:, :, ::-1]) for p in plain])  # its red ink blue
        out = net(np.stack([p for copy in copies for p in copy]))
        for k in range(len(copies)):
            part = slice(k * len(plain), (k + 1) * len(plain))
            s = scores(NetOutput(out.rank[part], out.suit[part], out.embedding[part]), deck, Acceptance(0.5, 0.5))
            if len(s.rank) < 2:
                continue  # one corner alone is read at the strictest bar whatever its own
            rank, suit, disagree = pooled(s)
            if disagree:
                continue  # the corners disagree: no bar names a card
            if Card(RANKS[int(rank.argmax())], SUITS[int(suit.argmax())]) != card:
                worst = max(worst, min(float(rank.max()), float(suit.max())))
    return worst


def own_bar(surest: float) -> float:
    """The first step of BARS above ``surest`` (the surest wrong card), or the last.

    >>> own_bar(0.0), own_bar(0.93), own_bar(0.97), own_bar(0.9991)
    (0.85, 0.95, 0.98, 0.995)
    """
    return next((bar for bar in BARS if bar > surest), BARS[-1])


def with_own_bar(net: IndexNet, deck: LearnedDeck, pictures: Sequence[tuple[Card, np.ndarray]], *,
                 corner: bool) -> LearnedDeck:
    """``deck`` with its own bar; ``pictures`` as enrolment saw them (a deck read by whole faces
    has no prototypes to bar; a corner close-up, ``corner``, shows one corner, read at the
    strictest)."""
    if deck.mode is Mode.FACE:
        return deck
    if corner:
        return dataclasses.replace(deck, bar=ENROLLED.rank)
    return dataclasses.replace(deck, bar=own_bar(surest_wrong(net, deck, pictures)))
