"""The command sets OpenBLAS to one thread before numpy loads (the reader's small products run
several times slower spread over threads the box's own threads keep busy); a setting the
person made stays."""

import os
import subprocess
import sys

PROBE = """
import os, sys
from faro_box.cli import main
try:
    main(["settle", "--help"])
except SystemExit:
    pass
print(os.environ.get("OPENBLAS_NUM_THREADS"), "numpy" in sys.modules)
"""


def _probe(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", PROBE], env={**clean, **env}, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stdout.split("\n")[-2]


def test_openblas_is_one_thread_before_numpy_loads():
    assert _probe() == "1 False"


def test_a_setting_of_the_person_stays():
    assert _probe(OPENBLAS_NUM_THREADS="4") == "4 False"
