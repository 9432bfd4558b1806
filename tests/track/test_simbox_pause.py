"""A dealer who stops each slide half way, the thumb on the leaving card: the window shows the
card beneath's index beside the leaving card's body, still long enough to be read."""

from __future__ import annotations

import pytest
from track_helpers import run_box

from faro_box.vision.reader import Reader
from faro_box.vision.sim.simbox import PAUSE_FRAMES, SimBox
from faro_box.vision.track import CardExposed


@pytest.mark.parametrize("pause", [0.3, 0.6])
def test_a_slide_stopped_half_way_names_no_card_but_the_one_on_top(pause):
    box = SimBox(seed=5, nuisance=0.5, cards=8, pause=pause)
    assert len(box) >= len(SimBox(seed=5, nuisance=0.5, cards=8)) + 7 * PAUSE_FRAMES
    events = run_box(box, Reader())  # type: ignore[arg-type]
    named = [(e.index, e.card) for e in events if isinstance(e, CardExposed)]
    assert [(i, c) for i, c in named if box.deck[i] != c] == []
    assert len({c for _, c in named}) == len(named)


@pytest.mark.parametrize("pause", [0.02, 0.98])
def test_every_slide_stops_wherever_the_pause_lies(pause):
    plain, paused = SimBox(seed=3, cards=5), SimBox(seed=3, cards=5, pause=pause)
    assert len(paused) == len(plain) + 4 * PAUSE_FRAMES  # four slides, the last card stays


@pytest.mark.parametrize("pause", [0.0, 1.0, -0.2])
def test_a_pause_outside_the_slide_is_refused(pause):
    with pytest.raises(ValueError, match="pause must be a share of the slide"):
        SimBox(seed=1, cards=2, pause=pause)
