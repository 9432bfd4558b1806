"""Rendered near-misses that are hard for the generic reader: how often it names a wrong card.

    python benchmarks/bench_near_misses.py [--cases four-colour,monochrome,...] [--enrolled [--enrolled-bar P]]

Each case reads the 52 cards of a rendered deck (the 40 pip cards, where it says so) in two
frames (upright, and turned), each in window mode (the card's outline given) and find mode (the
reader finds it): 208 reads a case (160), counted as right, abstained and wrong. Nothing here is a photograph: the cases are the ones a
probe of the reader turned up, kept so that a change to the reader shows what it does to them.

- four-colour: diamonds printed blue and clubs green (four-colour poker decks);
- greyscale / red channel: a monochrome camera, or one behind a red filter (red ink pale grey);
- strip over ...: a straight-edged strip (skin, or white like another card's edge) over part of
  the top-left index, a thumb over the other corner;
- card N px: the card that small in a 640x480 frame;
- motion blur: a 21-pixel streak at several angles;
- an index over the body of the rank beside it: a pip card's corner over the pips of the next
  rank up or down, of its suit (the card above sliding off), a thumb on the body and the other
  corner covered: two cards in one picture, so any card named is wrong; under glare, the same
  without the thumb, a lamp's glare spot (vision.sim.casts.glare_at, placed by the card) over the
  face, and beside them a pip card's own body so (what the glare costs a card read in one corner).

``--enrolled``: the same with the rendered deck enrolled first (each card rendered plainly, found
upright in a frame, as `faro-box enroll` takes a photo), read as the box reads an enrolled deck,
at the bar enrolment finds for it (vision.deck_bar); ``--enrolled-bar``: its prototypes' bar
instead. ``--soft``: every frame seen through a small, soft camera (synth.soft_camera: the card
SOFT_CARD_PX tall, out of focus, noisy, a rough JPEG), and with ``--enrolled`` the deck enrolled
through it too, as a slot camera's deck is: the bar enrolment finds for such a deck is lower.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable

import cv2
import numpy as np

from faro_box.cards import FULL_DECK, Card, Rank, Suit
from faro_box.commands.vision import enroll_views
from faro_box.vision.canonical import warp_quad
from faro_box.vision.deck_bar import smear_kernel
from faro_box.vision.learned_reader import Acceptance
from faro_box.vision.profile import DeckProfile
from faro_box.vision.reader import Reader
from faro_box.vision.sim import synth
from faro_box.vision.sim.casts import glare, glare_at
from faro_box.vision.sim.render import ENGLISH, render_card

SKIN, WHITE = (120, 150, 200), (242, 242, 240)
BLUE, GREEN = (200, 90, 20), (20, 130, 20)


@dataclasses.dataclass(frozen=True)
class Case:
    face: Callable[[Card], np.ndarray] = render_card
    frame: Callable[[np.ndarray], np.ndarray] = lambda f: f
    height: int = 360
    angles: tuple[float, float] = (0.0, 23.0)
    cards: tuple[Card, ...] = FULL_DECK
    mixed: bool = False  # the picture shows two cards: whatever is named is wrong


def four_colour(card: Card) -> np.ndarray:
    style = dataclasses.replace(ENGLISH, red=BLUE if card.suit is Suit.DIAMONDS else ENGLISH.red,
                                black=GREEN if card.suit is Suit.CLUBS else ENGLISH.black)
    return render_card(card, style=style)


def strip(box: tuple[float, float, float, float], colour: tuple[int, int, int]) -> Callable[[Card], np.ndarray]:
    def face(card: Card) -> np.ndarray:
        covered = synth.occlude(render_card(card), box, colour=colour, ellipse=False)
        return synth.occlude(covered, (0.75, 0.72, 1.0, 1.0), colour=SKIN, ellipse=True)  # a thumb
    return face


def motion_blur(length: int, angle: float) -> Callable[[np.ndarray], np.ndarray]:
    kernel = smear_kernel(length, angle)
    return lambda f: cv2.filter2D(f, -1, kernel)


def over_the_body(step: int, thumb: tuple[float, float, float, float]) -> Callable[[Card], np.ndarray]:
    """A pip card's index over the body of the rank ``step`` from it (the other way at A and 10)."""
    def body(card: Card) -> Rank:
        n = int(card.rank) + step
        return Rank(n if 1 <= n <= 10 else int(card.rank) - step)
    return over(body, thumb)


def over(body: Callable[[Card], Rank], thumb: tuple[float, float, float, float] | None) -> Callable[[Card], np.ndarray]:
    """A card's index over the body of the card of rank ``body(card)`` and its suit."""
    def face(card: Card) -> np.ndarray:
        under = render_card(Card(body(card), card.suit))
        h, w = under.shape[:2]
        under[: int(0.2 * h), : int(0.2 * w)] = render_card(card)[: int(0.2 * h), : int(0.2 * w)]
        covered = synth.occlude(under, (0.75, 0.75, 1.0, 1.0), colour=WHITE, ellipse=False)  # the card above
        return covered if thumb is None else synth.occlude(covered, thumb, colour=SKIN, ellipse=True)
    return face


def glared(face: Callable[[Card], np.ndarray]) -> Callable[[Card], np.ndarray]:
    """``face`` dimmed to a photo's paper grey under a lamp's glare, the spot placed by the card."""
    return lambda card: glare(cv2.convertScaleAbs(face(card), alpha=0.8), glare_at(FULL_DECK.index(card)))


PIP_CARDS = tuple(c for c in FULL_DECK if c.rank <= Rank.TEN)
COURTS = tuple(c for c in FULL_DECK if c.rank > Rank.TEN)
LOWER_RIGHT, LOWER_LEFT = (0.55, 0.6, 1.0, 1.0), (0.0, 0.55, 0.5, 1.0)

CASES: dict[str, Case] = {
    "four-colour": Case(face=four_colour),
    "greyscale": Case(frame=lambda f: cv2.cvtColor(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)),
    "red channel": Case(frame=lambda f: cv2.merge([f[..., 2]] * 3)),
    "strip over the rank's left half (skin)": Case(face=strip((0.0, 0.0, 0.10, 0.13), SKIN), angles=(0.0, 140.0)),
    "strip over the rank's left half (white)": Case(face=strip((0.0, 0.0, 0.10, 0.13), WHITE), angles=(0.0, 140.0)),
    "strip over the rank's left third (white)": Case(face=strip((0.0, 0.0, 0.075, 0.13), WHITE), angles=(0.0, 140.0)),
    "strip over the pip's top half (skin)": Case(face=strip((0.0, 0.14, 0.25, 0.165), SKIN), angles=(0.0, 140.0)),
    "strip over the pip's top half (white)": Case(face=strip((0.0, 0.14, 0.25, 0.165), WHITE), angles=(0.0, 140.0)),
    "card 56 px": Case(height=56, angles=(0.0, 45.0)),
    "card 70 px": Case(height=70, angles=(0.0, 45.0)),
    "motion blur 21 px along": Case(frame=motion_blur(21, 0.0)),
    "motion blur 21 px at 45 degrees": Case(frame=motion_blur(21, 45.0), angles=(45.0, 0.0)),
    "an index over the next rank's body (thumb lower right)": Case(
        face=over_the_body(1, LOWER_RIGHT), cards=PIP_CARDS, mixed=True),
    "an index over the rank below's body (thumb lower right)": Case(
        face=over_the_body(-1, LOWER_RIGHT), cards=PIP_CARDS, mixed=True),
    "an index over the next rank's body (thumb lower left)": Case(
        face=over_the_body(1, LOWER_LEFT), cards=PIP_CARDS, mixed=True),
    "an index over the rank below's body (thumb lower left)": Case(
        face=over_the_body(-1, LOWER_LEFT), cards=PIP_CARDS, mixed=True),
    "a court's index over a pip card's body (thumb lower right)": Case(
        face=over(lambda c: Rank(2 + (int(c.rank) + 3 * list(Suit).index(c.suit)) % 9), LOWER_RIGHT),
        cards=COURTS, mixed=True),
    "a pip card's index over a court's body (thumb lower right)": Case(
        face=over(lambda c: Rank(11 + int(c.rank) % 3), LOWER_RIGHT), cards=PIP_CARDS, mixed=True),
    "an index over the next rank's body under glare": Case(
        face=glared(over_the_body(1, None)), cards=PIP_CARDS, mixed=True),
    "an index over the rank below's body under glare": Case(
        face=glared(over_the_body(-1, None)), cards=PIP_CARDS, mixed=True),
    "an index over the body two ranks up under glare": Case(
        face=glared(over_the_body(2, None)), cards=PIP_CARDS, mixed=True),
    "a pip card under glare (its other corner covered)": Case(
        face=glared(over(lambda c: c.rank, None)), cards=PIP_CARDS),
}


SOFT_CARD_PX = 128  # the slot camera's frame height (ov7670-slot), the card filling it


def enrolled_deck(*, soft: bool = False) -> DeckProfile:
    """The rendered deck enrolled as a user enrols one: each card found upright in a frame
    (``soft``: the frame seen through the soft camera)."""
    seen = []
    rng = np.random.default_rng(0)
    for card in FULL_DECK:
        quad = synth.card_quad(640, 480, 360, 0.0, (320, 240), 0.02, rng)
        frame = synth.place_card(synth.light_background(640, 480, rng), render_card(card), quad)
        if soft:
            frame, quad = synth.soft_camera(frame, SOFT_CARD_PX / 360, rng), quad * (SOFT_CARD_PX / 360)
        seen.append((card, warp_quad(frame, quad)))
    return enroll_views(seen, view="face", name="rendered")


def run(case: Case, reader: Reader, *, soft: bool = False) -> tuple[int, int, int, list[str]]:
    right = wrong = reads = 0
    named: list[str] = []
    for i, card in enumerate(case.cards):
        face = case.face(card)
        for k, angle in enumerate(case.angles):
            rng = np.random.default_rng([i, k])
            quad = synth.card_quad(640, 480, case.height, angle, (320, 240), 0.03, rng)
            frame = case.frame(synth.place_card(synth.light_background(640, 480, rng), face, quad))
            if soft:
                frame, quad = synth.soft_camera(frame, SOFT_CARD_PX / 360, rng), quad * (SOFT_CARD_PX / 360)
            for reading in (reader.read(frame, window=quad), reader.read(frame)):
                reads += 1
                if reading.card == card and not case.mixed:
                    right += 1
                elif reading.card is not None:
                    wrong += 1
                    named.append(f"{card}{' index' if case.mixed else ''}->{reading.card}")
    return reads, right, wrong, named


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--enrolled", action="store_true", help="enrol the rendered deck first")
    ap.add_argument("--enrolled-bar", type=float, help="the enrolled prototypes' bar (default: the deck's own)")
    ap.add_argument("--soft", action="store_true", help="every frame (and with --enrolled, the deck enrolled) "
                    "through a small, soft camera")
    args = ap.parse_args()
    chosen = args.cases.split(",") if args.cases else list(CASES)
    unknown = [c for c in chosen if c not in CASES]
    if unknown:
        print(f"bench_near_misses: no case {unknown[0]!r}; the cases: {', '.join(CASES)}", file=sys.stderr)
        return 2
    if args.enrolled_bar is not None and not (args.enrolled and 0.0 < args.enrolled_bar < 1.0):
        print(f"bench_near_misses: --enrolled-bar {args.enrolled_bar!r}: a probability between 0 and 1, "
              "with --enrolled", file=sys.stderr)
        return 2
    reader = Reader(enrolled_deck(soft=args.soft)) if args.enrolled else Reader()
    if args.enrolled_bar is not None:
        reader.accept = Acceptance(args.enrolled_bar, args.enrolled_bar)
    if args.enrolled:
        print(f"the deck enrolled{' through the soft camera' if args.soft else ''}, read at a bar of "
              f"{reader.accept.rank:.3f}")
    print("| case | reads | right | abstained | wrong | wrong reads, first few |")
    print("|---|---|---|---|---|---|")
    for name in chosen:
        reads, right, wrong, named = run(CASES[name], reader, soft=args.soft)
        print(f"| {name} | {reads} | {right} | {reads - right - wrong} | {wrong} | {', '.join(named[:4])} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
