"""The layout (seed 003) and the groups a bet may cover (seed 000, shapes б–л).

Bottom row A 2 3 4 5 6 left to right, top row K Q J 10 9 8 (K above A, 8 above 6); the 7 stands
at the far right, half in each row, touching the 6 and the 8. A group is a set of ranks whose
cards meet where the chips stand; nothing but the shapes below is a group.
"""

from __future__ import annotations

from collections.abc import Iterable

from faro_box.cards import Rank

R = Rank
BOTTOM: tuple[Rank, ...] = (R.ACE, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX)
TOP: tuple[Rank, ...] = (R.KING, R.QUEEN, R.JACK, R.TEN, R.NINE, R.EIGHT)
COLUMNS = len(BOTTOM)


def _shapes() -> dict[str, frozenset[frozenset[Rank]]]:
    rows = (BOTTOM, TOP)
    cols = range(COLUMNS)
    blocks = [(BOTTOM[c], BOTTOM[c + 1], TOP[c], TOP[c + 1]) for c in cols[:-1]]
    shapes = {
        # б: side by side in a row (2 + 3)
        "side": {frozenset(row[c:c + 2]) for row in rows for c in cols[:-1]},
        # в: diagonal neighbours (6 + 9)
        "diagonal": {frozenset((BOTTOM[c], TOP[c + d])) for c in cols for d in (-1, 1) if 0 <= c + d < COLUMNS},
        # г: one above the other (2 + Q)
        "vertical": {frozenset((BOTTOM[c], TOP[c])) for c in cols},
        # д, е: the 7 with the 6 or the 8
        "seven": {frozenset((R.SIX, R.SEVEN)), frozenset((R.SEVEN, R.EIGHT))},
        # ж: two in a row with one rank between (J + K)
        "skip": {frozenset((row[c], row[c + 2])) for row in rows for c in cols[:-2]},
        # з: three in a row (8, 9, 10)
        "three": {frozenset(row[c:c + 3]) for row in rows for c in cols[:-2]},
        # и: three of a 2×2 block, a right angle (3, J, 10)
        "angle": {frozenset(b) - {r} for b in blocks for r in b},
        # к: 6, 7, 8
        "six_seven_eight": {frozenset((R.SIX, R.SEVEN, R.EIGHT))},
        # л: a whole 2×2 block (4, 5, 9, 10)
        "block": {frozenset(b) for b in blocks},
    }
    return {name: frozenset(groups) for name, groups in shapes.items()}


SHAPES: dict[str, frozenset[frozenset[Rank]]] = _shapes()
GROUPS: frozenset[frozenset[Rank]] = frozenset().union(*SHAPES.values())
# The win_lose bet stands on two neighbouring ranks "or as shape ж": every two-rank group.
PAIRS: frozenset[frozenset[Rank]] = frozenset(g for g in GROUPS if len(g) == 2)


def is_layout_group(ranks: Iterable[Rank]) -> bool:
    """Whether these ranks form a group the chips can cover.

    >>> from faro_box.cards import Rank as R
    >>> is_layout_group([R.FOUR, R.FIVE, R.NINE, R.TEN]), is_layout_group([R.JACK, R.KING])
    (True, True)
    >>> is_layout_group([R.ACE, R.SEVEN]), len(GROUPS)
    (False, 70)
    """
    return frozenset(ranks) in GROUPS
