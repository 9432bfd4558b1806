"""A live camera that survives being unplugged (the factory wraps the Pi and USB cameras in it)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import numpy as np

from faro_box.devices.camera_base import Camera, EndOfVideo
from faro_box.devices.closing import ClosedByWith
from faro_box.errors import DeviceError

log = logging.getLogger(__name__)


class ResilientCamera(ClosedByWith):
    """A live camera that survives being unplugged: the loss is logged once, then the camera is
    reopened after 0.5 s, 1 s, 2 s … (at most ``max_delay`` apart) until frames come again.

    ``read()`` returns None while the camera is away; frame numbers jump by the frames the gap
    lasted, so a tracker fed with them knows to look afresh. ``patience``: this many empty reads
    in a row count as a lost camera (a driver that returns nothing rather than failing).
    """

    def __init__(self, camera: Camera, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, first_delay: float = 0.5,
                 max_delay: float = 8.0, patience: int = 5) -> None:
        self.camera = camera
        self.clock, self.sleep = clock, sleep
        self.first_delay, self.max_delay, self.patience = first_delay, max_delay, patience
        self.outages = 0
        self._down_since: float | None = None
        self._delay = first_delay
        self._retry_at = 0.0
        self._empty = 0
        self._skipped = 0

    @property
    def name(self) -> str:
        return self.camera.name

    @property
    def resolution(self) -> tuple[int, int]:
        return self.camera.resolution

    @property
    def fps(self) -> float:
        return self.camera.fps

    @property
    def frame_number(self) -> int:
        return self.camera.frame_number + self._skipped

    @property
    def window(self) -> list[list[float]] | None:
        return self.camera.window

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def open(self) -> None:
        self.camera.open()  # at start a camera that cannot open is an error, not an outage

    def read(self) -> np.ndarray | None:
        if self._down_since is not None:
            return self._reopen()
        try:
            frame = self.camera.read()
        except EndOfVideo:
            raise
        except DeviceError as exc:
            self._lost(str(exc))
            return None
        if frame is None:
            self._empty += 1
            if self._empty >= self.patience:
                self._lost(f"no frame in {self._empty} reads")
            return None
        self._empty = 0
        return frame

    def close(self) -> None:
        self.camera.close()

    def _lost(self, reason: str) -> None:
        self.outages += 1
        self._down_since = self.clock()
        self._delay = self.first_delay
        self._retry_at = self._down_since + self._delay
        self._empty = 0
        log.error("camera %s lost (%s): reopening it every %g s at most; the deal is kept",
                  self.name, reason, self.max_delay)
        try:
            self.camera.close()
        except Exception as exc:  # a vanished device may fail to close too; it is gone either way
            log.debug("closing the lost camera: %s", exc)

    def _reopen(self) -> np.ndarray | None:
        wait = self._retry_at - self.clock()
        if wait > 0:
            self.sleep(wait)
        try:
            self.camera.open()
        except DeviceError:
            self._delay = min(self._delay * 2, self.max_delay)
            self._retry_at = self.clock() + self._delay
            return None
        assert self._down_since is not None
        gap = self.clock() - self._down_since
        self._skipped += round(gap * self.fps)
        self._down_since = None
        log.warning("camera %s is back after %.1f s", self.name, gap)
        return self.read()
