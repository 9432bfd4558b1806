"""The camera at a Baccarat Banque bank: the shown-card watcher's events become table commands.

A card read becomes ``BankCard``; a card the reader would not name becomes ``BankUnread`` (the
dealer names it). A reading the table refuses (a fourth copy, a card while the coup waits for a
call) is reported as a camera fault for the dealer, who enters the card by hand: nothing is guessed.
No fault names a card in public (the card may be dealt face down): the card read goes into the
fault's detail, which only the dealer's view shows.

After a restart mid-bank (``lying``: the last card the bank took) the watcher starts afresh, and
the card still lying on the reading spot would be read a second time. So the first card seen
then is taken as that card when it reads as it (or cannot be read), and the dealer is told, as a
camera fault, to enter the card by hand should it have been a new one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np

from faro_box.errors import FaroBoxError
from faro_box.table.baccarat.commands import BankCard, BankCommand, BankUnread
from faro_box.vision.shown import CardShown, ShownCardWatcher, ShownEvent, ShownUnread

log = logging.getLogger(__name__)


def shown_to_command(event: ShownEvent, snapshot: str | None = None) -> BankCommand:
    if isinstance(event, CardShown):
        return BankCard(event.card, min(1.0, max(0.0, event.confidence)), event.frame)
    return BankUnread(tuple(event.candidates), snapshot)


class BankCamera:
    """Feeds frames to a watcher and its events to a table (``table.handle``, ``report_fault``)."""

    def __init__(self, table: Any, watcher: ShownCardWatcher, *, lying: str | None = None,
                 min_confidence: float = 0.0, snapshot: Callable[[np.ndarray, int], str | None] | None = None) -> None:
        self.table = table
        self.watcher = watcher
        self.lying = lying
        self.min_confidence = min_confidence  # a reading less sure than this goes to the dealer
        self.snapshot = snapshot  # (picture, frame) -> the URL the dealer's page shows it at

    def frame(self, image: np.ndarray, number: int) -> list[BankCommand]:
        taken: list[BankCommand] = []
        for event in self.watcher.update(image, number):
            url = None
            if isinstance(event, ShownUnread) and self.snapshot is not None:
                url = self.snapshot(event.snapshot, number)
            command = shown_to_command(event, url)
            if isinstance(command, BankCard) and command.confidence < self.min_confidence:
                command = BankUnread((command.card,))
            if self.lying is not None:
                lying, self.lying = self.lying, None
                if not isinstance(command, BankCard) or str(command.card) == lying:
                    # The last card dealt may lie face down: the public message names no card.
                    seen = command.card if isinstance(command, BankCard) else "a card the reader cannot name"
                    self.table.report_fault(
                        "camera", "after the restart the card on the reading spot is taken as the last card "
                        "dealt; if a new card was dealt, enter it by hand",
                        f"the reading spot shows {seen}; the last card dealt was {lying}")
                    continue
            try:
                self.table.handle(command)
            except FaroBoxError as exc:
                # The refusal may name the card read, which may be going face down.
                self.table.report_fault("camera", f"frame {number}: the table refuses the card read; "
                                        "enter it by hand", f"frame {number}: {exc}")
                continue
            self.table.clear_fault("camera")
            taken.append(command)
        return taken
