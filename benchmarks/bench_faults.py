"""Faults, many times over: each fault test of tests/robustness repeated with its own random
points, and the journal on a real, tiny file system that fills up and turns read-only.

    python benchmarks/bench_faults.py                 # 20 repetitions of each fault, 20 tmpfs rounds
    python benchmarks/bench_faults.py --repeat 5 --tmpfs-rounds 0

Repeated tests (``FARO_FAULT_REPEAT``): the servo case-keeper's port pulled and put back at a
random card, the Pico rebooting at a random card, a dealer button stuck at a random card, the
camera gone for a random stretch of a simulated deal, the journal's disk full after a random
number of cards, plus the clock-jump tests. Each passes only if the fault was reported once,
cleared by itself, and the beads (and the journal) end where the deal says.

The tmpfs rounds need root (``mount -t tmpfs``); without it they are reported as not run.
Each round: a 512 KiB tmpfs, a journal on it, a filler file that leaves a few KiB, bets until
the disk is full (the table must refuse and show a "journal" fault), a power cut (the journal
reopened must hold exactly what the table had accepted), space freed (the next command is
taken and the fault clears). A read-only file system is not tried here: Linux refuses to
remount a file system read-only while a file on it is open for writing (only the kernel does,
after an error), so the tests make the journal read-only with SQLite's ``query_only``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TESTS = ["tests/robustness/test_device_faults.py", "tests/robustness/test_journal_faults.py",
         "tests/robustness/test_clock_jumps.py"]


def repeated_tests(repeat: int) -> dict[str, Counter]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        env = dict(os.environ, FARO_FAULT_REPEAT=str(repeat))
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:warnings",
                        f"--junitxml={report}", *TESTS], cwd=REPO, env=env, stdout=subprocess.DEVNULL)
        results: dict[str, Counter] = {}
        for case in ET.parse(report).getroot().iter("testcase"):
            name = case.get("name", "").split("[")[0]
            outcome = "failed" if case.find("failure") is not None or case.find("error") is not None else (
                "skipped" if case.find("skipped") is not None else "passed")
            results.setdefault(name, Counter())[outcome] += 1
        return results


def _mount(where: Path, options: str) -> bool:
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def tmpfs_round(folder: Path, rng: random.Random) -> dict[str, object]:
    from faro_box.cards import FULL_DECK
    from faro_box.errors import JournalError
    from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
    from faro_box.table.journal import Journal
    from faro_box.table.table import Table

    deck = [str(c) for c in FULL_DECK]
    rng.shuffle(deck)
    mount = folder / "card"
    mount.mkdir()
    if not _mount(mount, "size=512k,mode=0700"):
        raise PermissionError("cannot mount a tmpfs (needs root)")
    result: dict[str, object] = {}
    journal = None
    try:
        path = mount / "journal.sqlite"
        journal = Journal(path)
        table = Table(journal)
        table.handle(StartDeal("foster", ("ann", "bob"), {}))
        shown = 2 * rng.randint(0, 20) + 1
        for index in range(shown):
            table.handle(CardSeen(deck[index], index))
        free = os.statvfs(mount)
        filler = mount / "filler"
        with filler.open("wb") as out:     # leave a few KiB, as a card filled by photographs would
            out.write(b"\0" * max(0, free.f_bavail * free.f_frsize - rng.randint(4, 24) * 1024))
        accepted = 0
        refused_with_fault = False
        for n in range(5000):
            try:
                table.handle(PlaceBet("ann", {"id": f"b{n}-" + "x" * 30, "kind": "high", "stake": 1}))
                accepted += 1
            except JournalError:
                refused_with_fault = [f["device"] for f in table.state()["faults"]] == ["journal"]
                break
        result["full"] = refused_with_fault
        live = {k: v for k, v in table.state().items() if k != "faults"}
        journal.close()                                          # the power cut
        with Journal(path) as again:
            replayed = {k: v for k, v in Table(again).state().items() if k != "faults"}
        result["lost"] = len(live["open_bets"]) - len(replayed["open_bets"]) if live != replayed else 0
        result["same_after_restart"] = live == replayed
        filler.unlink()                                          # space returns
        journal = Journal(path)
        table = Table(journal)
        table.handle(CardSeen(deck[shown], shown))
        result["recovered_after_full"] = table.state()["faults"] == [] and table.state()["next_index"] == shown + 1
        final = {k: v for k, v in table.state().items() if k != "faults"}
        journal.close()
        with Journal(path) as again:
            result["same_at_end"] = {k: v for k, v in Table(again).state().items() if k != "faults"} == final
        result["accepted_before_full"] = accepted
    finally:
        if journal is not None:
            journal.close()          # closing twice is harmless; a mounted file held open is not
        subprocess.run(["umount", str(mount)], capture_output=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20, help="repetitions of each fault test")
    parser.add_argument("--tmpfs-rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failures = 0
    started = time.monotonic()
    if args.repeat:
        results = repeated_tests(args.repeat)
        print(f"fault tests, FARO_FAULT_REPEAT={args.repeat} ({time.monotonic() - started:.0f} s):")
        for name, counts in sorted(results.items()):
            print(f"  {name}: {counts['passed']} passed, {counts['failed']} failed")
            failures += counts["failed"]
    rng = random.Random(args.seed)
    rounds: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.tmpfs_rounds):
            folder = Path(tmp) / f"round{n}"
            folder.mkdir()
            try:
                rounds.append(tmpfs_round(folder, rng))
            except PermissionError as exc:
                print(f"tmpfs rounds not run: {exc}")
                break
    if rounds:
        checks = ("full", "same_after_restart", "recovered_after_full", "same_at_end")
        good = sum(all(r[c] is True for c in checks) and r["lost"] == 0 for r in rounds)
        lost = sum(int(r["lost"]) for r in rounds)
        accepted = [int(r["accepted_before_full"]) for r in rounds]
        print(f"journal on a real 512 KiB tmpfs: {len(rounds)} rounds of disk full + power cut + space back: "
              f"{good} as expected, {lost} accepted command(s) lost "
              f"(bets taken before the disk was full: {min(accepted)}..{max(accepted)})")
        for r in rounds:
            if not (all(r[c] is True for c in checks) and r["lost"] == 0):
                print(f"  unexpected: {r}")
        failures += len(rounds) - good
    print(f"total {time.monotonic() - started:.0f} s, {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
