"""The appliance's glue: camera frames through the tracker into the table, and systemd's notify.

``TrackerBridge`` turns tracker events into table commands and carries the dealer's answers
back to the tracker. ``SystemdNotifier`` speaks systemd's sd_notify datagram protocol (READY,
WATCHDOG, STOPPING) on ``$NOTIFY_SOCKET`` with the standard library alone.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from queue import SimpleQueue
from typing import Any

from faro_box.cards import DECK_SIZE, Card
from faro_box.devices.buttons import ButtonAction, DealerButtons
from faro_box.errors import FaroBoxError, RuleError
from faro_box.live.snapshots import save_snapshot
from faro_box.table.commands import CardSeen, CardUnread, Command, UndoCard
from faro_box.table.events import CardTaken, CardTakenBack, DealStarted, Event, How, NoCardTaken
from faro_box.table.table import Table
from faro_box.table.views import FaroView, View

log = logging.getLogger(__name__)


class TrackerBridge:
    """Feeds frames to ``tracker`` and its events to ``table``; thread-safe.

    The table decides which cards are out, and the tracker reads them from it
    (``Tracker.follow(table.cards_out)``): on start (a restart mid-deal replays the journal) the
    tracker resumes with the deal's cards, and a card the table took without the camera (entered
    by hand, the hock by elimination), an undo or the dealer's answer to a question is the
    tracker's too the next time it looks, so tracker index k is table index k, the next card
    expected is the table's, and a card already dealt is never read as new. A reading the rules
    refuse (a card already shown) becomes a question to the dealer, never a silent drop.

    What the bridge itself remembers is how to put readings to the dealer: after the camera was
    gone (``lost``) nobody knows how many cards left the box meanwhile, so the first card read
    afterwards is put to the dealer rather than taken; when the dealer names another card there,
    the card read lies further on (it left the box unseen) and is put to him again for the next
    card; after an undo from outside (dealer page, button) the next reading is put to him too.
    The table's events reach it through a queue that the camera's thread empties, so a command
    from another thread never waits for the camera.
    """

    def __init__(self, table: Table, tracker: Any, *, snapshot_dir: Path | None = None,
                 write_image: Callable[[Path, Any], None] | None = None) -> None:
        self.table, self.tracker = table, tracker
        self.snapshot_dir, self.write_image = snapshot_dir, write_image
        self._lock = threading.Lock()
        self._heard: SimpleQueue[tuple[Event, bool, bool]] = SimpleQueue()
        self._camera_thread: int | None = None  # the thread in feed or lost: its commands are ours
        self._doubt = False
        self._recheck = False
        self._asked: tuple[int, str] | None = None     # (table index, card read) after an outage
        self._reask: tuple[int, str] | None = None
        # A bank of Baccarat Banque left open in the journal has no box to watch until the
        # dealer closes it and starts a faro deal.
        self._faro = isinstance(table.view(), FaroView)
        tracker.follow(table.cards_out)
        self._unsubscribe = table.subscribe(self._on_table_event)

    def close(self) -> None:
        """Stop following the table (a table that outlives this camera keeps no bridge alive)."""
        self._unsubscribe()
        self.tracker.follow(None)

    def feed(self, image: Any, frame: int) -> None:
        with self._lock:
            self._camera_thread = threading.get_ident()
            try:
                self._catch_up()
                if not self._faro:
                    return
                if self._reask is not None:
                    index, card = self._reask
                    self._reask = None
                    self._asked = (index, card)
                    self._ask(index, (Card.parse(card),), None)
                for event in self.tracker.update(image, frame):
                    self._tracked(event)
                self._catch_up()
            finally:
                self._camera_thread = None

    def finish(self) -> None:
        """The camera's recording ended: what the tracker left open reaches the table (the last
        card, under the dealer's thumb, is asked about)."""
        with self._lock:
            self._catch_up()
            if self._faro:
                for event in self.tracker.finish():
                    self._tracked(event)

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
            self._ask(index, (event.card,), None)
        elif kind == "CardExposed" and self._recheck:
            self._recheck = False
            self._ask(index, (event.card,), None)
        elif kind == "CardExposed":
            command: Command = CardSeen(event.card, index, min(1.0, float(event.confidence)), event.frame)
            try:
                self.table.handle(command)
            except RuleError as exc:
                log.warning("the table refuses the reading %s at card %d: %s", event.card, index + 1, exc)
                if index == self._next_index():
                    self._ask(index, (), None)
            except FaroBoxError as exc:
                log.error("card %d (%s) could not be taken: %s", index + 1, event.card, exc)
        elif kind == "NeedsConfirmation":
            self._doubt = self._recheck = False
            snapshot = self._save_snapshot(index, event.snapshot)
            self._ask(index, tuple(event.candidates), snapshot)
        elif kind == "CardReturned":
            if self._next_index() == index + 2:
                self._handle(UndoCard())

    def _next_index(self) -> int:
        view = self.table.view()
        return view.next_index if isinstance(view, FaroView) else 0

    def _ask(self, index: int, candidates: tuple[Card, ...], snapshot: str | None) -> None:
        self._handle(CardUnread(index, candidates, snapshot))

    def _handle(self, command: Command) -> None:
        try:
            self.table.handle(command)
        except FaroBoxError as exc:
            log.warning("the table refuses %s: %s", command.TYPE, exc)

    def _save_snapshot(self, index: int, image: Any) -> str | None:
        name = f"deal{self.table.view().deal}-card{index + 1}.png"
        return save_snapshot(self.snapshot_dir, self.write_image, name, image, f"card {index + 1}")

    def _on_table_event(self, event: Event, view: View) -> None:
        # Runs in whichever thread handled the command, holding the table's lock: noted only.
        self._heard.put((event, isinstance(view, FaroView), threading.get_ident() == self._camera_thread))

    def _catch_up(self) -> None:
        while not self._heard.empty():
            event, faro, ours = self._heard.get()
            self._faro = faro
            if faro:
                self._follow_event(event, ours)

    def _follow_event(self, event: Event, ours: bool) -> None:
        if isinstance(event, DealStarted):
            self.tracker.new_deal()
            self._asked = self._reask = None
            self._doubt = self._recheck = False
        elif isinstance(event, CardTaken) and event.how is How.CONFIRMED:
            self._confirmed(event.index, event.card)
        elif isinstance(event, CardTakenBack) and not ours:
            # The card on the box may be the one taken back (misread) or the one before (put back).
            self.tracker.lost()             # look at the box afresh
            self._recheck = True
        elif isinstance(event, NoCardTaken):
            self._asked = None

    def _confirmed(self, index: int, card: Card) -> None:
        """The dealer named card ``index``: where the deck stands is known again."""
        self._recheck = False
        asked, self._asked = self._asked, None
        if asked is None or asked[0] != index or asked[1] == str(card):
            return
        # The card read after the outage comes later in the deck: the dealer's card left unseen.
        if index + 1 < DECK_SIZE:
            cards = self.tracker.exposed[:index]
            try:
                self.tracker.resume((*cards, card, Card.parse(asked[1])))
            except FaroBoxError as exc:
                log.warning("the tracker cannot look for %s after card %d: %s", asked[1], index + 1, exc)
                return
            self._reask = (index + 1, asked[1])


def table_buttons(table: Table, settings: Any, act: Callable[[Any, dict[str, Any]], None], *,
                  pin_factory: Any = None) -> Any:
    """The dealer's GPIO buttons on ``table``: ``act(action, state)`` does what a press means in
    the game at hand; a refusal is logged, a stuck button is a fault on the display until freed.
    ``pin_factory``: gpiozero's, for the buttons (its default when None)."""
    def pressed(action: ButtonAction) -> None:
        try:
            act(action, table.state())
        except FaroBoxError as exc:
            log.warning("button %s refused: %s", action.value, exc)

    def stuck(action: ButtonAction) -> None:
        table.report_fault(f"button {action.value}", "held down or stuck")

    def unstuck(action: ButtonAction) -> None:
        table.clear_fault(f"button {action.value}")

    return DealerButtons.from_config(settings, pressed, stuck, unstuck, pin_factory=pin_factory)
