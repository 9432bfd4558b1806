"""The camera over the dealing box: Picamera2 on a Pi, OpenCV for a USB camera or a video file,
or the simulated box. Each returns BGR frames one by one from ``read()``.

``read()`` returns None when no frame came (a camera glitch, a cable); the caller reports the
fault and tells the tracker to look afresh. A video file returns EndOfVideo at its end.
Device libraries are imported only inside the adapter that needs them.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from faro_box.errors import DeviceError


class EndOfVideo(DeviceError):
    """A video file (not a camera) has no more frames."""


class Camera(Protocol):
    def read(self) -> Any | None: ...
    def close(self) -> None: ...


class PiCamera:
    def __init__(self, width: int, height: int, fps: int) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise DeviceError("camera source 'picamera2' needs the picamera2 package "
                              "(sudo apt install python3-picamera2)") from None
        try:
            self._camera = Picamera2()
            config = self._camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},  # RGB888 is BGR in memory
                controls={"FrameRate": fps})
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:  # picamera2 raises many kinds; all mean "no camera"
            raise DeviceError(f"cannot open the Raspberry Pi camera: {exc}") from None

    def read(self) -> Any | None:
        try:
            return self._camera.capture_array("main")
        except Exception:
            return None

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


class OpenCvCamera:
    """A V4L2/USB camera (``0``, ``/dev/video0``) or a video file (any other path)."""

    # A USB camera pulled out and plugged back is a new device: after a failed read the capture
    # is reopened, at most this often, until frames come again.
    REOPEN_INTERVAL = 1.0

    def __init__(self, source: str, width: int, height: int, fps: int) -> None:
        self._file = not (source.isdigit() or source.startswith("/dev/"))
        self.source = source
        self._size, self._fps = (width, height), fps
        self._capture = self._open()
        if not self._capture.isOpened():
            raise DeviceError(f"cannot open the camera source {source!r}")
        self._period = 1.0 / fps
        self._next = time.monotonic()
        self._reopen_at = 0.0

    def _open(self) -> Any:
        import cv2

        source = self.source
        capture = cv2.VideoCapture(int(source) if source.isdigit() else source)
        if capture.isOpened() and not self._file:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self._size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self._size[1])
            capture.set(cv2.CAP_PROP_FPS, self._fps)
        return capture

    def _reopen(self) -> None:
        now = time.monotonic()
        if now < self._reopen_at:
            return
        self._reopen_at = now + self.REOPEN_INTERVAL
        self._capture.release()
        self._capture = self._open()

    def read(self) -> Any | None:
        if self._file:   # a file plays at the configured rate, as a camera would deliver it
            delay = self._next - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next = max(self._next + self._period, time.monotonic() - self._period)
        ok, frame = self._capture.read()
        if not ok:
            if self._file:
                raise EndOfVideo(f"the video {self.source!r} has ended")
            self._reopen()
            return None
        return frame

    def close(self) -> None:
        self._capture.release()


class SimulatedCamera:
    """The simulated dealing box (vision.simbox), one deal after another, at ``fps``."""

    def __init__(self, fps: int, seed: int = 0) -> None:
        from faro_box.vision.simbox import SimBox

        self._make = lambda n: SimBox(seed=seed + n)
        self._deal = 0
        self._box = self._make(0)
        self._n = 0
        self._period = 1.0 / fps
        self._next = time.monotonic()
        self.window = self._box.window.tolist()

    def read(self) -> Any | None:
        delay = self._next - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self._next = max(self._next + self._period, time.monotonic() - self._period)
        if self._n >= len(self._box):
            self._deal += 1
            self._box, self._n = self._make(self._deal), 0
        frame = self._box.frame(self._n)
        self._n += 1
        return frame

    def close(self) -> None:
        pass


def open_camera(source: str, *, width: int = 1280, height: int = 720, fps: int = 15) -> Camera:
    if source == "picamera2":
        return PiCamera(width, height, fps)
    if source == "synthetic":
        return SimulatedCamera(fps)
    return OpenCvCamera(source, width, height, fps)
