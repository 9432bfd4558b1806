"""USB webcams and video files through OpenCV's VideoCapture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np

from faro_box.devices.camera_base import EndOfVideo, Pacer
from faro_box.devices.closing import ClosedByWith
from faro_box.errors import DeviceError


class UsbCamera(ClosedByWith):
    """A V4L2/USB camera: ``0`` or ``/dev/video0``. A failed grab returns None; the resilient
    wrapper decides when that means the camera is gone."""

    window: list[list[float]] | None = None   # only the simulated box knows where its window is

    def __init__(self, device: str, width: int = 1280, height: int = 720, fps: float = 15) -> None:
        if not (device.isdigit() or device.startswith("/dev/")):
            raise DeviceError(f"a USB camera is a number or a /dev/video path, not {device!r}")
        self.device = device
        self.name = f"usb:{device}"
        self.resolution = (int(width), int(height))
        self.fps = float(fps)
        self.frame_number = -1
        self._capture: Any = None

    def open(self) -> None:
        capture = cv2.VideoCapture(int(self.device) if self.device.isdigit() else self.device)
        if not capture.isOpened():
            capture.release()
            raise DeviceError(f"cannot open the USB camera {self.device!r}")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.resolution[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.resolution[1])
        capture.set(cv2.CAP_PROP_FPS, self.fps)
        # What the camera agreed to, which is what gets logged.
        w, h = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        if w > 0 and h > 0:
            self.resolution = (w, h)
        fps = capture.get(cv2.CAP_PROP_FPS)
        if fps and fps > 0:
            self.fps = float(fps)
        self._capture = capture

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            raise DeviceError(f"the USB camera {self.device!r} is not open")
        ok, frame = self._capture.read()
        if not ok or frame is None:
            return None
        self.frame_number += 1
        return np.asarray(frame)

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()


class VideoFileCamera(ClosedByWith):
    """A video file, frame by frame; ``pacer`` holds it to its frame rate, as a camera would."""

    window: list[list[float]] | None = None   # only the simulated box knows where its window is

    def __init__(self, path: str, *, pacer: Pacer | None = None) -> None:
        self.path = path
        self.name = f"file:{Path(path).name}"
        self.resolution = (0, 0)
        self.fps = 0.0
        self.frame_number = -1
        self._pacer = pacer
        self._capture: Any = None

    def open(self) -> None:
        if not Path(self.path).is_file():
            raise DeviceError(f"no video file {self.path!r}")
        capture = cv2.VideoCapture(self.path)
        if not capture.isOpened():
            capture.release()
            raise DeviceError(f"cannot read the video {self.path!r}: not a video OpenCV can decode")
        self.resolution = (int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        self.fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0) or 30.0
        if self._pacer is not None:
            self._pacer = Pacer(self.fps, clock=self._pacer.clock, sleep=self._pacer.sleep)
        self.frame_number = -1
        self._capture = capture

    def read(self) -> np.ndarray | None:
        if self._capture is None:
            raise DeviceError(f"the video {self.path!r} is not open")
        if self._pacer is not None:
            self._pacer.wait()
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise EndOfVideo(f"the video {self.path!r} has ended after {self.frame_number + 1} frames")
        self.frame_number += 1
        return np.asarray(frame)

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()
