"""The joint reading (reader.Method.JOINT): the network's and the templates' readings of the
same card made one, and the face's pips where both leave a pip card unsure."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from faro_box.cards import Card, Colour, Suit
from faro_box.vision import glyphs
from faro_box.vision.canonical import CardView
from faro_box.vision.classical import black_suit_by_outline
from faro_box.vision.learned_reader import Acceptance, Scores, confirmed_by_face
from faro_box.vision.pips import UPPER_PIPS_WHOLE, first_pip, pips_printed, red_suit_by_outline
from faro_box.vision.reading import Reading

JOINT_GUESSES = 2  # the templates' card is taken where it is among this many of the network's best
# ... but against the network's own first guess only where the templates are this sure of it:
# where the network is all but even between two suits, templates just over their line (a blurred
# index) are a coin toss, not a second opinion.
OVERRULE_NETWORK = 0.75


def joined(learned: Reading, classical: Reading, *, each_corner: Card | None = None) -> Reading:
    """Method.JOINT: one reading from the network's and the templates' of the same card.
    ``each_corner``: the card every corner the network read names on its own, sure
    (learned_reader.named_by_each_corner)."""
    card = learned.card
    if card is not None:
        if classical.card == card:
            return learned
        # Alone, the network's card stands where the templates saw the index and are unsure of
        # it without contradicting it; where they found no index at all, it may be covered, and
        # a half-covered index is where the network alone misreads (a Q cut to a J), unless each
        # corner names it on its own, sure: a thumb or the card above hides one corner, and a
        # small camera's blurred index, which the templates cannot find, is no cover. Nor where
        # the templates' pip is plainly of another suit, one the ink's colour forbade them (a
        # four-colour deck's blue diamond, which the network takes for a spade).
        alone = classical.card is None and classical.shape_against_ink in (None, card.suit) and (
            (bool(classical.candidates) and classical.rank in (None, card.rank) and classical.suit in (None, card.suit))
            or (not classical.candidates and each_corner == card))
        if alone:
            return learned
        why = (f"the learned reader read {card}, the classical one {classical.card}" if classical.card
               else f"the learned reader read {card}, the classical one {classical.why or 'abstained'}")
        return Reading(None, min(learned.confidence, 0.49), _merged(learned, classical), present=True, why=why)
    if classical.card is not None and classical.card in learned.candidates[:JOINT_GUESSES] \
            and (classical.card == learned.candidates[0] or classical.confidence >= OVERRULE_NETWORK):
        return classical
    guesses = learned.candidates[:JOINT_GUESSES]
    rank = learned.rank
    if classical.rank is not None and rank is not None and rank != classical.rank:
        rank = None  # each sure of another rank
    elif classical.rank is not None and rank is None and classical.rank in {c.rank for c in guesses}:
        rank = classical.rank
    suit = learned.suit if classical.suit in (None, learned.suit) else None
    why = learned.why or classical.why
    if classical.card is not None:
        why = (f"the classical reader read {classical.card}, the learned one's second guess, too unsure to overrule its first"
               if classical.card in guesses else
               f"the classical reader read {classical.card}, not among the learned one's best guesses")
    return Reading(None, min(learned.confidence, 0.49), _merged(learned, classical),
                   present=learned.present or classical.present, rank=rank, suit=suit, why=why or "unsure")


@dataclass(frozen=True, slots=True)
class FaceCues:
    """What a found card's face shows beside its index, where it can be measured."""

    pips: int | None  # how many pips (pips.pips_printed)
    black: Suit | None  # spade or club by the first body pip's outline, a pip many times the index's
    red: Suit | None = None  # heart or diamond by a body pip's outline (red_suit_by_outline)


def face_cues(view: CardView) -> FaceCues:
    face = view.face()
    pip = first_pip(face, UPPER_PIPS_WHOLE)
    black = _black_suit(pip)
    if black is None:
        # A court's pip beside its figure is printed on the frame's tinted ground, which ink_map
        # takes for ink round it: looked for again in black ink alone, and in the lower half
        # turned over (glare washes out one end of a card, and the lower pips are printed
        # upside down).
        turned = face[::-1, ::-1]
        black = _black_suit(first_pip(face, UPPER_PIPS_WHOLE, black=True)) \
            or _black_suit(first_pip(turned, UPPER_PIPS_WHOLE)) \
            or _black_suit(first_pip(turned, UPPER_PIPS_WHOLE, black=True))
    return FaceCues(pips_printed(face), black, red_suit_by_outline(face, pip))


def _black_suit(pip: np.ndarray | None) -> Suit | None:
    growth = glyphs.pip_growth(pip) if pip is not None else None
    return black_suit_by_outline(growth) if growth is not None else None


def confirmed(reading: Reading, s: Scores, classical: Reading, cues: FaceCues, accept: Acceptance) -> Reading:
    """Method.JOINT where the joined reading abstained: the index's card where the face settles
    what it left unsure, or vouches for it where the templates found no index
    (learned_reader.confirmed_by_face), unless the templates read another card, rank or suit.
    Named at the acceptance line (confidence 0.5): the index alone did not name it."""
    card = confirmed_by_face(s, accept, cues.pips, cues.black, index_seen=bool(classical.candidates))
    if card is None or classical.card not in (None, card) or classical.rank not in (None, card.rank) \
            or classical.suit not in (None, card.suit):
        return reading
    if not _same_colour(classical, card):
        return reading
    if card.suit.colour is Colour.RED and cues.red not in (None, card.suit):
        return reading  # half a diamond's index pip under a strip is half a heart: the body's is whole
    return Reading(card, 0.5, reading.candidates, present=True, rank=card.rank, suit=card.suit)


def _same_colour(classical: Reading, card: Card) -> bool:
    """Whether the templates' first guess, where they made one, is of ``card``'s colour.

    Unsure of the card, the templates still measured its ink's colour: a dark red the network
    takes for black (a maroon diamond, whose point a spade's outline shares) is not settled as a
    black card by its face.
    """
    return not classical.candidates or classical.candidates[0].colour is card.colour


def _merged(a: Reading, b: Reading) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(a.candidates + b.candidates))
