"""The table's state across games: a faro deal (faro/state.py) or a Baccarat Banque bank
(baccarat/state.py), in one journal; the last game started is the one the table shows.

One game at a time: a bank starts only once the faro deal is over, and a faro deal only once the
bank has ended (or never dealt a coup). Deal numbers run across both games, as in the journal.
"""

from __future__ import annotations

import copy
from typing import Any

from faro_box.errors import RuleError
from faro_box.rules.faro import Deal
from faro_box.rules.faro.beads import BeadGeometry
from faro_box.table.baccarat.commands import BANK_COMMANDS, StartBank
from faro_box.table.baccarat.state import GAME as BACCARAT
from faro_box.table.baccarat.state import BankState
from faro_box.table.commands import Command
from faro_box.table.events import Event
from faro_box.table.faro.commands import StartDeal
from faro_box.table.faro.state import TableState
from faro_box.table.views import View

FARO = "faro"


class GameState:
    def __init__(self, geometry: BeadGeometry | None = None) -> None:
        self.faro = TableState(geometry)
        self.bank = BankState()
        self.game = FARO
        self.starts = 0

    def fork(self) -> GameState:
        return copy.deepcopy(self)

    @property
    def geometry(self) -> BeadGeometry:
        return self.faro.geometry

    @property
    def deal(self) -> Deal | None:
        """The faro deal the case-keeper shows (None while a bank plays: all beads at home)."""
        return self.faro.deal if self.game == FARO else None

    def apply(self, command: Command) -> list[Event]:
        if isinstance(command, StartBank):
            if not self.faro.ended:
                raise RuleError(f"faro deal {self.faro.deal_number} is still open: end it (or call a "
                                "misdeal) before a bank of Baccarat Banque")
            events = self.bank.apply(command, self.starts + 1)
            self.game, self.starts = BACCARAT, self.starts + 1
            return events
        if isinstance(command, BANK_COMMANDS):
            return self.bank.apply(command)
        if isinstance(command, StartDeal):
            if self.bank.in_coup or (self.bank.running and self.bank.bank is not None and self.bank.bank.coups):
                raise RuleError("a bank of Baccarat Banque is still running: the banker leaves (or the fund "
                                "or the shoe runs out) before a faro deal")
            events = self.bank.close()
            self.faro.deal_number = self.starts  # so that its own count gives the journal's number
            events += self.faro.apply(command)
            self.game, self.starts = FARO, self.starts + 1
            return events
        return self.faro.apply(command)

    def view(self) -> View:
        return self.bank.view() if self.game == BACCARAT else self.faro.view()

    def dealer_view(self) -> dict[str, Any]:
        """What only the dealer's page may see (a face-down card waiting for him): faro hides nothing."""
        if self.game == BACCARAT:
            return self.bank.dealer_view()
        return {"pending": dict(self.faro.pending) if self.faro.pending is not None else None}

    def script(self) -> dict[str, Any]:
        return self.bank.script() if self.game == BACCARAT else self.faro.script()
