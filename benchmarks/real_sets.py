"""The real photo sets in ../shared/data as the recognition benchmarks see them.

Each set says how its images show a card (whole photos the locate step must search, crops or
rectified faces that are the card, corner close-ups), whether the shipped network trained on it
(in-sample), and how one deck is enrolled from it. Recolourings put every set under a Raspberry
Pi camera's colour cast and under glare.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from faro_box.cards import Card, Rank
from faro_box.commands.vision import load_labels
from faro_box.vision.sim.casts import glare, glare_at, pi_camera

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
CORRECTIONS = Path(__file__).resolve().parent / "label_corrections.csv"


def corrected_cards(name: str, data: Path = DATA) -> dict[Path, Card]:
    """The cards of set ``name`` whose label in its labels.csv is wrong, by image path: each row of
    label_corrections.csv was settled by eye, most where a game of one whole deck names a card
    twice and another not at all. A row whose label no longer stands in the set is refused, so a
    corrected set is not corrected twice."""
    with CORRECTIONS.open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["set"] == name]
    if not rows:
        return {}
    with (data / name / "labels.csv").open(newline="", encoding="utf-8") as f:
        labelled = {r["path"]: r["card"] for r in csv.DictReader(f)}
    out = {}
    for r in rows:
        if labelled.get(r["path"]) != r["label"]:
            raise SystemExit(f"{CORRECTIONS.name}: {name}'s {r['path']!r} is labelled "
                             f"{labelled.get(r['path'])!r}, not {r['label']!r}: the correction no longer fits")
        out[data / name / r["path"]] = Card.parse(r["card"])
    return out


@dataclass(frozen=True)
class Item:
    path: Path
    card: Card | None  # None: rank only, or no card
    rank: Rank | None
    empty: bool
    group: str
    box: tuple[int, int, int, int] | None = None  # a labelled box (x0, y0, x1, y1)
    # Where the set gives its card as the image: whether this image is one (a photo of a card on
    # a table, in a set of crops, is not: its edge is not the card's).
    whole: bool = True


@dataclass(frozen=True)
class RealSet:
    name: str
    view: str  # "face" or "corner"
    in_sample: bool  # the shipped network trained on it (the licensed sets)
    given: str  # how the card is "given": "image" (the image is the card), "turned" (the image is the
    #             card turned a quarter), "box" (labelled boxes), "" (whole photos: no given card)
    standard_index: bool  # a standard-index deck (the generic target's sets)

    def items(self) -> list[Item]:
        if self.name == "ov7670-slot":
            return self._slot_items()
        labels = load_labels(DATA / self.name / "labels.csv")
        fixed = corrected_cards(self.name)
        out = [Item(lb.path, fixed.get(lb.path, lb.card), fixed[lb.path].rank if lb.path in fixed else lb.rank,
                    lb.empty, lb.group) for lb in labels]
        if self.name == "tabletop-ranks":
            boxes = {path: tuple(int(r[k]) for k in ("xmin", "ymin", "xmax", "ymax")) for path, r in self._rows().items()}
            out = [dataclasses.replace(i, box=boxes[str(i.path)]) for i in out]  # type: ignore[arg-type]
        if self.name == "odd-deck-table-crops":
            rows = self._rows()
            out = [dataclasses.replace(i, group=rows[str(i.path)]["game"]) for i in out]
        if self.name == "sportsdirect-deck":
            rows = self._rows()
            # Its single-card photos show a card on a table, two of them small in the picture.
            out = [dataclasses.replace(i, whole=rows[str(i.path)]["kind"] != "single") for i in out]
        return out

    def _rows(self) -> dict[str, dict[str, str]]:
        """The set's labels.csv rows, by the image's full path: the columns load_labels leaves out."""
        with (DATA / self.name / "labels.csv").open() as f:
            return {str(DATA / self.name / r["path"]): r for r in csv.DictReader(f)}

    def _slot_items(self) -> list[Item]:
        """The joker is no card of the deck: like an empty slot, the reader must name no card."""
        out = []
        for r in self._rows().values():
            text = r["card"].strip().upper()
            card = None if text in ("NONE", "JOKER") else Card.parse(text)
            out.append(Item(DATA / self.name / r["path"], card, card.rank if card else None, card is None,
                            r["capture_date"]))
        return out

    def gives(self, item: Item) -> bool:
        """Whether the card is given for ``item``: the "card given" mode reads only those."""
        if self.view == "corner":
            return True
        if self.given == "box":
            return item.box is not None
        return self.given != "" and item.whole

    def window(self, image: np.ndarray, item: Item) -> list[float] | None:
        """The card given: the corners of the card (clockwise from its top-left) in ``image``."""
        if not item.whole:
            return None
        h, w = image.shape[:2]
        if self.given == "image":
            return [0, 0, w - 1, 0, w - 1, h - 1, 0, h - 1]
        if self.given == "turned":  # the card's top-left at the frame's top-right
            return [w - 1, 0, w - 1, h - 1, 0, h - 1, 0, 0]
        return None


SETS = (
    RealSet("feeder-corners", "corner", True, "", True),
    RealSet("tabletop-ranks", "face", True, "box", True),
    RealSet("phone-wood-table", "face", False, "", True),
    RealSet("dutch-bvh-dark", "face", False, "", False),
    RealSet("phone-black-pink", "face", False, "", True),
    RealSet("bicycle-brown-table", "face", False, "", True),
    RealSet("sportsdirect-deck", "face", False, "image", True),
    RealSet("ov7670-slot", "face", False, "turned", True),
    RealSet("webcam-rectified", "face", False, "image", True),
    RealSet("odd-deck-table-crops", "face", False, "image", False),
    RealSet("aristocrat-warped", "face", False, "image", True),
)


CONDITIONS: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "as shot": lambda im, _: im,
    "Pi camera cast": lambda im, _: pi_camera(im),
    "glare": lambda im, k: glare(im, glare_at(k)),
}


def load(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise SystemExit(f"cannot read {path}")
    return image
