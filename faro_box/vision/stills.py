"""One still picture per card from a video of a deck dealt through the box (for enrolment).

The tracker already knows when a picture is worth reading: still after a disturbance, and
(with a calibrated window) nothing over the window's edge. This takes the first such frame
after each change instead of reading it; a hand that passes over a card and leaves it as it
was gives no second picture of that card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from faro_box.vision.track import Tracker, TrackerSettings, TrackEvent, _View


class _NoReader:
    def read(self, image: np.ndarray, *, window: Sequence[Sequence[float]] | None = None) -> None:
        raise AssertionError("still-frame segmentation never reads")  # pragma: no cover


class _Stills(Tracker):
    def __init__(self, window: Sequence[Sequence[float]] | Sequence[float] | None) -> None:
        super().__init__(_NoReader(), window=window, settings=TrackerSettings())  # type: ignore[arg-type]
        self.stills: list[tuple[int, np.ndarray]] = []
        self._last_taken: _View | None = None

    def _decide(self, image: np.ndarray, view: _View, frame: int) -> list[TrackEvent]:
        self._disturbed = False
        self._remember(view)
        same = self._last_taken is not None and self._changed(view.grey, self._last_taken.grey) <= self.settings.motion
        if not same:
            self.stills.append((frame, image.copy()))
            self._last_taken = view
        return []

    def _note_covered(self, image: np.ndarray, view: _View, frame: int, *, dark: bool = False) -> list[TrackEvent]:
        return []  # a still is taken only in full view: a covered picture would teach the thumb


def still_frames(frames: Iterable[np.ndarray], *,
                 window: Sequence[Sequence[float]] | Sequence[float] | None = None) -> list[tuple[int, np.ndarray]]:
    """(frame number, frame) of the first still, fully visible frame after each change of the
    card in view, in order. ``window``: the box's calibrated window (None: the whole frame,
    where only motion separates the cards)."""
    stills = _Stills(window)
    for n, frame in enumerate(frames):
        stills.update(frame, n)
    return stills.stills
