"""The exhibition loop through the whole box (simulated box, real reader and tracker, table):
a recorded journal replays to the very same table events; a short soak renews the journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from faro_box.exhibit.loop import DealReport, Exhibition, Pacer, TableHub, trim_heap
from faro_box.exhibit.show import Show
from faro_box.exhibit.sources import bundled_script, deals_from_journal
from faro_box.exhibit.visitors import VisitorBook
from faro_box.rules.faro import settle_script
from faro_box.table.commands import PlaceBet, WithdrawBet
from faro_box.table.events import event_to_json
from faro_box.table.faro.scripts import script_steps
from faro_box.table.faro.state import TableState
from faro_box.table.journal import Journal
from faro_box.table.table import Table

# How a card got in (read, or named by the dealer after the reader abstained) is the reader's
# business, and a renewed exhibition journal numbers its deals afresh; every other field of
# every other event must be the journal's own.
_READER_ONLY = {"pending", "queued"}


def _canonical(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in ("seq", "how", "deal")} for e in events if e["type"] not in _READER_ONLY]


def _record(path: Path) -> None:
    """Two deals as a dealer would journal them: bets before the soda and after it, a bet taken down."""
    with Journal(path) as journal:
        table = Table(journal)
        for name, early in (("early_split", None), ("triple", PlaceBet("bob", {"id": "b0", "kind": "odd", "stake": 3}))):
            steps = [s.command for s in script_steps(bundled_script(name))[0]]
            table.handle(steps[0])
            if early is not None:
                table.handle(early)   # before the soda: a moment a script's "at" cannot say
            for command in steps[1:]:
                table.handle(command)
                if early is not None and table.state()["next_index"] == 11 and not isinstance(command, PlaceBet):
                    table.handle(WithdrawBet("bob", "b0"))
                    early = None


def _journal_events(path: Path) -> list[dict[str, Any]]:
    state = TableState()
    events: list[dict[str, Any]] = []
    with Journal(path, readonly=True) as journal:
        for entry in journal.entries():
            events += [event_to_json(e) for e in state.apply(entry.command)]
    return events


@pytest.mark.slow
def test_a_recorded_journal_replays_through_the_box_to_the_same_events(tmp_path: Path) -> None:
    recorded = tmp_path / "recorded.sqlite"
    _record(recorded)
    deals = deals_from_journal(recorded)
    assert [d.cards for d in deals] == [52, 52]
    assert deals[1].plan[0].cards == 0 and isinstance(deals[1].plan[0].command, PlaceBet)

    exhibit_journal = tmp_path / "exhibit.sqlite"
    hub = TableHub(str(exhibit_journal), keep_deals=1)
    seen: list[dict[str, Any]] = []
    hub.subscribe(lambda event, state: seen.append(event_to_json(event)))
    book = VisitorBook()
    book.attach(hub)
    show = Show(visitors=book)
    hub.subscribe(show.on_event)
    reports: list[DealReport] = []
    exhibition = Exhibition(deals, hub, show, fast=True, loops=2, on_deal=reports.append)
    assert exhibition.run() == 2
    hub.close()
    assert _canonical(seen) == _canonical(_journal_events(recorded))
    for report in reports:
        assert report.wrong == () and report.settled_ok is True
        assert report.read + report.confirmed >= 40   # the camera and the dealer, never the script, entered them
        assert len(report.frame_times) > 300
    # The soak's journal renewal: one deal per journal, the previous kept beside it (each with
    # its note), no more.
    assert exhibit_journal.exists() and (tmp_path / "exhibit.sqlite.1").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("exhibit")) == [
        "exhibit.sqlite", "exhibit.sqlite-head", "exhibit.sqlite.1", "exhibit.sqlite.1-head"]
    assert hub.renewals == 2
    with Journal(tmp_path / "exhibit.sqlite.1", readonly=True) as last:
        exported = TableState()
        for entry in last.entries():
            exported.apply(entry.command)
        assert exported.script()["deck"] == bundled_script("triple")["deck"]
        assert settle_script(exported.script())["balances"] == reports[1].balances
    # The panels followed the deals: the split of deal 1, the triple's call before its last turn.
    assert "split" in show.cued and "call" in show.cued and "case_keeper" in show.cued


def test_the_pacer_holds_the_schedule_stops_and_pings_the_watchdog() -> None:
    import threading

    now = [100.0]
    pings: list[str] = []
    stop = threading.Event()
    pacer = Pacer(stop, clock=lambda: now[0], notify=pings.append, ping_s=5.0)
    assert pacer.clock() == 100.0
    pacer.hold(8.0)
    now[0] += 0.5
    assert pacer.clock() == pytest.approx(92.5)   # the demo's schedule now waits 8 s longer
    assert pacer.frame_times == [0.5]
    assert pings == ["WATCHDOG=1"]
    now[0] += 6
    pacer.clock()
    assert pings == ["WATCHDOG=1", "WATCHDOG=1"]
    stop.set()
    with pytest.raises(Exception) as stopped:
        pacer.clock()
    assert type(stopped.value).__name__ == "Stopped"


def test_the_pacer_times_the_work_between_deals_apart_from_the_frames() -> None:
    import threading

    # Every reading of the clock, in order: three frames, the attract screen's 20 s sleep
    # (start, end, the time slept) after 0.5 s of work (the next box built), two frames.
    ticks = iter([0.0, 0.01, 0.02, 0.52, 20.52, 20.52, 20.52, 20.54])
    pacer = Pacer(threading.Event(), clock=lambda: next(ticks), notify=lambda _: None)
    pacer.begin_deal()
    for _ in range(3):
        pacer.clock()
    assert pacer.frame_times == pytest.approx([0.01, 0.01]) and pacer.gap_before is None
    pacer.sleep(20.0)
    pacer.begin_deal()
    pacer.clock()
    pacer.clock()
    assert pacer.gap_before == pytest.approx(0.5) and pacer.frame_times == pytest.approx([0.02])


class _Follower:
    """A listener that keeps its own unsubscribe, as the demo and the tracker bridge do."""

    def __init__(self, table: Any) -> None:
        self.heard: list[str] = []
        self._unsubscribe = table.subscribe(self.on_event)

    def on_event(self, event: Any, state: dict[str, Any]) -> None:
        self.heard.append(event.TYPE)

    def close(self) -> None:
        self._unsubscribe()


@pytest.mark.parametrize("kind", ["table", "hub"])
def test_a_listener_that_unsubscribed_is_freed_without_the_cycle_collector(kind: str) -> None:
    # Each exhibition deal's demo (box, tracker, frames: tens of MB) must go when the deal ends,
    # not at the collector's next full pass.
    import gc
    import weakref

    from faro_box.table.commands import StartDeal

    hub = TableHub(None)
    table: Any = hub if kind == "hub" else hub.table
    gc.disable()
    try:
        follower = _Follower(table)
        table.handle(StartDeal("foster", ("ann",), {}))
        assert follower.heard == ["start_deal"]
        gone = weakref.ref(follower)
        follower.close()
        del follower
        assert gone() is None
    finally:
        gc.enable()
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["7"], "stake": 1}))  # nobody hears it


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_trim_heap_gives_freed_heap_pages_back_to_the_system() -> None:
    if not Path("/proc/self/status").exists() or not trim_heap():
        pytest.skip("malloc_trim is glibc's (Linux)")
    # 40 MB of heap blocks (above Python's small-object allocator, below mmap's threshold)
    # freed under one block still standing at the top: glibc keeps the pages without a trim.
    blocks = [bytearray(2000) for _ in range(20000)]
    pin = bytearray(3000)
    before = _rss_mb()
    del blocks
    assert trim_heap()
    assert _rss_mb() < before - 20
    del pin


def test_bad_options_exit_1_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "exhibit", "--pace", "-1", "--no-web"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "-1" in done.stderr
    missing = subprocess.run([sys.executable, "-m", "faro_box.cli", "exhibit", str(tmp_path / "none.json"), "--no-web"],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode == 1 and "none.json" in missing.stderr and missing.stderr.count("\n") == 1


class _FailingReader:
    """The real reader, until one call fails the way a broken camera read would."""

    def __init__(self, fail_at: int) -> None:
        from faro_box.vision.reader import Reader

        self.reader = Reader()
        self.calls = 0
        self.fail_at = fail_at

    def read(self, image: Any, *, window: Any = None) -> Any:
        self.calls += 1
        if self.calls == self.fail_at:
            from faro_box.errors import VisionError

            raise VisionError("the reader failed (a test)")
        return self.reader.read(image, window=window)


@pytest.mark.slow
def test_a_deal_that_breaks_off_is_closed_and_the_loop_goes_on(tmp_path: Path) -> None:
    from faro_box.exhibit.sources import bundled_deals

    hub = TableHub(None)
    show = Show()
    hub.subscribe(show.on_event)
    reports: list[DealReport] = []
    deals = list(bundled_deals()[2:4])
    trims: list[int] = []
    exhibition = Exhibition(deals, hub, show, fast=True, loops=2, on_deal=reports.append,
                            reader=_FailingReader(fail_at=40), release_memory=lambda: trims.append(len(reports)))
    assert exhibition.run() == 2
    assert trims == [0, 1]   # after every deal (the broken one too), before its report
    assert reports[0].gap_before is None and reports[1].gap_before is not None
    assert reports[0].error == "the reader failed (a test)" and reports[0].settled_ok is None
    assert reports[1].error is None and reports[1].settled_ok is True and reports[1].wrong == ()
    history = hub.state()["history"]
    assert [h["outcome"] for h in history] == ["misdeal", "finished"]
