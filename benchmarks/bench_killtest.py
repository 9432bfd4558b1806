"""Power-cut test: SIGKILL a journaled deal at random points, restart it, compare with a clean run.

    python benchmarks/bench_killtest.py                 # 50 kills of `faro-box replay` (a sample deal)
    python benchmarks/bench_killtest.py --runs 5 --target demo   # the demo (slow: it re-reads the video)
    python benchmarks/bench_killtest.py --total-kills 200        # runs until 200 SIGKILLs have landed
    python benchmarks/bench_killtest.py --total-kills 200 --at-entries   # each kill mid-deal

Each run starts the command on a fresh journal, kills it with SIGKILL after a random delay, may
kill the restarted process again (up to --kills times), then lets a last restart finish. The
final table state must equal the uninterrupted run's, and the journal must hold exactly the
uninterrupted run's commands (none lost, none applied twice).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]


def commands(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    rows = [r[0] for r in conn.execute("SELECT command FROM events ORDER BY seq")]
    conn.close()
    return rows


def wait_for_entries(journal: Path, entries: int, process: subprocess.Popen) -> None:
    """Until the journal holds at least ``entries`` entries (or the process ended)."""
    while process.poll() is None:
        try:
            if journal.exists() and len(commands(journal)) >= entries:
                return
        except sqlite3.Error:   # not created yet, or being created
            pass
        time.sleep(0.002)


def state_of(journal: Path, script: Path) -> dict:
    # Replaying a finished script on its journal adds nothing and prints the state.
    done = subprocess.run([*FARO_BOX, "replay", str(script), "--journal", str(journal), "--json"],
                          capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise SystemExit(f"state read failed: {done.stderr}")
    return json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--kills", type=int, default=3, help="at most this many kills per run")
    parser.add_argument("--target", choices=("replay", "demo"), default="replay")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-kills", type=int, metavar="N",
                        help="instead of --runs: as many runs as it takes to deliver N SIGKILLs")
    parser.add_argument("--at-entries", action="store_true",
                        help="kill once the journal holds a random number of entries (1 .. all but one) "
                             "plus 0-20 ms, so that every kill lands mid-deal")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    from table_scripts import sample_script

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        script = folder / "deal.json"
        script.write_text(json.dumps(sample_script()))

        def command(journal: Path, final: bool) -> list[str]:
            if args.target == "demo":
                return [*FARO_BOX, "demo", "--fast", "--no-web", "--seed", "2", "--journal", str(journal)]
            pace = [] if final else ["--pace", "0.01"]
            return [*FARO_BOX, "replay", str(script), "--journal", str(journal), *pace]

        reference = folder / "reference.sqlite"
        started = time.monotonic()
        subprocess.run(command(reference, True), stdout=subprocess.DEVNULL, check=True, timeout=1800)
        clean_seconds = time.monotonic() - started
        expected_commands = commands(reference)
        expected_state = state_of(reference, script) if args.target == "replay" else None
        kills = failures = mid_deal = runs = 0
        while (runs < args.runs) if args.total_kills is None else (kills < args.total_kills):
            run, runs = runs, runs + 1
            journal = folder / f"run{run}.sqlite"
            for _ in range(rng.randint(1, args.kills)):
                process = subprocess.Popen(command(journal, False), stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL)
                if args.at_entries:
                    wait_for_entries(journal, rng.randint(1, len(expected_commands) - 1), process)
                    time.sleep(rng.uniform(0, 0.02))
                else:
                    time.sleep(rng.uniform(0.2, clean_seconds * 1.2))
                if process.poll() is None:
                    os.kill(process.pid, signal.SIGKILL)
                    kills += 1
                    process.wait()
                    # Landed mid-deal: the journal held part of the deal when the process died.
                    try:
                        written = len(commands(journal)) if journal.exists() else 0
                    except sqlite3.Error:   # killed while it created the file
                        written = 0
                    mid_deal += 0 < written < len(expected_commands)
                process.wait()
            subprocess.run(command(journal, True), stdout=subprocess.DEVNULL, check=True, timeout=1800)
            ok = commands(journal) == expected_commands
            if expected_state is not None:
                ok = ok and state_of(journal, script) == expected_state
            failures += not ok
            print(f"run {run + 1:3d}: {'same' if ok else 'DIFFERENT'} ({len(commands(journal))} entries)", flush=True)
        print(f"{runs} runs of `faro-box {args.target}`, {kills} SIGKILLs at random points, {mid_deal} of them "
              f"mid-deal (uninterrupted run {clean_seconds:.1f} s): {failures} run(s) ended differently")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
