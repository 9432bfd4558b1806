from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from faro_box.baccarat import Bank, Side


def shoe_order(right: Sequence[str], left: Sequence[str], banker: Sequence[str],
               thirds: Sequence[str] = ()) -> list[str]:
    """The cards in the order they leave the shoe for these three starting pairs, then the thirds."""
    return [right[0], left[0], banker[0], right[1], left[1], banker[1], *thirds]


@pytest.fixture
def order() -> Callable[..., list[str]]:
    return shoe_order


@pytest.fixture
def bank() -> Bank:
    """ann and cid on the right, bob and dan on the left, eve banks 10."""
    return Bank(["ann", "bob", "cid", "dan"],
                {"ann": Side.RIGHT, "bob": Side.LEFT, "cid": Side.RIGHT, "dan": Side.LEFT}, "eve", 10)
