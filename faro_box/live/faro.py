"""The appliance's glue: camera frames through the tracker into the table, and systemd's notify.

``TrackerBridge`` turns tracker events into table commands and carries the dealer's answers
back to the tracker. ``SystemdNotifier`` speaks systemd's sd_notify datagram protocol (READY,
WATCHDOG, STOPPING) on ``$NOTIFY_SOCKET`` with the standard library alone.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from faro_box.cards import DECK_SIZE, Card
from faro_box.devices.buttons import ButtonAction, DealerButtons
from faro_box.errors import FaroBoxError, RuleError
from faro_box.table.commands import CardSeen, CardUnread, Command, UndoCard
from faro_box.table.table import Table

log = logging.getLogger(__name__)


class TrackerBridge:
    """Feeds frames to ``tracker`` and its events to ``table``; thread-safe.

    The table decides which cards are out, and the tracker follows it: on start (a restart
    mid-deal replays the journal) the tracker resumes with the deal's cards, and a card the
    table took without the camera (entered by hand, the hock by elimination), an undo or the
    dealer's answer to a question reach the tracker too, so tracker index k is table index k,
    the next card expected is the table's, and a card already dealt is never read as new. A
    reading the rules refuse (a card already shown) becomes a question to the dealer, never a
    silent drop.

    After the camera was gone (``lost``) nobody knows how many cards left the box meanwhile, so
    the first card read afterwards is put to the dealer rather than taken. When the dealer
    names another card there, the card read lies further on (it left the box unseen): it is
    put to the dealer again for the next card.
    """

    def __init__(self, table: Table, tracker: Any, *, snapshot_dir: Path | None = None,
                 write_image: Callable[[Path, Any], None] | None = None) -> None:
        self.table, self.tracker = table, tracker
        self.snapshot_dir, self.write_image = snapshot_dir, write_image
        self._lock = threading.RLock()
        # Table events that came from another thread while the camera's thread held the lock:
        # waiting for it there could deadlock (that thread may be waiting for the table).
        self._backlog: deque[dict[str, Any]] = deque()
        self._doubt = False
        # After an undo from outside the tracker (dealer page, button) the card on the box may be
        # the one taken back (misread) or the one before (put back): the next reading is asked.
        self._recheck = False
        self._asked: tuple[int, str] | None = None     # (table index, card read) after an outage
        self._reask: tuple[int, str] | None = None
        state = table.state()
        # A bank of Baccarat Banque left open in the journal has no box to watch until the
        # dealer closes it and starts a faro deal.
        self._faro = state.get("game") == "faro"
        if self._faro and not state["ended"]:
            self._follow(state, force=True)
        self._unsubscribe = table.subscribe(self._on_table_event)

    def close(self) -> None:
        """Stop following the table (a table that outlives this camera keeps no bridge alive)."""
        self._unsubscribe()

    def feed(self, image: Any, frame: int) -> None:
        with self._lock:
            self._catch_up()
            if not self._faro:
                return
            if self._reask is not None:
                index, card = self._reask
                self._reask = None
                self._asked = (index, card)
                self._ask(index, (card,), None)
            events = self.tracker.update(image, frame)
            for event in events:
                self._tracked(event)
            self._catch_up()

    def lost(self, frame: int | None = None) -> None:
        with self._lock:
            self._catch_up()
            self.tracker.lost(frame)
            self._doubt = True

    def _tracked(self, event: Any) -> None:
        kind = type(event).__name__
        if kind == "BoxEmpty":
            return
        index = event.index
        if kind == "CardExposed" and self._doubt:
            self._doubt = self._recheck = False
            self._asked = (index, str(event.card))
            self._ask(index, (str(event.card),), None)
        elif kind == "CardExposed" and self._recheck:
            self._recheck = False
            self._ask(index, (str(event.card),), None)
        elif kind == "CardExposed":
            command: Command = CardSeen(str(event.card), index, min(1.0, float(event.confidence)), event.frame)
            try:
                self.table.handle(command)
            except RuleError as exc:
                log.warning("the table refuses the reading %s at card %d: %s", event.card, index + 1, exc)
                if index == self.table.state()["next_index"]:
                    self._ask(index, (), None)
            except FaroBoxError as exc:
                log.error("card %d (%s) could not be taken: %s", index + 1, event.card, exc)
        elif kind == "NeedsConfirmation":
            self._doubt = self._recheck = False
            snapshot = self._save_snapshot(index, event.snapshot)
            self._ask(index, tuple(str(c) for c in event.candidates), snapshot)
        elif kind == "CardReturned":
            if self.table.state()["next_index"] == index + 2:
                self._handle(UndoCard())

    def _ask(self, index: int, candidates: tuple[str, ...], snapshot: str | None) -> None:
        self._handle(CardUnread(index, candidates, snapshot))

    def _handle(self, command: Command) -> None:
        try:
            self.table.handle(command)
        except FaroBoxError as exc:
            log.warning("the table refuses %s: %s", command.TYPE, exc)

    def _save_snapshot(self, index: int, image: Any) -> str | None:
        if self.snapshot_dir is None or self.write_image is None or image is None:
            return None
        name = f"deal{self.table.state()['deal']}-card{index + 1}.png"
        try:
            self.snapshot_dir.mkdir(parents=True, exist_ok=True)
            self.write_image(self.snapshot_dir / name, image)
        except (OSError, FaroBoxError) as exc:
            log.warning("the snapshot of card %d could not be saved: %s", index + 1, exc)
            return None
        return f"/snapshots/{name}"

    def _on_table_event(self, event: dict[str, Any], state: dict[str, Any]) -> None:
        # Runs in whichever thread handled the command (web, buttons, camera), holding the
        # table's lock. The camera's thread may hold this lock while it waits for the table's:
        # then the event waits in the backlog for that thread, instead of deadlocking.
        if not self._lock.acquire(blocking=False):
            self._backlog.append(event)
            return
        try:
            self._catch_up()
            self._follow_event(event, state)
        finally:
            self._lock.release()

    def _catch_up(self) -> None:
        while self._backlog:
            self._follow_event(self._backlog.popleft(), self.table.state())

    def _follow_event(self, event: dict[str, Any], state: dict[str, Any]) -> None:
        kind = event.get("type")
        self._faro = state.get("game") == "faro"
        if not self._faro:
            return
        try:
            if kind == "start_deal":
                self.tracker.new_deal()
                self._asked = self._reask = None
                self._doubt = self._recheck = False
            elif kind == "card":
                self._dealt(event)
            elif kind == "undo":
                exposed = self.tracker.exposed
                if event["index"] < len(exposed):   # not when the tracker saw the card put back
                    self.tracker.resume(exposed[:event["index"]])
                    self.tracker.lost()             # look at the box afresh
                    self._recheck = True
            elif kind == "no_card":
                self._no_card(event["index"])
            if kind in ("card", "undo", "no_card"):
                self._follow(state)
        except FaroBoxError as exc:
            log.warning("the tracker does not follow the table's %s: %s", kind, exc)
            self._follow(state, force=True)

    def _dealt(self, event: dict[str, Any]) -> None:
        if event.get("how") != "confirmed":
            return
        index, card = event["index"], Card.parse(event["card"])
        exposed = self.tracker.exposed
        self._recheck = False   # the dealer named a card: where the deck stands is known again
        asked, self._asked = self._asked, None
        if asked is not None and asked[0] == index and asked[1] != event["card"] and index < len(exposed):
            # The card read after the outage comes later in the deck: the dealer's card left unseen.
            later = (Card.parse(asked[1]),) if index + 1 < DECK_SIZE else ()
            self.tracker.resume((*exposed[:index], card, *later))
            if later:
                self._reask = (index + 1, asked[1])
        elif index == len(exposed) - 1 and exposed[index] is None:
            self.tracker.confirm(index, card)   # releases the readings held for this answer

    def _no_card(self, index: int) -> None:
        """The dealer's answer to the question about card ``index``: no card left the box, the
        card before it still lies on top."""
        self._asked = None
        exposed = self.tracker.exposed
        if index == len(exposed) - 1 and exposed[index] is None and index > 0:
            self.tracker.confirm(index, exposed[index - 1])   # withdraws the tracker's question
        elif index < len(exposed):
            self.tracker.resume(exposed[:index])

    def _follow(self, state: dict[str, Any], *, force: bool = False) -> None:
        """Make the tracker's cards the table's, when they differ (or ``force``); cards the
        tracker read beyond the table's (a reading put to the dealer) are kept."""
        cards = [Card.parse(c) for c in state["exposed"]]
        mine = self.tracker.exposed
        if force or list(mine[:len(cards)]) != cards:
            self.tracker.resume([*cards, None] if state["pending"] is not None else cards)


def table_buttons(table: Table, settings: Any, act: Callable[[Any, dict[str, Any]], None]) -> Any:
    """The dealer's GPIO buttons on ``table``: ``act(action, state)`` does what a press means in
    the game at hand; a refusal is logged, a stuck button is a fault on the display until freed."""
    def pressed(action: ButtonAction) -> None:
        try:
            act(action, table.state())
        except FaroBoxError as exc:
            log.warning("button %s refused: %s", action.value, exc)

    def stuck(action: ButtonAction) -> None:
        table.report_fault(f"button {action.value}", "held down or stuck")

    def unstuck(action: ButtonAction) -> None:
        table.clear_fault(f"button {action.value}")

    return DealerButtons.from_config(settings, pressed, stuck, unstuck)
