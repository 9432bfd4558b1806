"""What every camera is: the protocol the tracker reads frames through, the end of a finite
source, and the pacing that holds a file or a simulation to a camera's frame rate.

The adapters (camera_cv, camera_files, camera_pi, camera_sim, camera_shoe_sim) build on this
module; the factory that picks one by configuration is faro_box.devices.camera.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import numpy as np

from faro_box.errors import DeviceError


class EndOfVideo(DeviceError):
    """A video file, a folder of frames or a finite simulation (not a camera) has no more frames."""


class Camera(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def resolution(self) -> tuple[int, int]: ...   # width, height of the frames read() returns

    @property
    def fps(self) -> float: ...

    @property
    def frame_number(self) -> int: ...   # the source's number of the last frame returned (-1 before the first)

    @property
    def window(self) -> list[list[float]] | None: ...
    # The dealing box's card window in the frame (4 corners, pixels) where the source knows it
    # (the simulation does); None for a real camera, which is calibrated instead.

    def open(self) -> None: ...
    def read(self) -> np.ndarray | None: ...
    def close(self) -> None: ...      # again: nothing happens


class Pacer:
    """Holds a file or a simulation to a camera's frame rate (a live camera paces itself)."""

    def __init__(self, fps: float, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.period = 1.0 / fps
        self.clock, self.sleep = clock, sleep
        self._next: float | None = None

    def wait(self) -> None:
        now = self.clock()
        if self._next is None:
            self._next = now
        elif self._next > now:
            self.sleep(self._next - now)
        # A slow reader does not make the next frames rush to catch up.
        self._next = max(self._next + self.period, self.clock() - self.period)
