"""The Raspberry Pi camera through picamera2 (imported here only, when the camera is opened).

A video configuration in RGB888 (which picamera2 lays out as B, G, R bytes: OpenCV's order);
after ``settle`` seconds of automatic exposure and white balance the values reached are fixed,
so the picture does not drift while hands and shadows pass over the box all evening.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from faro_box.devices.closing import ClosedByWith
from faro_box.errors import DeviceError


def _picamera2_class() -> Any:
    try:
        # Pi-only (the `pi` extra): imported when the camera opens, so other machines run without it.
        from picamera2 import Picamera2
    except ImportError:
        raise DeviceError("camera source 'picamera2' needs the picamera2 package "
                          "(on the Pi: sudo apt install python3-picamera2)") from None
    return Picamera2


class PiCamera(ClosedByWith):
    window: list[list[float]] | None = None   # only the simulated box knows where its window is

    name = "picamera2"

    def __init__(self, width: int = 1280, height: int = 720, fps: float = 15, *, settle: float = 1.0,
                 factory: Callable[[], Any] | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        self.resolution = (int(width), int(height))
        self.fps = float(fps)
        self.settle = settle
        self.frame_number = -1
        self._factory = factory  # tests pass a stand-in for picamera2.Picamera2
        self._sleep = sleep
        self._camera: Any = None
        self.exposure: dict[str, Any] = {}  # the controls fixed after settling

    def open(self) -> None:
        make = self._factory if self._factory is not None else _picamera2_class()
        try:
            camera = make()
            config = camera.create_video_configuration(
                main={"size": self.resolution, "format": "RGB888"},
                controls={"FrameRate": self.fps})
            camera.configure(config)
            camera.start()
        except Exception as exc:  # libcamera raises many kinds; every one means "no camera"
            raise DeviceError(f"cannot open the Raspberry Pi camera: {exc}") from None
        self._camera = camera
        try:
            self._sleep(self.settle)
            meta = camera.capture_metadata()
            self.exposure = {"AeEnable": False, "AwbEnable": False,
                             "ExposureTime": int(meta["ExposureTime"]),
                             "AnalogueGain": float(meta["AnalogueGain"])}
            if "ColourGains" in meta:
                self.exposure["ColourGains"] = tuple(float(g) for g in meta["ColourGains"])
            camera.set_controls(self.exposure)
        except Exception as exc:
            self.close()
            raise DeviceError(f"the Raspberry Pi camera did not settle its exposure: {exc}") from None

    def read(self) -> np.ndarray | None:
        if self._camera is None:
            raise DeviceError("the Raspberry Pi camera is not open")
        try:
            frame = self._camera.capture_array("main")
        except Exception as exc:
            raise DeviceError(f"the Raspberry Pi camera failed: {exc}") from None
        if frame is None:
            return None
        if frame.ndim == 3 and frame.shape[2] == 4:  # XRGB8888 if the driver chose it
            frame = np.ascontiguousarray(frame[:, :, :3])
        self.frame_number += 1
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()
