"""The classical reader: the card's index read against a deck profile's glyph templates.

Rank and suit are read from the corner index against the profile's templates. A card is named
only when the rank and the suit each beat every rival by a clear margin, both corners agree
(face views), the ink's colour agrees with the suit's shape, and the pip count, where it can be
counted, agrees with the rank (pips are not counted when each corner alone is sure of the rank).
Colour never picks the suit: it can only veto. A deck with no index is read by its whole faces
and, where those abstain, by the print in its middle and its corner pips (vision.middle).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import cv2
import numpy as np

from faro_box.cards import FULL_DECK, RANKS, SUITS, Card, Colour, Rank, Suit
from faro_box.vision import glyphs
from faro_box.vision.canonical import (
    CANON_H,
    CANON_W,
    TOO_SMALL,
    CardView,
    View,
    check_image,
    parse_window,
    too_small,
)
from faro_box.vision.features import (
    IndexFeatures,
    face_feature,
    index_features,
    pip_feature,
    read_index_region,
    view_index,
)
from faro_box.vision.learned_reader import BLACK_SUITS, CARDS_BY_SCORE_INDEX
from faro_box.vision.locate import find_card
from faro_box.vision.middle import corner_pips, read_middle
from faro_box.vision.nearest import ClassTemplates, margin_confidence, pick, similarity
from faro_box.vision.pips import PipCheck, check_pips, count_pips, count_pips_in, pip_area
from faro_box.vision.profile import DeckProfile, generic_profile
from faro_box.vision.reading import Reading


@dataclass(frozen=True, slots=True)
class _Votes:
    rank: np.ndarray  # (13,) best similarity per rank
    suit: np.ndarray  # (4,)
    redness: float
    features: IndexFeatures  # for the pip's outline, measured only where black ink asks for it


def _similarity(feats: np.ndarray, v: np.ndarray) -> np.ndarray:
    return similarity(feats, v, np.einsum("ij,ij->i", feats, feats))



class ClassicalReader:
    """Reads cards by glyph templates with one deck profile (the generic one when none is given)."""

    # A rank (suit) is named only with similarity >= first and the runner-up's distance at least
    # second times the winner's.
    RANK_ACCEPT = (0.6, 2.0)
    SUIT_ACCEPT = (0.6, 2.0)
    COLOUR_BAND = 0.04  # redness this close to the deck's threshold: colour unknown, no veto
    SURE = 0.9  # a rank this sure in each corner alone needs no pip count to confirm it

    def __init__(self, profile: DeckProfile | None = None, *, view: View | None = None) -> None:
        self.profile = profile if profile is not None else generic_profile()
        self.view = view if view is not None else self.profile.view
        # A profile drawn from many typefaces has a denser cloud of templates than one deck's own
        # images: the nearest rival is nearer for the right class too, so it may ask a lower ratio.
        self.rank_accept = (self.RANK_ACCEPT[0], self.profile.margins[0])
        self.suit_accept = (self.SUIT_ACCEPT[0], self.profile.margins[1])
        p = self.profile
        self._ranks = ClassTemplates(p.rank_feats, p.rank_labels, 13, 1)
        self._suits = {k: ClassTemplates(v, p.suit_labels, 4, 0) for k, v in p.suit_feats.items()}
        self._middles = None if not len(p.middle_feats) or not len(p.corner_pip_labels) else (
            p.middle_feats, np.array([int(FULL_DECK[k].rank) for k in p.face_labels.tolist()]),
            ClassTemplates(p.corner_pip_feats, p.corner_pip_labels, 4, 0), p.red_threshold)

    def read(self, image: np.ndarray, *, window: Sequence[Sequence[float]] | Sequence[float] | None = None) -> Reading:
        image = check_image(image)
        if window is not None:
            quad = parse_window(window)
        elif self.view is View.CORNER:
            index = read_index_region(image, View.CORNER)
            if index is None:
                return Reading(None, 0.0, present=False, why="no card index in view")
            return self._decide([self._votes(index_features(index, reading=True))])
        else:
            found = find_card(image)
            if found is None:
                return Reading(None, 0.0, present=False, why="no card found")
            quad = found
        if too_small(quad):
            return Reading(None, 0.0, present=True, why=TOO_SMALL)
        return self._read_face(CardView(image, quad))

    def read_view(self, view: CardView) -> Reading:
        """The card already found (or given): ``view``."""
        return self._read_face(view)

    def _read_face(self, view: CardView) -> Reading:
        votes = []
        if self.profile.has_index:
            for which in (0, 1):
                index = view_index(view, which)
                if index is not None:
                    votes.append(self._votes(index_features(index, reading=True)))
                elif which == 0:
                    # No index in the first corner: most likely no card at all, and then the
                    # whole face is needed; warped now, the other corner is cut from it.
                    view.face()
        if not votes and len(self.profile.face_labels):
            return self._read_by_face(view.face())
        if not votes:
            return Reading(None, 0.0, present=_looks_like_card(view.face()), why="no readable index")
        return self._decide(votes, view=view)

    def _votes(self, f: IndexFeatures) -> _Votes:
        rank = self._ranks.best(f.rank)
        key = "whole" if f.suit_whole is not None else f"top{max(f.suit_tops)}"
        pip = f.suit_whole if f.suit_whole is not None else f.suit_tops[max(f.suit_tops)]
        suit = self._suits[key].best(pip[None, :])
        return _Votes(rank, suit, f.redness, f)

    def _decide(self, votes: list[_Votes], *, view: CardView | None = None) -> Reading:
        rank_scores = _mean([v.rank for v in votes])
        suit_scores = _mean([v.suit for v in votes])
        redness = _mean([v.redness for v in votes])
        thr = self.profile.red_threshold
        red = True if redness > thr + self.COLOUR_BAND else False if redness < thr - self.COLOUR_BAND else None
        outline = None
        if red is False:  # the outline only tells black suits apart (_pick_suit)
            growths = [g for g in (v.features.pip_growth() for v in votes) if g is not None]
            outline = black_suit_by_outline(_mean(growths)) if growths else None
        r_i, conf_rank = pick(rank_scores, self.rank_accept)
        s_i, conf_suit, suit_why = _pick_suit(suit_scores, red, self.suit_accept, outline)
        rank, suit = RANKS[r_i], SUITS[s_i]
        candidates = _candidates(rank_scores, suit_scores)
        confidence = min(conf_rank, conf_suit)
        why = suit_why
        if len(votes) == 2 and any(int(np.argmax(v.rank)) != r_i for v in votes):
            why = why or "the two corners disagree on the rank"
        # Pips are counted only when they can matter: a sure index rank of A–10 on a face view
        # that nothing else has vetoed, and not when both corners named that rank on their own,
        # each far past the margin. With one corner read (a thumb on the other) nothing else
        # checks its index, and the whole face is counted (check_pips); with both, each
        # corner checks the other, and the pip area alone is counted, as before.
        # A court read in one corner alone is checked against a pip card's body, and a red
        # one against the pip beside its figure.
        pips = None
        if view is not None and not why and conf_rank >= 0.5 and not self._sure_in_each(votes, r_i):
            if rank <= Rank.TEN:
                pips = (check_pips(view.face(), red=suit.colour is Colour.RED) if len(votes) == 1
                        else PipCheck(count_pips_in(view.region(*pip_area(CANON_H, CANON_W)))))
            elif len(votes) == 1:
                pips = check_pips(view.face(), red=suit.colour is Colour.RED, court=True)
        refusal = pips.refusal(rank, suit) if pips is not None else None
        if refusal is not None:
            why = why or refusal
        # What the face refused, the abstention is not sure of either.
        against_suit = refusal is not None and pips is not None and pips.red not in (None, suit) \
            and suit.colour is Colour.RED
        rank_ok = conf_rank >= 0.5 and "rank" not in why and "pips" not in why \
            and (refusal is None or against_suit)
        suit_ok = conf_suit >= 0.5 and not suit_why and not against_suit
        if not why and rank_ok and suit_ok:
            return Reading(CARDS_BY_SCORE_INDEX[4 * r_i + s_i], confidence, candidates, present=True, rank=rank, suit=suit)
        why = why or ("rank unsure" if not rank_ok else "suit unsure")
        return Reading(None, min(confidence, 0.49), candidates, present=True,
                       rank=rank if rank_ok else None, suit=suit if suit_ok else None, why=why,
                       shape_against_ink=suit if suit_why.startswith(_INK_CONTRADICTS) else None)

    def _sure_in_each(self, votes: list[_Votes], r_i: int) -> bool:
        """Both corners read, and each names rank ``r_i`` alone with confidence SURE or more."""
        if len(votes) < 2:
            return False
        for v in votes:
            i, conf = pick(v.rank, self.rank_accept)
            if i != r_i or conf < self.SURE:
                return False
        return True

    def _read_by_face(self, face: np.ndarray) -> Reading:
        """Index-less decks: the enrolled faces decide (either way up), with the same margins. A
        deck whose own print and corner pips were enrolled (vision.middle) is read by them where
        the faces abstain; where the faces name a card, the middle's rank and the corner pips'
        suits must not name another."""
        whole = self._read_by_whole_face(face)
        if self._middles is None:
            return whole
        m = read_middle(face, *self._middles)
        if whole.card is not None:
            if m.rank not in (None, whole.card.rank) or m.suits_named - {whole.card.suit}:
                named = "/".join(sorted(s.value for s in m.suits_named)) or "?"
                return Reading(None, min(whole.confidence, 0.49), whole.candidates, present=True,
                               why=f"the face reads {whole.card}, its middle {m.rank.symbol if m.rank else '?'} "
                                   f"and its corner pips {named}")
            return whole
        if m.rank is None or m.suit is None:
            return Reading(None, whole.confidence, whole.candidates, present=True, why=f"{whole.why}; {m.why}")
        card = Card(m.rank, m.suit)
        candidates = (card, *(c for c in whole.candidates if c != card))
        pips = count_pips(face)
        # Three pips or more are a pip card's body, which must be the middle's rank; one or two
        # blobs are what a printed numeral or figure shows as well.
        if pips is not None and pips >= 3 and pips != int(card.rank):
            return Reading(None, min(m.confidence, 0.49), candidates, present=True,
                           why=f"{pips} pips contradict the middle's {card.rank.symbol}")
        return Reading(card, m.confidence, candidates, present=True, rank=card.rank, suit=card.suit)

    def _read_by_whole_face(self, face: np.ndarray) -> Reading:
        p = self.profile
        f = face_feature(face)
        f180 = face_feature(np.ascontiguousarray(face[::-1, ::-1]))
        sim = np.maximum(p.face_feats @ f, p.face_feats @ f180)
        scores = np.full(52, -1.0, np.float32)
        np.maximum.at(scores, p.face_labels, sim.astype(np.float32))
        i, confidence = pick(scores, (0.6, 2.5))
        card = FULL_DECK[i]
        order = np.argsort(scores)[::-1][:5]
        candidates = tuple(FULL_DECK[j] for j in order if scores[j] > 0)
        pips = count_pips(face)
        if pips is not None and card.rank <= Rank.TEN and pips != int(card.rank):
            return Reading(None, min(confidence, 0.49), candidates, present=True,
                           why=f"{pips} pips contradict the face")
        if card.rank > Rank.TEN and not p.has_index and (named := court_pip_suits(face) - {card.suit}):
            # A court's figure is the same for every suit of its colour; its corner pip is not.
            return Reading(None, min(confidence, 0.49), candidates, present=True,
                           why=f"the corner pip names {'/'.join(sorted(s.value for s in named))}, not the face's {card.suit.value}")
        pip = pip_feature(face) if card.rank <= Rank.TEN else None
        if len(p.pip_feats) and pip is not None:
            # The face picks the card; the pip's own shape must pick the same suit, clearly.
            suits = np.array([FULL_DECK[k].suit for k in p.face_labels.tolist()])
            sim = _similarity(p.pip_feats, pip)
            per_suit = np.array([sim[suits == s].max() if (suits == s).any() else -1.0 for s in SUITS])
            s_i, s_conf = pick(per_suit, self.suit_accept)
            if SUITS[s_i] != card.suit or s_conf < 0.5:
                return Reading(None, min(confidence, 0.49), candidates, present=True,
                               why="the pip's shape does not confirm the suit")
        if confidence >= 0.5:
            return Reading(card, confidence, candidates, present=True, rank=card.rank, suit=card.suit)
        return Reading(None, confidence, candidates, present=True, why="face unsure")


# Where a deck with no index prints its suit on a court: the face's top-left corner, a pip
# touching the corner's inner sides not taken (first_pip).
COURT_PIP_CORNER = (0.0, 0.3, 0.0, 0.3)


@lru_cache(maxsize=1)
def _index_pips() -> ClassTemplates:
    """The generic profile's index pips, whole: the shapes of the four suits in many typefaces."""
    p = generic_profile()
    return ClassTemplates(p.suit_feats["whole"], p.suit_labels, 4, 0)


def court_pip_suits(face: np.ndarray) -> set[Suit]:
    """The suits a court's corner pips name, where they name one clearly: by their shape against
    the generic index pips (sure, as the templates' line), or for a black pip by its outline
    (glyphs.pip_growth). Both corners (the face either way up), an unclear pip naming nothing."""
    named: set[Suit] = set()
    for pip in corner_pips(face, COURT_PIP_CORNER):
        i, conf = pick(_index_pips().best(glyphs.glyph_feature(pip, glyphs.SUIT_SHAPE)[None]),
                        ClassicalReader.SUIT_ACCEPT)
        if conf >= 0.5:
            named.add(SUITS[i])
        elif SUITS[i].colour is Colour.BLACK and (growth := glyphs.pip_growth(pip)) is not None \
                and (outline := black_suit_by_outline(growth)) is not None:
            named.add(outline)
    return named


_T = TypeVar("_T", float, np.ndarray)


def _mean(values: list[_T]) -> _T:
    """The mean of one or two corners' votes: np.mean's own overhead outweighs the sum here."""
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total / len(values) if len(values) > 1 else total


_RED = (SUITS.index(Suit.HEARTS), SUITS.index(Suit.DIAMONDS))
_INK_CONTRADICTS = "ink colour"  # how _pick_suit's reason begins where the colour forbids the shape's suit


def black_suit_by_outline(growth: float) -> Suit | None:
    """Spade or club by how the pip widens from its top (glyphs.pip_growth); None in between."""
    return Suit.SPADES if growth >= 0.3 else Suit.CLUBS if growth <= 0.2 else None


def _pick_suit(scores: np.ndarray, red: bool | None, accept: tuple[float, float],
               outline: Suit | None = None) -> tuple[int, float, str]:
    """The pip's shape names the suit; the ink's colour only vetoes.

    With the colour measured, the shape must beat its same-colour rival (heart v diamond, spade v
    club) by the full margin; the other colour's suits lose unless the shape clearly prefers one,
    which is a contradiction and an abstention. A pip cut so that only its point shows (diamond
    or spade?) is thus named only when the ink's colour and the shape agree.
    """
    if red is None:
        i, conf = pick(scores, accept)
        return i, conf, ""
    own, other = (_RED, BLACK_SUITS) if red else (BLACK_SUITS, _RED)
    i = max(own, key=lambda k: scores[k])
    rival = min(own, key=lambda k: scores[k])
    j = max(other, key=lambda k: scores[k])
    if margin_confidence(float(scores[j]), float(scores[i]), accept) >= 0.5:
        return j, 0.0, f"{_INK_CONTRADICTS} ({'red' if red else 'black'}) contradicts the {SUITS[j].name.lower()} pip"
    conf = margin_confidence(float(scores[i]), float(scores[rival]), accept)
    if red is False and outline is not None:
        # Black ink: templates sure of one black suit and an outline naming the other is a
        # contradiction; templates torn between the two (fonts draw both in many shapes) leave
        # it to the outline, which no face or deck measured breaks (glyphs.pip_growth).
        if conf >= 0.5 and SUITS[i] is not outline:
            return i, 0.49, "the pip's outline and shape disagree (spade or club?)"
        if SUITS[i] is not outline:
            return SUITS.index(outline), 0.6, ""
        return i, max(conf, 0.75), ""
    return i, conf, ""


def _candidates(rank_scores: np.ndarray, suit_scores: np.ndarray, n: int = 5) -> tuple[Card, ...]:
    joint = rank_scores[:, None] + suit_scores[None, :]
    order = np.argsort(joint.ravel())[::-1][:n]
    return tuple(CARDS_BY_SCORE_INDEX[k] for k in order.tolist())


def _looks_like_card(face: np.ndarray) -> bool:
    share = cv2.countNonZero(glyphs.ink_mask(face, 31, 0.35)) / (face.shape[0] * face.shape[1])
    return bool(0.01 < share < 0.6)
