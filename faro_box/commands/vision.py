"""`faro-box vision enroll|read|eval`: deck profiles, reading images, measuring a profile.

The clock lives here, not in faro_box.vision (the pure core): ``ms`` is measured around
``Reader.read`` for each image.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from faro_box.cards import FULL_DECK, Card, Rank
from faro_box.devices.image_files import read_image
from faro_box.errors import CardError, VisionError
from faro_box.vision.canonical import View, check_image, check_inside, monochrome, parse_window, warp_quad
from faro_box.vision.locate import find_card
from faro_box.vision.profile import DeckProfile, build_profile, sample_from_view
from faro_box.vision.reader import MONOCHROME, Method, Reader


@dataclass(frozen=True, slots=True)
class Label:
    """One labelled image: a whole card, a rank only (tabletop photos), or no card (``empty``)."""

    path: Path
    card: Card | None
    rank: Rank | None
    empty: bool
    group: str = ""  # e.g. the capture date, for split reports


def load_labels(csv_path: str | Path) -> list[Label]:
    """Read LABELS.csv: ``path,card`` (or ``label``; NONE = no card), or ``path,rank,...`` with
    one row per card (tabletop photos: only images holding a single card are kept)."""
    csv_path = Path(csv_path)
    try:
        with csv_path.open(newline="", encoding="utf-8-sig") as f:  # -sig: the mark a spreadsheet writes first
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise VisionError(f"cannot read the labels file {str(csv_path)!r}: {exc}") from None
    if not rows or "path" not in rows[0]:
        raise VisionError(f"the labels file {str(csv_path)!r} needs a header with 'path' and 'card' columns")
    base = csv_path.parent
    key = "card" if "card" in rows[0] else "label" if "label" in rows[0] else None
    if key is None and "rank" not in rows[0]:
        raise VisionError(f"the labels file {str(csv_path)!r} has neither a 'card' nor a 'rank' column")
    out: list[Label] = []
    per_path = Counter(os.path.normpath((r.get("path") or "").strip()) for r in rows)
    named: dict[str, tuple[Card | None, str, int]] = {}
    for line, r in enumerate(rows, start=2):
        if not (r.get("path") or "").strip().strip("."):
            raise VisionError(f"{str(csv_path)!r} line {line}: no image path")
        text = (r.get(key) or "").strip() if key else ""
        image = os.path.normpath(r["path"].strip())
        said: Card | None = None
        if key:
            try:
                said = None if text.upper() in ("NONE", "EMPTY", "") else Card.parse(text)
            except CardError as exc:
                raise VisionError(f"{str(csv_path)!r} line {line}: {exc}") from None
            first = named.setdefault(image, (said, text, line))
            if first[0] != said:
                raise VisionError(f"{str(csv_path)!r} line {line}: {r['path']!r} is labelled {text!r} here and "
                                  f"{first[1]!r} on line {first[2]}")
        group = (r.get("capture_date") or "").strip()
        try:
            if key and said is None:
                out.append(Label(base / image, None, None, True, group))
            elif key and said is not None:
                out.append(Label(base / image, said, said.rank, False, group))
            elif per_path[image] == 1:
                out.append(Label(base / image, None, Rank.parse(r["rank"]), False, group))
        except CardError as exc:
            raise VisionError(f"{str(csv_path)!r} line {line}: {exc}") from None
    return out


def load_image(path: Path) -> np.ndarray:
    if not path.is_file():
        raise VisionError(f"no image file at {str(path)!r}")
    image = read_image(path)
    try:
        return check_image(image)
    except VisionError as exc:
        raise VisionError(f"{str(path)!r}: {exc}") from None


def window_on(image: np.ndarray, window: list[float] | None, source: str) -> np.ndarray | None:
    """The window given by hand, checked against one picture: VisionError naming ``source``
    where it reaches past the picture's edge."""
    if window is None:
        return None
    quad = parse_window(window)
    try:
        check_inside(quad, image.shape)
    except VisionError as exc:
        raise VisionError(f"{source!r}: {exc}") from None
    return quad


def parse_window_arg(text: str | None) -> list[float] | None:
    if text is None:
        return None
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise VisionError(f"--window must be 8 numbers x1,y1,...,x4,y4, not {text!r}") from None
    if len(values) != 8:
        raise VisionError(f"--window must be 8 numbers x1,y1,...,x4,y4, not {text!r}")
    parse_window(values)  # its shape judged once, not once per image
    return values


def make_reader(profile_path: str | None, view: str | None, learned: bool = False,
                method: str | None = None) -> Reader:
    """``method``: classical, learned or joint (vision.reader.Method); ``learned`` is short for
    learned; neither: the reader's default for the profile."""
    if learned and method not in (None, Method.LEARNED.value):
        raise VisionError(f"--learned reads with the learned network, --method {method!r} with another: give one")
    profile = DeckProfile.load(profile_path) if profile_path else None
    chosen = Method(method) if method else Method.LEARNED if learned else None
    if chosen is Method.LEARNED and profile is not None and profile.learned is None:
        raise VisionError(f"the deck profile {profile_path!r} has no learned part (made before the learned "
                          "reader): enrol the deck again to read it with --learned")
    reader = Reader(profile, view=View(view) if view else None, method=chosen)
    if reader.warning:
        print(f"faro-box vision: WARNING: {reader.warning}", file=sys.stderr)
    return reader


def timed(read: Callable[[np.ndarray], object], image: np.ndarray) -> tuple[object, float]:
    t0 = time.perf_counter()
    result = read(image)
    return result, (time.perf_counter() - t0) * 1000.0


def enroll(labels: Sequence[Label], *, view: str, name: str, window: list[float] | None = None,  # noqa: ANN201
           labels_checked: bool = False):
    """A DeckProfile from one image per card (more are fine: every image adds templates)."""
    pictures = ((label.card, load_image(label.path), str(label.path)) for label in labels if label.card is not None)
    return enroll_pictures(pictures, view=view, name=name, window=window, labels_checked=labels_checked)


def enroll_pictures(pictures: Iterable[tuple[Card, np.ndarray, str]], *, view: str, name: str,
                    window: list[float] | None = None, labels_checked: bool = False):  # noqa: ANN201
    """The one enrolment path (labelled images and video stills alike): (card, image, where it
    came from) -> a DeckProfile. ``labels_checked``: the dealer checked every label by eye, and
    a label the generic reading contradicts is enrolled as labelled (contradicted_label)."""
    v = View(view)
    seen: list[tuple[Card, np.ndarray]] = []
    sources: list[str] = []
    for card, image, source in pictures:
        if monochrome(image[::4, ::4]):
            # Every card read from such a camera is refused: a deck enrolled from it reads nothing.
            raise VisionError(f"the enrolment image {source!r} is {MONOCHROME}")
        if v is View.FACE:
            quad = window_on(image, window, source) if window is not None else find_card(image)
            if quad is None:
                raise VisionError(f"no card found in the enrolment image {source!r}")
            image = warp_quad(image, quad)
        seen.append((card, image))
        sources.append(source)
    return enroll_views(seen, view=view, name=name, sources=sources, labels_checked=labels_checked)


def contradicted_label(seen: Sequence[tuple[Card, np.ndarray]], view: View,
                       sources: Sequence[str] | None = None) -> str | None:
    """Why an enrolment picture's label is wrong, where the generic reading names another card
    (it names no wrong card on any standard-index deck it was measured on), or None. A wrong label
    would teach the deck's templates and prototypes one card's index under another's name."""
    reader = Reader(view=view)
    for k, (card, image) in enumerate(seen):
        h, w = image.shape[:2]
        whole = None if view is View.CORNER else [0, 0, w - 1, 0, w - 1, h - 1, 0, h - 1]
        read = reader.read(image, window=whole).card
        if read is not None and read != card:
            where = sources[k] if sources is not None else f"enrolment picture {k + 1}"
            return (f"{where!r} is labelled {card}, but its index reads {read}: check that label "
                    "(where it is right, enrol again with --labels-checked)")
    return None


def enroll_views(seen: Sequence[tuple[Card, np.ndarray]], *, view: str, name: str,  # noqa: ANN201
                 sources: Sequence[str] | None = None, labels_checked: bool = False):
    """(card, canonical face or corner close-up) -> a DeckProfile: the learned reader's deck,
    and the classical templates where the deck needs them (no readable index)."""
    import dataclasses

    from faro_box.vision.deck_bar import with_own_bar
    from faro_box.vision.learned import shipped_net
    from faro_box.vision.learned_deck import Mode, learn_deck, missing
    from faro_box.vision.profile import learned_only_profile

    v = View(view)
    if not seen:
        raise VisionError("the labels name no card to enrol")
    samples = [sample_from_view(card, image, v) for card, image in seen]
    net = shipped_net()
    deck = with_own_bar(net, learn_deck(net, seen, corner=v is View.CORNER), seen, corner=v is View.CORNER)
    if deck.mode is Mode.GENERIC_AND_OWN and not labels_checked:
        # Only where the generic heads named nearly the whole deck as labelled: a deck whose
        # glyphs mean other ranks (a Dutch V is the queen) disagrees with them on whole ranks.
        wrong = contradicted_label(seen, v, sources)
        if wrong is not None:
            raise VisionError(f"{wrong} (nothing enrolled)")
    if deck.mode is not Mode.FACE:
        gaps = missing(deck)
        if gaps:
            raise VisionError(f"enrolment saw no index for {gaps!r} ({deck.summary()}): add clearer images of "
                              "those cards")
    try:
        profile = build_profile(samples, name=name, view=v)
    except VisionError:
        # The classical glyph finder's fixed priors missed this deck's index on some cards: its
        # whole-face templates still learn (and read the deck where the network saw no index).
        if v is View.CORNER:
            if deck.mode is Mode.FACE:
                raise
            return learned_only_profile(name, v, deck)
        profile = build_profile([dataclasses.replace(s, index=None) for s in samples], name=name, view=v)
    return dataclasses.replace(profile, learned=deck)


def load_order(text: str) -> tuple[Card, ...]:
    """``new-deck`` (spades A..K, hearts, diamonds, clubs: the order FULL_DECK lists) or ORDER.csv:
    one card per line in the order dealt (``QH``; an optional ``card`` header, blank lines and a
    leading ``path,`` column are ignored)."""
    if text == "new-deck":
        return FULL_DECK
    path = Path(text)
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise VisionError(f"cannot read the order file {text!r}: {exc}") from None
    cards: list[Card] = []
    for n, line in enumerate(lines, start=1):
        field = line.split(",")[-1].strip()
        if not field or (n == 1 and field.lower() == "card"):
            continue
        try:
            card = Card.parse(field)
        except CardError as exc:
            raise VisionError(f"{text!r} line {n}: {exc}") from None
        if card in cards:
            raise VisionError(f"{text!r} line {n}: {str(card)!r} is named twice in the order")
        cards.append(card)
    if not cards:
        raise VisionError(f"the order file {text!r} names no card")
    return tuple(cards)


def video_frames(path: str) -> Iterator[np.ndarray]:
    """The frames of a video file, or a VisionError if OpenCV cannot open or decode it."""
    if not Path(path).is_file():
        raise VisionError(f"no video file at {path!r}")
    capture = cv2.VideoCapture(path)
    try:
        ok, frame = capture.read() if capture.isOpened() else (False, None)
        if not ok:
            raise VisionError(f"{path!r} is not a video OpenCV can read")
        while ok and frame is not None:
            yield np.asarray(frame, np.uint8)
            ok, frame = capture.read()
    finally:
        capture.release()


def enroll_video(path: str, order: Sequence[Card], *, name: str, window: list[float] | None = None,  # noqa: ANN201
                 labels_checked: bool = False):
    """A DeckProfile from a video of the deck dealt in ``order``: the first still, fully visible
    frame after each change is one card."""
    # Here, not at the top: the tracker it runs on is imported for enrolling from a video only
    # (`vision read` on a folder of crops should not pay for it).
    from faro_box.vision.stills import still_frames

    stills = still_frames(video_frames(path), window=window)
    if len(stills) != len(order):
        raise VisionError(f"the video {path!r} shows {len(stills)} card(s) at rest, but the order names "
                          f"{len(order)}: nothing enrolled")
    pictures = ((card, image, f"{path} frame {n}") for card, (n, image) in zip(order, stills, strict=True))
    return enroll_pictures(pictures, view="face", name=name, window=window, labels_checked=labels_checked)


def evaluate(reader, labels: Sequence[Label], *, window: list[float] | None = None) -> dict:  # noqa: ANN001
    """Accuracy, wrong reads, abstentions, confusions and timing of ``reader`` on ``labels``."""
    counts: Counter[str] = Counter()
    confusions: Counter[str] = Counter()
    groups: dict[str, Counter[str]] = {}
    times: list[float] = []
    for label in labels:
        image = load_image(label.path)
        window_on(image, window, str(label.path))
        reading, ms = timed(lambda im: reader.read(im, window=window), image)
        times.append(ms)
        card, rank = reading.card, reading.rank  # type: ignore[attr-defined]
        g = groups.setdefault(label.group or "all", Counter())
        if label.empty:
            counts["empty"] += 1
            counts["empty_ok" if card is None else "empty_wrong"] += 1
            if card is not None:
                confusions[f"NONE->{card}"] += 1
            continue
        if label.card is not None:
            outcome = "abstained" if card is None else "correct" if card == label.card else "wrong"
            for c in (counts, g):
                c["cards"] += 1
                c[outcome] += 1
            if outcome == "wrong":
                confusions[f"{label.card}->{card}"] += 1
        got = card.rank if card is not None else rank
        r_outcome = "rank_abstained" if got is None else "rank_correct" if got == label.rank else "rank_wrong"
        for c in (counts, g):
            c["ranks"] += 1
            c[r_outcome] += 1
        if r_outcome == "rank_wrong" and label.card is None:
            confusions[f"{label.rank}->{got}"] += 1
    return _summary(counts, confusions, groups, times)


def _summary(counts: Counter[str], confusions: Counter[str], groups: dict[str, Counter[str]],
             times: list[float]) -> dict:
    def rates(c: Counter[str]) -> dict:
        out: dict[str, object] = {}
        if c["cards"]:
            out |= {"cards": c["cards"], "accuracy": c["correct"] / c["cards"], "wrong": c["wrong"] / c["cards"],
                    "abstained": c["abstained"] / c["cards"], "n_wrong": c["wrong"], "n_abstained": c["abstained"]}
        if c["ranks"]:
            out |= {"ranks": c["ranks"], "rank_accuracy": c["rank_correct"] / c["ranks"],
                    "rank_wrong": c["rank_wrong"] / c["ranks"], "n_rank_wrong": c["rank_wrong"]}
        return out

    result = rates(counts)
    if counts["empty"]:
        result |= {"empty": counts["empty"], "empty_read_as_empty": counts["empty_ok"] / counts["empty"]}
    if len(groups) > 1:
        result["by_group"] = {k: rates(v) for k, v in sorted(groups.items())}
    result["confusions"] = dict(confusions.most_common())
    if times:
        result["ms_median"] = float(np.median(times))
        result["ms_p95"] = float(np.percentile(times, 95))
    return result


def _cmd_enroll(args: argparse.Namespace) -> int:
    from faro_box.vision.learned_deck import Mode

    window = parse_window_arg(args.window)
    if (args.labels is None) == (args.video is None):
        raise VisionError("enroll takes either LABELS.csv or --video FILE --order ORDER")
    if args.order is not None and args.video is None:
        raise VisionError(f"--order {args.order!r} goes with --video (LABELS.csv names each image's card)")
    if args.video is not None:
        if args.order is None:
            raise VisionError("--video needs --order new-deck or --order ORDER.csv (the order the cards were dealt)")
        if args.view != "face":
            raise VisionError(f"--video enrols whole faces, not --view {args.view!r}")
        profile = enroll_video(args.video, load_order(args.order), name=args.name or Path(args.video).stem,
                               window=window, labels_checked=args.labels_checked)
    else:
        profile = enroll(load_labels(args.labels), view=args.view, name=args.name or Path(args.labels).stem,
                         window=window, labels_checked=args.labels_checked)
    profile.save(args.out)
    deck = profile.learned
    middles = int(np.count_nonzero(np.abs(profile.middle_feats).sum(axis=1))) if len(profile.middle_feats) else 0
    pips, n = len(profile.corner_pip_labels), len(profile.face_labels)
    if not profile.has_index:
        what = (f"its whole faces, the print in their middles (seen on {middles}/{n} cards) and the suit pips in "
                f"their corners (on {pips}/{2 * n} corners)" if middles and pips else "its whole faces only")
        reads = (f"the network reads its index, the classical templates {what}"
                 if deck is not None and deck.mode is not Mode.FACE else f"it is read by {what}")
        print(f"faro-box vision enroll: WARNING: the classical glyph finder found no index on some cards "
              f"({profile.view.value} view): {reads}", file=sys.stderr)
    if deck is not None and deck.mode is Mode.FACE:
        print(f"faro-box vision enroll: WARNING: {deck.summary()}: this deck is read by the weaker classical "
              "templates; give images that show the index if the deck has one", file=sys.stderr)
    print(json.dumps({"profile": args.out, "view": profile.view.value, "rank_templates": len(profile.rank_labels),
                      "face_templates": n, "middle_prints": middles, "corner_pips": pips,
                      "has_index": profile.has_index,
                      "mode": deck.mode.name.lower() if deck is not None else None,
                      "index_found": f"{deck.found}/{deck.total}" if deck is not None else None,
                      "rank_glyph_height": round(deck.glyph_height, 4) if deck and deck.glyph_height else None,
                      "bar": deck.bar if deck is not None else None,  # None: read by whole faces
                      "learned": deck.summary() if deck is not None else None}))
    return 0


def _cmd_read(args: argparse.Namespace) -> int:
    window = parse_window_arg(args.window)
    reader = make_reader(args.profile, args.view, args.learned, args.method)
    failures = 0
    for path in args.images:
        try:
            image = load_image(Path(path))
            window_on(image, window, path)
            reading, ms = timed(lambda im: reader.read(im, window=window), image)
        except VisionError as exc:
            print(f"faro-box vision read: {exc}", file=sys.stderr)
            failures += 1
            continue
        card = reading.card  # type: ignore[attr-defined]
        line = {"path": path, "card": str(card) if card is not None else None,
                "confidence": round(float(reading.confidence), 4), "ms": round(ms, 2)}  # type: ignore[attr-defined]
        if card is None:
            line["why"] = reading.why  # type: ignore[attr-defined]
        print(json.dumps(line), flush=True)
    return 1 if failures else 0


def _cmd_eval(args: argparse.Namespace) -> int:
    labels = load_labels(args.labels)
    if not labels:
        raise VisionError(f"the labels file {args.labels!r} names no image to evaluate (a rank-only file keeps "
                          "only images named once)")
    reader = make_reader(args.profile, args.view, args.learned, args.method)
    result = evaluate(reader, labels, window=parse_window_arg(args.window))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for key, value in result.items():
        if key == "confusions":
            text = ", ".join(f"{k} x{v}" for k, v in value.items()) or "none"
            print(f"confusions: {text}")
        elif isinstance(value, dict):
            print(f"{key}: " + json.dumps(value))
        else:
            print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    return 0


def _method_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", choices=[m.value for m in Method],
                   help="classical: the profile's glyph templates; learned: the shipped network; joint: both "
                        "(default: joint for the generic profile, classical for an enrolled deck)")
    p.add_argument("--learned", action="store_true", help="short for --method learned")


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="vision_command", metavar="ACTION", required=True)
    views = ("face", "corner")

    p = sub.add_parser("enroll", help="learn a deck profile from LABELS.csv (path,card; paths relative to it) "
                       "or from a video of the deck dealt in a stated order")
    p.add_argument("labels", nargs="?")
    p.add_argument("--video", help="a video of the deck dealt through the box, one card after another")
    p.add_argument("--order", help="with --video: new-deck, or ORDER.csv with one card per line in the order dealt")
    p.add_argument("--out", required=True, help="where to write the profile (.npz)")
    p.add_argument("--view", choices=views, default="face",
                   help="face: whole cards (found in the image, or --window); corner: index close-ups")
    p.add_argument("--window", help="x1,y1,...,x4,y4: a calibrated window instead of finding the card")
    p.add_argument("--name", help="a name stored in the profile")
    p.add_argument("--labels-checked", action="store_true",
                   help="every label (or the order) was checked by eye: enrol a picture as labelled even where "
                        "the generic reading names another card")
    p.set_defaults(func=_cmd_enroll)

    p = sub.add_parser("read", help="read cards: one JSON line per image")
    p.add_argument("images", nargs="+")
    p.add_argument("--profile", help="a deck profile from 'vision enroll' (default: the generic profile)")
    p.add_argument("--window", help="x1,y1,...,x4,y4 clockwise from top-left: the calibrated window")
    p.add_argument("--view", choices=views, help="override the profile's view")
    _method_options(p)
    p.set_defaults(func=_cmd_read)

    p = sub.add_parser("eval", help="accuracy, wrong reads, abstentions, confusions, ms per frame")
    p.add_argument("labels")
    p.add_argument("--profile")
    p.add_argument("--window")
    p.add_argument("--view", choices=views)
    p.add_argument("--json", action="store_true", help="print one JSON document")
    _method_options(p)
    p.set_defaults(func=_cmd_eval)
