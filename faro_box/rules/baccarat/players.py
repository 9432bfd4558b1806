"""The active player of each side, who takes its decision on 5 (seed 001 §04).

The first of the side in order of play starts; he stays after a win or a tie and passes to the
next player of his side, cyclically, after a loss.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from faro_box.rules.baccarat.hands import Outcome, Side


@dataclass(frozen=True, slots=True)
class Active:
    right: tuple[str, ...]
    left: tuple[str, ...]
    right_index: int = 0
    left_index: int = 0

    @classmethod
    def seat(cls, players: Sequence[str], sides: Mapping[str, Side]) -> Active:
        return cls(tuple(p for p in players if sides[p] is Side.RIGHT),
                   tuple(p for p in players if sides[p] is Side.LEFT))

    def lineup(self, side: Side) -> tuple[str, ...]:
        return self.right if side is Side.RIGHT else self.left

    def player(self, side: Side) -> str:
        index = self.right_index if side is Side.RIGHT else self.left_index
        return self.lineup(side)[index]

    def by_side(self) -> dict[Side, str]:
        return {side: self.player(side) for side in Side}

    def after(self, outcomes: Mapping[Side, Outcome]) -> Active:
        right = (self.right_index + (outcomes[Side.RIGHT] is Outcome.LOSE)) % len(self.right)
        left = (self.left_index + (outcomes[Side.LEFT] is Outcome.LOSE)) % len(self.left)
        return Active(self.right, self.left, right, left)
