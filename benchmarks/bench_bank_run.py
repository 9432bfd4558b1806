"""The box's bank path without the web: the simulated shoe (camera_shoe_sim) through the shown-card
watcher and the real reader into the table, a scripted dealer (bets, calls, naming unread cards).

Prints, over SEEDS banks of COUPS coups: the cards dealt, the share the camera named, the share
left to the dealer, the cards recorded wrong (must be 0), and CPU time per frame and per card.

Run: python benchmarks/bench_bank_run.py [SEEDS [COUPS]]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "baccarat"))

from bank_dealer import answer_table  # noqa: E402

from faro_box.config import parse_config  # noqa: E402
from faro_box.live.baccarat import BankFeeder, open_bank_camera, open_configured_bank  # noqa: E402
from faro_box.table.journal import Journal  # noqa: E402
from faro_box.table.table import Table  # noqa: E402
from faro_box.vision.reader import Reader  # noqa: E402


def one_bank(seed: int, coups: int) -> tuple[int, int, int, int, int, float]:
    config = parse_config({"game": "baccarat_banque", "display": {"web": False}, "players": ["ann", "bob"],
                           "bank": {"banker": "eve", "fund": 100, "sides": {"ann": "right", "bob": "left"}},
                           "camera": {"source": f"sim:{seed}", "fps": 100000}})
    table = Table(Journal())
    open_configured_bank(table, config)
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, Reader())
    named = frames = 0
    start = time.process_time()
    while len(table.state()["results"]) < coups and table.state()["ended"] is None:
        named += answer_table(table, camera)
        feeder.feed(camera.read(), camera.frame_number)
        frames += 1
    cpu = time.process_time() - start
    shoe = table.script()["shoe"]
    wrong = sum(1 for i, card in enumerate(shoe) if card != str(camera.shoe[i]))
    read = sum(1 for e in table.journal.entries() if e.command.TYPE == "bank_card")
    return len(shoe), read, named, wrong, frames, cpu


def main(seeds: int, coups: int) -> None:
    totals = [0, 0, 0, 0, 0, 0.0]
    for seed in range(seeds):
        for i, value in enumerate(one_bank(seed, coups)):
            totals[i] += value
    cards, read, named, wrong, frames, cpu = totals
    print(f"{seeds} banks x {coups} coups: {cards} cards; camera named {read} ({100 * read / cards:.1f} %), "
          f"dealer named {named} ({100 * named / cards:.1f} %), wrong {wrong}")
    print(f"CPU: {1000 * cpu / frames:.2f} ms per frame (rendering the simulated shoe included), "
          f"{1000 * cpu / cards:.1f} ms per card")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5, int(sys.argv[2]) if len(sys.argv) > 2 else 10)
