"""The card finder (find_card) on real photographs: found rate and corner error per set, and its speed.

    python benchmarks/bench_outline.py                   # accuracy per set and variant, then speed
    python benchmarks/bench_outline.py --baseline HEAD~3  # speed beside an older find_card, as ratios

Truth, per kind of set (../shared/data; nothing from it is stored in the project):
- corners: real rectified faces (webcam-rectified, aristocrat-warped, ov7670-slot turned upright)
  placed into 640x480 synthetic scenes (busy and light tables, rotation, perspective): the
  corners are where they were placed. Error: the mean distance of the four corners from the
  truth (best of the four ways round: the finder cannot tell a card from itself turned 180°),
  as a share of the card's width; found = within 10 % of the width, off = a quadrilateral
  found further away.
- box: tabletop-ranks' single-card photos, whose labels are the card's box: the found
  quadrilateral's box against it (each side's distance, as a share of the box's width).
- found only: the photographed sets (one card, upright, centred): found = a quadrilateral
  holding the photo's centre.
Each is measured as it is, under a Raspberry Pi camera's bluish cast (synth.PI_CAMERA_CAST) and
with a lamp's glare on the card (synth.glare).
Speed: CPU time of find_card per 640x480 frame (synthetic scenes and real faces placed in
them, tabletop photos scaled), one core; with --baseline, the older find_card on the same
frames, interleaved frame by frame (each first on every other frame), and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_faces import DATA, PHOTOGRAPHED, RECTIFIED, face, photos  # noqa: E402

from faro_box.cards import FULL_DECK  # noqa: E402
from faro_box.vision.locate import find_card  # noqa: E402
from faro_box.vision.sim.render import render_card  # noqa: E402
from faro_box.vision.sim.synth import (  # noqa: E402
    PI_CAMERA_CAST,
    busy_background,
    card_quad,
    glare,
    light_background,
    lighting,
    place_card,
)

Finder = Callable[[np.ndarray], "np.ndarray | None"]
VARIANTS = ("as is", "Pi camera cast", "glare")
FOUND_WITHIN = 0.10  # of the card's width


def variant(image: np.ndarray, name: str, quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if name == "Pi camera cast":
        return lighting(image, tint=PI_CAMERA_CAST)
    if name == "glare":
        return glare(image, quad, rng)
    return image


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Mean corner distance over the card's width, the best of the four ways round."""
    width = float(np.linalg.norm(truth[1] - truth[0]) + np.linalg.norm(truth[2] - truth[3])) / 2
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).mean()) for k in range(4)) / width


def placed_cases(name: str, rng: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(frame, true corners) for each face of a rectified set placed in a synthetic scene."""
    for i, photo in enumerate(photos(name)):
        card = face(name, photo)
        if card is None:
            continue
        table = light_background if i % 2 else busy_background
        quad = card_quad(640, 480, float(rng.uniform(220, 380)), float(rng.uniform(0, 360)),
                         (float(rng.uniform(220, 420)), float(rng.uniform(200, 280))), 0.05, rng)
        yield place_card(table(640, 480, rng), card, quad), quad


def tabletop_cases() -> Iterator[tuple[np.ndarray, tuple[float, float, float, float]]]:
    rows = list(csv.DictReader(open(DATA / "tabletop-ranks" / "labels.csv", newline="", encoding="utf-8")))
    count = Counter(r["path"] for r in rows)
    for r in rows:
        if count[r["path"]] == 1:
            image = cv2.imread(str(DATA / "tabletop-ranks" / r["path"]))
            if image is not None:
                yield image, (float(r["xmin"]), float(r["ymin"]), float(r["xmax"]), float(r["ymax"]))


def summary(name: str, kind: str, errors: list[float | None], off: int) -> str:
    n = len(errors)
    found = [e for e in errors if e is not None and e <= FOUND_WITHIN]
    text = f"{name:<44} {kind:<7} n {n:4d}  found {len(found) / n:6.1%}  off {off / n:6.1%}"
    if found:
        text += (f"  corner error: median {statistics.median(found):.1%}, "
                 f"p95 {sorted(found)[int(0.95 * (len(found) - 1))]:.1%} of the card's width")
    return text


def accuracy(finder: Finder) -> None:
    print(f"{'set, variant':<44} {'truth':<7}")
    for name in RECTIFIED:
        for v in VARIANTS:
            rng = np.random.default_rng(17)
            errors: list[float | None] = []
            off = 0
            for frame, quad in placed_cases(name, rng):
                got = finder(variant(frame, v, quad, rng))
                err = None if got is None else corner_error(np.asarray(got, np.float32), quad)
                off += err is not None and err > FOUND_WITHIN
                errors.append(err)
            print(summary(f"{name}, {v}", "corners", errors, off), flush=True)
    for v in VARIANTS:
        rng = np.random.default_rng(17)
        errors, off = [], 0
        for image, (x0, y0, x1, y1) in tabletop_cases():
            box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            got = finder(variant(image, v, box, rng))
            if got is None:
                errors.append(None)
                continue
            g = np.asarray(got, np.float32)
            gx0, gy0 = g.min(axis=0)
            gx1, gy1 = g.max(axis=0)
            err = max(abs(gx0 - x0), abs(gy0 - y0), abs(gx1 - x1), abs(gy1 - y1)) / (x1 - x0)
            off += err > FOUND_WITHIN
            errors.append(float(err))
        print(summary(f"tabletop-ranks single cards, {v}", "box", errors, off), flush=True)
    for name in PHOTOGRAPHED:
        for v in VARIANTS:
            rng = np.random.default_rng(17)
            found = missed = 0
            for photo in photos(name):
                photo_image = cv2.imread(str(photo.path))
                if photo_image is None:
                    continue
                h, w = photo_image.shape[:2]
                # Glare falls on the card as the finder found it in the photo as it is (or the middle).
                where = find_card(photo_image) if v == "glare" else None
                if where is None:
                    where = np.array([[0.3 * w, 0.3 * h], [0.7 * w, 0.3 * h], [0.7 * w, 0.7 * h],
                                      [0.3 * w, 0.7 * h]], np.float32)
                got = finder(variant(photo_image, v, where, rng))
                holds = got is not None and cv2.pointPolygonTest(
                    np.asarray(got, np.float32).reshape(-1, 1, 2), (w / 2, h / 2), False) >= 0
                found += holds
                missed += not holds
            n = found + missed
            print(f"{name + ', ' + v:<44} {'found':<7} n {n:4d}  found {found / n:6.1%}", flush=True)


def speed_frames() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    frames = []
    for i in range(30):
        card = render_card(FULL_DECK[int(rng.integers(52))])
        table = light_background if i % 2 else busy_background
        quad = card_quad(640, 480, float(rng.uniform(220, 380)), float(rng.uniform(0, 360)),
                         (float(rng.uniform(220, 420)), float(rng.uniform(200, 280))), 0.05, rng)
        frames.append(place_card(table(640, 480, rng), card, quad))
    rng = np.random.default_rng(8)
    frames += [f for f, _ in list(placed_cases("webcam-rectified", rng))[:20]]
    frames += [cv2.resize(image, (640, 480)) for image, _ in list(tabletop_cases())[:30]]
    return frames


def baseline_finder(ref: str) -> Finder:
    """find_card as it was at git ``ref`` (its locate module and those it finds with, loaded apart;
    glare where the ref has it)."""
    root = Path(__file__).resolve().parents[1]
    folder = Path(tempfile.mkdtemp(prefix="baseline-find-"))
    modules: dict[str, ModuleType] = {}
    for part in ("outline", "glare", "balance", "canonical", "locate"):
        shown = subprocess.run(["git", "show", f"{ref}:faro_box/vision/{part}.py"], cwd=root,
                               capture_output=True, text=True)
        if shown.returncode and part in ("glare", "balance", "canonical"):
            continue  # from before the glare search, or before these left the locate module
        shown.check_returncode()
        text = shown.stdout
        for other in ("outline", "balance", "canonical"):
            text = text.replace(f"from faro_box.vision.{other} import", f"from baseline_{other} import")
        text = text.replace("from faro_box.vision import glare\n", "import baseline_glare as glare\n")
        path = folder / f"baseline_{part}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"baseline_{part}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"baseline_{part}"] = module
        spec.loader.exec_module(module)
        modules[part] = module
    found: Finder = modules["locate"].find_card
    return found


def speed(finders: dict[str, Finder]) -> None:
    frames = speed_frames()
    times: dict[str, list[float]] = {k: [] for k in finders}
    order = list(finders.items())
    for _ in range(3):
        for f in frames:
            # Interleaved, the host's drift hitting both alike; and each first on every other frame,
            # the first to read a frame paying to bring it into the cache.
            order.reverse()
            for name, finder in order:
                c0 = time.thread_time()
                finder(f)
                times[name].append((time.thread_time() - c0) * 1000)
    print(f"\nSpeed: find_card on {len(frames)} 640x480 frames x 3, one core, CPU ms per frame")
    medians = {}
    for name, t in times.items():
        medians[name] = statistics.median(t)
        print(f"{name:<24} median {medians[name]:.2f} ms  p95 {sorted(t)[int(0.95 * (len(t) - 1))]:.2f} ms  "
              f"max {max(t):.2f} ms")
    if len(medians) == 2:
        a, b = medians.values()
        print(f"ratio now / baseline (medians): {a / b:.2f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="GIT_REF", help="time the find_card of this commit beside today's")
    parser.add_argument("--speed-only", action="store_true")
    args = parser.parse_args(argv)
    if not DATA.is_dir():
        print(f"no real photographs at ../shared/data ({DATA}): nothing to measure")
        return 0
    cv2.setNumThreads(1)
    try:
        os.sched_setaffinity(0, {0})
    except (AttributeError, OSError):
        pass
    finders: dict[str, Finder] = {"find_card now": find_card}
    if args.baseline:
        finders[f"find_card at {args.baseline}"] = baseline_finder(args.baseline)
    if not args.speed_only:
        for name, finder in finders.items():
            print(f"\n== {name}")
            accuracy(finder)
    speed(finders)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
