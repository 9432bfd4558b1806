"""A folder of still images played as a camera, in name order (frame_0001.png, …)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from faro_box.devices.camera_base import EndOfVideo, Pacer
from faro_box.devices.closing import ClosedByWith
from faro_box.devices.image_files import read_image
from faro_box.errors import DeviceError, VisionError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FolderCamera(ClosedByWith):
    window: list[list[float]] | None = None   # only the simulated box knows where its window is

    def __init__(self, folder: str, *, fps: float = 15, pacer: Pacer | None = None) -> None:
        self.folder = folder
        self.name = f"folder:{Path(folder).name}"
        self.fps = float(fps)
        self.resolution = (0, 0)
        self.frame_number = -1
        self._pacer = pacer
        self._paths: list[Path] = []

    def open(self) -> None:
        root = Path(self.folder)
        if not root.is_dir():
            raise DeviceError(f"no folder {self.folder!r}")
        self._paths = sorted(p for p in root.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._paths:
            raise DeviceError(f"the folder {self.folder!r} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        first = self._load(self._paths[0])
        self.resolution = (first.shape[1], first.shape[0])
        self.frame_number = -1

    def read(self) -> np.ndarray | None:
        if self._pacer is not None:
            self._pacer.wait()
        n = self.frame_number + 1
        if n >= len(self._paths):
            raise EndOfVideo(f"the folder {self.folder!r} has no more images after {n}")
        frame = self._load(self._paths[n])
        self.frame_number = n
        return frame

    def close(self) -> None:
        self._paths = []

    @staticmethod
    def _load(path: Path) -> np.ndarray:
        try:
            return read_image(path)  # its size checked from the header before it is decoded
        except VisionError as exc:
            raise DeviceError(f"cannot read the image {str(path)!r}: {exc}") from None
