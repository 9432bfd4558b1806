"""A camera that disappears: reported once, reopened with backoff, the deal kept across the gap."""

from __future__ import annotations

import logging

import numpy as np

from faro_box.devices.camera import ResilientCamera
from faro_box.errors import DeviceError


class Clock:
    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(round(seconds, 3))
        self.now += seconds


class Flaky:
    """A USB camera whose cable is pulled after ``fail_at`` frames and that refuses to open
    ``refusals`` times before it comes back."""

    name, resolution, fps = "usb:0", (8, 6), 10.0

    def __init__(self, fail_at, refusals):
        self.fail_at, self.refusals = fail_at, refusals
        self.frame_number = -1
        self.opens = 0

    def open(self):
        self.opens += 1
        if self.opens > 1 and self.refusals > 0:
            self.refusals -= 1
            raise DeviceError("cannot open the USB camera '0'")

    def read(self):
        if self.frame_number + 1 == self.fail_at and self.opens == 1:
            raise DeviceError("select() timeout")
        self.frame_number += 1
        return np.full((6, 8, 3), self.frame_number, np.uint8)

    def close(self):
        pass


def test_a_lost_camera_is_reported_once_and_reopened_with_backoff(caplog):
    clock = Clock()
    flaky = Flaky(fail_at=3, refusals=4)
    camera = ResilientCamera(flaky, clock=clock, sleep=clock.sleep, first_delay=0.5, max_delay=4.0)
    camera.open()
    with caplog.at_level(logging.INFO, logger="faro_box.devices.camera"):
        got = [camera.read() for _ in range(10)]
    assert [g is None for g in got] == [False] * 3 + [True] * 5 + [False] * 2
    assert int(got[8][0, 0, 0]) == 3  # the first frame after the gap comes with the reopening
    assert camera.outages == 1
    # 0.5 s, then doubling up to the cap, between the five attempts to reopen.
    assert clock.sleeps == [0.5, 1.0, 2.0, 4.0, 4.0]
    lost = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(lost) == 1 and "camera usb:0 lost (select() timeout)" in lost[0].getMessage()
    back = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(back) == 1 and "back after 11.5 s" in back[0].getMessage()
    # Frame numbers count the time the camera was away, so a tracker knows frames were missed.
    assert camera.frame_number == 4 + round(11.5 * 10)


def test_a_driver_that_returns_nothing_counts_as_lost_after_a_few_reads():
    class Silent(Flaky):
        def read(self):
            return None

    clock = Clock()
    camera = ResilientCamera(Silent(0, 0), clock=clock, sleep=clock.sleep, patience=3)
    camera.open()
    assert [camera.read() for _ in range(3)] == [None] * 3
    assert camera.down and camera.outages == 1
