"""A dealing box in a process a test can kill (SIGKILL): the simulated box's frames through the
tracker and ``live.TrackerBridge`` into a table journaled on disk, as ``faro-box run`` does.

    python live_dealer.py JOURNAL SEED CARDS PACE

The reader reads the simulated box's ground truth (``track_helpers.TruthReader``): what is
tested is the bridge and the journal, not recognition. ``PACE`` seconds pass between frames.
"""

from __future__ import annotations

import sys
import time

from track_helpers import TruthReader

from faro_box.live.faro import TrackerBridge
from faro_box.table.commands import StartDeal
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import Tracker

PLAYERS = ("ann", "bob")


def dealer_box(seed: int, cards: int) -> SimBox:
    return SimBox(seed=seed, cards=cards, still=(4, 8))


def main(argv: list[str]) -> int:
    path, seed, cards, pace = argv[0], int(argv[1]), int(argv[2]), float(argv[3])
    box = dealer_box(seed, cards)
    with Journal(path) as journal:
        table = Table(journal)
        if table.state()["ended"]:
            table.handle(StartDeal("foster", PLAYERS, {}))
        reader = TruthReader(box)
        bridge = TrackerBridge(table, Tracker(reader, window=box.window.tolist()))
        for n in range(len(box)):
            reader.frame = n
            bridge.feed(box.frame(n), n)
            time.sleep(pace)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
