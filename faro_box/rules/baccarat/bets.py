"""Bets against the bank and their settlement, one side at a time (seed 001 §03, §06)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from faro_box.rules.baccarat.hands import Outcome, Side


@dataclass(frozen=True, slots=True)
class Bet:
    """An accepted bet. ``side`` None means à cheval: half the stake on each side."""

    player: str
    side: Side | None
    stake: int
    asked: int
    banco: bool = False
    left_on: bool = False

    @property
    def cheval(self) -> bool:
        return self.side is None

    @property
    def cut(self) -> bool:
        """The bank's cover took less than the player asked."""
        return self.stake < self.asked

    def parts(self) -> tuple[tuple[Side, int], ...]:
        """The stake on each side: à cheval halves are settled separately."""
        if self.side is None:
            return ((Side.RIGHT, self.stake // 2), (Side.LEFT, self.stake // 2))
        return ((self.side, self.stake),)

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "side": None if self.side is None else self.side.value,
                "stake": self.stake, "asked": self.asked, "cheval": self.cheval, "banco": self.banco,
                "left_on": self.left_on}


@dataclass(frozen=True, slots=True)
class Settlement:
    """One stake on one side: ``amount`` is the player's change (the bank's is its negative)."""

    player: str
    side: Side
    stake: int
    result: Outcome
    amount: int

    @property
    def returned(self) -> int:
        """What the player has in front of him after the settlement: stake and profit, or nothing."""
        return self.stake + self.amount

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "side": self.side.value, "stake": self.stake,
                "result": self.result.value, "amount": self.amount}


_PROFIT = {Outcome.WIN: 1, Outcome.LOSE: -1, Outcome.PUSH: 0}


def settle(bets: Iterable[Bet], outcomes: Mapping[Side, Outcome]) -> tuple[Settlement, ...]:
    """Win: one stake profit; loss: the stake to the bank; tie: the stake back. In order of the bets."""
    return tuple(Settlement(bet.player, side, stake, outcomes[side], _PROFIT[outcomes[side]] * stake)
                 for bet in bets for side, stake in bet.parts())
