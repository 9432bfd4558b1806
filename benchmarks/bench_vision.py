"""Card recognition on real photographs (../shared/data), our reader beside the classical peer.

    python benchmarks/bench_vision.py [--against OTHER.onnx]

1. Enrolled deck, feeder-corners: one image per card enrols (rule: the first February image of
   each card in labels.csv order), every other image is the test; split by capture date.
   The classical peer (benchmarks/classic_peer.py) is enrolled on the same 52 images.
2. Generic profile, no enrolment: feeder-corners (corner view) and the single-card images of
   tabletop-ranks (find mode, rank only).
3. Speed on 640×480 frames (find mode, synthetic scenes busy and light and tabletop photos
   scaled to 640×480; window mode) and on 224×224 corner crops (ours beside the classical peer)
   on one core (sched_setaffinity to CPU 0, cv2.setNumThreads(1)); CPU ms per frame (median, p95:
   the machine may be shared) and wall ms; max RSS of this process. ``--against`` times the box's
   joint reader with another index network too, in the same passes (a network before or a candidate).
"""

from __future__ import annotations

import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classic_peer import ClassicPeer  # noqa: E402

from faro_box.cards import FULL_DECK, Card  # noqa: E402
from faro_box.commands.vision import Label, enroll, evaluate, load_labels  # noqa: E402
from faro_box.errors import VisionError  # noqa: E402
from faro_box.vision.classical import ClassicalReader  # noqa: E402
from faro_box.vision.learned import IndexNet  # noqa: E402
from faro_box.vision.reader import Reader  # noqa: E402
from faro_box.vision.sim.render import render_card  # noqa: E402
from faro_box.vision.sim.synth import busy_background, card_quad, light_background, place_card  # noqa: E402

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def pin_one_core() -> str:
    cv2.setNumThreads(1)
    try:
        os.sched_setaffinity(0, {0})
        return "pinned to CPU 0"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity)"


def split_feeder(labels: list[Label]) -> tuple[list[Label], list[Label]]:
    enrol: dict[Card, Label] = {}
    test = []
    for label in labels:
        if label.card is not None and label.group.startswith("2021-02") and label.card not in enrol:
            enrol[label.card] = label
        else:
            test.append(label)
    return list(enrol.values()), test


def pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


def row(name: str, r: dict) -> str:
    cards = f"{pct(r['accuracy'])} {pct(r['wrong'])} {pct(r['abstained'])}" if "cards" in r else " " * 23
    ranks = f"{pct(r['rank_accuracy'])} {pct(r['rank_wrong'])}" if "ranks" in r else " " * 15
    n = r.get("cards", r.get("ranks", 0))
    return f"{name:<44} {n:>5}  {cards}   {ranks}"


def peer_eval(peer: ClassicPeer, test: list[Label]) -> dict:
    c: Counter[str] = Counter()
    times = []
    for label in test:
        image = cv2.imread(str(label.path))
        t0 = time.perf_counter()
        card = peer.read(image)
        times.append((time.perf_counter() - t0) * 1000)
        if label.empty:
            c["empty_ok" if card is None else "empty_wrong"] += 1
            continue
        c["cards"] += 1
        c["abst" if card is None else "ok" if card == label.card else "wrong"] += 1
        c["ranks"] += 1
        c["r_ok" if card is not None and card.rank == label.rank else "r_wrong" if card is not None else "r_abst"] += 1
    n = c["cards"]
    return {"cards": n, "accuracy": c["ok"] / n, "wrong": c["wrong"] / n, "abstained": c["abst"] / n,
            "ranks": n, "rank_accuracy": c["r_ok"] / n, "rank_wrong": c["r_wrong"] / n,
            "empty_ok": c["empty_ok"], "empty_wrong": c["empty_wrong"],
            "ms_median": float(np.median(times)), "ms_p95": float(np.percentile(times, 95))}


def speed(read: Callable[[np.ndarray], object], frames: list[np.ndarray]) -> tuple[float, float, float, float]:
    """Wall median and p95, CPU median and p95 (ms per frame) over three passes of ``frames``."""
    walls, cpus = [], []
    for f in frames * 3:
        t0, c0 = time.perf_counter(), time.process_time()
        read(f)
        walls.append((time.perf_counter() - t0) * 1000)
        cpus.append((time.process_time() - c0) * 1000)
    return (float(np.median(walls)), float(np.percentile(walls, 95)),
            float(np.median(cpus)), float(np.percentile(cpus, 95)))


def host_reference() -> float:
    """CPU microseconds of sum(range(1000)), median of 300: how fast this core runs Python now."""
    times = []
    for _ in range(300):
        c0 = time.process_time()
        sum(range(1000))
        times.append(time.process_time() - c0)
    return float(np.median(times)) * 1e6


def synthetic_frames(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    frames = []
    for i in range(n):
        card = FULL_DECK[int(rng.integers(52))]
        bg = light_background(640, 480, rng) if i % 2 else busy_background(640, 480, rng)
        quad = card_quad(640, 480, float(rng.uniform(220, 380)), float(rng.uniform(0, 360)),
                         (float(rng.uniform(220, 420)), float(rng.uniform(200, 280))), 0.05, rng)
        frames.append(place_card(bg, render_card(card), quad))
    return frames


def main() -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--against", type=Path, help="another index network (ONNX) to time beside the shipped one")
    args = ap.parse_args()
    if args.against is not None and not args.against.is_file():
        ap.error(f"--against {str(args.against)!r}: no such file")
    try:
        other_net = IndexNet(args.against.read_bytes(), source=str(args.against)) if args.against else None
    except VisionError as exc:
        ap.error(str(exc))
    if not DATA.is_dir():
        print(f"no real photographs at ../shared/data ({DATA}): nothing to measure")
        return 0
    pinned = pin_one_core()
    print(f"bench_vision: {pinned}, OpenCV {cv2.__version__}, load average {os.getloadavg()[0]:.1f}")
    header = f"{'':<44} {'n':>5}  {'correct':>7} {'wrong':>7} {'abstain':>7}   {'rank ok':>7} {'r.wrong':>7}"

    feeder = load_labels(DATA / "feeder-corners" / "labels.csv")
    enrol_set, test = split_feeder(feeder)
    profile = enroll(enrol_set, view="corner", name="feeder")
    reader = Reader(profile, learned=True)
    ours = evaluate(reader, test)
    classical = evaluate(ClassicalReader(profile), test)
    peers = {}
    for otsu in (False, True):
        peer = ClassicPeer(otsu=otsu)
        for label in enrol_set:
            peer.enroll(label.card, cv2.imread(str(label.path)))  # type: ignore[arg-type]
        peers["classical peer" + (" + Otsu card threshold" if otsu else " as published")] = peer_eval(peer, test)

    print("\n1. Enrolled deck, feeder-corners (enrol: first Feb image of each card; test: the other "
          f"{sum(1 for t in test if not t.empty)} card images + {sum(1 for t in test if t.empty)} empty)")
    print(header)
    print("(the learned network trained on feeder-corners: these figures are in-sample; "
          "benchmarks/bench_reader_loso.py has the out-of-sample ones)")
    print(row("ours (learned): all", ours))
    print(row("ours (classical templates, the former reader): all", classical))
    for group in ("2021-02", "2021-09"):
        sub = [t for t in test if t.group.startswith(group)]
        print(row(f"ours: {group} ({'all suits' if group.endswith('02') else 'diamonds, bluish light'})",
                  evaluate(reader, sub)))
    for name, theirs in peers.items():
        print(row(f"{name}: all", theirs))
    print(f"empty slots read as no card: ours {ours['empty_read_as_empty']:.0%} of {ours['empty']}; "
          + "; ".join(f"{k} {v['empty_ok']}/{v['empty_ok'] + v['empty_wrong']}" for k, v in peers.items()))
    print(f"ms per 224x224 image: ours median {ours['ms_median']:.2f} p95 {ours['ms_p95']:.2f}; "
          + "; ".join(f"{k} median {v['ms_median']:.2f} p95 {v['ms_p95']:.2f}" for k, v in peers.items()))
    print(f"confusions (ours): {ours['confusions'] or 'none'}")

    print("\n2. Generic profile, no enrolment")
    print(header)
    generic_corner = Reader(view=profile.view, learned=True)
    g_feed = evaluate(generic_corner, [t for t in feeder])
    print(row("feeder-corners, all 816 (corner view)", g_feed))
    print(row("  the same, classical generic templates", evaluate(ClassicalReader(view=profile.view), feeder)))
    tab = load_labels(DATA / "tabletop-ranks" / "labels.csv")
    generic = Reader(learned=True)
    g_tab = evaluate(generic, tab)
    print(row("tabletop-ranks, single-card images (find mode)", g_tab))
    print(row("  the same, classical generic templates", evaluate(ClassicalReader(), tab)))
    print(f"confusions: feeder {g_feed['confusions'] or 'none'}; tabletop {g_tab['confusions'] or 'none'}")

    print(f"\n3. Speed, 640x480 frames, one core (host reference: sum(range(1000)) takes {host_reference():.1f} us "
          "of CPU; a quiet desktop core about 10 us)")
    synth = synthetic_frames(30)
    photos: list[np.ndarray] = [cv2.resize(np.asarray(cv2.imread(str(t.path))), (640, 480)) for t in tab[:30]]
    window = [100, 60, 300, 60, 300, 340, 100, 340]
    crops: list[np.ndarray] = [np.asarray(cv2.imread(str(t.path))) for t in test[::16]]
    classical_generic = ClassicalReader()
    joint = Reader()  # the box's own generic reader: learned and classical together
    first_look = Reader(second_look=False)  # the same without its second look where it abstains
    other = [] if other_net is None else [Reader(net=other_net)]
    rows = [(f"{mode} mode, synthetic scenes, joint, {args.against.name}",
             (lambda f, r=r: r.read(f)) if mode == "find" else (lambda f, r=r: r.read(f, window=window)), synth)
            for r in other for mode in ("find", "window")]
    for name, read, frames in (
            ("find mode, synthetic scenes, joint (the box's)", joint.read, synth),
            ("window mode, synthetic scenes, joint (the box's)", lambda f: joint.read(f, window=window), synth),
            ("find mode, synthetic scenes, joint, first look only", first_look.read, synth),
            ("window mode, synthetic scenes, joint, first look only",
             lambda f: first_look.read(f, window=window), synth),
            ("find mode, tabletop photos at 640x480, joint (the box's)", joint.read, photos),
            ("find mode, tabletop photos at 640x480, joint, first look only", first_look.read, photos),
            *rows,
            ("find mode, synthetic scenes (all)", generic.read, synth),
            ("find mode, synthetic scenes, classical", classical_generic.read, synth),
            ("find mode, synthetic scenes, busy tables", generic.read, synth[0::2]),
            ("find mode, synthetic scenes, light tables", generic.read, synth[1::2]),
            ("find mode, tabletop photos at 640x480", generic.read, photos),
            ("window mode, synthetic scenes", lambda f: generic.read(f, window=window), synth),
            ("window mode, synthetic scenes, classical", lambda f: classical_generic.read(f, window=window), synth),
            ("corner view 224x224, enrolled (ours)", reader.read, crops),
            ("corner view 224x224, generic (ours)", generic_corner.read, crops),
            ("corner view 224x224, classical peer + Otsu", peer.read, crops)):
        med, p95, cpu, cpu95 = speed(read, frames)
        print(f"{name:<44} cpu median {cpu:5.2f} ms  p95 {cpu95:5.2f} ms   wall median {med:5.2f} ms  p95 {p95:5.2f} ms")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"max RSS of this process (reader + benchmark + all images decoded one by one): {rss:.0f} MB")
    processes(enrol_set, test)
    return 0


def run_process(argv: list[str]) -> tuple[float, float, float]:
    """Wall s, CPU s (user + system) and max RSS MB of one child process, pinned to CPU 0.

    The max RSS is not the child's own: Linux keeps the high-water mark across exec, and a spawned
    child starts from this benchmark's (vfork). `/usr/bin/time -v` on the command gives the child's.
    The child may write its bytecode: an installed package runs from the bytecode pip compiled, and
    a shell that forbids writing it (PYTHONDONTWRITEBYTECODE) would time Python's compiler on
    every run of ours, against one small file of the peer's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env | {"OMP_NUM_THREADS": "1", "OPENCV_FOR_THREADS_NUM": "1"},
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                                       (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    try:
        os.sched_setaffinity(pid, {0})
    except (AttributeError, OSError):
        pass
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{argv[:4]} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def processes(enrol_set: list[Label], test: list[Label]) -> None:
    """A whole `faro-box vision read` process beside the classical peer's, on the same crops."""
    import tempfile

    photos = [str(t.path) for t in test if not t.empty][:200]
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "feeder.npz"
        enroll(enrol_set, view="corner", name="feeder").save(profile)
        enrol_csv = Path(tmp) / "enrol.csv"
        enrol_csv.write_text("path,card\n" + "".join(f"{e.path},{e.card}\n" for e in enrol_set))
        runs = {
            "faro-box vision read --learned (enrolled)": [sys.executable, "-m", "faro_box.cli", "vision", "read",
                                                          "--learned", "--view", "corner", "--profile", str(profile),
                                                          *photos],
            "faro-box vision read (enrolled, joint)": [sys.executable, "-m", "faro_box.cli", "vision", "read",
                                                       "--view", "corner", "--profile", str(profile), *photos],
            "faro-box vision read (classical, enrolled)": [sys.executable, "-m", "faro_box.cli", "vision", "read",
                                                           "--method", "classical", "--view", "corner", "--profile",
                                                           str(profile), *photos],
            "faro-box vision read (generic: joint)": [sys.executable, "-m", "faro_box.cli", "vision", "read",
                                                      "--view", "corner", *photos],
            "classical peer process (enrolled)": [sys.executable, str(Path(__file__).parent / "classic_peer.py"),
                                                  str(enrol_csv), *photos],
        }
        print(f"\n4. Whole processes on {len(photos)} feeder-corners crops, one core, best of 3 "
              "(start-up, imports, enrolment or profile load included)")
        results = {}
        for name, argv in runs.items():
            best = min((run_process(argv) for _ in range(3)), key=lambda r: r[1])
            results[name] = best
            print(f"{name:<44} wall {best[0]:6.2f} s  cpu {best[1]:6.2f} s")
        peer = results["classical peer process (enrolled)"][1]
        print("CPU ratio ours / peer: " + ", ".join(f"{name.removeprefix('faro-box vision read ')} {cpu / peer:.2f}"
                                                    for name, (_, cpu, _) in results.items() if "peer" not in name))


if __name__ == "__main__":
    sys.exit(main())
