"""Where the index leaves a pip card's rank or a black suit unsure, the face settles it or the
reading abstains: the pip count for the rank, the body pip's outline for spade or club."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from faro_box.cards import RANKS, SUITS, Card, Rank, Suit
from faro_box.vision.canonical import CardView, parse_window
from faro_box.vision.classical import ClassicalReader
from faro_box.vision.joint import FaceCues, confirmed, face_cues
from faro_box.vision.learned_reader import GENERIC, Scores
from faro_box.vision.reader import Reader
from faro_box.vision.reading import Reading
from faro_box.vision.sim.render import CardStyle, PipShape, draw_pip, render_card
from faro_box.vision.sim.simbox import SimBox

C = Card.parse
# Printers' clubs and spades: the renderer's own, round lobes set apart, a flared stem.
SHAPES = (PipShape(), PipShape(lobe=0.3, lobe_spread=0.55, lobe_rise=0.5),
          PipShape(flare=1.4, stem_waist=0.06, spade_width=0.95))


def whole(image: np.ndarray) -> CardView:
    h, w = image.shape[:2]
    return CardView(image, np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("suit", [Suit.CLUBS, Suit.SPADES])
@pytest.mark.parametrize("rank", [Rank.TWO, Rank.THREE, Rank.FIVE, Rank.EIGHT, Rank.TEN])
def test_the_face_shows_its_pips_and_black_suit(rank: Rank, suit: Suit, shape: PipShape) -> None:
    face = render_card(Card(rank, suit), style=CardStyle(pips=shape))
    cues = face_cues(whole(face))
    assert cues.pips == int(rank)
    assert cues.black is suit


@pytest.mark.parametrize("suit", list(Suit))
@pytest.mark.parametrize("rank", [Rank(n) for n in range(2, 11)])
def test_large_pips_across_the_pip_areas_sides_are_counted(rank: Rank, suit: Suit) -> None:
    """Most real decks print their outer pips across the sides of the area the pip veto counts
    in (count_pips sees no pip card there); the face is counted out to its border, the indices
    left out."""
    face = render_card(Card(rank, suit), style=CardStyle(pip_scale=1.5))
    cues = face_cues(whole(face))
    assert cues.pips == int(rank)
    if suit in (Suit.CLUBS, Suit.SPADES):
        assert cues.black is suit


@pytest.mark.parametrize("rank", [Rank.TWO, Rank.SIX, Rank.NINE, Rank.TEN])
def test_a_deck_with_four_indices_is_counted_without_them(rank: Rank) -> None:
    """Many European decks print the index in all four corners."""
    face = render_card(Card(rank, Suit.HEARTS), style=CardStyle(pip_scale=1.5))
    h, w = face.shape[:2]
    corner = face[: round(0.26 * h), : round(0.2 * w)]
    ch, cw = corner.shape[:2]
    face[:ch, w - cw:] = corner[:, ::-1]  # the top-right and bottom-left corners, mirrored
    face[h - ch:, :cw] = corner[::-1, :]
    assert face_cues(whole(face)).pips == int(rank)


@pytest.mark.parametrize("card", ["10C", "9C"])
def test_pips_run_together_are_no_count(card: str) -> None:
    """Large clubs printed close run together in pairs: a blob twice a pip's size is not a pip,
    and the face gives no count rather than one too few."""
    face = render_card(C(card), style=CardStyle(pip_scale=1.65))
    assert face_cues(whole(face)).pips is None


@pytest.mark.parametrize("suit", [Suit.CLUBS, Suit.SPADES])
def test_a_black_pip_on_a_courts_tinted_ground_names_its_suit(suit: Suit) -> None:
    """Many decks print a court's figure, and the pip beside it, on a pale blue or yellow ground
    inside its frame: dark in one channel, it is no ink round a black pip."""
    face = np.full((350, 250, 3), 245, np.uint8)
    face[45:305, 45:205] = (230, 205, 130)  # BGR: a court's pale blue ground, white paper round it
    cv2.rectangle(face, (45, 45), (205, 305), (150, 60, 40), 2)
    draw_pip(face, suit, (75, 80), 45, (30, 30, 30))
    assert face_cues(whole(face)).black is suit


@pytest.mark.parametrize("card", ["2C", "5C", "8S", "10S"])
def test_glare_over_the_upper_half_leaves_the_lower_pips_to_name_the_black_suit(card: str) -> None:
    """A lamp's glare washes out one end of a card; the pips of the other end, printed upside
    down, show the suit as well."""
    face = render_card(C(card), style=CardStyle(pip_scale=1.5)).astype(np.float32)
    half = face.shape[0] // 2
    face[:half] = 0.25 * face[:half] + 0.75 * 255
    assert face_cues(whole(face.astype(np.uint8))).black is C(card).suit


def test_a_court_shows_no_pips() -> None:
    cues = face_cues(whole(render_card(C("QC"))))
    assert cues.pips is None


def scores(rank: dict[str, float], suit: dict[str, float]) -> Scores:
    """Both corners reading the same probabilities."""
    r = np.zeros(13)
    s = np.zeros(4)
    for k, p in rank.items():
        r[RANKS.index(Rank.parse(k))] = p
    for k, p in suit.items():
        s[SUITS.index(Suit.parse(k))] = p
    return Scores(np.tile(r, (2, 1)), np.tile(s, (2, 1)), np.zeros(2))


THREE_OR_FIVE = {"3": 0.62, "5": 0.38}
CLUB_OR_SPADE = {"C": 0.78, "S": 0.2, "H": 0.02}
SURE_CLUB = {"C": 0.99, "S": 0.01}
SURE_THREE = {"3": 0.99, "5": 0.01}
UNSURE = Reading(None, 0.3, (C("3C"), C("5C")), present=True, why="rank unsure")
NO_INDEX = Reading(None, 0.0, present=True, why="no readable index")
TEMPLATES_UNSURE = Reading(None, 0.2, (C("3C"),), present=True, why="rank unsure")
SURE_JACK = {"J": 0.97, "Q": 0.02, "K": 0.01}
COURT_UNSURE = Reading(None, 0.2, (C("JC"), C("JS")), present=True, rank=Rank.JACK, why="suit unsure")


@pytest.mark.parametrize(("rank", "suit", "cues", "templates", "expected"), [
    (THREE_OR_FIVE, SURE_CLUB, FaceCues(3, None), TEMPLATES_UNSURE, "3C"),             # three pips: a three
    (THREE_OR_FIVE, SURE_CLUB, FaceCues(5, None), TEMPLATES_UNSURE, None),             # the index's second guess: ask
    (THREE_OR_FIVE, SURE_CLUB, FaceCues(None, Suit.CLUBS), TEMPLATES_UNSURE, None),    # no count: ask
    (THREE_OR_FIVE, SURE_CLUB, FaceCues(3, None),
     Reading(None, 0.3, (C("5C"),), present=True, rank=Rank.FIVE), None),     # templates sure of a five
    (THREE_OR_FIVE, SURE_CLUB, FaceCues(3, None),
     Reading(C("5C"), 0.7, (C("5C"),), present=True, rank=Rank.FIVE, suit=Suit.CLUBS), None),
    ({"3": 0.45, "5": 0.3, "8": 0.25}, SURE_CLUB, FaceCues(3, None), TEMPLATES_UNSURE, None),  # first guess, barely
    (SURE_THREE, CLUB_OR_SPADE, FaceCues(None, Suit.CLUBS), TEMPLATES_UNSURE, "3C"),   # the body pip: a club
    (SURE_THREE, CLUB_OR_SPADE, FaceCues(3, Suit.SPADES), TEMPLATES_UNSURE, None),     # the body pip says spade
    (SURE_THREE, CLUB_OR_SPADE, FaceCues(3, None), TEMPLATES_UNSURE, None),            # no outline measured
    (SURE_THREE, {"C": 0.7, "S": 0.1, "H": 0.2}, FaceCues(3, Suit.CLUBS), TEMPLATES_UNSURE, None),  # black? unsure
    (SURE_THREE, CLUB_OR_SPADE, FaceCues(3, Suit.CLUBS),
     Reading(None, 0.3, (C("3S"),), present=True, suit=Suit.SPADES), None),   # templates sure of a spade
    (SURE_THREE, {"H": 0.7, "D": 0.3}, FaceCues(3, Suit.CLUBS), TEMPLATES_UNSURE, None),  # a red suit: no outline rule
    (THREE_OR_FIVE, CLUB_OR_SPADE, FaceCues(3, Suit.CLUBS), TEMPLATES_UNSURE, "3C"),   # both settled by the face
    ({"Q": 0.6, "J": 0.4}, SURE_CLUB, FaceCues(None, Suit.CLUBS), TEMPLATES_UNSURE, None),  # a court: no pips to count
    ({"A": 0.7, "4": 0.3}, SURE_CLUB, FaceCues(1, Suit.CLUBS), TEMPLATES_UNSURE, None),  # one pip: the rest washed out?
    (THREE_OR_FIVE, SURE_CLUB, FaceCues(3, Suit.CLUBS), NO_INDEX, None),      # templates saw no index
    (SURE_THREE, SURE_CLUB, FaceCues(3, None), NO_INDEX, "3C"),               # ... the network sure, three pips
    (SURE_THREE, SURE_CLUB, FaceCues(None, Suit.CLUBS), NO_INDEX, None),      # ... and no count: covered?
    (SURE_THREE, SURE_CLUB, FaceCues(5, None), NO_INDEX, None),               # ... five pips
    (SURE_THREE, CLUB_OR_SPADE, FaceCues(3, Suit.CLUBS), NO_INDEX, None),     # ... the network unsure
    (SURE_THREE, SURE_CLUB, FaceCues(3, Suit.CLUBS), TEMPLATES_UNSURE, None),          # sure of both: refused for another reason
    (SURE_JACK, CLUB_OR_SPADE, FaceCues(None, Suit.CLUBS), COURT_UNSURE, "JC"),  # a court: the pip by the figure
    (SURE_JACK, CLUB_OR_SPADE, FaceCues(None, Suit.SPADES), COURT_UNSURE, None),  # ... it says spade
    (SURE_JACK, CLUB_OR_SPADE, FaceCues(None, None), COURT_UNSURE, None),         # ... no outline measured
    (SURE_JACK, CLUB_OR_SPADE, FaceCues(None, Suit.CLUBS), NO_INDEX, None),       # ... templates saw no index
    (SURE_JACK, SURE_CLUB, FaceCues(11, Suit.CLUBS), NO_INDEX, None),             # ... a court's count is no count
])
def test_the_face_settles_what_the_index_left_unsure(rank, suit, cues, templates, expected) -> None:  # noqa: ANN001
    reading = confirmed(UNSURE, scores(rank, suit), templates, cues, GENERIC)
    assert reading.card == (C(expected) if expected else None)
    if expected is None:
        assert reading is UNSURE
    else:
        assert reading.confidence == 0.5 and reading.rank == reading.card.rank


def test_the_templates_colour_stands_against_a_settled_suit() -> None:
    """A maroon ten of diamonds: the network reads its dark ink as black (a spade, unsure), the
    diamond's point has a spade's outline, and the templates, unsure of the suit, still rank a
    red suit first. No black card is settled."""
    ten = {"10": 0.7, "9": 0.3}
    spade = {"S": 0.6, "C": 0.3, "D": 0.1}
    red_first = Reading(None, 0.3, (C("10D"), C("10S")), present=True, why="suit unsure")
    assert confirmed(UNSURE, scores(ten, spade), red_first, FaceCues(10, Suit.SPADES), GENERIC) is UNSURE
    black_first = Reading(None, 0.3, (C("10S"), C("10D")), present=True, why="suit unsure")
    assert confirmed(UNSURE, scores(ten, spade), black_first, FaceCues(10, Suit.SPADES), GENERIC).card == C("10S")


def test_corners_that_disagree_are_not_settled() -> None:
    s = scores(THREE_OR_FIVE, SURE_CLUB)
    fives = np.zeros(13)
    fives[[2, 4]] = (0.38, 0.62)
    s.rank[1] = fives  # the other corner's first guess is a five
    assert confirmed(UNSURE, s, TEMPLATES_UNSURE, FaceCues(3, Suit.CLUBS), GENERIC) is UNSURE


@pytest.mark.parametrize(("other", "expected"), [
    ({"3": 0.42, "5": 0.45, "9": 0.13}, "3C"),  # torn between five and three: it names neither
    ({"3": 0.30, "5": 0.45, "9": 0.25}, "3C"),
    ({"3": 0.35, "5": 0.55, "9": 0.10}, None),  # a five, more likely than the rest together
])
def test_a_corner_torn_between_two_ranks_contradicts_nothing(other: dict[str, float], expected: str | None) -> None:
    """The two corners of a real three of clubs read 3 (0.6) and, shaded, 5 or 3 (0.43 / 0.42):
    one index the network could not settle, not two cards; three pips settle it."""
    s = scores(THREE_OR_FIVE, SURE_CLUB)
    s.rank[1] = scores(other, SURE_CLUB).rank[0]
    reading = confirmed(UNSURE, s, TEMPLATES_UNSURE, FaceCues(3, Suit.CLUBS), GENERIC)
    assert reading.card == (C(expected) if expected else None)


def test_a_corner_torn_between_two_suits_contradicts_nothing() -> None:
    s = scores(SURE_THREE, CLUB_OR_SPADE)
    s.suit[1] = scores(SURE_THREE, {"C": 0.46, "S": 0.48, "H": 0.06}).suit[0]
    assert confirmed(UNSURE, s, TEMPLATES_UNSURE, FaceCues(3, Suit.CLUBS), GENERIC).card == C("3C")
    s.suit[1] = scores(SURE_THREE, {"C": 0.4, "S": 0.58, "H": 0.02}).suit[0]
    assert confirmed(UNSURE, s, TEMPLATES_UNSURE, FaceCues(3, Suit.CLUBS), GENERIC) is UNSURE


def test_blurred_red_indices_are_read_in_the_box():
    """A dealing box's window blurs three red indices so that rank and pip join, and the
    templates find no index on them: the network's card stands, each corner naming it, sure, on
    the frame it first lies still."""
    box = SimBox(seed=1000, nuisance=0.5, cards=7)
    reader, templates = Reader(), ClassicalReader()
    read, unseen = {}, set()
    for event in box.expected():
        if event.kind.value == "card":
            frame = box.frame(event.frame)
            read[str(event.card)] = reader.read(frame, window=box.window)
            if not templates.read_view(CardView(frame, parse_window(box.window))).candidates:
                unseen.add(str(event.card))
    assert all(r.card is not None and str(r.card) == card for card, r in read.items()), read
    assert unseen == {"6D", "9H", "7H"}
    assert all(read[card].confidence > 0.5 for card in unseen)


def _corner_pipped(card: Card) -> np.ndarray:
    """An index-less face with a small suit pip in two opposite corners, as the real index-less
    deck prints one on every card, courts too."""
    from faro_box.vision.sim.render import INDEXLESS, draw_pip

    face = render_card(card, style=INDEXLESS)
    h, w = face.shape[:2]
    ink = INDEXLESS.ink(card.colour)
    draw_pip(face, card.suit, (0.13 * w, 0.12 * h), 0.11 * w, ink)
    turned = np.ascontiguousarray(face[::-1, ::-1])
    draw_pip(turned, card.suit, (0.13 * w, 0.12 * h), 0.11 * w, ink)
    return np.ascontiguousarray(turned[::-1, ::-1])


@pytest.mark.parametrize("card", [Card(r, s) for r in (Rank.JACK, Rank.QUEEN, Rank.KING) for s in SUITS], ids=str)
def test_a_courts_corner_pip_names_its_suit(card: Card) -> None:
    from faro_box.vision.classical import court_pip_suits

    face = _corner_pipped(card)
    assert court_pip_suits(face) == {card.suit}
    assert court_pip_suits(np.ascontiguousarray(face[::-1, ::-1])) == {card.suit}  # dealt the other way up
    small = face[::2, ::2]  # a smaller picture of the same face
    assert court_pip_suits(small) == {card.suit}
