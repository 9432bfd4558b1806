"""A camera gap in the middle of a deal: the simulated box's cable is pulled while a card is slid
off; the resilient camera reopens it and the tracker neither invents nor loses a card."""

from __future__ import annotations

from track_helpers import TruthReader, expected_labels, label

from faro_box.devices.camera import ResilientCamera
from faro_box.devices.camera_sim import SimCamera
from faro_box.vision.track import Tracker


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


def test_the_tracker_keeps_the_deal_across_a_camera_gap_in_the_middle_of_a_deal():
    sim = SimCamera(13, nuisance=0.7, cards=8)
    box = sim.box
    card = box.expected()[4]
    sim.outages = ((card.frame - 12, card.frame + 2),)  # pulled while card 3 is slid off
    clock = Clock()
    camera = ResilientCamera(sim, clock=clock, sleep=clock.sleep, first_delay=0.1)
    camera.open()
    reader = TruthReader(box)
    tracker = Tracker(reader, window=sim.window)
    events, gaps = [], 0
    while sim._world < len(box):
        image = camera.read()
        if image is None:
            gaps += 1
            tracker.lost()
            continue
        reader.frame = sim.frame_number
        events += tracker.update(image, camera.frame_number)
    assert camera.outages == 1 and gaps >= 2
    assert [label(e) for e in events] == expected_labels(box)
