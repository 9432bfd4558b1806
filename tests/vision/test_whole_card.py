"""A picture that is only the card (a scan, a crop, a rectified photo): its edge is the card's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from faro_box.cards import FULL_DECK, Card
from faro_box.commands.vision import enroll_pictures
from faro_box.vision.locate import find_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import render_card
from faro_box.vision.sim.synth import light_background

CARDS = [Card.parse(c) for c in ("QH", "7C", "10S", "AD", "KC", "2S")]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_a_picture_that_is_only_the_card_is_read(reader: Reader, card: Card) -> None:
    face = render_card(card, width=250, height=350)
    assert find_card(face) is not None
    reading = reader.read(face)
    assert reading.card == card, reading


def test_a_card_photographed_lying_on_its_side_is_read(reader: Reader) -> None:
    face = np.ascontiguousarray(np.rot90(render_card(Card.parse("9H"), width=250, height=350), k=-1))
    assert face.shape[:2] == (250, 350)
    assert reader.read(face).card == Card.parse("9H")


def test_a_camera_frame_without_a_card_is_never_taken_for_one(reader: Reader) -> None:
    rng = np.random.default_rng(4)
    for h, w in ((480, 640), (1080, 1920), (3040, 4056)):
        frame = cv2.resize(light_background(320, 240, rng), (w, h))
        assert find_card(frame) is None
        reading = reader.read(frame)
        assert reading.card is None and not reading.present


def test_a_deck_enrols_from_pictures_that_are_only_the_card() -> None:
    pictures = ((card, render_card(card, width=250, height=350), f"{card}.png") for card in FULL_DECK)
    profile = enroll_pictures(pictures, view="face", name="scans")
    assert profile.learned is not None and "index found on 52/52" in profile.learned.summary()
    enrolled = Reader(profile)
    assert all(enrolled.read(render_card(c, width=250, height=350)).card == c for c in CARDS)


def test_vision_read_names_the_card_of_a_scan(tmp_path: Path) -> None:
    path = tmp_path / "scan.png"
    cv2.imwrite(str(path), render_card(Card.parse("JD"), width=250, height=350))
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "vision", "read", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["card"] == "JD"


@pytest.mark.shared_data
def test_rectified_webcam_photos_are_read_end_to_end_and_never_wrong(shared_data: Path, reader: Reader) -> None:
    # A deck no threshold or weight was tuned on; before, no card was found in 49 of its 52.
    from faro_box.commands.vision import load_image, load_labels

    labels = [lb for lb in load_labels(shared_data / "webcam-rectified" / "labels.csv") if lb.card is not None]
    readings = [(lb.card, reader.read(load_image(lb.path)).card) for lb in labels]
    assert not [(truth, got) for truth, got in readings if got is not None and got != truth]
    assert sum(got == truth for truth, got in readings) >= 0.6 * len(readings)
