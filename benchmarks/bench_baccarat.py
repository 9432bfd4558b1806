"""Settle random Baccarat Banque scripts (4 players, 15 coups, 4 bets a coup); print CPU ms per script.

Run: python benchmarks/bench_baccarat.py [N]
"""

from __future__ import annotations

import random
import sys
import time

from faro_box.rules.baccarat import settle_document

FULL_SHOE = [f"{r}{s}" for r in ["A", *"23456789", "10", *"JQK"] for s in "SHDC"] * 3
PLAYERS = ["ann", "bob", "cid", "dan"]


def script(rng: random.Random) -> dict:
    coups = [{"bets": [{"player": p, "stake": rng.randint(1, 5)} for p in PLAYERS],
              "right_draws_on_5": rng.random() < 0.5, "left_draws_on_5": rng.random() < 0.5,
              "banker_draws": rng.random() < 0.5} for _ in range(15)]
    return {"game": "baccarat_banque", "players": PLAYERS,
            "sides": {"ann": "right", "bob": "left", "cid": "right", "dan": "left"},
            "banker": "eve", "fund": 50, "shoe": rng.sample(FULL_SHOE, len(FULL_SHOE)), "coups": coups}


def main(n: int) -> None:
    rng = random.Random(1)
    docs = [script(rng) for _ in range(n)]
    start = time.process_time()
    coups = sum(len(settle_document(doc)["coups"]) for doc in docs)
    spent = time.process_time() - start
    print(f"{n} scripts, {coups} coups: {spent / n * 1000:.2f} ms CPU per script, {coups / spent:.0f} coups/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
