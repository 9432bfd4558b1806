"""Card event to audience page update: p50 and p99, with 10 players and 10 bets each.

A real Table on a real SQLite journal (WAL, synchronous=FULL) in a temporary directory; the web
display on uvicorn (localhost). For each card the clock starts just before ``table.handle``
(journal commit, settlement, listeners) and stops when
  - sse:  a separate client process has received the server-sent event for that sequence number;
  - page: headless Chromium showing the audience page has drawn that state (the page's DOM is
          updated; "frame" adds the next animation frame, i.e. the paint).
Between turns each player's bets are topped up to 10, so ~100 bets stand at every card.

    python benchmarks/bench_latency.py [--deals 4] [--pace 0.05] [--no-browser]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from faro_box.cards import FULL_DECK
from faro_box.display.pin import hash_pin
from faro_box.display.web import WebLimits, create_app, serve
from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
from faro_box.table.journal import Journal
from faro_box.table.table import Table

PLAYERS = tuple(f"p{i}" for i in range(10))
BETS_EACH = 10
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


def sse_client(url: str, out: mp.Queue, ready: mp.Event) -> None:  # type: ignore[type-arg]
    """Runs in its own process: (seq, time.monotonic()) for every message received."""
    import httpx2

    with httpx2.Client(timeout=None) as http, http.stream("GET", url + "/api/events") as stream:
        ready.set()
        for line in stream.iter_lines():
            if line.startswith("data: "):
                now = time.monotonic()
                seq = json.loads(line[6:])["seq"]
                out.put((seq, now))


def top_up(table: Table, counter: list[int]) -> None:
    state = table.state()
    live = [r for r in RANKS if state["case"][r] > 0]
    have: dict[str, set[str]] = {p: set() for p in PLAYERS}
    for bet in state["open_bets"]:
        have[bet["player"]].add(bet["ranks"][0])
    for i, player in enumerate(PLAYERS):
        free = [r for r in live if r not in have[player]]
        for rank in free[: BETS_EACH - len(have[player])]:
            counter[0] += 1
            spec = {"id": f"b{counter[0]}", "kind": "rank", "ranks": [rank], "stake": 1 + counter[0] % 5,
                    "copper": (counter[0] + i) % 3 == 0}
            table.handle(PlaceBet(player, spec))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(name: str, values: list[float]) -> str:
    return (f"{name:>14}: n={len(values):4d}  p50={statistics.median(values):7.2f} ms  "
            f"p99={percentile(values, 0.99):7.2f} ms  max={max(values):7.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between cards (a dealer needs ~1 s)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    load = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="faro-bench-"))
    journal = Journal(tmp / "journal.sqlite")
    table = Table(journal)
    app = create_app(table, pin_hash=hash_pin("2468", n=2**10), limits=WebLimits(max_open_bets=1000))
    server = serve(app, port=0, background=True)
    assert server is not None
    ctx = mp.get_context("spawn")
    received: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    ready = ctx.Event()
    client = ctx.Process(target=sse_client, args=(server.url, received, ready), daemon=True)
    client.start()
    ready.wait(30)

    browser = page = playwright = None
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not args.no_browser and chromium:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(server.url + "/")
        page.wait_for_selector("#layout .lcard")
        # Record, for every state drawn, the wall time of the DOM update and of the next frame.
        page.evaluate("""() => {
            window.__lat = [];
            new MutationObserver(() => {
              const seq = Number(document.body.dataset.seq), dom = performance.timeOrigin + performance.now();
              const render = window.faroRenderMs;
              requestAnimationFrame(() => window.__lat.push([seq, dom, performance.timeOrigin + performance.now(), render]));
            }).observe(document.body, {attributes: true, attributeFilter: ["data-seq"]});
        }""")

    started_mono: dict[int, float] = {}
    started_wall: dict[int, float] = {}
    open_bets: list[int] = []
    handle_ms: list[float] = []
    counter = [0]
    for _ in range(args.deals):
        table.handle(StartDeal("foster", PLAYERS, {}))
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        top_up(table, counter)
        for index, card in enumerate(deck[:51]):  # the hock follows by elimination
            if index % 2 == 1:
                top_up(table, counter)
            open_bets.append(len(table.state()["open_bets"]))
            wall, mono = time.time(), time.monotonic()
            outcome = table.handle(CardSeen(str(card), index, 0.99, None))
            handle_ms.append((time.monotonic() - mono) * 1000)
            started_mono[outcome.seq], started_wall[outcome.seq] = mono, wall
            time.sleep(args.pace)
    time.sleep(1.0)

    sse: list[float] = []
    arrivals: dict[int, float] = {}
    while not received.empty():
        seq, at = received.get()
        arrivals.setdefault(seq, at)
    for seq, t0 in started_mono.items():
        if seq in arrivals:
            sse.append((arrivals[seq] - t0) * 1000)
    print(f"{len(started_mono)} card events, {len(PLAYERS)} players, open bets per card: "
          f"mean {statistics.mean(open_bets):.1f}, min {min(open_bets)}, max {max(open_bets)}; "
          f"pace {args.pace * 1000:.0f} ms; load average before {load[0]:.1f}, after {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs")
    print(summary("table.handle", handle_ms) + "  (journal commit + settle + listeners)")
    print(summary("SSE client", sse))
    if len(sse) != len(started_mono):
        print(f"  {len(started_mono) - len(sse)} card events never reached the SSE client")
    if page is not None:
        drawn = page.evaluate("() => window.__lat")
        # The page draws the newest state once per frame: card s is shown by the first
        # drawing of any state at or after s.
        dom_ms, frame_ms, own = [], [], 0
        for seq, wall in started_wall.items():
            later = [(d, f, s) for s, d, f, _ in drawn if s >= seq]
            if later:
                d, f, s = min(later)
                own += s == seq
                dom_ms.append(d - wall * 1000)
                frame_ms.append(f - wall * 1000)
        print(summary("page (DOM)", dom_ms))
        print(summary("page (frame)", frame_ms))
        print(summary("page render", [r for *_, r in drawn]))
        print(f"  {own} of {len(started_wall)} card events drawn as their own state, the rest within a newer one")
        browser.close()
        playwright.stop()
    elif not args.no_browser:
        print("Chromium not found: page latency not measured")
    client.terminate()
    server.stop()
    journal.close()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
