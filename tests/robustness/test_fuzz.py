"""A few hundred fuzzed inputs per target, in the suite; ``benchmarks/bench_fuzz.py`` runs
100,000 per target. Every input is accepted or refused with our own clear error."""

from __future__ import annotations

import pytest
from fuzz_targets import MicroPythonMissing, targets
from hypothesis import HealthCheck, given, settings

EXAMPLES = {"scripts": 40, "config": 50, "host": 80, "firmware": 80, "firmware-micropython": 200, "journal": 25, "http": 50}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_fuzzed_input_is_accepted_or_refused_clearly(name):
    try:
        target = targets()[name]()
    except MicroPythonMissing as exc:
        pytest.skip(str(exc))
    outcomes: list[str] = []

    @settings(max_examples=EXAMPLES[name], deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(target.strategy)
    def run(value):
        outcomes.append(target.check(value))

    try:
        run()
    finally:
        target.close()
    assert len(outcomes) >= EXAMPLES[name] // 2
    assert set(outcomes) <= {"accepted", "refused"}
