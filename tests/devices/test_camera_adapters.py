"""Camera adapters against stand-ins: picamera2's methods, a video file, a folder of frames; the
factory never puts a fake in place of a configured camera."""

from __future__ import annotations

import sys

import cv2
import numpy as np
import pytest

from faro_box.devices.camera import EndOfVideo, open_camera, parse_source
from faro_box.devices.camera_files import FolderCamera
from faro_box.devices.camera_pi import PiCamera
from faro_box.errors import DeviceError


class StandInPicamera2:
    """The methods of picamera2.Picamera2 the adapter uses, recording every call."""

    def __init__(self, *, fail_capture_after=None, metadata=None, channels=3):
        self.calls = []
        self.fail_capture_after = fail_capture_after
        self.captured = 0
        self.metadata = metadata or {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.6, 1.9)}
        self.channels = channels
        self.size = None

    def create_video_configuration(self, main=None, controls=None, **kwargs):
        self.calls.append(("create_video_configuration", main, controls))
        self.size = main["size"]
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.calls.append(("configure", config))

    def start(self):
        self.calls.append(("start",))

    def capture_metadata(self):
        self.calls.append(("capture_metadata",))
        return dict(self.metadata)

    def set_controls(self, controls):
        self.calls.append(("set_controls", dict(controls)))

    def capture_array(self, name="main"):
        if self.fail_capture_after is not None and self.captured >= self.fail_capture_after:
            raise RuntimeError("Camera frontend has timed out!")
        self.captured += 1
        w, h = self.size
        return np.full((h, w, self.channels), self.captured % 256, np.uint8)

    def stop(self):
        self.calls.append(("stop",))

    def close(self):
        self.calls.append(("close",))


def test_picamera_opens_video_rgb888_then_fixes_the_settled_exposure():
    stand_in = StandInPicamera2()
    slept = []
    camera = PiCamera(640, 480, 30, settle=1.5, factory=lambda: stand_in, sleep=slept.append)
    camera.open()
    names = [c[0] for c in stand_in.calls]
    assert names == ["create_video_configuration", "configure", "start", "capture_metadata", "set_controls"]
    _, main, controls = stand_in.calls[0]
    assert main == {"size": (640, 480), "format": "RGB888"} and controls == {"FrameRate": 30.0}
    assert slept == [1.5]  # automatic exposure runs for the settle time before it is frozen
    assert stand_in.calls[-1][1] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                                     "AnalogueGain": 2.5, "ColourGains": (1.6, 1.9)}
    frame = camera.read()
    assert frame.shape == (480, 640, 3) and camera.frame_number == 0
    camera.read()
    assert camera.frame_number == 1
    camera.close()
    assert [c[0] for c in stand_in.calls][-2:] == ["stop", "close"]


def test_picamera_drops_the_padding_byte_of_xrgb_frames():
    camera = PiCamera(64, 48, 10, settle=0, factory=lambda: StandInPicamera2(channels=4), sleep=lambda s: None)
    camera.open()
    assert camera.read().shape == (48, 64, 3)


def test_picamera_failures_are_device_errors():
    camera = PiCamera(64, 48, 10, settle=0, factory=lambda: StandInPicamera2(fail_capture_after=1),
                      sleep=lambda s: None)
    camera.open()
    camera.read()
    with pytest.raises(DeviceError, match="the Raspberry Pi camera failed: Camera frontend has timed out!"):
        camera.read()

    def no_camera():
        raise RuntimeError("list index out of range")  # what Picamera2() says with no camera attached

    with pytest.raises(DeviceError, match="cannot open the Raspberry Pi camera: list index out of range"):
        PiCamera(factory=no_camera, sleep=lambda s: None).open()
    bad_meta = PiCamera(factory=lambda: StandInPicamera2(metadata={"Lux": 3.0}), sleep=lambda s: None)
    with pytest.raises(DeviceError, match="did not settle its exposure"):
        bad_meta.open()


def test_picamera2_is_imported_only_inside_the_adapter_and_never_replaced_by_a_fake(monkeypatch):
    import faro_box.devices.camera  # noqa: F401

    assert "picamera2" not in sys.modules
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a PC: the import fails
    with pytest.raises(DeviceError, match="camera source 'picamera2' needs the picamera2 package"):
        open_camera("picamera2")


def test_a_configured_usb_camera_that_cannot_open_is_an_error():
    with pytest.raises(DeviceError, match="cannot open the USB camera '97'"):
        open_camera("usb:97")
    with pytest.raises(DeviceError, match="no video file 'nowhere.mp4'"):
        open_camera("nowhere.mp4")


def _write_mp4(path, frames):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 25, (96, 64))
    for i in range(frames):
        img = np.zeros((64, 96, 3), np.uint8)
        cv2.putText(img, str(i), (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
        writer.write(img)
    writer.release()


def test_a_video_file_plays_every_frame_then_ends(tmp_path):
    path = tmp_path / "clip.mp4"
    _write_mp4(path, 12)
    camera = open_camera(str(path), realtime=False)
    assert camera.resolution == (96, 64) and camera.fps == 25
    frames = []
    with pytest.raises(EndOfVideo, match="has ended after 12 frames"):
        while True:
            frames.append(camera.read())
    assert len(frames) == 12 and camera.frame_number == 11
    assert frames[0].shape == (64, 96, 3)
    camera.close()


def test_a_video_file_in_realtime_keeps_its_frame_rate(tmp_path):
    from faro_box.devices.camera import Pacer
    from faro_box.devices.camera_cv import VideoFileCamera

    path = tmp_path / "clip.mp4"
    _write_mp4(path, 5)
    now = [0.0]
    slept = []

    def sleep(s):
        slept.append(round(s, 3))
        now[0] += s

    camera = VideoFileCamera(str(path), pacer=Pacer(1, clock=lambda: now[0], sleep=sleep))
    camera.open()
    for _ in range(5):
        camera.read()
    assert slept == [0.04] * 4  # 25 fps, the file's own rate


def test_a_folder_of_frames_plays_in_name_order(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame_{i:03d}.png"), np.full((30, 40, 3), 10 * i, np.uint8))
    (tmp_path / "notes.txt").write_text("not a frame")
    camera = open_camera(str(tmp_path), realtime=False)
    assert isinstance(camera, FolderCamera) and camera.resolution == (40, 30)
    assert [int(camera.read()[0, 0, 0]) for _ in range(3)] == [0, 10, 20]
    with pytest.raises(EndOfVideo):
        camera.read()


def test_an_empty_folder_or_a_broken_image_is_an_error(tmp_path):
    with pytest.raises(DeviceError, match="holds no images"):
        open_camera(str(tmp_path))
    (tmp_path / "a.png").write_bytes(b"not a png")
    with pytest.raises(DeviceError, match="cannot read the image"):
        open_camera(str(tmp_path))


def test_sources_by_name():
    assert parse_source("picamera") == ("picamera2", "")
    assert parse_source("usb:1") == ("usb", "1") and parse_source("/dev/video2") == ("usb", "/dev/video2")
    assert parse_source("sim:7:0.8") == ("sim", "7:0.8") and parse_source("synthetic") == ("sim", "")
    assert parse_source("deal.mp4") == ("file", "deal.mp4")
    with pytest.raises(DeviceError, match="a camera source must be text"):
        parse_source("  ")
    with pytest.raises(DeviceError, match=r"sim:SEED\[:NUISANCE\]"):
        open_camera("sim:seven")
    with pytest.raises(DeviceError, match="NUISANCE 0..1"):
        open_camera("sim:1:3")


def test_the_simulated_box_as_a_camera_gives_its_window_and_ends_after_its_deal():
    camera = open_camera("sim:3", realtime=False)
    assert camera.name == "sim:3" and camera.resolution == (640, 480) and camera.fps == 30
    assert np.asarray(camera.window).shape == (4, 2)
    box = camera.box
    assert np.array_equal(camera.read(), box.frame(0))
    camera._world = len(box)  # skip to the end of the deal
    with pytest.raises(EndOfVideo):
        camera.read()
