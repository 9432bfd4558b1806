"""What a journal append costs (one durable commit), and what the check at start costs.

    python benchmarks/bench_journal.py [--appends 300] [--entries 20000] [--repeat 3] [--dir DIR]

Appends the commands of real deals (a start, bets, 52 cards) to a fresh journal in ``DIR`` (the
system's temporary folder by default: put it on the disk the box writes to, since a durable
commit is an fsync and tmpfs makes that free), ``--repeat`` times; the best run's median is the
figure. Then opens a journal of ``--entries`` entries, as ``faro-box run`` does at start (check
and replay read every entry). Run it twice, with the trees to compare first on PYTHONPATH, in
one go: this machine's speed drifts.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from faro_box.cards import FULL_DECK
from faro_box.table.commands import CardSeen, Command, PlaceBet, StartDeal
from faro_box.table.journal import Journal


def deal_commands(deals: int) -> list[Command]:
    commands: list[Command] = []
    for deal in range(deals):
        commands.append(StartDeal("foster", ("ann", "bob", "cy"), {}))
        for n in range(6):
            commands.append(PlaceBet(("ann", "bob", "cy")[n % 3],
                                     {"id": f"d{deal}b{n}", "kind": "rank", "ranks": ["9"], "stake": 2}))
        commands.extend(CardSeen(str(card), index, 0.99) for index, card in enumerate(FULL_DECK))
    return commands


def time_appends(folder: Path, commands: list[Command]) -> tuple[list[float], float]:
    """Each append's wall seconds, and the CPU seconds of them all (the wall waits on the disk)."""
    seconds = []
    with Journal(folder / "journal.sqlite") as journal:
        cpu = time.process_time()
        for command in commands:
            start = time.perf_counter()
            journal.append(command)
            seconds.append(time.perf_counter() - start)
        cpu = time.process_time() - cpu
    return seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--entries", type=int, default=20_000, help="size of the journal opened at start")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where the journals are written")
    args = parser.parse_args()

    per_deal = len(deal_commands(1))
    runs, cpus = [], []
    for _ in range(max(1, args.repeat)):
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            seconds, cpu = time_appends(Path(tmp), deal_commands(args.appends // per_deal + 1)[:args.appends])
        runs.append(statistics.median(seconds))
        cpus.append(cpu / args.appends)
    best = min(runs)
    print(f"append: median {best * 1e6:,.0f} µs per durable commit, best of {len(runs)} runs of "
          f"{args.appends} (each run's median: {', '.join(f'{r * 1e6:,.0f}' for r in runs)} µs); "
          f"CPU {min(cpus) * 1e6:,.0f} µs per append at best")

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        path = Path(tmp) / "journal.sqlite"
        commands = deal_commands(args.entries // per_deal + 1)[:args.entries]
        with Journal(path) as journal:
            # One transaction for the filling: only the opening is timed.
            journal._conn.execute("PRAGMA synchronous=OFF")
            note = getattr(journal, "_note", None)
            if note is not None:
                note.write = lambda head: None     # the note is written once, at the end
            for command in commands:
                journal.append(command)
        if note is not None:
            Journal(path).close()                  # writes the note for the last entry
        opens = []
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            with Journal(path) as journal:
                assert len(journal.entries()) == args.entries
            opens.append(time.perf_counter() - start)
    print(f"open and read a journal of {args.entries:,} entries: best {min(opens) * 1e3:,.0f} ms "
          f"(each: {', '.join(f'{o * 1e3:,.0f}' for o in opens)} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
