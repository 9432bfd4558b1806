"""The simulated dealing box: deterministic frames, a deck order honoured, truthful ground truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from faro_box.cards import FULL_DECK
from faro_box.devices.camera_sim import write_video
from faro_box.vision.canonical import warp_window
from faro_box.vision.sim.simbox import EMPTY, Expect, SimBox


def test_the_same_seed_gives_the_same_video_and_another_seed_another():
    a, b = SimBox(seed=7, cards=3), SimBox(seed=7, cards=3)
    assert len(a) == len(b)
    for n in (0, len(a) // 2, len(a) - 1):
        assert np.array_equal(a.frame(n), b.frame(n))
    assert a.frame(5).shape == (480, 640, 3) and a.frame(5).dtype == np.uint8
    c = SimBox(seed=8, cards=3)
    assert a.deck != c.deck and not np.array_equal(a.frame(0), c.frame(0))
    # Random access: a frame does not depend on which frames were drawn before it.
    assert np.array_equal(SimBox(seed=7, cards=3).frame(len(a) - 1), a.frame(len(a) - 1))


def test_a_given_deck_leaves_the_box_in_order_and_the_box_ends_empty():
    deck = FULL_DECK[::-1]
    box = SimBox(deck, seed=1, nuisance=0.2, still=(3, 4))
    expected = box.expected()
    assert [e.card for e in expected if e.kind is Expect.CARD] == list(deck)
    assert expected[-1].kind is Expect.EMPTY and box.truth(len(box) - 1).index == EMPTY
    for e in expected[:-1]:
        truth = box.truth(e.frame)
        assert truth.clean and truth.card == e.card
        assert e.frame == 0 or not box.truth(e.frame - 1).clean or box.truth(e.frame - 1).card != e.card


def test_nuisances_grow_with_the_level():
    calm, rough = SimBox(seed=4, nuisance=0.0, cards=4), SimBox(seed=4, nuisance=1.0, cards=4)
    assert calm.deck == rough.deck

    def jitter(box):  # frame-to-frame change of the window while the soda lies still
        views = [cv2.cvtColor(warp_window(box.frame(n), box.window.tolist()), cv2.COLOR_BGR2GRAY).astype(float)
                 for n in range(0, 4)]
        return np.mean([np.abs(a - b).mean() for a, b in zip(views, views[1:], strict=False)])

    assert jitter(rough) > 3 * jitter(calm)
    hands = [sum(s.hx < 640 for s in box._steps) / len(box) for box in (calm, rough)]
    assert hands[1] >= hands[0]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="nuisance must be 0..1, not 1.5"):
        SimBox(nuisance=1.5)
    with pytest.raises(ValueError, match="a deck must hold the 52 cards once each"):
        SimBox(FULL_DECK[:51])
    with pytest.raises(ValueError, match=r"slips \[51\] are outside"):
        SimBox(slips=(51,))
    with pytest.raises(IndexError, match="frame -1 is outside"):
        SimBox(cards=2).frame(-1)


def test_the_video_can_be_written_and_watched(tmp_path):
    box = SimBox(seed=2, cards=2)
    path = tmp_path / "deal.mp4"
    assert write_video(box, path, frames=range(30)) == 30
    capture = cv2.VideoCapture(str(path))
    frames = 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        assert frame.shape == (480, 640, 3)
        frames += 1
    capture.release()
    assert frames == 30
