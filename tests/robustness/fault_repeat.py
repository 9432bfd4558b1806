"""How often each fault test runs: once in the suite; benchmarks/bench_faults.py sets
FARO_FAULT_REPEAT to run each many times, every repetition with its own random points."""

import os

REPEAT = int(os.environ.get("FARO_FAULT_REPEAT", "1"))
