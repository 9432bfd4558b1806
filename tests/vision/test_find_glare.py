"""Find mode under a lamp's glare on a glossy wooden table: the lit table beside the card is as
white as its paper, and joins it in every paper and whiteness mask; where the glare lies across
the card's edge, the card's outline never closes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.commands.vision import load_image
from faro_box.vision.locate import find_card, whole_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.casts import Glare, glare, glare_at
from faro_box.vision.sim.render import render_card
from faro_box.vision.sim.synth import card_quad, place_card

CARDS = ("7H", "QS", "3C", "10D")


def wood_table(rng: np.random.Generator, width: int = 640, height: int = 480) -> np.ndarray:
    """Warm wood with its grain running across the frame."""
    grain = cv2.resize(rng.normal(0, 18, (height // 16 + 1, 1)).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_LINEAR)
    wood = np.array([45, 100, 170], np.float32) + grain[..., None] + rng.normal(0, 5, (height, width, 1))
    return np.clip(wood, 0, 255).astype(np.uint8)


def glare_scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A card on the table with a lamp's glare by one of its corners: the picture and the card's corners."""
    rng = np.random.default_rng(seed)
    quad = card_quad(640, 480, float(rng.uniform(220, 320)), float(rng.uniform(-15, 15)), (320, 240))
    scene = place_card(wood_table(rng), render_card(Card.parse(CARDS[seed % 4])), quad)
    centre, corner = quad.mean(axis=0), quad[int(rng.integers(4))]
    spot = centre + float(rng.uniform(0.6, 1.2)) * (corner - centre)
    size = (float(rng.uniform(0.08, 0.2)), float(rng.uniform(0.08, 0.2)))
    return glare(scene, Glare((float(spot[0]) / 640, float(spot[1]) / 480), size, float(rng.uniform(150, 230)))), quad


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4))


# Each of these the finder missed (no card found) before it looked inside the card's outline.
@pytest.mark.parametrize("seed", [20, 55, 66, 67, 75, 98])
def test_a_card_the_glare_joins_to_the_table_is_found_by_its_outline(seed: int) -> None:
    image, truth = glare_scene(seed)
    found = find_card(image)
    assert found is not None
    assert _corner_error(found, truth) < 4.0  # pixels, of a card 160-230 wide


def side_glare_scene(seed: int) -> tuple[np.ndarray, np.ndarray, Card]:
    """A card on the table with a lamp's glare burning out the middle of one of its sides: the
    picture, the card's corners and the card."""
    rng = np.random.default_rng(seed)
    quad = card_quad(640, 480, float(rng.uniform(220, 320)), float(rng.uniform(-15, 15)), (320, 240))
    card = Card.parse(CARDS[seed % 4])
    scene = place_card(wood_table(rng), render_card(card), quad)
    side = int(rng.integers(4))
    spot = 0.5 * (quad[side] + quad[(side + 1) % 4])
    size = (float(rng.uniform(0.1, 0.16)), float(rng.uniform(0.1, 0.16)))
    return glare(scene, Glare((float(spot[0]) / 640, float(spot[1]) / 480), size, float(rng.uniform(200, 240)))), \
        quad, card


# Each of these the finder missed before it looked for the card's straight sides (no card found,
# or the card and the lit table beside it taken together for one).
@pytest.mark.parametrize("seed", [0, 1, 10, 18, 19, 26, 31, 33, 39])
def test_a_card_whose_side_lies_under_the_glare_is_found_by_its_straight_sides(seed: int) -> None:
    image, truth, _ = side_glare_scene(seed)
    found = find_card(image)
    assert found is not None
    assert _corner_error(found, truth) < 5.0  # pixels, of a card 160-230 wide


def test_a_card_whose_side_lies_under_the_glare_is_never_named_wrongly() -> None:
    reader = Reader()
    named = 0
    for seed in range(40):
        image, _, card = side_glare_scene(seed)
        got = reader.read(image).card
        assert got in (None, card), seed
        named += got is not None
    assert named >= 30  # of 40: most are read


# A round lamp's glare on an empty table: the outline of the glare, or of the grain's streaks,
# closes on no card. (On seeds 2 and 4 the paper mask takes the lit patch itself for a card,
# before this search and with it.)
@pytest.mark.parametrize("seed", [0, 1, 3, 5])
def test_a_lit_table_with_no_card_on_it_holds_no_card(seed: int) -> None:
    rng = np.random.default_rng(seed)
    table = glare(wood_table(rng), Glare((float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.3, 0.7))),
                                         (0.12, 0.16), float(rng.uniform(150, 230))))
    assert find_card(table) is None


def test_a_picture_that_is_the_card_stays_the_card_under_glare() -> None:
    # A court's frame, the pips: what an outline closes on a card that fills the picture is
    # printed on it, not the card.
    for card in ("QS", "KH", "7C"):
        face = glare(render_card(Card.parse(card)), Glare((0.6, 0.4), (0.25, 0.2), 200.0))
        whole = whole_card(face)
        assert whole is not None
        found = find_card(face)
        assert found is not None and _corner_error(found, whole) < 2.0


# Real courts, rectified to fill the picture: looked for inside outlines there too, a region of
# their art was taken for the card (the king of diamonds as shot; the other two under glare).
@pytest.mark.shared_data
@pytest.mark.parametrize(("name", "spot"), [("KD.jpg", None), ("KS.jpg", 43), ("QH.jpg", 46)])
def test_a_real_court_that_fills_the_picture_is_the_picture(shared_data: Path, name: str, spot: int | None) -> None:
    image = load_image(shared_data / "webcam-rectified" / "images" / name)
    if spot is not None:
        image = glare(image, glare_at(spot))
    whole = whole_card(image)
    assert whole is not None
    found = find_card(image)
    assert found is not None and _corner_error(found, whole) < 2.0


# phone-wood-table's cards under the glare the recognition benchmarks lay on them (seeded by the
# photo's place in the set): glare across the card's edge joined it to the lit table (no card
# found) or the card and the lit table were taken together for one; found by its straight sides
# (the last two once those were scored with the colour balanced on what the glare left).
@pytest.mark.shared_data
@pytest.mark.parametrize(("photo", "spot", "card"), [("template/clubs_8.jpg", 11, "8C"),
                                                     ("template/spades_9.jpg", 51, "9S"), ("query/q4.jpg", 55, "4S"),
                                                     ("template/clubs_7.jpg", 10, "7C"), ("template/hearts_11.jpg", 28, "JH")])
def test_a_real_card_under_glare_is_found_and_read(shared_data: Path, photo: str, spot: int, card: str) -> None:
    image = glare(load_image(shared_data / "phone-wood-table" / "images" / photo), glare_at(spot))
    assert Reader().read(image).card == Card.parse(card)


@pytest.mark.shared_data
def test_a_real_card_under_glare_is_found_where_its_pips_leave_one_corners_index_unchecked(shared_data: Path) -> None:
    """The ten of clubs so: found; the network's two corners part on the suit, and the templates
    read 10C in one corner only, where glare over the pips leaves them naming no rank alone
    (what shows lies in a 7's, an 8's and a 10's places): the reader asks, 10C first."""
    image = glare(load_image(shared_data / "phone-wood-table" / "images" / "template/clubs_10.jpg"), glare_at(1))
    reading = Reader().read(image)
    assert reading.card is None and reading.present and reading.candidates[0] == Card.parse("10C"), reading
