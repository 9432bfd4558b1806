"""The live table: commands in (tracker, dealer page, buttons), state out (case-keeper, displays).

``Table(journal, case_keeper)`` first replays the journal, so after a power cut it stands
exactly where it stopped, bead for bead. Then ``handle(command)``:

1. plays the command on a copy of the state; a refusal (RuleError, ProfileError...) is raised
   and nothing changes; a refused command is NOT journaled, so replay never meets one;
2. commits the command to the journal (on disk when this returns);
3. only then keeps the new state, shows it to the case-keeper, and calls every listener
   ``listener(event, view)`` once per event the command produced (``view``: table/views.py).

Events are frozen values (table/events.py), each stamped with ``seq``, the command's journal
sequence number; ``event_to_json`` gives the JSON the event stream carries. ``fault`` and
``fault_cleared`` are not journaled: a device failing is reported once, and again only after it
recovered.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from faro_box.cards import Card
from faro_box.errors import FaroBoxError, JournalError
from faro_box.rules.faro.beads import BeadGeometry, CaseKeeperState, case_keeper
from faro_box.table.commands import Command
from faro_box.table.events import Event, Fault, FaultCleared
from faro_box.table.game_state import GameState
from faro_box.table.journal import Journal
from faro_box.table.views import View, view_to_json

log = logging.getLogger(__name__)

# Hears each event with the view after the command that raised it (typed; view_to_json at the edge).
Listener = Callable[[Event, View], None]


class CaseKeeperDevice(Protocol):
    """What the table needs of a case-keeper (faro_box.devices.case_keeper.CaseKeeper is one)."""

    def show(self, state: CaseKeeperState) -> None: ...

    @property
    def fault(self) -> str | None: ...     # what is wrong between states, None when nothing is

    def watch(self, callback: Callable[[str | None], None]) -> None: ...   # hears each fault change


@dataclass(frozen=True)
class Outcome:
    seq: int
    events: tuple[Event, ...]
    state: dict[str, Any]


@dataclass(frozen=True)
class Replay:
    """A script played into a table (table/games.py ``replay_script``)."""

    outcomes: tuple[Outcome, ...]       # the commands this run applied
    skipped: int                        # commands found already journaled (a resumed replay)
    rejected: tuple[dict[str, Any], ...]  # what settle lists as refused: {"action"|"coup", ..., "error"}


class Table:
    def __init__(self, journal: Journal, case_keeper: CaseKeeperDevice | None = None, *,
                 geometry: BeadGeometry | None = None) -> None:
        self._journal = journal
        self._case_keeper = case_keeper
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._faults: dict[str, str] = {}
        self._fault_details: dict[str, str] = {}  # for the dealer's eyes only (a face-down card)
        self._state = GameState(geometry)  # faro deals and Baccarat Banque banks, one journal
        for entry in journal.entries():
            try:
                self._state.apply(entry.command)
            except FaroBoxError as exc:
                raise JournalError(f"the journal {journal.path!r} cannot be replayed: entry {entry.seq} "
                                   f"({entry.command.TYPE}) is refused by this version ({exc})") from None
        self._seq = journal.seq
        # A device with its own link (the servo case-keeper) tells of faults between commands.
        if case_keeper is not None:
            case_keeper.watch(self._case_keeper_status)
        self._show()

    @property
    def journal(self) -> Journal:
        return self._journal

    @property
    def geometry(self) -> BeadGeometry:
        return self._state.geometry

    # ----- commands ----------------------------------------------------------------------
    def handle(self, command: Command) -> Outcome:
        """Journal, then apply, one command; a refusal raises and changes nothing."""
        with self._lock:
            fork = self._state.fork()
            events = fork.apply(command)
            try:
                seq = self._journal.append(command)
            except JournalError as exc:
                # Disk full or read-only: nothing more is accepted, and the dealer is told at once.
                self.report_fault("journal", str(exc))
                raise
            self._state, self._seq = fork, seq
            self.clear_fault("journal")
            stamped = [dataclasses.replace(event, seq=seq) for event in events]
            self._show()
            view = self.view()
            self._notify(stamped, view)
            return Outcome(seq, tuple(stamped), view_to_json(view))

    def view(self) -> View:
        """What the table shows now (the game at hand, its journal's last seq, the device faults)."""
        with self._lock:
            faults = tuple({"device": d, "message": m} for d, m in self._faults.items())
            return dataclasses.replace(self._state.view(), seq=self._seq, faults=faults)

    def state(self) -> dict[str, Any]:
        """The view as JSON (the /api/state document): a fresh dict the caller may keep."""
        return view_to_json(self.view())

    def dealer_state(self) -> dict[str, Any]:
        """The state as the dealer's authenticated page sees it: the public state, plus what no
        visitor may see until the coup ends (the candidates of a face-down card, the cards named in
        a fault's ``detail``)."""
        with self._lock:
            state = self.state()
            state.update(self._state.dealer_view())
            state["faults"] = [{**f, "detail": self._fault_details[f["device"]]} if f["device"] in self._fault_details
                               else f for f in state["faults"]]
            return state

    def cards_out(self) -> tuple[Card | None, ...]:
        """The faro deal's cards out of the box, in order, and a last None while the dealer is asked
        about the next one: what the camera's tracker follows (none while a bank plays)."""
        with self._lock:
            deal = self._state.deal
            if deal is None:
                return ()
            asking = self._state.faro.pending is not None
            return (*deal.exposed, None) if asking else tuple(deal.exposed)

    def case_keeper_state(self) -> CaseKeeperState:
        with self._lock:
            deal = self._state.deal
            return case_keeper(deal.exposed if deal is not None else (), self._state.geometry)

    def journaled_since(self, start: Command) -> list[Command]:
        """The commands of the journal's last game when it began with ``start`` (a replay of the
        same script that stopped resumes after them); else none."""
        journal = self._journal
        if journal.deal is None:
            return []
        last = [entry.command for entry in journal.entries(deal=journal.deal)]
        return last if last and last[0] == start else []

    def script(self) -> dict[str, Any]:
        """The current (or last) deal as a deal script (TableState.script)."""
        with self._lock:
            return self._state.script()

    # ----- listeners ---------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)
        held = [listener]

        def unsubscribe() -> None:
            # Let go of the listener too: an object keeping its own unsubscribe (a demo, a bridge)
            # is otherwise a reference cycle, freed only by the collector's next full pass; the
            # exhibition's finished deals (box, tracker, frames) piled up tens of MB that way.
            with self._lock:
                while held:
                    gone = held.pop()
                    if gone in self._listeners:
                        self._listeners.remove(gone)

        return unsubscribe

    def _notify(self, events: list[Event], view: View) -> None:
        for event in events:
            for listener in list(self._listeners):
                try:
                    listener(event, view)
                except Exception:  # a broken display must not stop the deal
                    log.exception("a table listener failed on %s", event.TYPE)

    # ----- devices -----------------------------------------------------------------------
    def _show(self) -> None:
        if self._case_keeper is None:
            return
        try:
            self._case_keeper.show(self.case_keeper_state())
        except Exception as exc:  # any device failure becomes a fault on the display
            self.report_fault("case_keeper", str(exc) or type(exc).__name__)
        else:
            self._case_keeper_status(self._case_keeper.fault)

    def _case_keeper_status(self, message: str | None) -> None:
        if message:
            self.report_fault("case_keeper", message)
        else:
            self.clear_fault("case_keeper")

    def report_fault(self, device: str, message: str, detail: str | None = None) -> None:
        """A device failed: listed in state()["faults"]; listeners hear of it once. ``message`` is
        public (pages, event stream, log); ``detail``, which may name a face-down card, goes to the
        dealer's view alone."""
        with self._lock:
            if self._faults.get(device) == message and self._fault_details.get(device) == detail:
                return
            self._faults[device] = message
            if detail is None:
                self._fault_details.pop(device, None)
            else:
                self._fault_details[device] = detail
            log.warning("%s: %s", device, message)
            self._notify([Fault(device, message, seq=self._seq)], self.view())

    def clear_fault(self, device: str) -> None:
        with self._lock:
            self._fault_details.pop(device, None)
            if self._faults.pop(device, None) is None:
                return
            log.info("%s works again", device)
            self._notify([FaultCleared(device, seq=self._seq)], self.view())
