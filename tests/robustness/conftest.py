"""Fixtures for the fault tests: the pseudo-terminal cable and firmware of tests/devices."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# pty_cable (the misbehaving USB cable, and the firmware under MicroPython in its own process).
sys.path.insert(0, str(HERE.parent / "devices"))
sys.path.insert(0, str(HERE.parent / "display"))
