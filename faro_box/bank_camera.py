"""The camera at a Baccarat Banque bank: the shown-card watcher's events become table commands.

A card read becomes ``BankCard``; a card the reader would not name becomes ``BankUnread`` (the
dealer names it). A reading the table refuses (a fourth copy, a card while the coup waits for a
call) is reported as a camera fault for the dealer, who enters the card by hand: nothing is guessed.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from faro_box.bank_events import BankCard, BankCommand, BankUnread
from faro_box.errors import FaroBoxError
from faro_box.vision.shown import CardShown, ShownCardWatcher, ShownEvent

log = logging.getLogger(__name__)


def shown_to_command(event: ShownEvent) -> BankCommand:
    if isinstance(event, CardShown):
        return BankCard(str(event.card), min(1.0, max(0.0, event.confidence)), event.frame)
    return BankUnread(tuple(str(c) for c in event.candidates))


class BankCamera:
    """Feeds frames to a watcher and its events to a table (``table.handle``, ``report_fault``)."""

    def __init__(self, table: Any, watcher: ShownCardWatcher) -> None:
        self.table = table
        self.watcher = watcher

    def frame(self, image: np.ndarray, number: int) -> list[BankCommand]:
        taken: list[BankCommand] = []
        for event in self.watcher.update(image, number):
            command = shown_to_command(event)
            try:
                self.table.handle(command)
            except FaroBoxError as exc:
                self.table.report_fault("camera", f"frame {number}: {exc}")
                continue
            self.table.clear_fault("camera")
            taken.append(command)
        return taken
