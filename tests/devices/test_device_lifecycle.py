"""Every device closes with ``with`` and may be closed again; optional members are declared, so
callers read them without probing (a camera's window, a case-keeper's fault and watch)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from pty_cable import Cable, Firmware

from faro_box.cards import FULL_DECK
from faro_box.devices.camera import open_camera
from faro_box.devices.camera_cv import UsbCamera
from faro_box.devices.camera_resilient import ResilientCamera
from faro_box.devices.camera_sim import SimCamera
from faro_box.devices.case_keeper import CaseKeeper, RecordingCaseKeeper, open_case_keeper
from faro_box.devices.servo_case_keeper import ServoCaseKeeper
from faro_box.errors import DeviceError
from faro_box.rules.faro.beads import case_keeper


def cameras(tmp_path):
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"frame_{i}.png"), np.full((30, 40, 3), 10 * i, np.uint8))
    yield "folder", open_camera(str(tmp_path), realtime=False)
    yield "sim", open_camera("sim:3", realtime=False)
    yield "resilient sim", ResilientCamera(SimCamera(3))
    yield "usb, never opened", UsbCamera("0")


def test_every_camera_closes_with_with_and_twice_and_declares_its_window(tmp_path):
    for name, camera in cameras(tmp_path):
        with camera as same:
            assert same is camera, name
            assert camera.window is None or len(camera.window) == 4, name
        camera.close()          # again: nothing happens
    assert open_camera("sim:3", realtime=False).window == SimCamera(3).window      # the simulation knows it


def test_the_case_keepers_close_with_with_and_twice_and_all_have_fault_and_watch(mock_pins) -> None:
    heard: list[str | None] = []
    for keeper in (RecordingCaseKeeper(), open_case_keeper({"kind": "led"}, pin_factory=mock_pins)):
        assert isinstance(keeper, CaseKeeper)
        with keeper:
            keeper.watch(heard.append)
            keeper.show(case_keeper(FULL_DECK[:2]))
            assert keeper.fault is None
        keeper.close()
        with pytest.raises(DeviceError, match="closed"):
            keeper.show(case_keeper(FULL_DECK[:2]))
    assert heard == []          # nothing between states to report: no link of their own


def test_the_servo_case_keeper_closes_with_with_and_twice(tmp_path):
    (tmp_path / "flash").mkdir()
    cable = Cable(tmp_path)
    firmware = Firmware(cable, tmp_path / "flash")
    try:
        firmware.start()
        with ServoCaseKeeper(cable.port, ack_timeout=0.3) as keeper:
            assert isinstance(keeper, CaseKeeper)
            keeper.show(case_keeper(FULL_DECK[:2]))
            assert keeper.wait_synced(5) and keeper.fault is None
        assert not keeper.connected
        keeper.close()
        with pytest.raises(DeviceError, match="closed"):
            keeper.show(case_keeper(FULL_DECK[:2]))
    finally:
        firmware.stop()
        cable.close()
