"""A scripted dealer for the bank path: answers whatever the table waits for (shared by the
bank tests and benchmarks/bench_bank_run.py)."""

from __future__ import annotations

from typing import Any

from faro_box.errors import RuleError
from faro_box.live.baccarat import cards_dealt
from faro_box.table.baccarat.commands import BankBet, BankCall, BankConfirm


def answer_table(table: Any, camera: Any, stakes: tuple[int, int] = (2, 2)) -> bool:
    """One step of the dealer: ann and bob bet, each side draws where the rules allow, and a card
    the reader would not name is named from the simulated shoe. True when it named a card."""
    state = table.state()
    waiting = state["waiting"] or ""
    if waiting == "bets" and not state["bets"]:
        table.handle(BankBet("ann", stakes[0]))
        table.handle(BankBet("bob", stakes[1]))
    elif waiting.startswith("call_"):
        seat = waiting.removeprefix("call_")
        try:
            table.handle(BankCall(seat, True))
        except RuleError:  # a side standing on 6-7 calls stand
            table.handle(BankCall(seat, False))
    elif waiting == "confirm":
        table.handle(BankConfirm(str(camera.shoe[cards_dealt(table.view())])))
        return True
    return False
