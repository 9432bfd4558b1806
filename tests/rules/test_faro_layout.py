"""The layout groups of seed 000 (shapes б–л) and nothing else."""

from __future__ import annotations

import itertools

import pytest

from faro_box.cards import Rank
from faro_box.rules.faro import GROUPS, PAIRS, SHAPES, is_layout_group


def ranks(*symbols: str) -> list[Rank]:
    return [Rank.parse(s) for s in symbols]


# The seed's own example for each shape, and its letter.
SEED_EXAMPLES = [
    ("б side by side", ["2", "3"]),
    ("в diagonal", ["6", "9"]),
    ("г one above the other", ["2", "Q"]),
    ("д", ["6", "7"]),
    ("е", ["7", "8"]),
    ("ж one rank between", ["J", "K"]),
    ("з three in a row", ["8", "9", "10"]),
    ("и right angle", ["3", "10", "J"]),
    ("к", ["6", "7", "8"]),
    ("л square", ["4", "5", "9", "10"]),
]


@pytest.mark.parametrize("shape, symbols", SEED_EXAMPLES, ids=[s for s, _ in SEED_EXAMPLES])
def test_every_seed_example_is_a_group(shape, symbols):
    assert is_layout_group(ranks(*symbols))


@pytest.mark.parametrize("symbols", [
    ["A", "K"], ["6", "8"], ["A", "Q"], ["2", "K"], ["5", "8"], ["A", "3"], ["10", "8"], ["K", "Q", "J"],
    ["A", "2", "3"], ["A", "2", "Q"], ["6", "8", "9"], ["A", "2", "Q", "K"], ["5", "6", "8", "9"],
])
def test_other_shapes_on_the_layout_are_groups(symbols):
    assert is_layout_group(ranks(*symbols))


@pytest.mark.parametrize("symbols", [
    ["9"], ["A", "6"], ["A", "4"], ["5", "7"], ["7", "9"], ["7", "K"], ["A", "J"], ["6", "K"], ["8", "K"],
    ["3", "4", "5", "6"], ["7", "8", "9"], ["5", "6", "7"], ["A", "2", "K", "J"], ["6", "7", "8", "9"],
    ["A", "3", "5"], ["2", "3", "10"], ["4", "5", "9", "10", "3"], ["A", "K", "2", "Q", "3", "J"],
])
def test_shapes_the_seed_does_not_list_are_not_groups(symbols):
    assert not is_layout_group(ranks(*symbols))


def test_the_shape_counts_follow_from_the_layout():
    counts = {name: len(groups) for name, groups in SHAPES.items()}
    assert counts == {"side": 10, "diagonal": 10, "vertical": 6, "seven": 2, "skip": 8, "three": 8,
                      "angle": 20, "six_seven_eight": 1, "block": 5}
    assert len(GROUPS) == 70  # no shape repeats another
    assert len(PAIRS) == 36


def test_every_group_is_connected_on_the_layout():
    # The cards of a group touch where the chips stand: every pair but shape ж is neighbours.
    position = {r: (0, c) for c, r in enumerate(ranks("A", "2", "3", "4", "5", "6"))}
    position |= {r: (1, c) for c, r in enumerate(ranks("K", "Q", "J", "10", "9", "8"))}
    for group in GROUPS:
        if Rank.SEVEN in group:
            assert group <= set(ranks("6", "7", "8"))
            continue
        cells = [position[r] for r in group]
        rows = {row for row, _ in cells}
        cols = sorted(col for _, col in cells)
        assert cols[-1] - cols[0] <= 2
        if cols[-1] - cols[0] == 2:  # ж or з: one row
            assert len(rows) == 1


def test_win_lose_pairs_are_the_neighbours_and_shape_zh():
    position = {r: (0, c) for c, r in enumerate(ranks("A", "2", "3", "4", "5", "6"))}
    position |= {r: (1, c) for c, r in enumerate(ranks("K", "Q", "J", "10", "9", "8"))}
    expected = set()
    for a, b in itertools.combinations(position, 2):
        (ra, ca), (rb, cb) = position[a], position[b]
        if max(abs(ra - rb), abs(ca - cb)) == 1 or (ra == rb and abs(ca - cb) == 2):
            expected.add(frozenset((a, b)))
    expected |= {frozenset(ranks("6", "7")), frozenset(ranks("7", "8"))}
    assert PAIRS == expected
