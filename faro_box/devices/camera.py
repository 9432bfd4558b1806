"""The camera over the dealing box: one narrow protocol, the adapter chosen by configuration.

Sources (``open_camera``): ``picamera2`` (or ``picamera``) for the Raspberry Pi camera,
``usb:N`` / ``N`` / ``/dev/videoN`` for a USB webcam, a video file, a folder of images, and
``sim[:SEED[:NUISANCE]]`` (or ``synthetic``) for the simulated dealing box. A configured
camera that cannot open raises DeviceError: a fake is never picked in its place.

``read()`` returns a BGR frame, or None when no frame came this time (a live camera that is
being reopened); a file, a folder or a finite simulation raise ``EndOfVideo`` at their end.
Live cameras are wrapped in ``ResilientCamera``: a camera that disappears is reported once and
reopened with backoff, while the caller's tracker keeps its state. What a camera is
(``Camera``, ``EndOfVideo``, ``Pacer``) lives in camera_base, which the adapters build on.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from faro_box.devices.camera_base import Camera, EndOfVideo, Pacer
from faro_box.devices.camera_cv import UsbCamera, VideoFileCamera
from faro_box.devices.camera_files import FolderCamera
from faro_box.devices.camera_pi import PiCamera
from faro_box.devices.camera_resilient import ResilientCamera
from faro_box.devices.camera_sim import SimCamera
from faro_box.errors import DeviceError
from faro_box.vision.sim.simbox import FPS as SIM_FPS

__all__ = ["Camera", "EndOfVideo", "Pacer", "ResilientCamera", "open_camera", "parse_source"]

log = logging.getLogger(__name__)


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
        camera = PiCamera(width, height, fps)      # picamera2 itself is imported when it opens
    elif kind == "usb":
        camera = UsbCamera(arg, width, height, fps)
    elif kind == "folder":
        camera = FolderCamera(arg, fps=fps, pacer=pacer)
    elif kind == "file":
        camera = VideoFileCamera(arg, pacer=pacer)
    else:
        camera = SimCamera.from_spec(arg, fps=fps, pacer=pacer, endless=source.strip() == "synthetic")
    if resilient and kind in ("picamera2", "usb"):
        camera = ResilientCamera(camera)
    camera.open()
    w, h = camera.resolution
    log.info("camera: %s, %dx%d at %g fps", camera.name, w, h, camera.fps)
    return camera


