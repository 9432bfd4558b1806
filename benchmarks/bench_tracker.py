"""The tracker on the simulated dealing box with the real reader: accuracy, speed, latency, memory.

    python benchmarks/bench_tracker.py                 # 100 deals (5,200 cards), random nuisances
    python benchmarks/bench_tracker.py --deals 10
    python benchmarks/bench_tracker.py --jobs 3        # deals shared by 3 processes (same figures)
    python benchmarks/bench_tracker.py --first 50 --deals 50   # the second half of the 100 deals
    python benchmarks/bench_tracker.py --memory 100000 # frames of back-to-back deals, RSS sampled
    python benchmarks/bench_tracker.py --view-speed REF # the look at a frame beside commit REF's
    python benchmarks/bench_tracker.py --deals 4 --against OLD.onnx  # CPU per frame with another network too
    python benchmarks/bench_tracker.py --deals 10 --pause 0.3  # the dealer stops every slide a second, there
    python benchmarks/bench_tracker.py --deals 10 --hurried 0.2  # a fifth of the cards pushed on at once

Accuracy: every deal is dealt in full (52 cards, the hock taken out, the box empty) with a
nuisance level drawn at random; a simulated dealer answers each question 15 frames later with
the card its snapshot shows (the card asked about, or the card before it when no card had left
the box and the question is withdrawn). Missed = cards the deal never recorded, duplicated = a
card announced twice, wrong = a card announced at an index that holds another.
Speed: CPU time of Tracker.update alone (OpenCV held to one thread), reading included, at
640x480. Latency: frames from the first clean, still frame of a card to its event.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from faro_box.cards import Card
from faro_box.errors import VisionError
from faro_box.vision.learned import IndexNet
from faro_box.vision.reader import Reader
from faro_box.vision.sim.simbox import Expect, SimBox
from faro_box.vision.track import BoxEmpty, CardExposed, CardReader, CardReturned, NeedsConfirmation, Tracker

ANSWER_AFTER = 15  # frames the simulated dealer takes to answer a question


def deal(seed: int, nuisance: float, reader: Reader, pause: float | None = None, hurried: float = 0.0) -> dict:
    rng = np.random.default_rng([seed, 0x4A57])
    pushed = [i for i in range(1, 51) if rng.random() < hurried]
    return run_deal(SimBox(seed=seed, nuisance=nuisance, pause=pause, hurried=pushed), reader)


def run_deal(box: SimBox, reader: CardReader, window: bool = True, answer_after: int = ANSWER_AFTER) -> dict:
    """One deal of ``box`` through a tracker (the box's window given, or found by the tracker
    when ``window`` is False), a simulated dealer answering its questions ``answer_after``
    frames after each is asked."""
    tracker = Tracker(reader, window=box.window.tolist() if window else None)
    first_clean = {e.index: e.frame for e in box.expected() if e.kind is Expect.CARD}
    announced: list[CardExposed] = []
    questions: list[NeedsConfirmation] = []
    counts: Counter[str] = Counter()  # returned, empty, withdrawn, conflicts
    reasons: Counter[str] = Counter()
    pending: list[tuple[int, int, Card]] = []
    cpu = 0.0
    slowest = 0.0
    per_frame: list[float] = []

    def take(events: list, answer_at: int) -> None:
        for event in events:
            if isinstance(event, CardExposed):
                announced.append(event)
            elif isinstance(event, NeedsConfirmation):
                questions.append(event)
                counts["withdrawn"] += box.truth(event.frame).index == event.index - 1
                reasons[event.reason or "no reason given"] += 1
                shown = box.truth(event.frame).card  # what the dealer sees in the snapshot
                answer = shown if shown is not None and shown == box.deck[event.index - 1] else box.deck[event.index]
                pending.append((answer_at, event.index, answer))
            elif isinstance(event, CardReturned):
                counts["returned"] += 1
            elif isinstance(event, BoxEmpty):
                counts["empty"] += 1

    def answer(upto: int) -> None:
        while pending and pending[0][0] <= upto:
            _, index, card = pending.pop(0)
            try:
                tracker.confirm(index, card)
            except VisionError:
                # The true card was announced earlier at a wrong index (counted there as wrong):
                # the dealer can only name some undealt card; the deal's record stays wrong.
                counts["conflicts"] += 1
                tracker.confirm(index, tracker.remaining()[0])

    for n in range(len(box)):
        image = box.frame(n)
        start = time.thread_time()
        events = tracker.update(image, n)
        spent = time.thread_time() - start
        cpu += spent
        slowest = max(slowest, spent)
        per_frame.append(spent)
        take(events, n + answer_after)
        answer(n)
    # The video ended: the tracker says what it left open, and the dealer answers every question
    # still open, those from before the end too, until nothing more follows.
    end = len(box) + answer_after  # later than any answer still due
    take(tracker.finish(), end)
    while pending:
        answer(end)
        take(tracker.finish(), end)
    recorded = list(tracker.exposed)
    seen: set = set()
    duplicated = 0
    for event in announced:
        duplicated += event.card in seen
        seen.add(event.card)
    latency = [e.frame - first_clean[e.index] for e in announced if e.index in first_clean and e.index < 51]
    return {
        "frames": len(box), "cpu": cpu, "slowest": slowest,
        "missed": sum(1 for i, c in enumerate(box.deck[:box.cards]) if i >= len(recorded) or recorded[i] != c),
        "duplicated": duplicated,
        "wrong": sum(1 for e in announced if box.deck[e.index] != e.card),
        "questions": len(questions), "withdrawn": counts["withdrawn"], "returned": counts["returned"],
        "empty": counts["empty"], "latency": latency, "reasons": reasons, "per_frame": per_frame,
        "conflicts": counts["conflicts"],
        # Apart from the index: a card the deal never recorded anywhere (the tracker's miss), and
        # a card announced that was not the one on top then (the reader's misreading; not the
        # hock, which the deal names by elimination while the card before it still lies on top).
        "unseen": len(set(box.deck[:box.cards]) - set(recorded)),
        "misread": sum(1 for e in announced if e.index < 51 and box.truth(e.frame).card != e.card),
        "first_wrong": next((f"{e.card} announced at {e.index} (frame {e.frame}), which holds "
                             f"{box.deck[e.index]}; on top then: {box.truth(e.frame).card} at "
                             f"{box.truth(e.frame).index}" for e in announced if box.deck[e.index] != e.card), ""),
    }


_reader: Reader | None = None


def _deal_job(job: tuple[int, float, float | None, float]) -> dict:
    global _reader
    if _reader is None:
        cv2.setNumThreads(1)
        _reader = Reader()
    return deal(job[0], job[1], _reader, job[2], job[3])


def accuracy(deals: int, seed: int, jobs: int = 1, first: int = 0, pause: float | None = None,
             hurried: float = 0.0) -> None:
    rng = np.random.default_rng(seed)
    totals = {"frames": 0, "cpu": 0.0, "missed": 0, "duplicated": 0, "wrong": 0, "questions": 0,
              "withdrawn": 0, "returned": 0, "empty": 0}
    latency: list[int] = []
    reasons: Counter[str] = Counter()
    per_frame: list[float] = []
    slowest = 0.0
    started = time.monotonic()
    work = [(seed * 1000 + d, float(rng.uniform(0.0, 1.0)), pause, hurried) for d in range(first + deals)][first:]
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    results = pool.imap(_deal_job, work) if pool is not None else map(_deal_job, work)
    for d, r in enumerate(results):
        nuisance = work[d][1]
        per_frame += r["per_frame"]
        for key in totals:
            totals[key] += r[key]
        latency += r["latency"]
        reasons.update(r["reasons"])
        slowest = max(slowest, r["slowest"])
        print(f"deal {first + d + 1:3d} nuisance {nuisance:.2f}: missed {r['missed']} duplicated {r['duplicated']} "
              f"wrong {r['wrong']} questions {r['questions']} (withdrawn {r['withdrawn']}) empty {r['empty']} "
              f"max latency {max(r['latency'], default=0)} (over 3: {sum(v > 3 for v in r['latency'])}) "
              f"CPU {r['cpu'] / r['frames'] * 1000:.2f} ms/frame, slowest {r['slowest'] * 1000:.1f} ms", flush=True)
    if pool is not None:
        pool.close()
    ms = totals["cpu"] / totals["frames"] * 1000
    print(f"\n{deals} deals, {52 * deals} cards, {totals['frames']} frames "
          f"({time.monotonic() - started:.0f} s wall)")
    print(f"missed {totals['missed']}, duplicated {totals['duplicated']}, wrong {totals['wrong']}")
    print(f"questions {totals['questions']} ({totals['questions'] / deals:.2f} per deal; "
          f"{totals['withdrawn']} withdrawn: no card had left the box), "
          f"empty box seen {totals['empty']} of {deals}")
    for reason, count in reasons.most_common():
        print(f"  {count:4d} asked because {reason}")
    print(f"tracker CPU, reading included, one OpenCV thread: {ms:.2f} ms per frame = {1000 / ms:.0f} fps; "
          f"slowest frame {slowest * 1000:.1f} ms; median frame {statistics.median(per_frame) * 1000:.2f} ms, "
          f"99.9th percentile {sorted(per_frame)[int(0.999 * len(per_frame))] * 1000:.1f} ms")
    if latency:
        print(f"latency (frames from the first still, clean frame to the event), {len(latency)} cards read: "
              f"median {statistics.median(latency):.0f}, max {max(latency)}, "
              f"<= 3 frames: {sum(v <= 3 for v in latency) / len(latency):.1%}")


def against(deals: int, seed: int, name: str, other: IndexNet) -> None:
    """The same deals through the shipped network and ``other``, one after the other deal by
    deal, so that both see the machine alike: CPU per frame, reading included, and the ratio."""
    readers = {"shipped": Reader(), name: Reader(net=other)}
    rng = np.random.default_rng(seed)
    cpu = dict.fromkeys(readers, 0.0)
    frames = dict.fromkeys(readers, 0)
    wrong = dict.fromkeys(readers, 0)
    for d in range(deals):
        nuisance = float(rng.uniform(0.0, 1.0))
        for name, reader in readers.items():
            r = deal(seed * 1000 + d, nuisance, reader)
            cpu[name] += r["cpu"]
            frames[name] += r["frames"]
            wrong[name] += r["wrong"] + r["missed"] + r["duplicated"]
    ms = {name: cpu[name] / frames[name] * 1000 for name in readers}
    for name in readers:
        print(f"{name:<24} tracker CPU, reading included: {ms[name]:.2f} ms per frame "
              f"({frames[name]} frames; missed + doubled + wrong {wrong[name]})")
    a, b = ms.values()
    print(f"ratio shipped / {name}: {a / b:.2f}")


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory(frames: int, seed: int) -> None:
    """Back-to-back deals with short stills: the hours of a table compressed into fewer frames.
    Nobody answers questions, so held readings are exercised too."""
    reader = Reader()
    samples = []
    n = d = 0
    tracker = None
    while n < frames:
        box = SimBox(seed=seed + d, nuisance=0.5, still=(3, 6))
        if tracker is None:
            tracker = Tracker(reader, window=box.window.tolist())
        for k in range(len(box)):
            tracker.update(box.frame(k), n)
            n += 1
            if n % 10_000 == 0:
                samples.append((n, rss_mb()))
                print(f"frame {n}: RSS {samples[-1][1]:.1f} MB", flush=True)
            if n >= frames:
                break
        tracker.new_deal()
        d += 1
    base = samples[0][1]
    print(f"\n{n} frames, {d} deals: RSS {base:.1f} MB at 10,000 frames, {samples[-1][1]:.1f} MB at the end, "
          f"largest growth {max(s for _, s in samples) - base:+.1f} MB")


def view_speed(ref: str, frames: int = 600) -> None:
    """CPU time of the tracker's look at one frame (the window warped, motion and cover judged,
    no reading) now and at git ``ref``, interleaved frame by frame on the simulated box."""
    import importlib.util
    import subprocess
    import tempfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    text = subprocess.run(["git", "show", f"{ref}:faro_box/vision/track.py"], cwd=root, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="baseline-track-")) / "baseline_track.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_track", path)
    assert spec is not None and spec.loader is not None
    old = importlib.util.module_from_spec(spec)
    sys.modules["baseline_track"] = old
    spec.loader.exec_module(old)
    box = SimBox(seed=7, nuisance=0.5)
    trackers = {"now": Tracker(Reader(), window=box.window.tolist()),
                f"at {ref}": old.Tracker(Reader(), window=box.window.tolist())}
    times: dict[str, list[float]] = {k: [] for k in trackers}
    for n in range(min(frames, len(box))):
        image = box.frame(n)
        for name, tracker in trackers.items():
            start = time.thread_time()
            tracker._look(image)
            times[name].append((time.thread_time() - start) * 1000)
    medians = {k: statistics.median(v) for k, v in times.items()}
    for name, median in medians.items():
        print(f"tracker look {name:<16} median {median:.3f} ms per 640x480 frame, "
              f"p95 {sorted(times[name])[int(0.95 * (len(times[name]) - 1))]:.3f} ms")
    a, b = medians.values()
    print(f"ratio now / {ref} (medians): {a / b:.2f}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="skip this many deals of the sequence")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the deals (figures unchanged)")
    parser.add_argument("--memory", type=int, metavar="FRAMES", help="run the memory measure instead")
    parser.add_argument("--view-speed", metavar="GIT_REF", help="time the tracker's look at a frame beside this commit's")
    parser.add_argument("--against", type=Path, metavar="OTHER.onnx",
                        help="deal each deal again with this index network, alternately, and compare CPU per frame")
    parser.add_argument("--pause", type=float, metavar="SHARE",
                        help="the dealer stops every slide a second, the thumb on the card, at this share of its "
                             "travel: the card beneath half uncovered under the leaving card's body")
    parser.add_argument("--hurried", type=float, metavar="SHARE", default=0.0,
                        help="each card (the second to the 51st) pushed on at once with this chance, the thumb on it "
                             "from the moment the card above clears the window: never seen in full view")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if not 0.0 <= args.hurried <= 1.0:
        parser.error(f"--hurried {args.hurried!r}: a chance, between 0 and 1")
    if args.pause is not None and not 0.0 < args.pause < 1.0:
        parser.error(f"--pause {args.pause!r}: a share of the slide, between 0 and 1")
    if args.against is not None and not args.against.is_file():
        parser.error(f"--against {str(args.against)!r}: no such file")
    if args.against:
        try:
            other = IndexNet(args.against.read_bytes(), source=str(args.against))
        except VisionError as exc:
            parser.error(str(exc))
        against(args.deals, args.seed, args.against.name, other)
    elif args.view_speed:
        view_speed(args.view_speed)
    elif args.memory:
        memory(args.memory, args.seed)
    else:
        accuracy(args.deals, args.seed, max(1, args.jobs), max(0, args.first), args.pause, args.hurried)


if __name__ == "__main__":
    main(sys.argv[1:])
