"""The brisk simulated box of ``faro-box demo --fast``: fewer, cheaper frames, the same deal, and
every card still read from the frames by the real tracker."""

from __future__ import annotations

import numpy as np
import pytest
from track_helpers import TruthReader, expected_labels, label, run_box

from faro_box.vision.sim.simbox import SimBox


def test_a_brisk_box_films_the_same_deal_in_fewer_frames_and_the_tracker_reads_every_card():
    slow = SimBox(seed=11, nuisance=0.5, cards=9, still=(3, 4), slips=(4,))
    brisk = SimBox(seed=11, nuisance=0.5, cards=9, still=(3, 4), slips=(4,), pace=0.4, fine=False)
    assert len(brisk) < 0.7 * len(slow)
    assert expected_labels(brisk) == expected_labels(slow)        # the same cards, slip and order
    events = run_box(brisk, TruthReader(brisk))
    assert [label(e) for e in events] == expected_labels(brisk)
    for event, expected in zip(events, brisk.expected(), strict=True):
        assert 0 <= event.frame - expected.frame <= 3, (event, expected)


def test_coarse_drawing_stays_close_to_the_fine_one():
    fine = SimBox(seed=2, nuisance=0.0, cards=3)
    coarse = SimBox(seed=2, nuisance=0.0, cards=3, fine=False)
    # Without shake the only difference is light in 1/128 steps: a grey level or so.
    for n in (0, len(fine) // 2, len(fine) - 1):
        diff = np.abs(fine.frame(n).astype(int) - coarse.frame(n).astype(int))
        assert diff.mean() < 1.0 and diff.max() <= 3


@pytest.mark.parametrize("pace", [0.0, -0.5, 1.5])
def test_a_pace_outside_zero_to_one_is_refused(pace):
    with pytest.raises(ValueError, match=f"pace must be in \\(0, 1\\], not {pace!r}"):
        SimBox(seed=1, cards=2, pace=pace)
