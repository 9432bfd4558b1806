"""open_case_keeper: the configured kind, a recording fake, and no silent fallbacks."""

from __future__ import annotations

import pytest

from faro_box.cards import FULL_DECK
from faro_box.devices.case_keeper import CaseKeeper, RecordingCaseKeeper, open_case_keeper
from faro_box.errors import ConfigError, DeviceError
from faro_box.rules.faro.beads import case_keeper


def test_the_fake_records_every_whole_state_in_order():
    keeper = open_case_keeper({"kind": "fake"})
    assert isinstance(keeper, RecordingCaseKeeper) and isinstance(keeper, CaseKeeper)
    states = [case_keeper(FULL_DECK[:n]) for n in (1, 2, 1)]
    for state in states:
        keeper.show(state)
    assert keeper.states == states and keeper.last is states[-1]
    keeper.close()
    with pytest.raises(DeviceError, match="closed"):
        keeper.show(states[0])


def test_no_configuration_means_the_screen_only():
    assert isinstance(open_case_keeper(None), RecordingCaseKeeper)


@pytest.mark.parametrize("config, message", [
    ({"kind": "abacus"}, "'abacus' is unknown"),
    ({"kind": "fake", "port": "x"}, "takes no settings"),
    ({"kind": "servo"}, "needs \"port\""),
    ({"kind": "servo", "port": "/dev/x", "speed": 3}, "'speed' is unknown"),
])
def test_bad_configuration_is_one_clear_error(config, message):
    with pytest.raises(ConfigError, match=message):
        open_case_keeper(config)
