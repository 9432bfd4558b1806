"""A card photographed at a steep slant is foreshortened along the slant: a card tipped away
down its long side can look as wide as long, one tipped down its short side nearly twice as
long as wide or more, both outside the proportions a region needs to be taken for a card. Its proportions
are measured as they are on the table, under a usual camera (locate._table_aspect)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.commands.vision import load_image
from faro_box.vision.locate import _CARD_ASPECTS, _aspect, find_card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import CardStyle, render_card
from faro_box.vision.sim.synth import dark_background, place_card

CARDS = ("7C", "3H", "9S", "KD", "AS", "5D", "10C", "QH")
SIZE = (640, 480)


def projected(rng: np.random.Generator, width: float, height: float, tilt_degrees: float, turn: float,
              focal: float = 0.85) -> np.ndarray:
    """The corners of a ``width`` x ``height`` mm rectangle on the table, tipped ``tilt_degrees``
    away from a camera whose focal length is ``focal`` of the picture's width (0.85: about 60
    degrees across it), turned ``turn`` radians; as large in the picture whatever the camera."""
    corners = np.array([[-width / 2, -height / 2, 0], [width / 2, -height / 2, 0],
                        [width / 2, height / 2, 0], [-width / 2, height / 2, 0]])
    f = focal * SIZE[0]
    camera = np.array([[f, 0, (SIZE[0] - 1) / 2], [0, f, (SIZE[1] - 1) / 2], [0, 0, 1]])
    pose = cv2.Rodrigues(np.array([np.radians(tilt_degrees), 0, 0]))[0] @ cv2.Rodrigues(np.array([0, 0, turn]))[0]
    at = np.array([rng.uniform(-15, 15), rng.uniform(-10, 10), rng.uniform(190, 220) * focal / 0.85])
    points, _ = cv2.projectPoints(corners, cv2.Rodrigues(pose)[0], at, camera, None)
    return points.reshape(4, 2).astype(np.float32)


def steep_scene(seed: int, focal: float = 0.85) -> tuple[np.ndarray, Card, np.ndarray]:
    """Even seeds: tipped down its long side (it looks square); odd: turned a quarter, tipped down
    its short side (it looks nearly twice as long as wide, or more)."""
    rng = np.random.default_rng(seed)
    card = Card.parse(CARDS[seed % len(CARDS)])
    turn = rng.uniform(-0.3, 0.3) + (np.pi / 2 if seed % 2 else 0.0)
    quad = projected(rng, 63.0, 88.0, rng.uniform(50, 58) if seed % 2 else rng.uniform(44, 50), turn, focal)
    return place_card(dark_background(*SIZE, rng, level=45), render_card(card, style=CardStyle()), quad), card, quad


@pytest.mark.parametrize("seed", range(16))
def test_a_card_at_a_steep_slant_is_found(seed: int) -> None:
    image, _, quad = steep_scene(seed)
    assert not _CARD_ASPECTS[0] < _aspect(quad) < _CARD_ASPECTS[1]  # its sides are out of a card's proportions
    found = find_card(image)
    assert found is not None
    assert np.linalg.norm(found.mean(axis=0) - quad.mean(axis=0)) < 6
    assert abs(cv2.contourArea(found) / cv2.contourArea(quad) - 1) < 0.15


TEN_OF_CLUBS = (6,)  # its rank unsure at this slant


@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.xfail(
    strict=True, reason="the ten of clubs, tipped so, abstains: its rank unsure")) if s in TEN_OF_CLUBS else s
    for s in range(16)])
def test_a_card_at_a_steep_slant_is_read(seed: int) -> None:
    image, card, _ = steep_scene(seed)
    assert Reader().read(image).card == card


def test_a_card_at_a_steep_slant_is_never_named_wrongly() -> None:
    reader = Reader()
    for seed in range(16):
        image, card, _ = steep_scene(seed)
        assert reader.read(image).card in (None, card), seed


@pytest.mark.parametrize("focal", [0.6, 1.2])
def test_under_a_wider_or_a_longer_lens_most_are_found_and_none_misread(focal: float) -> None:
    """The finder assumes a usual camera; a wider one (some webcams' 80 degrees) or a longer one
    (a phone's zoom) gives other proportions on the table, still mostly a card's."""
    found, reader = 0, Reader()
    for seed in range(16):
        image, card, quad = steep_scene(seed, focal)
        got = find_card(image)
        found += got is not None and np.linalg.norm(got.mean(axis=0) - quad.mean(axis=0)) < 12
        assert reader.read(image).card in (None, card), seed
    assert found >= 12, found  # three in four


@pytest.mark.parametrize(("tilt", "seed"), [(0, 0), (0, 1), (12, 2), (20, 3)])
def test_a_square_of_paper_is_no_card(tilt: float, seed: int) -> None:
    """A square note on the table, face on or a little tipped: the proportions it has on the table
    are a square's, as are its sides' in the picture."""
    rng = np.random.default_rng(seed)
    quad = projected(rng, 70.0, 70.0, tilt, rng.uniform(-0.3, 0.3))
    image = dark_background(*SIZE, rng, level=45)
    cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (235, 235, 235))
    assert find_card(image) is None


@pytest.mark.parametrize("seed", range(4))
def test_a_wedge_the_pictures_edge_cuts_is_no_card(seed: int) -> None:
    """A white region cut by the picture's edge, whose outline is a rectangle tipped steeply
    away if taken whole (a sheet of paper running out of the picture): no card, since the
    outline is not all of the thing's."""
    rng = np.random.default_rng(seed)
    image = dark_background(*SIZE, rng, level=45)
    quad = np.array([[0, 150 + 5 * seed], [170, 170], [150 + 5 * seed, 330], [0, 320]], np.int32)
    cv2.fillConvexPoly(image, quad, (235, 235, 235))
    assert find_card(image) is None


@pytest.mark.shared_data
@pytest.mark.parametrize(("photo", "card"), [("q1.jpg", "QS"), ("q3.jpg", "AS")])
def test_real_cards_photographed_at_a_steep_slant_are_read(shared_data: Path, photo: str, card: str) -> None:
    """phone-wood-table: a queen of spades on the wood, an ace of spades on a laptop, both shot
    from low down; neither was found before."""
    image = load_image(shared_data / "phone-wood-table" / "images" / "query" / photo)
    assert Reader().read(image).card == Card.parse(card)
