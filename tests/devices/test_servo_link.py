"""The host driver and the firmware, each in its own process, across a real pseudo-terminal.

Every fault ends the same way: the firmware's own report (asked past the host) holds exactly
the bead positions the deal says, and its servos glide there.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from pty_cable import Cable, Firmware, settled

from faro_box.cards import FULL_DECK
from faro_box.devices.case_keeper import open_case_keeper
from faro_box.devices.servo_case_keeper import ServoCaseKeeper
from faro_box.devices.servo_frames import to_tenths
from faro_box.errors import DeviceError
from faro_box.rules.faro.beads import case_keeper

DECK = FULL_DECK[::-1]


@pytest.fixture
def rig(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "config.json").write_text(json.dumps({"driver": "pca9685", "speed": 4000, "tick_ms": 5}))
    cable = Cable(tmp_path)
    firmware = Firmware(cable, flash)
    firmware.start()
    keeper = None
    try:
        keeper = ServoCaseKeeper(cable.port, ack_timeout=0.3, heartbeat=0.2, reconnect_interval=0.05)
        yield cable, firmware, keeper
    finally:
        if keeper is not None:
            keeper.close()
        firmware.stop()
        cable.close()


def beads_end_where_the_deal_says(cable: Cable, cards: int, timeout: float = 8.0) -> None:
    settled(cable, to_tenths(case_keeper(DECK[:cards]).flat_positions()), timeout)


def deal(keeper: ServoCaseKeeper, start: int, stop: int) -> None:
    for n in range(start, stop + 1):
        keeper.show(case_keeper(DECK[:n]))


def test_a_deal_and_an_undo_arrive_whole(rig):
    cable, _, keeper = rig
    assert keeper.version.protocol == 1 and keeper.version.servos == 52
    deal(keeper, 0, 12)
    assert keeper.wait_synced(5)
    beads_end_where_the_deal_says(cable, 12)
    keeper.show(case_keeper(DECK[:11]))          # undo: the same model on one card fewer
    assert keeper.wait_synced(5)
    beads_end_where_the_deal_says(cable, 11)
    assert keeper.firmware_state().targets == to_tenths(case_keeper(DECK[:11]).flat_positions())


def test_dropped_frames_are_resent(rig):
    cable, _, keeper = rig
    cable.drop_frames = 2
    deal(keeper, 1, 3)
    assert keeper.wait_synced(5)
    beads_end_where_the_deal_says(cable, 3)
    assert keeper.stats.resends >= 2


def test_duplicated_frames_change_nothing(rig):
    cable, _, keeper = rig
    cable.duplicate_frames = 5
    for n in range(1, 6):
        keeper.show(case_keeper(DECK[:n]))
        assert keeper.wait_synced(5)
    beads_end_where_the_deal_says(cable, 5)
    assert keeper.stats.errors == 0


def test_corrupted_frames_are_refused_by_checksum_and_resent(rig):
    cable, _, keeper = rig
    cable.corrupt_frames = 3
    deal(keeper, 1, 4)
    assert keeper.wait_synced(5)
    beads_end_where_the_deal_says(cable, 4)
    assert keeper.stats.errors >= 1 and "checksum" in keeper.stats.last_error


def test_garbage_and_control_bytes_on_both_directions_break_nothing(rig):
    cable, firmware, keeper = rig
    cable.garbage_every_frame = True
    cable.inject_to_firmware(b"\x03\x03\x04\x1a\x00\xff\xfe" + bytes(range(256)) + b"\n" + b"A" * 2000 + b"\n")
    cable.inject_to_host(b"\x00\xffnoise\r\nOK 999\nERR 5 stale last=\n\x03")
    for n in range(1, 9):
        keeper.show(case_keeper(DECK[:n]))
        time.sleep(0.02)
    assert keeper.wait_synced(8)
    cable.garbage_every_frame = False
    beads_end_where_the_deal_says(cable, 8)
    assert firmware.process.poll() is None      # Ctrl-C and Ctrl-D did not stop it


def test_a_slow_reader_gets_the_newest_state(rig):
    cable, _, keeper = rig
    cable.rate = 1500.0                          # bytes per second into the firmware
    deal(keeper, 1, 10)
    assert keeper.wait_synced(10)
    cable.rate = None
    beads_end_where_the_deal_says(cable, 10)


def test_the_port_vanishes_and_comes_back(rig):
    cable, _, keeper = rig
    deal(keeper, 1, 5)
    assert keeper.wait_synced(5)
    cable.unplug()
    deal(keeper, 6, 9)                           # cards keep coming while the cable is out
    time.sleep(0.5)
    assert not keeper.wait_synced(0.1)
    cable.plug()
    assert keeper.wait_synced(8)
    beads_end_where_the_deal_says(cable, 9)
    assert keeper.stats.disconnects >= 1 and keeper.stats.reconnects >= 1


def test_a_firmware_restart_parks_the_beads_and_the_host_resends(rig):
    cable, firmware, keeper = rig
    deal(keeper, 1, 6)
    assert keeper.wait_synced(5)
    firmware.stop()
    firmware.start()                             # power returns: READY, every bead at home
    time.sleep(0.1)
    deadline = time.monotonic() + 8
    while keeper.stats.firmware_restarts == 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert keeper.wait_synced(8)
    beads_end_where_the_deal_says(cable, 6)


def test_hardware_that_is_not_there_raises_instead_of_a_fake(tmp_path):
    with pytest.raises(DeviceError, match="cannot open the servo case-keeper port"):
        open_case_keeper({"kind": "servo", "port": str(tmp_path / "ttyACM9")})
    master, slave = os.openpty()
    try:
        with pytest.raises(DeviceError, match="no faro-box firmware answers PING"):
            ServoCaseKeeper(os.ttyname(slave))
    finally:
        os.close(master)
        os.close(slave)
