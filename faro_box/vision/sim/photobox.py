"""A dealing box filmed from real card photos: the simulated box, each face taken from a photo.

The simulated box (simbox.SimBox) draws the table, the box, the dealer's hand and thumb, the
slides with their motion blur, passing shadows, light drift, shake and noise; here the card
faces are the photos handed in (upright faces of one real deck, any size), and the camera adds
what a real one adds to them: a colour cast (a Raspberry Pi camera's bluish white), defocus.
Cards missing from the photos are dealt last and never shown: ``cards`` is the number shown.

Pure and deterministic: the photos are passed in as arrays, everything else follows from
``seed``; the caller (a benchmark, a test) loads the photos.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import cv2
import numpy as np

from faro_box.cards import FULL_DECK, Card
from faro_box.vision.balance import apply_gains
from faro_box.vision.canonical import check_image
from faro_box.vision.sim.simbox import _CARD_H, _CARD_W, SimBox


class PhotoBox(SimBox):
    """``faces``: card -> its upright face photo (BGR). ``cast``: the camera's gain per channel
    (B, G, R), applied to the whole frame; ``defocus``: a Gaussian blur's sigma in pixels; the
    rest as SimBox's."""

    def __init__(self, faces: Mapping[Card, np.ndarray], *, seed: int = 0, nuisance: float = 0.5,
                 still: tuple[int, int] = (8, 24), slips: Iterable[int] = (), pace: float = 1.0,
                 cast: tuple[float, float, float] = (1.0, 1.0, 1.0), defocus: float = 0.0,
                 hurried: Iterable[int] = ()) -> None:
        if not faces:
            raise ValueError("a photo box needs at least one card's photo")
        if any(not 0.2 <= g <= 5.0 for g in cast) or not 0.0 <= defocus <= 10.0:
            raise ValueError(f"cast gains must be 0.2..5 and defocus 0..10, not {cast!r}, {defocus!r}")
        self._photos = {card: cv2.resize(check_image(face), (_CARD_W, _CARD_H), interpolation=cv2.INTER_AREA)
                        for card, face in faces.items()}
        rng = np.random.default_rng([seed, 0xFACE])
        shown = [c for c in FULL_DECK if c in self._photos]
        order = [shown[i] for i in rng.permutation(len(shown))] + [c for c in FULL_DECK if c not in self._photos]
        self.cast = cast
        self.defocus = defocus
        super().__init__(order, seed=seed, nuisance=nuisance, cards=len(shown), slips=slips, still=still,
                         pace=pace, hurried=hurried)

    def _face(self, index: int) -> np.ndarray:
        return self._photos[self.deck[index]]

    def frame(self, n: int) -> np.ndarray:
        out = super().frame(n)
        if self.defocus > 0:
            out = cv2.GaussianBlur(out, (0, 0), self.defocus)
        if self.cast != (1.0, 1.0, 1.0):
            out = apply_gains(out, self.cast)
        return out
