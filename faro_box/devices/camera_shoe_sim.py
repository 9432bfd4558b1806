"""The reading spot under a Baccarat Banque shoe's mouth, simulated: the camera source ``sim[:SEED]``
(or ``synthetic``) of a bank.

A seeded three-deck shoe (``bank_demo.shuffled_shoe``, the same for the same seed on every
machine) and a banker who deals the next card only when the table waits for one, as a banker
waits for the bets and the calls: each card is rendered lying on the spot for a few frames, then
the spot is clear again. After a restart mid-bank the last card dealt still lies on the spot for
the first frames, as it would on a box that lost power between two cards.

``due()`` says how many cards the bank has taken and whether the banker deals now (the table
waits for a card, or the bets are made). A card the table did not take (the reader saw nothing)
is passed over the spot again after a while.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from faro_box.cards import Card
from faro_box.demo.baccarat import H, W, shuffled_shoe
from faro_box.devices.camera_base import Pacer
from faro_box.devices.closing import ClosedByWith
from faro_box.errors import DeviceError
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import render_card

Due = Callable[[], tuple[int, bool]]


class ShoeSimCamera(ClosedByWith):
    window: list[list[float]] | None = None   # only the simulated box knows where its window is

    def __init__(self, seed: int, due: Due, *, fps: float = 30.0, pacer: Pacer | None = None,
                 frames_per_card: int = 5, clear_frames: int = 4, retry_after: int = 60) -> None:
        self.seed, self.due = seed, due
        self.name = f"shoe-sim:{seed}"
        self.fps = float(fps)
        self.resolution = (W, H)
        self.frame_number = -1
        self.shoe: list[Card] = shuffled_shoe(seed)
        self.frames_per_card, self.clear_frames, self.retry_after = frames_per_card, clear_frames, retry_after
        self._pacer = pacer
        self._rng = np.random.default_rng(seed + 1)
        self._cloth = synth.busy_background(W, H, self._rng)
        # Sensor noise from a few fields drawn once: drawing it afresh costs more than reading a frame.
        fields = [self._rng.normal(0, 2.0, (H, W, 3)) for _ in range(4)]
        self._noise = [(np.clip(f, 0, 255).astype(np.uint8), np.clip(-f, 0, 255).astype(np.uint8)) for f in fields]
        self._views: list[np.ndarray] = []
        self._shown: int | None = None  # the shoe position last passed over the spot
        self._idle = 0
        self._open = False

    @classmethod
    def from_spec(cls, spec: str, due: Due, *, fps: float, pacer: Pacer | None) -> ShoeSimCamera:
        """``SEED`` (optional) as in the source ``sim:7``."""
        try:
            seed = int(spec) if spec else 0
        except ValueError:
            raise DeviceError(f"a simulated shoe is sim:SEED with a whole-number seed, not {'sim:' + spec!r}") from None
        return cls(seed, due, fps=fps, pacer=pacer)

    def open(self) -> None:
        dealt, _ = self.due()
        if 0 < dealt <= len(self.shoe):
            self._shown = dealt - 1
            self._views = self._pass(self.shoe[dealt - 1])
        self._open = True

    def _pass(self, card: Card) -> list[np.ndarray]:
        quad = synth.card_quad(W, H, 340, float(self._rng.uniform(-8, 8)),
                               (320 + float(self._rng.uniform(-20, 20)), 240), 0.03, self._rng)
        face = synth.place_card(self._cloth, render_card(card), quad)
        return [face] * self.frames_per_card + [self._cloth] * self.clear_frames

    def read(self) -> np.ndarray:
        if not self._open:
            raise DeviceError(f"the simulated camera {self.name} is not open")
        if self._pacer is not None:
            self._pacer.wait()
        if not self._views:
            dealt, waiting = self.due()
            again = dealt == self._shown and self._idle >= self.retry_after
            if waiting and dealt < len(self.shoe) and (dealt != self._shown or again):
                self._views, self._shown, self._idle = self._pass(self.shoe[dealt]), dealt, 0
            else:
                self._idle += 1
        image = self._views.pop(0) if self._views else self._cloth
        self.frame_number += 1
        up, down = self._noise[self.frame_number % len(self._noise)]
        return cv2.subtract(cv2.add(image, up), down)

    def close(self) -> None:
        self._open = False
