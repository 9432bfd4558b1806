"""Shared pieces for the tracker tests: a reader scripted from the simulated box's ground truth
(so the tracker's own logic is tested apart from recognition), and a loop that runs a tracker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from faro_box.cards import Card, Rank, Suit
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import BoxEmpty, CardExposed, CardReturned, NeedsConfirmation, Tracker, TrackEvent


@dataclass(frozen=True)
class Scripted:
    """A reading as the reader gives it (faro_box.vision.reader.Reading's fields)."""

    card: Card | None
    confidence: float
    candidates: tuple[Card, ...] = ()
    present: bool = True
    rank: Rank | None = None  # what an abstention was sure of
    suit: Suit | None = None
    why: str = ""


@dataclass
class TruthReader:
    """Reads what truly lies in the window at the frame the test says is being shown, as a
    perfect reader would; ``script`` may override a frame's reading (abstain, misread)."""

    box: SimBox
    frame: int = 0
    reads: list[int] = field(default_factory=list)
    script: Callable[[int, Card | None], Scripted | None] | None = None

    def read(self, image, *, window=None):
        self.reads.append(self.frame)
        truth = self.box.truth(self.frame)
        if self.script is not None:
            scripted = self.script(self.frame, truth.card)
            if scripted is not None:
                return scripted
        if not truth.clean:
            return Scripted(None, 0.2, (), truth.card is not None)
        return Scripted(truth.card, 0.99, (truth.card,) if truth.card else (), truth.card is not None)


def label(event: TrackEvent) -> tuple:
    if isinstance(event, CardExposed):
        return ("card", event.index, event.card)
    if isinstance(event, CardReturned):
        return ("returned", event.index, event.card)
    if isinstance(event, NeedsConfirmation):
        return ("confirm", event.index, None)
    assert isinstance(event, BoxEmpty)
    return ("empty", event.dealt, None)


def expected_labels(box: SimBox) -> list[tuple]:
    return [("empty", 52, None) if e.kind.value == "empty" else (e.kind.value, e.index, e.card)
            for e in box.expected()]


def run_box(box: SimBox, reader: TruthReader, tracker: Tracker | None = None,
            frames: range | None = None) -> list[TrackEvent]:
    tracker = tracker or Tracker(reader, window=box.window)
    events: list[TrackEvent] = []
    for n in frames if frames is not None else range(len(box)):
        reader.frame = n
        events += tracker.update(box.frame(n), n)
    return events


def run_answered(box: SimBox, reader: TruthReader, tracker: Tracker,
                 picture: Callable[[int], np.ndarray] | None = None) -> list[TrackEvent]:
    """``run_box`` with each question answered at once by the card the deal put at its index, as
    a dealer looking at the box would; ``picture``: frame n as the camera gives it (default the box's)."""
    events: list[TrackEvent] = []
    for n in range(len(box)):
        reader.frame = n
        for event in tracker.update(box.frame(n) if picture is None else picture(n), n):
            events.append(event)
            if isinstance(event, NeedsConfirmation):
                tracker.confirm(event.index, box.deck[event.index])
    return events


def still_frames(box: SimBox) -> list[np.ndarray]:
    """One clean, still frame of each card the box deals, in order."""
    return [box.frame(next(n for n in range(len(box)) if box.truth(n).card == c and box.truth(n).clean))
            for c in box.deck[:box.cards]]


def thumbed(box: SimBox, frame: np.ndarray) -> np.ndarray:
    """``frame`` with the dealer's thumb over the window's right edge."""
    out = frame.copy()
    q = box.window.astype(np.float32)
    cv2.ellipse(out, (int(q[:, 0].max()), int(q[:, 1].mean())), (40, 25), 0, 0, 360,
                tuple(int(c) for c in box._skin), -1)
    return out
