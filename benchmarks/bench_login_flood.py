"""Strangers flooding the dealer's login, against a real `faro-box run` on 127.0.0.1.

    python benchmarks/bench_login_flood.py [--burst N] [--addresses M]

Starts the box (simulated camera, fake case-keeper, the real 16 MiB scrypt PIN hash; the dealer's
address is 127.0.0.1, strangers come from 127.0.0.2 …), waits for its memory to settle, then
sends N wrong PINs at once from N addresses (default 40) and M more from M addresses (default
200, 40 at a time). It prints the server's resident memory before, after and at its peak
(/proc/PID/status), how many guesses were checked (401) or refused before any check (429, 503),
and how long the dealer's right PIN then takes from 127.0.0.1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "security"), str(ROOT / "tests" / "display")]

from box import Box, stranger  # noqa: E402
from display_helpers import PIN  # noqa: E402


def flood(box: Box, first: int, count: int) -> dict[int, int]:
    with ThreadPoolExecutor(40) as pool:
        codes = list(pool.map(lambda n: box.login("0000", stranger(n)), range(first, first + count)))
    return {code: codes.count(code) for code in sorted(set(codes))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=40)
    parser.add_argument("--addresses", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        box = Box(Path(folder), 'dealer_addresses = ["127.0.0.1/32"]')
        try:
            before = box.settled_rss_kb()
            burst = flood(box, 0, args.burst)
            after_burst = box.rss_kb()
            spread = flood(box, args.burst, args.addresses)
            start = time.perf_counter()
            dealer = box.login(PIN, "127.0.0.1")
            dealer_s = time.perf_counter() - start
            print(f"{args.burst} wrong PINs at once: answers {burst}; RSS {before // 1024} MB before, "
                  f"{after_burst // 1024} MB after (+{(after_burst - before) // 1024} MB)")
            print(f"{args.addresses} more from {args.addresses} addresses: answers {spread}")
            print(f"then the dealer's right PIN from 127.0.0.1: {dealer} in {dealer_s:.2f} s; "
                  f"RSS now {box.rss_kb() // 1024} MB, peak {box.status_kb('VmHWM') // 1024} MB")
        finally:
            box.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
