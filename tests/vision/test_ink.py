"""The index ink's colour against the card named: a four-colour deck's blue diamonds and green
clubs, whose pip shape a soft camera blurs away, are never named spades or clubs by their ink."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

from faro_box.cards import FULL_DECK, Card, Colour, Suit
from faro_box.vision import ink
from faro_box.vision.canonical import CardView
from faro_box.vision.index_patch import face_patches
from faro_box.vision.reader import NOT_BLACK, Reader
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import ENGLISH, render_card

pytestmark = pytest.mark.slow

BLUE, GREEN = (200, 90, 20), (20, 130, 20)
SOFT = 128 / 360  # the slot camera's frame: the card 128 pixels tall


@functools.cache
def standard(card: Card) -> np.ndarray:
    return render_card(card)


@functools.cache
def four_colour(card: Card) -> np.ndarray:
    style = dataclasses.replace(ENGLISH, red=BLUE if card.suit is Suit.DIAMONDS else ENGLISH.red,
                                black=GREEN if card.suit is Suit.CLUBS else ENGLISH.black)
    return render_card(card, style=style)


def frames(face, *, soft: bool, angles: tuple[float, ...] = (0.0, 23.0)):
    """(card, frame, quad) of each card of the deck ``face`` draws, at each of ``angles`` (degrees),
    seen as it is or through a small, soft camera."""
    for i, card in enumerate(FULL_DECK):
        for k, angle in enumerate(angles):
            rng = np.random.default_rng([i, k])
            quad = synth.card_quad(640, 480, 360, angle, (320, 240), 0.03, rng)
            frame = synth.place_card(synth.light_background(640, 480, rng), face(card), quad)
            if soft:
                frame, quad = synth.soft_camera(frame, SOFT, rng), quad * SOFT
            yield card, frame, quad


def readings(reader: Reader, face, *, soft: bool) -> list[tuple[Card, Card | None, str]]:
    """(card shown, card named, why) in window and in find mode."""
    return [(card, r.card, r.why) for card, frame, quad in frames(face, soft=soft)
            for r in (reader.read(frame, window=quad), reader.read(frame))]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


@pytest.mark.parametrize("soft", [False, True])
def test_black_ink_is_told_from_blue_green_and_red(soft):
    """Each corner's coolness, every card of both decks: black ink well within COOL (so the check
    never refuses a card printed in black), blue and green over it, red under 0."""
    for face in (standard, four_colour):
        for card, frame, quad in frames(face, soft=soft, angles=(23.0,)):
            ink_colour = BLUE if face is four_colour and card.suit is Suit.DIAMONDS else \
                GREEN if face is four_colour and card.suit is Suit.CLUBS else card.suit.colour
            for patch in face_patches(CardView(frame, quad)):
                cool = ink.coolness(patch)
                assert cool is not None, (card, face.__name__, soft)
                if ink_colour is Colour.BLACK:
                    assert abs(cool) < ink.COOL / 2, (card, cool)
                elif ink_colour is Colour.RED:
                    assert cool < -ink.COOL, (card, cool)
                else:
                    assert cool > ink.COOL, (card, face.__name__, cool)


def test_a_four_colour_deck_through_a_soft_camera_is_never_read_wrong(reader):
    """Its blue diamonds were named spades (7D as 7S, 9D as 9S): the soft camera leaves no pip
    shape for the templates to object with, and the network takes blue ink for black."""
    seen = readings(reader, four_colour, soft=True)
    assert [(str(c), str(n)) for c, n, _ in seen if n not in (None, c)] == []
    refused = [c for c, _, why in seen if why == NOT_BLACK]
    assert refused and all(c.suit in (Suit.DIAMONDS, Suit.CLUBS) for c in refused)


def test_a_green_club_whose_pip_shape_shows_is_still_read(reader):
    """Sharp, a four-colour deck's clubs show a club's pip: the templates name them, and so they
    stand though their ink is green."""
    seen = readings(reader, four_colour, soft=False)
    clubs = [(c, n) for c, n, _ in seen if c.suit is Suit.CLUBS]
    assert sum(n == c for c, n in clubs) >= len(clubs) // 2
    assert [(str(c), str(n)) for c, n, _ in seen if n not in (None, c)] == []
