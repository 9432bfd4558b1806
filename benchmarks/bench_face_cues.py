"""What the face tells the reader beside its index, on real photographs, per set.

    python benchmarks/bench_face_cues.py

For every pip card (A-10) the project's finder finds in its photo (../shared/data; the sets of
benchmarks/real_sets.py), as shot: the pip count the veto uses (pips.count_pips_in on the pip
area) and the one the face's confirmation uses (reader.face_cues: out to the border, the indices
left out), each right, wrong, a single pip (which never confirms a rank) or none; and, of the
black ones, the spade-or-club the first body pip's outline names: right, the other black suit,
or none (of the red ones, the heart-or-diamond its outline names, an ace's by its middle pip); and
the same outline on the black courts, of the pip printed beside the figure (which
settles a court's suit where its index is sure of the rank). Then the CPU time of face_cues on
those found cards (median, one core): what a reading that abstains with an index in view pays
for it. The outline's limits were set before
these figures; the face's count's four-corner rule and its bound on a pip's size were set after
seeing this table's Dutch row, so its figures are not clean of them.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from real_sets import DATA, SETS, load  # noqa: E402

from faro_box.cards import Rank, Suit  # noqa: E402
from faro_box.vision.canonical import CANON_H, CANON_W  # noqa: E402
from faro_box.vision.joint import face_cues  # noqa: E402
from faro_box.vision.pips import count_pips_in, pip_area  # noqa: E402
from faro_box.vision.reader import Reader  # noqa: E402


def verdict(got: int | None, rank: Rank) -> str:
    return "none" if got is None else "right" if got == int(rank) else "one pip" if got == 1 else "wrong"


def main() -> int:
    if not DATA.is_dir():
        print(f"no real photo sets at {DATA}: nothing to measure", file=sys.stderr)
        return 1
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    cv2.setNumThreads(1)
    reader = Reader()
    times: list[float] = []
    print("| set | pip cards found | the veto's count: right / wrong / one pip / none | the face's count | "
          "black pip cards | the body pip's outline: right / other black suit / none | "
          "red pip cards | the body pip's outline: right / other red suit / none | "
          "black courts | the pip beside the figure: right / other black suit / none |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in SETS:
        if s.view == "corner":
            continue
        veto: Counter[str] = Counter()
        face: Counter[str] = Counter()
        outline: Counter[str] = Counter()
        red: Counter[str] = Counter()
        court: Counter[str] = Counter()
        for item in s.items():
            card = item.card
            if card is None or (card.rank > Rank.TEN and card.suit not in (Suit.CLUBS, Suit.SPADES)):
                continue
            view = reader.locate(load(item.path))
            if view is None:
                continue
            if card.rank > Rank.TEN:
                beside = face_cues(view).black
                court["none" if beside is None else "right" if beside is card.suit else "other"] += 1
                continue
            start = time.process_time()
            cues = face_cues(view)
            times.append(time.process_time() - start)
            veto[verdict(count_pips_in(view.region(*pip_area(CANON_H, CANON_W))), card.rank)] += 1
            face[verdict(cues.pips, card.rank)] += 1
            if card.suit in (Suit.CLUBS, Suit.SPADES):
                outline["none" if cues.black is None else "right" if cues.black is card.suit else "other"] += 1
            else:
                red["none" if cues.red is None else "right" if cues.red is card.suit else "other"] += 1

        def counts(c: Counter[str]) -> str:
            return " / ".join(str(c[k]) for k in ("right", "wrong", "one pip", "none"))

        n = sum(veto.values())
        black = sum(outline.values())
        print(f"| {s.name} | {n} | {counts(veto)} | {counts(face)} | {black} | "
              f"{outline['right']} / {outline['other']} / {outline['none']} | {sum(red.values())} | "
              f"{red['right']} / {red['other']} / {red['none']} | {sum(court.values())} | "
              f"{court['right']} / {court['other']} / {court['none']} |")
    print(f"face_cues on a found card: median {1e3 * statistics.median(times):.2f} ms CPU over {len(times)} cards")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
