"""The simulated dealing box as a camera, and a writer that saves its video as an MP4."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from faro_box.devices.camera_base import EndOfVideo, Pacer
from faro_box.devices.closing import ClosedByWith
from faro_box.errors import DeviceError
from faro_box.vision.sim.simbox import FPS, SimBox


class SimCamera(ClosedByWith):
    """Deals of the simulated box one after another (seeds ``seed``, ``seed + 1``, …).

    ``deals``: how many (None: endless). ``outages``: world frames (start, stop) of the first
    deal during which the camera is unplugged: read() and open() fail there while the deal goes
    on, as a real box does when the cable is pulled.
    """

    def __init__(self, seed: int = 0, *, nuisance: float = 0.5, deals: int | None = 1, fps: float = FPS,
                 pacer: Pacer | None = None, outages: Iterable[tuple[int, int]] = (), **box_options: object) -> None:
        self.seed, self.nuisance, self.deals = seed, nuisance, deals
        self.name = f"sim:{seed}"
        self.fps = float(fps)
        self.resolution = (640, 480)
        self.outages = tuple(outages)
        self._pacer = pacer
        self._options = box_options
        self._deal = 0
        self.box = self._make(0)
        self.window: list[list[float]] = self.box.window.tolist()
        self._world = 0  # the next frame of the current deal, whether or not anyone looks
        self._open = False
        self.frame_number = -1

    @classmethod
    def from_spec(cls, spec: str, *, fps: float = FPS, pacer: Pacer | None = None, endless: bool = False) -> SimCamera:
        """``SEED[:NUISANCE]`` (both optional) as in the source ``sim:7:0.8``."""
        parts = [p for p in spec.split(":")] if spec else []
        try:
            seed = int(parts[0]) if parts and parts[0] else 0
            nuisance = float(parts[1]) if len(parts) > 1 else 0.5
        except ValueError:
            raise DeviceError(f"a simulated camera is sim:SEED[:NUISANCE], not {'sim:' + spec!r}") from None
        if len(parts) > 2 or not 0.0 <= nuisance <= 1.0 or seed < 0:
            raise DeviceError(f"a simulated camera is sim:SEED[:NUISANCE] with SEED from 0 up and NUISANCE 0..1, "
                              f"not {'sim:' + spec!r}")
        return cls(seed, nuisance=nuisance, deals=None if endless else 1, fps=fps, pacer=pacer)

    def _make(self, deal: int) -> SimBox:
        return SimBox(seed=self.seed + deal, nuisance=self.nuisance, **self._options)  # type: ignore[arg-type]

    def _unplugged(self) -> bool:
        return self._deal == 0 and any(a <= self._world < b for a, b in self.outages)

    def open(self) -> None:
        if self._unplugged():
            self._world += 1
            raise DeviceError(f"the simulated camera {self.name} is unplugged")
        self._open = True

    def read(self) -> np.ndarray | None:
        if not self._open:
            raise DeviceError(f"the simulated camera {self.name} is not open")
        if self._pacer is not None:
            self._pacer.wait()
        if self._world >= len(self.box):
            if self.deals is not None and self._deal + 1 >= self.deals:
                raise EndOfVideo(f"the simulated deal{'s' if self.deals > 1 else ''} of {self.name} ended")
            self._deal += 1
            self.box, self._world = self._make(self._deal), 0
        if self._unplugged():
            self._world += 1
            self._open = False
            raise DeviceError(f"the simulated camera {self.name} was unplugged")
        frame = self.box.frame(self._world)
        self.frame_number = self._world
        self._world += 1
        return frame

    def close(self) -> None:
        self._open = False


def write_video(box: SimBox, path: str | Path, *, frames: Sequence[int] | None = None, fps: float = FPS) -> int:
    """Write the simulated deal to an MP4 (mp4v) a person can watch; returns the frames written."""
    out = Path(path)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter.fourcc(*"mp4v"), fps, (640, 480))
    if not writer.isOpened():
        raise DeviceError(f"cannot write the video {str(out)!r}")
    count = 0
    try:
        for n in frames if frames is not None else range(len(box)):
            writer.write(box.frame(n))
            count += 1
    finally:
        writer.release()
    return count
