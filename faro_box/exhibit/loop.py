"""The exhibition loop: deal after deal through the whole box, unattended from opening to closing.

Each deal goes through the very pipeline of ``faro-box demo`` (``demo.Demo``): the simulated
box films the deal's cards, the real reader and tracker read the frames, the table journals and
applies them, the case-keeper and the displays follow. Between deals the screen shows the
attract screen. What keeps a day-long run flat and alive:

- the table is renewed with a fresh journal every ``keep_deals`` deals (``TableHub``); with a
  journal file the previous one is kept as ``<file>.1``, so the disk holds at most two;
- each deal's box, tracker and demo are dropped after it (the demo stops listening);
- after each deal its cyclic garbage is collected and the C heap's free pages go back to the
  system (``release_memory``): a deal's
  frames (0.9 MB each) are drawn in a painter thread and freed in the loop's, which leaves
  glibc's arenas holding freed pages that its own trimming seldom returns, so the resident size
  crept up deal after deal with no Python object kept (the soak measured +36 MB in 24 deals);
- every wait goes through ``Pacer``, which answers a stop at once and pings the systemd
  watchdog, so a stalled loop is restarted by systemd rather than left frozen on screen.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import io
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faro_box.demo.faro import Demo
from faro_box.errors import FaroBoxError, RuleError
from faro_box.exhibit.show import Show
from faro_box.exhibit.sources import ExhibitDeal
from faro_box.live.sd_notify import sd_notify
from faro_box.table.commands import EndDeal, Misdeal
from faro_box.table.events import Event
from faro_box.table.journal import MEMORY, Journal, retire
from faro_box.table.table import Listener, Table
from faro_box.table.views import View
from faro_box.vision.reader import Reader
from faro_box.vision.sim.simbox import FPS, SimBox
from faro_box.vision.track import Tracker

log = logging.getLogger("faro_box.exhibit")


def trim_heap() -> bool:
    """Give the C heap's free pages back to the system (glibc ``malloc_trim``); False elsewhere."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):   # not glibc (musl, macOS): nothing to trim
        return False
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return bool(trim(0))


def release_memory() -> None:
    """Between deals: the deal's cyclic garbage collected now, then the freed heap trimmed."""
    gc.collect()
    trim_heap()


class Stopped(Exception):
    """The exhibition was asked to stop (SIGTERM, Ctrl-C): unwinds out of the deal."""


class Pacer:
    """The clock and the sleep the demo runs on: holds for the panels, stops, watchdog pings.

    ``clock()`` runs behind the real clock by the time held, so the demo's frame schedule waits
    that much longer. The time between two frames, less the sleeps, is the frame's work.
    """

    def __init__(self, stop: threading.Event, *, clock: Callable[[], float] = time.monotonic,
                 notify: Callable[[str], object] = sd_notify, ping_s: float = 5.0) -> None:
        self.stop = stop
        self._clock = clock
        self._notify = notify
        self._ping_s = ping_s
        self._last_ping = -1e9
        self.held = 0.0
        self._last: float | None = None
        self._slept = 0.0
        self._between = False
        self.frame_times: list[float] = []
        self.gap_before: float | None = None

    def begin_deal(self) -> None:
        """A new deal's frames; the time since the last deal's last frame is ``gap_before``."""
        self.frame_times = []
        self.gap_before = None
        self._between = self._last is not None

    def clock(self) -> float:
        if self.stop.is_set():
            raise Stopped()
        now = self._clock()
        if self._last is not None:
            work = max(0.0, now - self._last - self._slept)
            if self._between:
                self.gap_before, self._between = work, False
            else:
                self.frame_times.append(work)
        self._last, self._slept = now, 0.0
        self.ping(now)
        return now - self.held

    def sleep(self, seconds: float) -> None:
        start = self._clock()
        end = start + max(0.0, seconds)
        while True:
            now = self._clock()
            left = end - now
            if left <= 0:
                break
            if self.stop.wait(min(left, self._ping_s)):
                raise Stopped()
            self.ping(self._clock())
        if self.stop.is_set():
            raise Stopped()
        self._slept += self._clock() - start

    def hold(self, seconds: float) -> None:
        self.held += seconds

    def ping(self, now: float) -> None:
        if now - self._last_ping >= self._ping_s:
            self._last_ping = now
            self._notify("WATCHDOG=1")


class TableHub:
    """The exhibition's table, renewed with a fresh journal every ``keep_deals`` deals.

    The web display, the panels and the visitors hold the hub, not a table: ``state``,
    ``subscribe`` and ``handle`` go to the current table, and listeners follow it when it is
    renewed.
    """

    def __init__(self, journal_path: str | None, case_keeper: Any = None, *, keep_deals: int = 20) -> None:
        if keep_deals < 1:
            raise FaroBoxError(f"keep_deals must be at least 1, not {keep_deals!r}")
        self.path = journal_path
        self.keep_deals = keep_deals
        self._case_keeper = case_keeper
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.renewals = 0
        self.table = self._open()
        self._unsubscribe = self.table.subscribe(self._forward)

    def _open(self) -> Table:
        journal = Journal(self.path) if self.path else Journal(MEMORY)
        return Table(journal, self._case_keeper)

    def _forward(self, event: Event, view: View) -> None:
        for listener in list(self._listeners):
            try:
                listener(event, view)
            except Exception:  # one broken view must not stop the deal or the others
                log.exception("an exhibition listener failed on %s", event.TYPE)

    @property
    def journal(self) -> Journal:
        return self.table.journal

    def view(self) -> View:
        return self.table.view()

    def state(self) -> dict[str, Any]:
        return self.table.state()

    def dealer_state(self) -> dict[str, Any]:
        return self.table.dealer_state()

    def handle(self, command: Any) -> Any:
        return self.table.handle(command)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)
        held = [listener]

        def unsubscribe() -> None:
            with self._lock:   # and let go of it: no cycle through a listener keeping its unsubscribe
                while held:
                    gone = held.pop()
                    if gone in self._listeners:
                        self._listeners.remove(gone)
        return unsubscribe

    def renew_if_full(self) -> bool:
        """A fresh journal and table once the journal holds ``keep_deals`` deals."""
        with self._lock:
            if len(self.table.journal.deals()) < self.keep_deals:
                return False
            old = self.table
            self._unsubscribe()
            old.journal.close()
            if self.path:
                file = Path(self.path)
                retire(file, file.with_name(file.name + ".1"))
            self.table = self._open()
            self._unsubscribe = self.table.subscribe(self._forward)
            self.renewals += 1
            log.info("the exhibition journal was renewed after %d deals", self.keep_deals)
            return True

    def close(self) -> None:
        with self._lock:
            self._unsubscribe()
            self.table.journal.close()


class _LogLines(io.TextIOBase):
    """The demo prints what happens; the exhibition logs it, a line at a time."""

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger
        self._buffer = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._buffer += text
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            if line.strip():
                self._logger.info("%s", line)
        return len(text)


@dataclass(frozen=True)
class DealReport:
    loop: int                     # 1, 2, ... in this run
    name: str
    seconds: float
    frames: int
    frame_times: tuple[float, ...]  # seconds of work per frame (reading, tracking, table, displays)
    read: int
    confirmed: int
    wrong: tuple[int, ...]        # card indices the table holds differently from the box
    settled_ok: bool | None       # settle_script agrees with the table's balances (None: unfinished)
    balances: dict[str, Any]
    error: str | None = None      # the deal broke off (it was closed as a misdeal; the loop went on)
    gap_before: float | None = None  # seconds of work from the last deal's last frame to this one's first


class Exhibition:
    def __init__(self, deals: Sequence[ExhibitDeal], hub: TableHub, show: Show, *, pace: float = 3.0,
                 fast: bool = False, loops: int = 0, attract_s: float = 20.0, reader: Any = None,
                 seed: int = 1, stop: threading.Event | None = None,
                 on_deal: Callable[[DealReport], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, notify: Callable[[str], object] = sd_notify,
                 release_memory: Callable[[], object] = release_memory) -> None:
        if not deals:
            raise FaroBoxError("an exhibition needs at least one deal")
        if pace < 0 or loops < 0 or attract_s < 0:
            raise FaroBoxError(f"pace, loops and attract must be >= 0, not {pace!r}, {loops!r}, {attract_s!r}")
        self.deals = list(deals)
        self.hub, self.show = hub, show
        self.pace, self.fast, self.loops, self.attract_s = pace, fast, loops, attract_s
        self.seed = seed
        self.stop_event = stop or threading.Event()
        self.pacer = Pacer(self.stop_event, clock=clock, notify=notify)
        self.on_deal = on_deal
        self._clock = clock
        self._notify = notify
        self._release_memory = release_memory
        self._out = _LogLines(log)
        if reader is None:
            reader = Reader()
        self.reader = reader
        show.on_hold = None if fast else self.pacer.hold
        self.dealt = 0

    def stop(self) -> None:
        self.stop_event.set()

    def run(self) -> int:
        """Deal until ``loops`` deals are done (0: until stopped); returns the deals dealt."""
        self._notify("READY=1")
        self._close_open_deal()
        try:
            while not self.loops or self.dealt < self.loops:
                deal = self.deals[self.dealt % len(self.deals)]
                self.show.deal_starts(deal, self.dealt + 1)
                report = self._deal(deal)
                self.dealt += 1
                self._release_memory()
                if self.on_deal is not None:
                    self.on_deal(report)
                self.hub.renew_if_full()
                if self.loops and self.dealt >= self.loops:
                    break
                wait = 0.0 if self.fast else self.attract_s
                self.show.attract(self.deals[self.dealt % len(self.deals)], wait)
                self.pacer.sleep(wait)
        except Stopped:
            log.info("the exhibition stops after %d deal(s)", self.dealt)
        finally:
            self._notify("STOPPING=1")
        return self.dealt

    def _deal(self, deal: ExhibitDeal) -> DealReport:
        started = self._clock()
        box = SimBox(deal.deck, seed=self.seed + self.dealt, cards=deal.cards,
                     still=(3, 6) if self.fast else (8, 24))
        tracker = Tracker(self.reader, window=box.window.tolist())
        # --pace is seconds per card: the box's frames are spread over the deal's cards.
        fps = len(box) / (deal.cards * self.pace) if self.pace > 0 else FPS
        table = self.hub.table
        log.info("deal %d: %s (%d cards)", self.dealt + 1, deal.name, deal.cards)
        table.handle(deal.start)   # the demo picks up a started deal and plays its bets from card 0
        demo = Demo(table, box, tracker, realtime=not self.fast, fps=fps, out=self._out,
                    clock=self.pacer.clock, sleep=self.pacer.sleep, start=deal.start, plan=deal.plan)
        self.pacer.begin_deal()
        try:
            result = demo.run()
        except FaroBoxError as exc:
            # An unattended exhibition goes on: this deal is closed, the next one starts.
            log.error("deal %d (%s) broke off: %s", self.dealt + 1, deal.name, exc)
            return DealReport(self.dealt + 1, deal.name, self._clock() - started, len(box),
                              tuple(self.pacer.frame_times), 0, 0, (), None,
                              dict(table.state()["balances"]), str(exc), self.pacer.gap_before)
        finally:
            demo.close()
            self._close_open_deal()
        if result.wrong:
            log.error("deal %s: the table holds other cards than the box dealt at %s", deal.name, result.wrong[:10])
        settled_ok = None if result.settled is None else result.settled == result.balances
        if settled_ok is False:
            log.error("deal %s: settle gives %s, the table %s", deal.name, result.settled, result.balances)
        log.info("deal %d (%s) over: %s; read by the camera %d, named by the dealer %d; settle agrees: %s",
                 self.dealt + 1, deal.name, result.balances, result.read, result.confirmed, settled_ok)
        times = tuple(self.pacer.frame_times)
        return DealReport(self.dealt + 1, deal.name, self._clock() - started, len(box), times, result.read,
                          result.confirmed, tuple(result.wrong), settled_ok, result.balances,
                          gap_before=self.pacer.gap_before)

    def _close_open_deal(self) -> None:
        """A deal left open (a misdeal's leftovers, a power cut) is closed before the next one."""
        table = self.hub.table
        state = table.state()
        if state["deal"] is None or state["ended"]:
            return
        try:
            table.handle(EndDeal() if state["finished"] or state["next_turn"] is None else Misdeal())
        except RuleError as exc:
            log.warning("the open deal %s could not be closed: %s", state["deal"], exc)
