"""The face settling what the index left unsure, on real decks (../shared/data; skipped when
absent). Neither deck trained the shipped network or chose the outline's limits."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2
import pytest

from faro_box.cards import Rank, Suit
from faro_box.commands.vision import load_labels
from faro_box.vision.joint import face_cues
from faro_box.vision.reader import Reader

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from real_sets import corrected_cards  # noqa: E402

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]


def test_the_body_pip_names_spade_or_club_on_real_decks(shared_data):
    """Most decks print their outer columns of pips across the pip area's sides: the first pip
    is looked for out to the border, and its outline names the black suit of nearly every pip
    card, and of a court by the pip printed beside its figure."""
    reader = Reader()
    for name in ("webcam-rectified", "bicycle-brown-table"):
        named, wrong, black = 0, [], 0
        for label in load_labels(shared_data / name / "labels.csv"):
            card = label.card
            if card is None or card.suit not in (Suit.CLUBS, Suit.SPADES):
                continue
            view = reader.locate(cv2.imread(str(label.path)))
            assert view is not None, label.path.name
            black += 1
            got = face_cues(view).black
            named += got is card.suit
            if got not in (None, card.suit):
                wrong.append(label.path.name)
        assert wrong == [], name
        assert named >= 0.85 * black, (name, named, black)


# Cards the index leaves unsure (a 3 or a 5, spade or club) that the face settles. The three of
# clubs of phone-black-pink: one corner reads 3, the other, shaded, is torn between 5 and 3. Its
# queen of clubs: the index sure of the queen, torn between club and spade; the pip beside the
# figure is a club, and so is phone-wood-table's jack of clubs', printed on the frame's blue ground.
SETTLED_BY_FACE = {"phone-wood-table": ("images/template/clubs_3.jpg", "images/template/clubs_8.jpg",
                                        "images/template/clubs_11.jpg"),
                   "webcam-rectified": ("images/3C.jpg",),
                   "phone-black-pink": ("images/3clubs.jpg", "images/Qclubs.jpg")}


def test_the_face_settles_real_cards_and_names_none_wrongly(shared_data):
    reader = Reader()
    for name, settled in SETTLED_BY_FACE.items():
        wrong, missed = [], []
        for label in load_labels(shared_data / name / "labels.csv"):
            if label.card is None:
                continue
            image = cv2.imread(str(label.path))
            got = reader.read(image)
            if got.card not in (None, label.card):
                wrong.append((label.path.name, str(got.card)))
            if str(label.path.relative_to(shared_data / name)) in settled:
                # the index alone was unsure: the reading stands at the line
                if got.card != label.card or got.confidence != 0.5:
                    missed.append((label.path.name, str(got.card), got.confidence))
        assert wrong == [] and missed == [], name


def test_an_index_less_deck_is_read_by_the_middle_of_its_face(shared_data):
    """The index-less deck enrolled from its first game, the other six games read, found and
    given, against their labels as corrected (benchmarks/label_corrections.csv: a game of one whole
    deck names a card twice). The face's middle names the rank and the corner pips the suit: its
    courts' figures are the same for both suits of a colour, its 6 turned over is its 9, and no
    card is named wrong. Where the whole-face templates read a king of hearts as the king of
    diamonds (game 3), the corner pip says otherwise and the card is named by it or not at all."""
    from faro_box.commands.vision import enroll_views
    from faro_box.vision.canonical import parse_window, warp_quad
    from faro_box.vision.locate import find_card
    from faro_box.vision.reader import Method

    fixed = corrected_cards("odd-deck-table-crops", shared_data)
    labels = [lb for lb in load_labels(shared_data / "odd-deck-table-crops" / "labels.csv") if lb.card is not None]
    first: dict = {}
    for lb in labels:
        if lb.path.parent.name == "game1" and lb.card not in first:
            image = cv2.imread(str(lb.path))
            first[lb.card] = warp_quad(image, find_card(image))
    reader = Reader(enroll_views(list(first.items()), view="face", name="odd-deck"))
    assert reader.method is Method.CLASSICAL
    right, wrong, said = Counter(), [], {}
    for lb in labels:
        if lb.path.parent.name == "game1":
            continue
        card = fixed.get(lb.path, lb.card)
        image = cv2.imread(str(lb.path))
        h, w = image.shape[:2]
        for how, got in (("found", reader.read(image)),
                         ("given", reader.read(image, window=parse_window([0, 0, w - 1, 0, w - 1, h - 1, 0, h - 1])))):
            right[how] += got.card == card
            if got.card not in (None, card):
                wrong.append((lb.path.parent.name, lb.path.name, how, str(got.card), str(card)))
            said[(lb.path.parent.name, lb.path.name, how)] = (got.card, got.why)
    assert wrong == []
    for key in (("game3", "r01_P2.jpg", "found"), ("game3", "r03_P3.jpg", "given")):
        card, why = said[key]
        assert card is not None or "corner pip" in why, (key, why)
    # Measured 288 found and 262 given of 312 (the whole-face templates alone: 35 and 40; the
    # corner pip looked for only within 0.3 of the face's sides, the print unsoftened: 244 and 198).
    assert right["found"] >= 275 and right["given"] >= 245, right


ORNATE_ACES = {"phone-wood-table": "images/template/spades_1.jpg", "bicycle-brown-table": "images/Aspades.jpg",
               "sportsdirect-deck": "images/crops/AS.jpg"}


def test_an_ornate_ace_of_spades_is_no_figure_printed_twice(shared_data):
    """An ace read in one corner is refused where its middle is printed twice, as a court's
    figure is (an ace's index over a court's body); real decks' aces of spades run their pip on
    to a banner, not alone in the middle, yet point one way."""
    from faro_box.vision.pips import double_headed, lone_pip_in_the_middle

    reader = Reader()
    for name, path in ORNATE_ACES.items():
        view = reader.locate(cv2.imread(str(shared_data / name / path)))
        assert view is not None, name
        face = view.face()
        assert not lone_pip_in_the_middle(face) and not double_headed(face), name


# The whole-card decks with a standard index and figures (none of their labels needs correcting).
FIGURE_DECKS = ("webcam-rectified", "bicycle-brown-table", "phone-black-pink", "phone-wood-table",
                "sportsdirect-deck", "dutch-bvh-dark")


def test_real_courts_cover_the_middle_and_real_pips_half_shown_lie_in_their_places(shared_data):
    """What refuses a card sliding over another, a thumb on it, never refuses a real deck's own
    card: every court's figure covers the face's middle and the trunk above and below it, and
    ink of the pips' colour outside the whole pips lies in the card's own places."""
    from faro_box.vision.pips import (
        FACE_MIDDLE,
        FIGURE_TRUNK,
        bare_points,
        fits_layout,
        inked_points,
        pips_showing,
    )

    reader = Reader()
    courts = pips = 0
    for name in FIGURE_DECKS:
        for label in load_labels(shared_data / name / "labels.csv"):
            path, card = label.path, label.card
            if card is None:
                continue
            view = reader.locate(cv2.imread(str(path)))
            if view is None:
                continue
            face = view.face()
            if card.rank > Rank.TEN:
                bare = bare_points(face)
                assert FACE_MIDDLE not in bare and not FIGURE_TRUNK <= bare, (name, path.name)
                courts += 1
                continue
            at = pips_showing(face)
            if at is not None and fits_layout(card.rank, at, frozenset()):
                placed = at + tuple(inked_points(face))
                assert fits_layout(card.rank, placed, frozenset()), (name, path.name, placed)
                pips += 1
    assert courts >= 70 and pips >= 220, (courts, pips)
