"""Every real card the box's reading does not name right, and why: where to look next.

    python benchmarks/bench_misses.py [--sets a,b] [--conditions "as shot,glare"] [--enrolled]

The box's generic reading (`Reader()`, no enrolment) of each real set's photos end to end (the
project's own finder looks for the card, as `faro-box vision read` does), as shot, under a
Raspberry Pi camera's colour cast and under glare (`real_sets.CONDITIONS`). One line per card not
named right: the image, the card it shows, what was named (a wrong card is marked), the
candidates and the reader's reason; then each set's count under each condition. A rank-only label
(tabletop-ranks) counts a card of that rank as right. The figures are those of
`bench_reader_loso.py`'s joint column at the box's bar, end to end; this says which cards they are.

``--enrolled``: the box's reading of the deck enrolled first, as `bench_reader_loso.py` splits
each set (its first image of each card enrols, found end to end; the other images are read; a
set with one image per card is read only under the cast and glare). A set whose enrolment is
refused says why.
"""

from __future__ import annotations

import argparse
import sys

from bench_reader_loso import enrolled_reader, split
from real_sets import CONDITIONS, SETS, Item, RealSet, load

from faro_box.vision.reader import Reader


def enrolled(s: RealSet) -> tuple[Reader | None, list[Item], bool, str]:
    """The box's reader of set ``s``'s deck enrolled as bench_reader_loso.py enrols it (the
    split's enrolment images, found end to end), the images it reads, whether those are the
    enrolment images themselves, and what enrolment said (why, where it refused the deck)."""
    enrol, test, same = split(s, s.items())
    learned, note = enrolled_reader(s, enrol, {item.path: load(item.path) for item in enrol}, "end to end")
    return (Reader(learned.profile) if learned is not None else None), test, same, note


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", help="comma-separated set names (default: every set with whole-card photos)")
    ap.add_argument("--conditions", help=f"comma-separated, of: {', '.join(CONDITIONS)} (default: all)")
    ap.add_argument("--enrolled", action="store_true", help="each deck enrolled first (see above)")
    args = ap.parse_args()
    known = [s.name for s in SETS if s.view == "face"]
    names = args.sets.split(",") if args.sets is not None else known
    conditions = args.conditions.split(",") if args.conditions is not None else list(CONDITIONS)
    for name in names:
        if name not in known:
            print(f"bench_misses: no set {name!r} of whole-card photos; the sets: {', '.join(known)}", file=sys.stderr)
            return 2
    for cond in conditions:
        if cond not in CONDITIONS:
            print(f"bench_misses: no condition {cond!r}; the conditions: {', '.join(CONDITIONS)}", file=sys.stderr)
            return 2
    generic = Reader()
    tallies = []
    for s in SETS:
        if s.name not in names:
            continue
        reader, read, same = generic, s.items(), False
        if args.enrolled:
            enrolled_box, read, same, note = enrolled(s)
            if enrolled_box is None:
                tallies.append(f"{s.name}, enrolled: refused ({note})")
                continue
            reader = enrolled_box
        # Each picture's glare spot is placed by its place among the set's pictures, as
        # bench_reader_loso.py places it: an enrolled deck's test picture is the generic one's.
        items = [(k, item) for k, item in enumerate(s.items()) if not item.empty and item in read]
        for cond in conditions:
            if same and cond == "as shot":
                continue  # the very pictures it enrolled from
            right = wrong = 0
            for k, item in items:
                got = reader.read(CONDITIONS[cond](load(item.path), k))
                named = got.card if item.card is not None or got.card is None else got.card.rank
                want = item.card if item.card is not None else item.rank
                if named == want:
                    right += 1
                    continue
                wrong += got.card is not None
                mark = "WRONG " if got.card is not None else ""
                print(f"{s.name} | {cond} | {item.path.name} | {want} | {mark}{got.card} | "
                      f"{' '.join(map(str, got.candidates[:3]))} | {got.why}")
            tallies.append(f"{s.name}, {cond}: {right} of {len(items)} right, {wrong} wrong")
    print("\n".join(["", *tallies]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
