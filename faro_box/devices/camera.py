"""The camera over the dealing box: one narrow protocol, the adapter chosen by configuration.

Sources (``open_camera``): ``picamera2`` (or ``picamera``) for the Raspberry Pi camera,
``usb:N`` / ``N`` / ``/dev/videoN`` for a USB webcam, a video file, a folder of images, and
``sim[:SEED[:NUISANCE]]`` (or ``synthetic``) for the simulated dealing box. A configured
camera that cannot open raises DeviceError: a fake is never picked in its place.

``read()`` returns a BGR frame, or None when no frame came this time (a live camera that is
being reopened); a file, a folder or a finite simulation raise ``EndOfVideo`` at their end.
Live cameras are wrapped in ``ResilientCamera``: a camera that disappears is reported once and
reopened with backoff, while the caller's tracker keeps its state.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from faro_box.errors import DeviceError
from faro_box.vision.sim.simbox import FPS as SIM_FPS

log = logging.getLogger(__name__)


class EndOfVideo(DeviceError):
    """A video file, a folder of frames or a finite simulation (not a camera) has no more frames."""


class Camera(Protocol):
    name: str
    resolution: tuple[int, int]  # width, height of the frames read() returns
    fps: float
    frame_number: int  # the source's number of the last frame returned (-1 before the first)

    def open(self) -> None: ...
    def read(self) -> np.ndarray | None: ...
    def close(self) -> None: ...


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


def parse_source(source: str) -> tuple[str, str]:
    """(kind, argument) of a camera source: kind is picamera2, usb, sim, folder or file."""
    if not isinstance(source, str) or not source.strip():
        raise DeviceError(f"a camera source must be text like 'picamera2', 'usb:0', 'sim:7' or a path, "
                          f"not {source!r}")
    text = source.strip()
    if text in ("picamera", "picamera2"):
        return "picamera2", ""
    if text == "synthetic":
        return "sim", ""
    if text == "sim" or text.startswith("sim:"):
        return "sim", text[4:]
    if text.startswith("usb:"):
        return "usb", text[4:]
    if text.isdigit() or text.startswith("/dev/video"):
        return "usb", text
    if Path(text).is_dir():
        return "folder", text
    return "file", text


def open_camera(source: Any, *, width: int = 1280, height: int = 720, fps: float | None = None,
                realtime: bool = True, resilient: bool = True) -> Camera:
    """The opened camera for ``source`` (a source text or a config.CameraConfig).

    ``fps``: what to ask of a live camera (default 15) and the pace of a folder (15) or of the
    simulation (its own 30). ``realtime``: files and the simulation deliver frames at ``fps`` (as the running box wants);
    False delivers them as fast as they are read (for measuring). Live cameras are wrapped in
    ``ResilientCamera`` unless ``resilient`` is False.
    """
    if not isinstance(source, str) and hasattr(source, "source"):
        width, height, fps = source.width, source.height, source.fps
        source = source.source
    kind, arg = parse_source(source)
    if fps is None:
        fps = SIM_FPS if kind == "sim" else 15
    if isinstance(fps, bool) or not isinstance(fps, (int, float)) or fps <= 0:
        raise DeviceError(f"a camera's frame rate must be a positive number, not {fps!r}")
    pacer = Pacer(fps) if realtime else None
    camera: Camera
    if kind == "picamera2":
        from faro_box.devices.camera_pi import PiCamera

        camera = PiCamera(width, height, fps)
    elif kind == "usb":
        from faro_box.devices.camera_cv import UsbCamera

        camera = UsbCamera(arg, width, height, fps)
    elif kind == "folder":
        from faro_box.devices.camera_files import FolderCamera

        camera = FolderCamera(arg, fps=fps, pacer=pacer)
    elif kind == "file":
        from faro_box.devices.camera_cv import VideoFileCamera

        camera = VideoFileCamera(arg, pacer=pacer)
    else:
        from faro_box.devices.camera_sim import SimCamera

        camera = SimCamera.from_spec(arg, fps=fps, pacer=pacer, endless=source.strip() == "synthetic")
    if resilient and kind in ("picamera2", "usb"):
        camera = ResilientCamera(camera)
    camera.open()
    w, h = camera.resolution
    log.info("camera: %s, %dx%d at %g fps", camera.name, w, h, camera.fps)
    return camera


class ResilientCamera:
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
