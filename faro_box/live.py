"""The appliance's glue: camera frames through the tracker into the table, and systemd's notify.

``TrackerBridge`` turns tracker events into table commands and carries the dealer's answers
back to the tracker. ``SystemdNotifier`` speaks systemd's sd_notify datagram protocol (READY,
WATCHDOG, STOPPING) on ``$NOTIFY_SOCKET`` with the standard library alone.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from faro_box.cards import Card
from faro_box.errors import FaroBoxError, RuleError
from faro_box.events import CardSeen, CardUnread, Command, UndoCard
from faro_box.table import Table

log = logging.getLogger(__name__)


class TrackerBridge:
    """Feeds frames to ``tracker`` and its events to ``table``; thread-safe.

    The tracker counts cards from the start of its deal; the table may already stand further
    (a restart mid-deal): tracker index k is table index ``offset + k``. A reading the rules
    refuse (a card already shown) becomes a question to the dealer, never a silent drop.

    After the camera was gone (``lost``) nobody knows how many cards left the box meanwhile, so
    the first card read afterwards is put to the dealer rather than taken. When the dealer
    names another card there, the card read lies further on (it left the box unseen): the
    camera's count moves along (``offset``) and the reading is put to the dealer again for the
    next card. A card the dealer enters by hand that the camera never saw moves it along too.
    """

    def __init__(self, table: Table, tracker: Any, *, snapshot_dir: Path | None = None,
                 write_image: Callable[[Path, Any], None] | None = None) -> None:
        self.table, self.tracker = table, tracker
        self.snapshot_dir, self.write_image = snapshot_dir, write_image
        self._lock = threading.RLock()
        state = table.state()
        self.offset = state["next_index"] if not state["ended"] else 0
        self._doubt = False
        self._asked: tuple[int, str] | None = None     # (table index, card read) after an outage
        self._reask: tuple[int, str] | None = None
        table.subscribe(self._on_table_event)

    def feed(self, image: Any, frame: int) -> None:
        with self._lock:
            if self._reask is not None:
                index, card = self._reask
                self._reask = None
                self._asked = (index, card)
                self._ask(index, (card,), None)
            events = self.tracker.update(image, frame)
            for event in events:
                self._tracked(event)

    def lost(self, frame: int | None = None) -> None:
        with self._lock:
            self.tracker.lost(frame)
            self._doubt = True

    def _tracked(self, event: Any) -> None:
        kind = type(event).__name__
        if kind == "BoxEmpty":
            return
        index = self.offset + event.index
        if kind == "CardExposed" and self._doubt:
            self._doubt = False
            self._asked = (index, str(event.card))
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
            self._doubt = False
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
        # Runs in whichever thread handled the command (web, buttons, camera).
        kind = event.get("type")
        with self._lock:
            if kind == "start_deal":
                self.tracker.new_deal()
                self.offset = 0
            elif kind == "card" and event.get("how") == "confirmed":
                k = event["index"] - self.offset
                exposed = self.tracker.exposed
                asked, self._asked = self._asked, None
                if k >= len(exposed):
                    self.offset += 1   # entered by hand, never seen by the camera
                elif asked is not None and asked[0] == event["index"] and asked[1] != event["card"]:
                    self.offset += 1   # the card read after the outage comes later in the deck
                    self._reask = (event["index"] + 1, asked[1])
                elif 0 <= k and exposed[k] is None:
                    try:
                        self.tracker.confirm(k, Card.parse(event["card"]))
                    except FaroBoxError as exc:
                        log.warning("the tracker does not take the confirmed card: %s", exc)


class SystemdNotifier:
    """sd_notify(3) without libsystemd: one datagram per message to ``$NOTIFY_SOCKET``."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self._socket: socket.socket | None = None
        if self.address:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)

    @property
    def enabled(self) -> bool:
        return self._socket is not None

    def notify(self, message: str) -> bool:
        if self._socket is None:
            return False
        address = self.address
        if address.startswith("@"):     # an abstract socket: a leading NUL byte
            address = "\0" + address[1:]
        try:
            self._socket.sendto(message.encode(), address)
        except OSError as exc:
            log.warning("cannot notify systemd (%s): %s", self.address, exc)
            return False
        return True

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def watchdog_interval() -> float | None:
    """Half the watchdog period systemd asks for ($WATCHDOG_USEC), in seconds; None without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(int(usec) / 2e6, 0.05)
    except ValueError:
        return None
