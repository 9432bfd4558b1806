"""The whole-card sets of ../shared/data as the tracker and outline benchmarks use them: labelled photos, and one
upright face per card for the composite dealing-box videos.

Rectified sets (a whole image is one card's face) are taken as they are; photos of a card on a
table are cut out by the card finder (``find_card``), and a photo where it finds no card gives no
face (counted, so a benchmark says how many cards its deck lacks).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from real_sets import corrected_cards

from faro_box.cards import Card
from faro_box.vision.canonical import warp_quad
from faro_box.vision.locate import find_card

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"

# Sets whose images are one card's upright face, edge to edge.
RECTIFIED = ("webcam-rectified", "aristocrat-warped")
# Sets of photos showing one whole card on a table (or cut from one with a margin).
PHOTOGRAPHED = ("phone-wood-table", "phone-black-pink", "bicycle-brown-table", "dutch-bvh-dark",
                "sportsdirect-deck", "odd-deck-table-crops")
# A fixed camera over a slot, the card filling the frame turned a quarter.
SLOT = ("ov7670-slot",)
WHOLE_CARD_SETS = ("phone-wood-table", "phone-black-pink", "bicycle-brown-table", "webcam-rectified",
                   "sportsdirect-deck", "dutch-bvh-dark", "aristocrat-warped", "ov7670-slot", "odd-deck-table-crops")


@dataclass(frozen=True, slots=True)
class Photo:
    path: Path
    card: Card
    group: str  # a session, a game or a kind: what a set splits by


def photos(name: str, data: Path = DATA) -> list[Photo]:
    """The labelled single-card photos of set ``name`` (jokers and empty slots left out)."""
    fixed = corrected_cards(name, data)
    out = []
    with open(data / name / "labels.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            try:
                card = Card.parse(row["card"])
            except ValueError:
                continue  # JOKER, NONE
            group = row.get("capture_date") or row.get("game") or row.get("kind") or ""
            path = data / name / row["path"]
            out.append(Photo(path, fixed.get(path, card), group))
    return out


def face(name: str, photo: Photo, *, slot_frame: bool = False) -> np.ndarray | None:
    """The card's upright face in ``photo`` (any size), or None when the finder finds no card.
    ``slot_frame``: a slot camera's whole frame is the face, the slot's dark floor at its edges
    (as a window calibrated a little loose round the card shows it), not what the finder finds."""
    image = cv2.imread(str(photo.path))
    if image is None:
        return None
    if name in RECTIFIED:
        return image
    if name in SLOT:  # the card turned a quarter, the slot's floor around it
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        if slot_frame:
            return image
    quad = find_card(image)
    return None if quad is None else warp_quad(image, quad)


def faces(name: str, data: Path = DATA, group: str | None = None,
          other_than: str | None = None, *, slot_frame: bool = False) -> tuple[dict[Card, np.ndarray], int]:
    """One face per card of set ``name`` (the first photo of each card that gives one; only
    photos of ``group`` when given, none of ``other_than``; ``slot_frame`` as face's), and how
    many of the set's cards gave none."""
    got: dict[Card, np.ndarray] = {}
    cards: set[Card] = set()
    for photo in photos(name, data):
        if (group is not None and photo.group != group) or (other_than is not None and photo.group == other_than):
            continue
        cards.add(photo.card)
        if photo.card in got:
            continue
        f = face(name, photo, slot_frame=slot_frame)
        if f is not None:
            got[photo.card] = f
    return got, len(cards) - len(got)
