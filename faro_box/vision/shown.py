"""The shown-card watcher: camera frames in, one event per card newly shown to the camera.

For Baccarat Banque the camera reads in find mode (no calibrated window): each card the banker
deals passes, face towards the lens, over the reading spot, one at a time. A card is *new* when
it is another card, or the same card lying in another place (a second copy never lands in the
very same pose); the same card left lying, or a hand passing over it, is not read twice. A card
nudged on the spot counts again: the table's undo takes it back. The reader runs only when a still picture follows
a disturbance (motion or a clear spot), once per card rather than once per frame.

Three copies of every card are in the shoe, so no deck rule can vet a reading here (the table's
shoe does that): an abstention becomes ``ShownUnread`` for the dealer, never a guess.

Pure: no clock and no threads; time is the caller's frame numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from faro_box.cards import Card
from faro_box.errors import VisionError
from faro_box.vision.canonical import check_image
from faro_box.vision.track import CardReader

_LOOK_W, _LOOK_H = 160, 120


@dataclass(frozen=True, slots=True)
class CardShown:
    card: Card
    confidence: float
    frame: int


@dataclass(frozen=True, slots=True)
class ShownUnread:
    """A card is on the spot but the reader would not name it."""

    frame: int
    candidates: tuple[Card, ...]
    snapshot: np.ndarray = field(compare=False, repr=False)


ShownEvent = CardShown | ShownUnread


@dataclass(frozen=True, slots=True)
class WatcherSettings:
    still_frames: int = 2  # frames without motion before a picture counts as still
    level: int = 24  # grey levels a pixel must change by, beyond its neighbours', to count
    motion: float = 0.004  # share of changed pixels that is motion
    candidates: int = 6

    def __post_init__(self) -> None:
        if self.still_frames < 1:
            raise VisionError(f"still_frames must be at least 1, not {self.still_frames!r}")
        if not 0.0 <= self.motion <= 1.0:
            raise VisionError(f"motion must be 0..1, not {self.motion!r}")


class ShownCardWatcher:
    def __init__(self, reader: CardReader, settings: WatcherSettings | None = None) -> None:
        self.reader = reader
        self.settings = settings or WatcherSettings()
        self._kernel = np.ones((3, 3), np.uint8)
        self._prev: np.ndarray | None = None
        self._still = 0
        self._disturbed = True
        self._on_spot: tuple[Card | None, np.ndarray] | None = None  # what lies there, and its picture
        self._last_frame: int | None = None

    def lost(self) -> None:
        """The camera dropped out: look afresh when it is back (the card there is still the one seen)."""
        self._prev = None
        self._still = 0
        self._disturbed = True

    def update(self, image: np.ndarray, frame: int) -> list[ShownEvent]:
        if self._last_frame is not None and frame <= self._last_frame:
            raise VisionError(f"frame numbers must increase: {frame!r} after {self._last_frame!r}")
        if self._last_frame is not None and frame > self._last_frame + 1:
            self.lost()
        self._last_frame = frame
        image = check_image(image)
        grey = cv2.GaussianBlur(cv2.cvtColor(cv2.resize(image, (_LOOK_W, _LOOK_H), interpolation=cv2.INTER_AREA),
                                             cv2.COLOR_BGR2GRAY), (3, 3), 0)
        if self._prev is None or self._changed(grey, self._prev) > self.settings.motion:
            self._still, self._disturbed = 0, True
        else:
            self._still += 1
        self._prev = grey
        if self._still < self.settings.still_frames or not self._disturbed:
            return []
        self._disturbed = False
        return self._decide(image, grey, frame)

    def _decide(self, image: np.ndarray, grey: np.ndarray, frame: int) -> list[ShownEvent]:
        reading = self.reader.read(image, window=None)
        present = bool(getattr(reading, "present", True)) or reading.card is not None
        if not present:
            return []  # a clear spot, or a hand over the card: either way nothing new
        before = self._on_spot
        # The same card in the very same place is the card already seen (a hand passed over it);
        # another copy of it lands elsewhere, never in the same pose.
        if before is not None and reading.card in (None, before[0]) \
                and self._changed(grey, before[1]) <= self.settings.motion:
            return []
        self._on_spot = (reading.card, grey)
        if reading.card is not None:
            return [CardShown(reading.card, float(reading.confidence), frame)]
        candidates = tuple(dict.fromkeys(reading.candidates))[: self.settings.candidates]
        return [ShownUnread(frame, candidates, image.copy())]

    def _changed(self, a: np.ndarray, b: np.ndarray) -> float:
        """Share of pixels of ``a`` outside the range of their 3×3 neighbourhood in ``b``: a pixel
        of camera shake moves edges but leaves every pixel within its neighbours' range."""
        lvl = self.settings.level
        up = cv2.subtract(a, cv2.dilate(b, self._kernel))
        down = cv2.subtract(cv2.erode(b, self._kernel), a)
        return float(np.count_nonzero(cv2.max(up, down) > lvl)) / a.size


def watch(watcher: ShownCardWatcher, frames: Sequence[np.ndarray], first: int = 0) -> list[ShownEvent]:
    """Every event of a run of consecutive frames."""
    events: list[ShownEvent] = []
    for n, image in enumerate(frames, start=first):
        events += watcher.update(image, n)
    return events
