"""The top of the package holds only the shared vocabulary and the command line's entry: at most
8 modules there, everything else in the room of its layer (rules/, vision/, table/, live/,
devices/, display/, demo/, exhibit/, commands/), so that a newcomer finds a part by its room."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "faro_box"
MOST_TOP_MODULES = 8


def test_the_top_of_the_package_holds_at_most_eight_modules():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MOST_TOP_MODULES, top
