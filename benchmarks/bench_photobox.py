"""The tracker on dealing-box videos made from real card photos, one deck (set) at a time.

    python benchmarks/bench_photobox.py                       # 10 deals per whole-card set
    python benchmarks/bench_photobox.py --deals 2 --sets webcam-rectified phone-black-pink
    python benchmarks/bench_photobox.py --find-window         # no window given: the tracker finds it
    python benchmarks/bench_photobox.py --enrolled            # each deck enrolled first, as a dealer would
    python benchmarks/bench_photobox.py --hurried 0.2         # a fifth of the cards pushed on at once
    python benchmarks/bench_photobox.py --slot-frame --sets ov7670-slot  # the slot camera's whole frame as the card
    python benchmarks/bench_photobox.py --answer-after 120    # a dealer taking four seconds to answer

Each set of ../shared/data that shows whole cards gives one face per card (benchmarks/
real_faces.py); a video (vision/sim/photobox.PhotoBox) deals them through the simulated box with
the dealer's hand and thumb, slides and their blur, hovering hands, passing shadows, light
drift, shake and noise, at a nuisance level drawn per deal; every third deal through a
Raspberry Pi camera's bluish cast, every other one slightly out of focus. None of these photos
tuned the tracker's settings (the simulated box with rendered cards did). The reading is the
box's Reader (the generic profile: no enrolment). A simulated dealer answers each question as
bench_tracker's does. With --enrolled the deck is enrolled first (the box's Reader with that
profile): where a set holds two sessions of the whole deck (ov7670-slot, odd-deck-table-crops) one
enrols and the videos deal the other's photos; elsewhere the videos deal the very photos that
enrolled (the same pictures under the videos' nuisances, not unseen photos: the output says which).

Per set: missed (cards the deal never recorded: the tracker's failure), doubled (a card
announced twice), wrong (a card announced at an index that holds another: the reader named a
wrong card and the tracker took it), questions (the reader abstained, or read a card the deck
forbids: the dealer is asked), and the reasons. Missed and wrong count by index, so one card
the tracker skips shifts every later one; apart from the index: never recorded (cards the deal's
record lacks: the tracker's own failure) and misread (a card announced that was not the one on
top then: the reader's).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_tracker import ANSWER_AFTER, run_deal  # noqa: E402
from real_faces import DATA, SLOT, WHOLE_CARD_SETS, faces  # noqa: E402

from faro_box.cards import Card  # noqa: E402
from faro_box.commands.vision import enroll_views  # noqa: E402
from faro_box.errors import VisionError  # noqa: E402
from faro_box.vision.canonical import parse_window, warp_quad  # noqa: E402
from faro_box.vision.reader import Reader  # noqa: E402
from faro_box.vision.sim.photobox import PhotoBox  # noqa: E402
from faro_box.vision.sim.synth import PI_CAMERA_CAST  # noqa: E402

# The session that enrols, where a set holds the whole deck twice: the videos deal the others.
ENROL_GROUP = {"ov7670-slot": "2024-04-19", "odd-deck-table-crops": "1"}


def enrolled(name: str, data: Path = DATA, *, slot_frame: bool = False,
             ) -> tuple[Reader, dict[Card, np.ndarray], int, str]:
    """The box's reader with set ``name``'s deck enrolled, the faces its videos deal, how many
    cards gave no face, and what enrolled (``slot_frame``: as real_faces.face's)."""
    group = ENROL_GROUP.get(name)
    if group is None:
        deck, lacking = faces(name, data, slot_frame=slot_frame)
        enrol, said = deck, "enrolled from the photos the videos deal"
    else:
        enrol, _ = faces(name, data, group=group, slot_frame=slot_frame)
        deck, lacking = faces(name, data, other_than=group, slot_frame=slot_frame)
        said = f"enrolled from session {group!r}, the videos dealing the other sessions' photos"
    seen = []
    for card, face in enrol.items():
        h, w = face.shape[:2]
        seen.append((card, warp_quad(face, parse_window([0, 0, w - 1, 0, w - 1, h - 1, 0, h - 1]))))
    profile = enroll_views(seen, view="face", name=name)
    summary = profile.learned.summary() if profile.learned is not None else "classical templates"
    return Reader(profile), deck, lacking, f"{said}; {summary}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", nargs="+", default=list(WHOLE_CARD_SETS), choices=WHOLE_CARD_SETS)
    parser.add_argument("--find-window", action="store_true", help="give the tracker no window")
    parser.add_argument("--enrolled", action="store_true", help="enrol each deck first (see above)")
    parser.add_argument("--hurried", type=float, metavar="SHARE", default=0.0,
                        help="each card but the first and the last pushed on at once with this chance, the thumb "
                             "on it from the moment the card above clears the window: never seen in full view")
    parser.add_argument("--answer-after", type=int, metavar="FRAMES", default=ANSWER_AFTER,
                        help=f"frames the simulated dealer takes to answer a question (default {ANSWER_AFTER})")
    parser.add_argument("--slot-frame", action="store_true",
                        help="a slot camera's whole frame is the card (a window a little loose round it), "
                             "not the card its finder finds")
    args = parser.parse_args(argv)
    if args.answer_after < 0:
        parser.error(f"--answer-after {args.answer_after!r}: a number of frames, 0 or more")
    if args.slot_frame and not set(args.sets) & set(SLOT):
        parser.error(f"--slot-frame changes only a slot camera's set ({', '.join(SLOT)}), and --sets names none")
    if not DATA.is_dir():
        print(f"no real photographs at ../shared/data ({DATA}): nothing to measure")
        return 0
    cv2.setNumThreads(1)
    generic = Reader()
    grand: Counter[str] = Counter()
    for name in args.sets:
        if args.enrolled:
            try:
                reader, deck, lacking, said = enrolled(name, slot_frame=args.slot_frame)
            except VisionError as exc:
                print(f"{name}: enrolment refused: {exc}", flush=True)
                continue
            print(f"{name}: {said}", flush=True)
        else:
            reader = generic
            deck, lacking = faces(name, slot_frame=args.slot_frame)
        rng = np.random.default_rng([args.seed, len(name)])
        totals: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        started = time.monotonic()
        for d in range(args.deals):
            nuisance = float(rng.uniform(0.0, 1.0))
            cast = PI_CAMERA_CAST if d % 3 == 2 else (1.0, 1.0, 1.0)
            defocus = 0.8 if d % 2 else 0.0
            pushed = [i for i in range(1, len(deck) - 1) if rng.random() < args.hurried] if args.hurried else []
            box = PhotoBox(deck, seed=args.seed * 1000 + d, nuisance=nuisance, cast=cast, defocus=defocus,
                           hurried=pushed)
            r = run_deal(box, reader, window=not args.find_window, answer_after=args.answer_after)
            for key in ("missed", "duplicated", "wrong", "questions", "withdrawn", "frames", "unseen", "misread"):
                totals[key] += r[key]
            totals["cards"] += box.cards
            reasons.update(r["reasons"])
            print(f"  {name} deal {d + 1}: {box.cards} cards, nuisance {nuisance:.2f}, "
                  f"{'Pi cast' if d % 3 == 2 else 'neutral'}{', defocus' if defocus else ''}: missed {r['missed']} "
                  f"doubled {r['duplicated']} wrong {r['wrong']} questions {r['questions']} "
                  f"(never recorded {r['unseen']}, misread {r['misread']})"
                  + (f"; first wrong: {r['first_wrong']}" if r["first_wrong"] else ""), flush=True)
        grand.update(totals)
        print(f"{name}: {args.deals} deals of {len(deck)} cards ({lacking} of the set's cards gave no face), "
              f"{totals['cards']} cards: missed {totals['missed']}, doubled {totals['duplicated']}, "
              f"wrong {totals['wrong']}, questions {totals['questions']} ({totals['withdrawn']} withdrawn); "
              f"never recorded {totals['unseen']} (tracker), misread {totals['misread']} (reader) "
              f"[{time.monotonic() - started:.0f} s]", flush=True)
        for reason, count in reasons.most_common(4):
            print(f"    {count:4d} asked because {reason}")
    print(f"\nall sets: {grand['cards']} cards: missed {grand['missed']}, doubled {grand['duplicated']}, "
          f"wrong {grand['wrong']}, questions {grand['questions']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
