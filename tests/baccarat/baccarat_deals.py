"""Helpers for the baccarat tests (imported by name: tests/ is not a package)."""

from __future__ import annotations

from collections.abc import Sequence


def shoe_order(right: Sequence[str], left: Sequence[str], banker: Sequence[str],
               thirds: Sequence[str] = ()) -> list[str]:
    """The cards in the order they leave the shoe for these three starting pairs, then the thirds."""
    return [right[0], left[0], banker[0], right[1], left[1], banker[1], *thirds]
