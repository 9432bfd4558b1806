"""The reader: one image in, one Reading out; it abstains (card None) rather than guess.

Rank and suit are read from the corner index against the profile's templates. A card is named
only when the rank and the suit each beat every rival by a clear margin, both corners agree
(face views), the ink's colour agrees with the suit's shape, and the pip count, where it can be
counted, agrees with the rank (pips are not counted when each corner alone is sure of the rank).
Colour never picks the suit: it can only veto.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import cv2
import numpy as np

from faro_box.cards import FULL_DECK, RANKS, SUITS, Card, Colour, Rank, Suit
from faro_box.errors import VisionError
from faro_box.vision import glyphs
from faro_box.vision.canonical import (
    CANON_H,
    CANON_W,
    CardView,
    View,
    check_image,
    parse_window,
)
from faro_box.vision.features import (
    IndexFeatures,
    face_feature,
    index_features,
    pip_feature,
    read_index_region,
    view_index,
)
from faro_box.vision.index_patch import IndexWindow, corner_patch, face_patches
from faro_box.vision.learned import IndexNet, NetOutput, settled, shipped_net
from faro_box.vision.learned_deck import Mode
from faro_box.vision.learned_reader import (
    BLACK_SUITS,
    CARDS_BY_SCORE_INDEX,
    ENROLLED,
    GENERIC,
    Acceptance,
    Scores,
    confirmed_by_face,
    decide,
    named_by_each_corner,
    scores,
)
from faro_box.vision.locate import find_card, is_whole_picture
from faro_box.vision.middle import corner_pips, read_middle
from faro_box.vision.nearest import ClassTemplates, margin_confidence, pick, similarity
from faro_box.vision.pips import (
    UPPER_PIPS_WHOLE,
    PipCheck,
    check_pips,
    count_pips,
    count_pips_in,
    count_pips_whole,
    first_pip,
    pip_area,
)
from faro_box.vision.profile import DeckProfile, generic_profile


@dataclass(frozen=True, slots=True)
class Reading:
    card: Card | None  # None: no card, or not sure enough to name one
    confidence: float  # 0..1: how sure the reader is of ``card`` (of the best candidate if it abstained)
    candidates: tuple[Card, ...] = ()  # best first, for a "confirm that card" prompt
    present: bool = False  # a card is there at all
    rank: Rank | None = None  # partial reads: a rank or suit the reader is sure of alone
    suit: Suit | None = None
    why: str = ""  # why it abstained, for logs and the dealer page


@dataclass(frozen=True, slots=True)
class _Votes:
    rank: np.ndarray  # (13,) best similarity per rank
    suit: np.ndarray  # (4,)
    redness: float
    features: IndexFeatures  # for the pip's outline, measured only where black ink asks for it


def _similarity(feats: np.ndarray, v: np.ndarray) -> np.ndarray:
    return similarity(feats, v, np.einsum("ij,ij->i", feats, feats))


class Method(enum.Enum):
    """How a Reader reads the index."""

    CLASSICAL = "classical"  # the glyph templates of the deck profile
    LEARNED = "learned"  # the learned network (vision/learned.py)
    # Both on the same found card: the network's card unless the templates name another; the
    # templates' card where it is the network's best guess, or its second and the templates are
    # sure of it (OVERRULE_NETWORK); where both leave a pip card unsure, its face may settle it
    # (confirmed). Each alone reads fewer
    # of the decks it never saw (benchmarks/bench_reader_loso.py), and together they are as
    # rarely wrong.
    JOINT = "joint"


class Reader:
    """Reads cards with one deck profile (the generic one when none is given).

    ``method``: by default JOINT, with the generic heads and templates or with the enrolled
    deck's prototypes and its own templates (and, where those abstain on a deck whose glyphs the
    generic heads know, as an unenrolled deck is read); ``learned`` is short for LEARNED: the network alone
    reads the index by its generic heads or the enrolled deck's prototypes. A deck whose enrolment
    saw too few indices is read by its classical templates, as its profile says, and so is a
    deck enrolled with another network than this one, where ``warning`` says so.
    ``second_look``: where the joint generic reading saw an index and abstained, read it again in
    the windows of SECOND_LOOK beside the default one (the default; only those pictures pay for it).
    """

    def __init__(self, profile: DeckProfile | None = None, *, view: View | None = None,
                 learned: bool = False, net: IndexNet | None = None, method: Method | None = None,
                 second_look: bool = True) -> None:
        self.profile = profile
        self.second_look = second_look
        self.view = view if view is not None else profile.view if profile is not None else View.FACE
        self.deck = profile.learned if profile is not None else None
        self.accept = ENROLLED if self.deck is not None else GENERIC
        self.warning: str | None = None
        asked = method is not None or learned
        if method is None:
            method = Method.LEARNED if learned else Method.JOINT if profile is None or self.deck is not None \
                else Method.CLASSICAL
        if method is not Method.CLASSICAL and self.deck is not None and self.deck.mode is Mode.FACE:
            method = Method.CLASSICAL
        if method is not Method.CLASSICAL and profile is not None and self.deck is not None:
            net = net if net is not None else shipped_net()
            if self.deck.network != net.fingerprint:
                stale = (f"the deck profile {profile.name!r} was enrolled with another index network than "
                         "this faro-box's: its learned prototypes do not apply")
                if asked:
                    raise VisionError(f"{stale}; enrol the deck again to read it by the learned network "
                                      "(its classical templates still read it)")
                self.warning = f"{stale}: it is read by its classical templates alone; enrol it again to read it by both"
                method = Method.CLASSICAL
        self.method = method
        self._classical = ClassicalReader(profile, view=self.view) if method is not Method.LEARNED else None
        self.net = None if method is Method.CLASSICAL else net if net is not None else shipped_net()
        # An enrolled deck whose glyphs the generic heads named at enrolment is read as any deck
        # is where its own reading abstains: its bar is the stricter one, and enrolling a deck
        # should never read less of it than not enrolling it. A deck whose glyphs they did not
        # know (Mode.OWN: a V that is a queen) is never read by them.
        self._generic = (Reader(view=self.view, net=self.net, method=Method.JOINT, second_look=second_look)
                         if method is Method.JOINT and self.deck is not None and self.deck.mode is Mode.GENERIC_AND_OWN
                         else None)

    def read(self, image: np.ndarray, *, window: Sequence[Sequence[float]] | Sequence[float] | None = None) -> Reading:
        if self.method is Method.CLASSICAL:
            assert self._classical is not None
            return self._classical.read(image, window=window)
        image = check_image(image)
        if window is not None or self.view is View.CORNER:
            return self._read_at(image, self.locate(image, window=window))
        quad = find_card(image)
        if quad is None:
            return Reading(None, 0.0, present=False, why="no card found")
        reading, seen = self._look(image, CardView(image, quad))
        if reading.card is None and not seen and not is_whole_picture(image, quad):
            # Photographed at a slant, a card's long side can look the shorter: the outline
            # found is right, but its indices lie in the two corners not read. The card turned
            # a quarter is read where the network saw an index in neither corner.
            turned = self._read_at(image, CardView(image, turned_quarter(quad)))
            if turned.card is not None:
                return turned
        return reading

    def _read_at(self, image: np.ndarray, view: CardView | None) -> Reading:
        return self._look(image, view)[0]

    def _look(self, image: np.ndarray, view: CardView | None) -> tuple[Reading, bool]:
        """The reading of the card at ``view``, and whether the network saw an index in any of
        its corners."""
        if self.method is Method.LEARNED:
            first = self.scores(self.patches(image, view))
            return self._decided(first, view), bool(len(first.rank))
        assert self._classical is not None
        classical = self._classical.read(image) if view is None else self._classical.read_view(view)
        first = self.scores(self.patches(image, view), classical)
        seen = bool(len(first.rank))
        learned = self._decided(first, view)
        reading = joined(learned, classical, each_corner=named_by_each_corner(first, self.accept))
        if reading.card is None and len(first.rank) and self.second_look and self.deck is None \
                and view is not None and self.method is Method.JOINT:
            # A second look, only where the first saw an index and abstained: the index read
            # again in windows a little smaller, larger and set in from the corner, every one of
            # them and both corners agreeing (a deck prints its index a little off the default).
            more = self.scores(self.patches(image, view, SECOND_LOOK))
            both = Scores(np.concatenate([first.rank, more.rank]), np.concatenate([first.suit, more.suit]),
                          np.concatenate([first.no_index, more.no_index]))
            again = joined(self._decided(both, view), classical,
                           each_corner=named_by_each_corner(both, self.accept))
            if again.card is not None:
                return again, seen
        if reading.card is None and len(first.rank) and self.deck is None and view is not None \
                and self.method is Method.JOINT:
            reading = confirmed(reading, first, classical, face_cues(view), self.accept)
        if reading.card is None and self._generic is not None:
            generic = self._generic._read_at(image, view)
            if generic.card is not None:
                return generic, seen
        return reading, seen

    def _decided(self, s: Scores, view: CardView | None) -> Reading:
        return self.decide(s, pips=None if view is None else lambda: check_pips(view.face()))

    def locate(self, image: np.ndarray, *, window: Sequence[Sequence[float]] | Sequence[float] | None = None,
               ) -> CardView | None:
        """The found (or given) card; None in the corner view (the image is the corner) or where
        no card is found."""
        if window is not None:
            return CardView(image, parse_window(window))
        if self.view is View.CORNER:
            return None
        quad = find_card(image)
        return CardView(image, quad) if quad is not None else None

    def patches(self, image: np.ndarray, view: CardView | None,
                windows: Sequence[IndexWindow] | None = None) -> np.ndarray:
        """The index patches the network reads: both corners of the card in each of ``windows``
        (the deck's own window, or the default one), or the whole close-up."""
        if view is None:
            return np.stack([corner_patch(image)])
        if windows is None:
            windows = (self.deck.window if self.deck is not None else IndexWindow(),)
        return np.stack([p for w in windows for p in face_patches(view, w)])

    def scores(self, patches: np.ndarray, classical: Reading | None = None) -> Scores:
        """What the network makes of ``patches``; ``classical``: the templates' reading of the
        same card, where the joint reading has it (index_output)."""
        return scores(self.index_output(patches, classical), self.deck, self.accept)

    def index_output(self, patches: np.ndarray, classical: Reading | None = None) -> NetOutput:
        """The network's output for ``patches``: a deck's prototypes live in the whole ensemble's
        embedding; the generic heads take the ensemble's first member alone where it is all but
        certain of the very card the templates (``classical``) name, two readers agreeing, and
        the whole ensemble everywhere else (a member alone is sometimes sure of a wrong card)."""
        if self.net is None:
            raise VisionError("this reader reads by the classical templates, not the learned network")
        if self.deck is not None:
            return self.net(patches)
        named = classical.card if classical is not None else None

        def enough(first: NetOutput) -> bool:
            card = settled(first)
            return named is not None and card is not None and CARDS_BY_SCORE_INDEX[4 * card[0] + card[1]] == named

        return self.net.probabilities(patches, enough)

    def decide(self, s: Scores, accept: Acceptance | None = None, *,
               pips: Callable[[], PipCheck] | None = None) -> Reading:
        """The reading ``s`` makes at ``accept`` (the reader's own bar where None). ``pips``: the
        found card's pips (check_pips), asked for only where one corner alone names a pip card;
        None where there is no card face to count (a corner close-up)."""
        d = decide(s, accept or self.accept)
        # A card was found (or given) even where no corner shows a readable index; a corner
        # close-up shows a card only where the network sees an index in it.
        present = len(s.no_index) > 1 or bool(len(s.rank))
        reading = Reading(d.card, d.confidence, d.candidates, present=present, rank=d.rank, suit=d.suit, why=d.why)
        # Patches come in pairs, one from each corner: which corners showed a readable index.
        corners = {i % 2 for i in np.flatnonzero(s.no_index < self.accept.no_index).tolist()}
        if reading.card is not None and pips is not None and len(corners) == 1 and reading.card.rank <= Rank.TEN:
            # One corner read (a thumb on the other): the pips, where they can be counted, must
            # agree, as the classical reader asks; a sure index over the wrong body is refused.
            refusal = pips().refusal(reading.card.rank)
            if refusal is not None:
                return Reading(None, min(reading.confidence, 0.49), reading.candidates, present=True, why=refusal)
        return reading


def turned_quarter(quad: np.ndarray) -> np.ndarray:
    """The same outline with its corners named a quarter turn on: the card's short side first
    where the found outline's first side was its long one.

    >>> turned_quarter(np.array([[0, 0], [5, 0], [5, 7], [0, 7]])).tolist()
    [[0, 7], [0, 0], [5, 0], [5, 7]]
    """
    return np.roll(quad, 1, axis=0)


JOINT_GUESSES = 2  # the templates' card is taken where it is among this many of the network's best
# ... but against the network's own first guess only where the templates are this sure of it:
# where the network is all but even between two suits, templates just over their line (a blurred
# index) are a coin toss, not a second opinion.
OVERRULE_NETWORK = 0.75
# The generic reading's second look: three windows around the default one, read beside it.
SECOND_LOOK = (IndexWindow(0.0, 0.0, 0.4), IndexWindow(0.0, 0.0, 0.6), IndexWindow(0.02, 0.02, 0.5))


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
        # small camera's blurred index, which the templates cannot find, is no cover.
        alone = classical.card is None and (
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

    pips: int | None  # how many pips (count_pips_whole)
    black: Suit | None  # spade or club by the first body pip's outline, a pip many times the index's


def face_cues(view: CardView) -> FaceCues:
    pip = first_pip(view.face(), UPPER_PIPS_WHOLE)
    growth = glyphs.pip_growth(pip) if pip is not None else None
    return FaceCues(count_pips_whole(view.face()), _outline(growth) if growth is not None else None)


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
            return self._read_face(CardView(image, parse_window(window)))
        if self.view is View.CORNER:
            index = read_index_region(image, View.CORNER)
            if index is None:
                return Reading(None, 0.0, present=False, why="no card index in view")
            return self._decide([self._votes(index_features(index, reading=True))])
        quad = find_card(image)
        if quad is None:
            return Reading(None, 0.0, present=False, why="no card found")
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
            outline = _outline(_mean(growths)) if growths else None
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
        pips = None
        if view is not None and not why and rank <= Rank.TEN and conf_rank >= 0.5 \
                and not self._sure_in_each(votes, r_i):
            pips = (check_pips(view.face()) if len(votes) == 1
                    else PipCheck(count_pips_in(view.region(*pip_area(CANON_H, CANON_W)))))
        refusal = pips.refusal(rank) if pips is not None else None
        if refusal is not None:
            why = why or refusal
        rank_ok = conf_rank >= 0.5 and "rank" not in why and "pips" not in why
        suit_ok = conf_suit >= 0.5 and not suit_why
        if not why and rank_ok and suit_ok:
            return Reading(CARDS_BY_SCORE_INDEX[4 * r_i + s_i], confidence, candidates, present=True, rank=rank, suit=suit)
        why = why or ("rank unsure" if not rank_ok else "suit unsure")
        return Reading(None, min(confidence, 0.49), candidates, present=True,
                       rank=rank if rank_ok else None, suit=suit if suit_ok else None, why=why)

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
                and (outline := _outline(growth)) is not None:
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


def _outline(growth: float) -> Suit | None:
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
        return j, 0.0, f"ink colour ({'red' if red else 'black'}) contradicts the {SUITS[j].name.lower()} pip"
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
