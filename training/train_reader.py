"""Train the learned index reader and export it as ONNX for OpenCV's dnn module.

    nice -n 10 python training/train_reader.py --data ../shared/data --out faro_box/vision/data

Needs the `train` extra (PyTorch on the CPU, onnx, onnxscript, Pillow). Trains on the synthetic
corpus (training/corpus.py) and on the two real sets whose licence allows shipped weights:
feeder-corners (index close-ups, rank and suit) and tabletop-ranks (cards on tables, rank only,
found with the project's own locate step). Writes index_net.onnx and index_net.json (how it was
made: command, seed, data, sizes, final training loss) beside it.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from faro_box.cards import Rank, Suit  # noqa: E402
from faro_box.vision.canonical import CardView  # noqa: E402
from faro_box.vision.index_patch import PATCH, IndexWindow, corner_patch, face_patches, prepare  # noqa: E402
from faro_box.vision.learned import EMBED, OUTPUTS  # noqa: E402
from faro_box.vision.locate import find_card  # noqa: E402
from training.corpus import NONE, SUIT_NONE, VERSION, Corpus  # noqa: E402

LICENSED = ("feeder-corners", "tabletop-ranks")


def _make(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, n = args
    os.nice(0)
    c = Corpus(seed)
    xs, rs, ss = [], [], []
    for _ in range(n):
        s = c.sample()
        xs.append(s.patch)
        rs.append(s.rank)
        ss.append(s.suit)
    return np.stack(xs), np.array(rs, np.int64), np.array(ss, np.int64)


CHUNK = 2000  # patches a worker draws from one seed: a larger corpus of the same seed starts with a smaller one


def synthetic(n: int, seed: int, workers: int, start: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patches ``start`` to ``n`` of the corpus drawn with ``seed`` (``start`` a multiple of CHUNK)."""
    jobs = [(seed * 1000 + i, min(CHUNK, n - i * CHUNK)) for i in range(start // CHUNK, (n + CHUNK - 1) // CHUNK)]
    with multiprocessing.Pool(workers) as pool:
        parts = pool.map(_make, jobs)
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


def _spoil_real(c: Corpus, patch: np.ndarray) -> np.ndarray:
    return c._spoil(patch, occlude_index=False)  # noqa: SLF001 - the corpus's own nuisances


def feeder(data: Path, copies: int, rng: np.random.Generator, c: Corpus) -> tuple[list, list, list]:
    xs, rs, ss = [], [], []
    with (data / "feeder-corners" / "labels.csv").open() as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        image = cv2.imread(str(data / "feeder-corners" / row["path"]))
        if image is None:
            continue
        h, w = image.shape[:2]
        for k in range(copies):
            if k == 0:
                crop = image
            else:
                s = rng.uniform(0.8, 1.0)
                cw, ch = round(w * s), round(h * s)
                x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
                crop = image[y0: y0 + ch, x0: x0 + cw]
            patch = corner_patch(crop)
            xs.append(_spoil_real(c, patch) if k else patch)
            if row["label"].upper() == "NONE":
                rs.append(NONE)
                ss.append(SUIT_NONE)
            else:
                rs.append(list(Rank).index(Rank.parse(row["rank"])))
                ss.append(list(Suit).index(Suit.parse(row["suit"])))
    return xs, rs, ss


def tabletop(data: Path, copies: int, rng: np.random.Generator, c: Corpus) -> tuple[list, list, list, int, int]:
    xs, rs, ss = [], [], []
    with (data / "tabletop-ranks" / "labels.csv").open() as f:
        rows = list(csv.DictReader(f))
    found = 0
    cache: dict[str, np.ndarray | None] = {}
    for row in rows:
        p = row["path"]
        if p not in cache:
            cache = {p: cv2.imread(str(data / "tabletop-ranks" / p))}
        image = cache[p]
        if image is None:
            continue
        x0, y0, x1, y1 = (int(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
        mx, my = round(0.15 * (x1 - x0)), round(0.15 * (y1 - y0))
        crop = image[max(0, y0 - my): y1 + my, max(0, x0 - mx): x1 + mx]
        if crop.size == 0:
            continue
        quad = find_card(crop)
        if quad is None:
            continue
        found += 1
        view = CardView(crop, quad)
        rank = list(Rank).index(Rank.parse(row["rank"]))
        for k in range(copies):
            window = IndexWindow() if k == 0 else IndexWindow(float(rng.uniform(-0.03, 0.04)),
                                                              float(rng.uniform(-0.03, 0.04)),
                                                              float(rng.uniform(0.42, 0.6)))
            for patch in face_patches(view, window):
                xs.append(_spoil_real(c, patch) if k else patch)
                rs.append(rank)
                ss.append(SUIT_NONE)
    return xs, rs, ss, found, len(rows)


ARCHITECTURES = ("pooled", "strided")


def build_net(arch: str = "pooled"):  # noqa: ANN201 - torch is imported lazily
    """``pooled``: every convolution at its map's full size, then a 2x2 max-pool. ``strided``: the
    first two convolutions step by two instead of pooling after them (the same 16x16 map after
    them, a quarter of their arithmetic: on one core the first, with its three input channels at
    64x64, costs most)."""
    import torch
    from torch import nn

    def conv(i: int, o: int, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    def block(i: int, o: int, convs: int = 2) -> nn.Sequential:
        layers = [m for k in range(convs) for m in conv(i if k == 0 else o, o)]
        return nn.Sequential(*layers, nn.MaxPool2d(2))

    if arch not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {arch!r}: one of {', '.join(ARCHITECTURES)}")

    class IndexNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # 64 -> 32 -> 16 -> 8 -> 4; the deep convolutions work on the small maps, where they
            # cost least.
            if arch == "pooled":
                self.features = nn.Sequential(block(3, 16, 1), block(16, 24, 1), block(24, 32, 1), block(32, 48, 2))
            else:
                self.features = nn.Sequential(*conv(3, 16, 2), *conv(16, 24, 2), block(24, 32, 1), block(32, 48, 2))
            self.embed = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(48 * 4 * 4, EMBED),
                                       nn.BatchNorm1d(EMBED), nn.ReLU(inplace=True))
            self.rank = nn.Linear(EMBED, 14)
            self.suit = nn.Linear(EMBED, 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            e = self.embed(self.features(x))
            unit = e / (e.norm(dim=1, keepdim=True) + 1e-6)
            return torch.cat([self.rank(e), self.suit(e), unit], dim=1)

    return IndexNet()


def _smaller_cached(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The largest cached corpus of this seed smaller than the one asked for: its patches are the same."""
    sizes = []
    if args.cache is not None and args.cache.is_dir():
        for f in args.cache.glob(f"synthetic_v{VERSION}_*_{args.seed}.npz"):
            m = re.fullmatch(rf"synthetic_v{VERSION}_(\d+)_{args.seed}", f.stem)
            if m and int(m[1]) < args.synthetic and int(m[1]) % CHUNK == 0:
                sizes.append(int(m[1]))
    if not sizes:
        return np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64)
    with np.load(args.cache / f"synthetic_v{VERSION}_{max(sizes)}_{args.seed}.npz") as z:
        return z["x"], z["r"], z["s"]


def export(net, args: argparse.Namespace, record: dict) -> None:  # noqa: ANN001 - torch is imported lazily
    import torch

    net.eval()
    args.out.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.zeros(1, 3, PATCH, PATCH),), str(args.out / "index_net.onnx"), dynamo=False,
                      input_names=["patch"], output_names=["out"], opset_version=13,
                      dynamic_axes={"patch": {0: "n"}, "out": {0: "n"}})
    (args.out / "index_net.json").write_text(json.dumps(record, indent=2) + "\n")
    # Every epoch kept: which one ships is chosen on the sets it never trained on, not by its loss.
    kept = args.out / "epochs"
    kept.mkdir(exist_ok=True)
    shutil.copy(args.out / "index_net.onnx", kept / f"index_net_e{record['epochs_done']:02d}.onnx")
    (kept / f"index_net_e{record['epochs_done']:02d}.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record), flush=True)
    net.train()


def _teacher(path: Path, threads: int):  # noqa: ANN202 - torch is imported lazily
    """The teacher's rank and suit probabilities of a batch, run by cv2.dnn as the box runs it."""
    import torch

    from faro_box.vision.learned import IndexNet

    cv2.setNumThreads(threads)
    net = IndexNet(path.read_bytes(), source=str(path))

    def probs(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = net.run_prepared(x.numpy())
        return torch.from_numpy(out.rank), torch.from_numpy(out.suit)

    return probs


def _distil(out, taught, suits, temperature: float):  # noqa: ANN001, ANN202 - torch is imported lazily
    """Cross-entropy against the teacher's probabilities, both softened by ``temperature`` (and
    scaled by its square, so the gradients keep their size): rank always, suit where the patch
    shows one."""
    import torch

    def soft(p: torch.Tensor) -> torch.Tensor:
        return torch.softmax(torch.log(p.clamp_min(1e-12)) / temperature, dim=1)

    rank_p, suit_p = taught
    loss = -(soft(rank_p) * torch.log_softmax(out[:, :14] / temperature, dim=1)).sum(1).mean()
    shown = suits >= 0
    if shown.any():
        loss = loss - (soft(suit_p[shown]) * torch.log_softmax(out[shown, 14:18] / temperature, dim=1)).sum(1).mean()
    return loss * temperature ** 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "data")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "faro_box" / "vision" / "data")
    ap.add_argument("--synthetic", type=int, default=60000)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--arch", choices=ARCHITECTURES, default="pooled", help="the network's layers (build_net says how "
                    "they differ)")
    ap.add_argument("--no-real", action="store_true", help="synthetic corpus only")
    ap.add_argument("--cache", type=Path, help="a folder keeping the synthetic corpus between runs")
    ap.add_argument("--teacher", type=Path, help="an index network (ONNX, e.g. an ensemble from training/ensemble.py) "
                    "whose probabilities the new network learns beside the labels")
    ap.add_argument("--teacher-weight", type=float, default=0.5, help="the teacher's share of the loss")
    ap.add_argument("--teacher-temperature", type=float, default=1.0,
                    help="both networks' probabilities softened by this temperature where the teacher's are learned")
    args = ap.parse_args()
    if args.teacher is not None and not args.teacher.is_file():
        ap.error(f"--teacher {str(args.teacher)!r}: no such file")
    if args.teacher is not None:
        from faro_box.errors import VisionError
        from faro_box.vision.learned import IndexNet

        try:
            IndexNet(args.teacher.read_bytes(), source=str(args.teacher))
        except VisionError as exc:
            ap.error(str(exc))
    if not 0.0 <= args.teacher_weight <= 1.0 or args.teacher_temperature <= 0:
        ap.error(f"--teacher-weight must lie in [0, 1] and --teacher-temperature above 0, not "
                 f"{args.teacher_weight!r} and {args.teacher_temperature!r}")

    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    cache = args.cache / f"synthetic_v{VERSION}_{args.synthetic}_{args.seed}.npz" if args.cache else None
    if cache is not None and cache.is_file():
        with np.load(cache) as z:
            xs, rs, ss = z["x"], z["r"], z["s"]
    else:
        xs, rs, ss = _smaller_cached(args)
        if len(xs) < args.synthetic:
            more = synthetic(args.synthetic, args.seed, args.threads, start=len(xs))
            xs, rs, ss = (np.concatenate([a, b]) for a, b in zip((xs, rs, ss), more, strict=True))
        if cache is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            np.savez(cache, x=xs, r=rs, s=ss)
    print(f"synthetic: {len(xs)} patches in {time.time() - t0:.0f} s", flush=True)
    record: dict[str, object] = {"synthetic": int(len(xs)), "corpus_version": VERSION}
    if not args.no_real:
        c = Corpus(args.seed + 1)
        fx, fr, fs = feeder(args.data, 6, rng, c)
        tx, tr, ts, found, total = tabletop(args.data, 3, rng, c)
        print(f"feeder-corners: {len(fx)} patches; tabletop-ranks: card found in {found}/{total}, "
              f"{len(tx)} patches ({time.time() - t0:.0f} s)", flush=True)
        xs = np.concatenate([xs, np.stack(fx), np.stack(tx)])
        rs = np.concatenate([rs, fr, tr])
        ss = np.concatenate([ss, fs, ts])
        record |= {"feeder_corners": len(fx), "tabletop_ranks": len(tx), "tabletop_cards_found": f"{found}/{total}"}
    x_all = torch.from_numpy(prepare(xs))
    r_all, s_all = torch.from_numpy(rs), torch.from_numpy(ss)
    net = build_net(args.arch)
    steps = args.epochs * (len(x_all) // args.batch)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    suit_loss = nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=SUIT_NONE)
    teacher = _teacher(args.teacher, args.threads) if args.teacher is not None else None
    record |= {
        "command": "nice -n 10 python training/train_reader.py " + " ".join(sys.argv[1:]),
        "seed": args.seed, "arch": args.arch, "epochs": args.epochs, "batch": args.batch, "threads": args.threads,
        "torch": torch.__version__, "outputs": OUTPUTS, "patch": PATCH,
        "data": "synthetic corpus (training/corpus.py)" + ("" if args.no_real else
                                                            " + feeder-corners + tabletop-ranks (Apache-2.0)"),
    }
    if args.teacher is not None:
        record |= {"teacher": {"sha256": hashlib.sha256(args.teacher.read_bytes()).hexdigest(),
                               "weight": args.teacher_weight, "temperature": args.teacher_temperature}}
    step = 0
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(x_all))
        total_loss, correct, seen = 0.0, 0, 0
        for b in range(len(x_all) // args.batch):
            idx = order[b * args.batch: (b + 1) * args.batch]
            x = x_all[idx]
            if torch.rand(()) < 0.5:  # small shifts: where the window falls is never exact
                dx, dy = (int(v) for v in torch.randint(-3, 4, (2,)))
                x = torch.roll(x, (dy, dx), dims=(2, 3))
            out = net(x)
            loss = rank_loss(out[:, :14], r_all[idx])
            if (s_all[idx] >= 0).any():
                loss = loss + suit_loss(out[:, 14:18], s_all[idx])
            if teacher is not None:
                loss = (1 - args.teacher_weight) * loss + args.teacher_weight * _distil(
                    out, teacher(x), s_all[idx], args.teacher_temperature)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total_loss += float(loss.detach()) * len(idx)
            correct += int((out[:, :14].argmax(1) == r_all[idx]).sum())
            seen += len(idx)
        print(f"epoch {epoch + 1}/{args.epochs}: loss {total_loss / seen:.4f}, rank acc {correct / seen:.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
        # Exported after every epoch: a run cut short still leaves its latest network.
        export(net, args, record | {"epochs_done": epoch + 1, "final_loss": round(total_loss / seen, 4),
                                    "final_rank_accuracy": round(correct / seen, 4),
                                    "minutes": round((time.time() - t0) / 60, 1)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
