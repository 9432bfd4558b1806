"""The examples in the docstrings of the cards and the rules engines run, and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

DOCUMENTED = ["faro_box.cards", "faro_box.vision.deck_bar", "faro_box.rules.faro.layout", "faro_box.rules.faro.beads",
              "faro_box.rules.baccarat.hands", "faro_box.vision.middle", "faro_box.vision.canonical",
              "faro_box.vision.reader", "faro_box.vision.pips",
              "faro_box.vision.learned_reader", "faro_box.vision.ink", "faro_box.files"]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples in its docstrings"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
