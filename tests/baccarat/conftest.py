from __future__ import annotations

import pytest

from faro_box.rules.baccarat import Bank, Side


@pytest.fixture
def bank() -> Bank:
    """ann and cid on the right, bob and dan on the left, eve banks 10."""
    return Bank(["ann", "bob", "cid", "dan"],
                {"ann": Side.RIGHT, "bob": Side.LEFT, "cid": Side.RIGHT, "dan": Side.LEFT}, "eve", 10)
