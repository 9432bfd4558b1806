"""Exhibition soak: many deals through the whole box as fast as the machine goes.

    python benchmarks/bench_exhibit_soak.py [--deals N] [--keep-deals K] [--no-trim]

A day at an exhibition (``--pace 3``: 52 cards x 3 s, the panels' holds, 20 s of attract screen)
is about 3.7 minutes a deal, so 10 hours are ~160 deals (the default). Here the same loop runs
``--fast`` (no pauses) through everything an exhibition runs: the simulated box, the real reader
and tracker, the table with a journal on disk renewed every K deals, the panels and odds, the web
display (uvicorn) polled by a kiosk, and phones placing pretend bets over HTTP. It prints a line
per deal (resident memory after it, its frames' median and longest work, the work between the
previous deal's last frame and its first, the log's size) and at the end: resident memory after the first deal, at
the end, the highest, and its slope over the last half of the run by least squares in MB per
hour of exhibition; the work per frame (median, p99, max) and the longest stall (the longest
time without a frame, within a deal or between two); the log and journal sizes on disk; any deal
whose cards or balances went wrong. The frame times go to a file as they come, so the benchmark's
own bookkeeping does not grow in memory. ``--no-trim`` skips what the exhibition does between
deals to give memory back (a full garbage collection, then glibc's ``malloc_trim``), to show
what it is for.
"""

from __future__ import annotations

import argparse
import array
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2

from faro_box.commands.exhibit import setup_logging
from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app, serve
from faro_box.exhibit.loop import DealReport, Exhibition, TableHub
from faro_box.exhibit.show import Show
from faro_box.exhibit.sources import bundled_deals
from faro_box.exhibit.visitors import VisitorBook, VisitorLimits
from faro_box.exhibit.web import mount_exhibit

DEAL_SECONDS_AT_PACE_3 = 52 * 3 + 6 * 8 + 20


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status (Linux only)")


def slope_per_hour(memory: list[float]) -> float:
    """Least-squares slope of RSS over the last half of the deals, in MB per hour at --pace 3."""
    half = memory[len(memory) // 2:]
    if len(half) < 2:
        return 0.0
    per_deal = statistics.linear_regression(range(len(half)), half).slope
    return per_deal * 3600 / DEAL_SECONDS_AT_PACE_3


def visitors(url: str, stop: threading.Event, placed: list[int]) -> None:
    """A few phones: join, choose a name, bet now and then (the rate limits answer 429 at times)."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    phones = []
    for n in range(4):
        client = httpx2.Client(base_url=url, timeout=10)
        csrf = client.post("/exhibit/api/join", json={}).json()["csrf"]
        client.post("/exhibit/api/name", json={"name": f"Phone {n}"}, headers={"x-csrf-token": csrf})
        phones.append((client, csrf))
    turn = 0
    while not stop.wait(0.4):
        client, csrf = phones[turn % len(phones)]
        answer = client.post("/exhibit/api/bet", json={"rank": ranks[turn % 13], "stake": 1 + turn % 5,
                                                       "copper": turn % 3 == 0}, headers={"x-csrf-token": csrf})
        placed[0 if answer.status_code == 200 else 1] += 1
        turn += 1
    for client, _ in phones:
        client.close()


def kiosk(url: str, stop: threading.Event, polls: list[int]) -> None:
    with httpx2.Client(base_url=url, timeout=10) as client:
        while not stop.wait(0.5):
            client.get("/exhibit/api/show").raise_for_status()
            client.get("/api/state").raise_for_status()
            polls[0] += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=160, help="deals to deal (160 = ten hours at --pace 3)")
    parser.add_argument("--keep-deals", type=int, default=5, help="deals per journal before it is renewed")
    parser.add_argument("--no-trim", action="store_true", help="no garbage collection and heap trim between deals")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="faro-box-soak-") as folder:
        work = Path(folder)
        handler = setup_logging(str(work / "exhibit.log"))
        logging.getLogger("uvicorn").setLevel(logging.WARNING)
        hub = TableHub(str(work / "exhibit.sqlite"), keep_deals=args.keep_deals)
        # The phones share one address here: let them all in.
        book = VisitorBook(VisitorLimits(bet_burst=10, global_bet_burst=50, join_burst=10))
        book.attach(hub)
        show = Show(visitors=book)
        hub.subscribe(show.on_event)
        app = create_app(hub, pin_hash=hash_pin("13579", n=2**10))
        mount_exhibit(app, show, book)
        server = serve(app, port=0, background=True)
        assert server is not None

        times_file = (work / "frame_times.f64").open("wb")
        memory: list[float] = []
        gaps: list[float] = []
        problems: list[str] = []
        started = time.monotonic()

        def on_deal(report: DealReport) -> None:
            array.array("d", report.frame_times).tofile(times_file)
            memory.append(rss_mb())
            if report.gap_before is not None:
                gaps.append(report.gap_before)
            if report.wrong or report.settled_ok is not True:
                problems.append(f"deal {report.loop} ({report.name}): wrong cards {report.wrong}, "
                                f"settle agrees {report.settled_ok}, broke off: {report.error}")
            log_bytes = sum(p.stat().st_size for p in work.glob("exhibit.log*"))
            ms = sorted(report.frame_times) or [0.0]
            gap = "" if report.gap_before is None else f"{report.gap_before * 1000:6.0f} ms"
            print(f"deal {report.loop:4d} {report.name:18s} {report.seconds:6.1f} s  rss {memory[-1]:7.1f} MB  "
                  f"frames {len(ms):5d} median {statistics.median(ms) * 1000:5.1f} ms max {ms[-1] * 1000:6.1f} ms  "
                  f"before it {gap:>9s}  log {log_bytes / 1e6:5.2f} MB", flush=True)
            if report.loop % 16 == 0:   # every hour of exhibition, in case the run is cut short
                half = len(memory) // 2
                print(f"  after {report.loop} deals: rss max {max(memory):.1f} MB, last half "
                      f"{min(memory[half:]):.1f}..{max(memory[half:]):.1f} MB, slope "
                      f"{slope_per_hour(memory):+.2f} MB/h, longest gap between deals {max(gaps) * 1000:.0f} ms",
                      flush=True)

        stop = threading.Event()
        placed = [0, 0]
        polls = [0]
        threads = [threading.Thread(target=visitors, args=(server.url, stop, placed), daemon=True),
                   threading.Thread(target=kiosk, args=(server.url, stop, polls), daemon=True)]
        for thread in threads:
            thread.start()
        exhibition = Exhibition(bundled_deals(), hub, show, fast=True, loops=args.deals, on_deal=on_deal,
                                **({"release_memory": lambda: None} if args.no_trim else {}))
        dealt = exhibition.run()
        stop.set()
        for thread in threads:
            thread.join(5)
        elapsed = time.monotonic() - started
        server.stop()
        hub.close()
        logging.getLogger().removeHandler(handler)
        handler.close()
        times_file.close()
        frame_times = array.array("d")
        frame_times.frombytes((work / "frame_times.f64").read_bytes())
        log_bytes = sum(p.stat().st_size for p in work.glob("exhibit.log*"))
        journal_bytes = sum(p.stat().st_size for p in work.glob("exhibit.sqlite*"))

    ms = sorted(t * 1000 for t in frame_times)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    print()
    print(f"deals dealt: {dealt} in {elapsed / 60:.1f} min (an exhibition at --pace 3: "
          f"{dealt * DEAL_SECONDS_AT_PACE_3 / 3600:.1f} h)")
    half = len(memory) // 2
    print(f"memory (RSS): after deal 1 {memory[0]:.1f} MB, end {memory[-1]:.1f} MB, max {max(memory):.1f} MB; "
          f"last half (deals {half + 1}-{len(memory)}): {min(memory[half:]):.1f}..{max(memory[half:]):.1f} MB, "
          f"slope {slope_per_hour(memory):+.2f} MB per hour of exhibition"
          f"{' (C heap not trimmed)' if args.no_trim else ''}")
    print(f"frame work: {len(ms)} frames, median {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms")
    if gaps:
        print(f"between deals (box built, journal renewed, heap trimmed): median "
              f"{statistics.median(gaps) * 1000:.0f} ms, max {max(gaps) * 1000:.0f} ms")
    print(f"longest stall (time without a frame): {max([ms[-1] / 1000, *gaps]):.2f} s")
    print(f"log on disk: {log_bytes / 1e6:.2f} MB (rotated at 1 MB x 4 files); journals on disk: "
          f"{journal_bytes / 1e6:.2f} MB (renewed every {args.keep_deals} deals)")
    print(f"visitors' pretend bets: {placed[0]} placed, {placed[1]} refused; kiosk polls: {polls[0]}")
    print(f"deals with wrong cards or balances: {len(problems)}")
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
