"""Shortcuts the reader takes for speed give the very numbers of the plain computation they
replace: numpy's percentile for the learned reader's paper level, and fresh arrays for the index
finder's work."""

from __future__ import annotations

import numpy as np
import pytest

from faro_box.cards import FULL_DECK
from faro_box.vision import glyphs
from faro_box.vision.index_patch import channel_percentile
from faro_box.vision.sim.render import render_card


@pytest.mark.parametrize("q", [97.0, 0.0, 100.0, 50.0, 99.99, 12.345])
def test_channel_percentile_is_numpys_to_the_bit(q: float) -> None:
    rng = np.random.default_rng(int(q * 100))
    for n, side, low in [(1, 64, 0), (2, 64, 200), (3, 5, 0), (1, 1, 0), (2, 2, 250)]:
        patches = rng.integers(low, 256, (n, side, side, 3), dtype=np.uint8)
        want = np.percentile(patches.astype(np.float32).reshape(n, -1, 3), q, axis=1)
        got = channel_percentile(patches, q)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (n, side, got, want)


def _fields(index: glyphs.Index | None) -> tuple[object, ...] | None:
    if index is None:
        return None
    arrays = (index.rank, *index.rank_alternatives, index.suit, index.suit_top)
    return (tuple(None if a is None else (a.shape, a.tobytes()) for a in arrays), index.top, index.rank_box,
            index.suit_box, index.redness, index.contrast)


def test_the_index_finder_reads_the_same_in_kept_work_arrays() -> None:
    """Corners of two sizes in turn (the kept arrays change shape), each read twice: every read
    equals the read in arrays of its own."""
    found = 0
    for card in FULL_DECK[::5]:
        face = render_card(card)
        for corner in (face[:110, :80], face[:96, :70], face[20:, 10:]):
            plain = _fields(glyphs._find_index(corner, None, 0, None))
            found += plain is not None
            for _ in range(2):
                assert _fields(glyphs.find_index(corner)) == plain, card
            kw = {"expect_height": 25.0, "paper_kernel": 21}
            assert _fields(glyphs.find_index(corner, **kw)) == _fields(glyphs._find_index(corner, 25.0, 21, None))
    assert found >= 10
    assert len(glyphs._IDLE_WORK) <= glyphs._KEEP_WORK
