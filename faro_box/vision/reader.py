"""The reader: one image in, one Reading out; it abstains (card None) rather than guess.

A Reader finds the card (or is given it), and reads its corner indices with the learned
network (vision.learned), the deck profile's glyph templates (vision.classical), or both
joined (vision.joint), the default; an enrolled deck adds its own prototypes and templates.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

import numpy as np

from faro_box.cards import Card, Colour, Rank
from faro_box.errors import VisionError
from faro_box.vision.canonical import (
    TOO_SMALL,
    CardView,
    View,
    check_image,
    monochrome,
    parse_window,
    too_small,
)
from faro_box.vision.classical import ClassicalReader
from faro_box.vision.index_patch import IndexWindow, corner_patch, face_patches
from faro_box.vision.ink import not_black
from faro_box.vision.joint import confirmed, face_cues, joined
from faro_box.vision.learned import IndexNet, NetOutput, settled, shipped_net
from faro_box.vision.learned_deck import Mode
from faro_box.vision.learned_reader import (
    CARDS_BY_SCORE_INDEX,
    ENROLLED,
    GENERIC,
    Acceptance,
    Scores,
    decide,
    named_by_each_corner,
    scores,
)
from faro_box.vision.locate import find_card, is_whole_picture
from faro_box.vision.pips import PipCheck, check_pips
from faro_box.vision.profile import DeckProfile
from faro_box.vision.reading import Reading


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
        self.accept = GENERIC if self.deck is None else ENROLLED if self.deck.bar is None \
            else Acceptance(self.deck.bar, self.deck.bar, one_corner=ENROLLED.rank)
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
        image = check_image(image)
        reading = self._read(image, window)
        if reading.card is not None and monochrome(image[::4, ::4]):
            # A monochrome camera sees red ink as grey, or as a grey too pale for the templates
            # to find where its sensor sees red well: both readers take a diamond's point for a
            # spade's, and a diamond's body pip widens from its point as a spade's does.
            return Reading(None, min(float(reading.confidence), 0.49), reading.candidates, present=True,
                           why=MONOCHROME)
        return reading

    def _read(self, image: np.ndarray, window: Sequence[Sequence[float]] | Sequence[float] | None) -> Reading:
        if self.method is Method.CLASSICAL:
            assert self._classical is not None
            return self._classical.read(image, window=window)
        if window is not None and too_small(parse_window(window)):
            return Reading(None, 0.0, present=True, why=TOO_SMALL)
        if window is not None or self.view is View.CORNER:
            return self._read_at(image, self.locate(image, window=window))
        quad = find_card(image)
        if quad is None:
            return Reading(None, 0.0, present=False, why="no card found")
        if too_small(quad):
            return Reading(None, 0.0, present=True, why=TOO_SMALL)
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
        patches = self.patches(image, view)
        reading, seen = self._read_index(image, view, patches)
        card = reading.card
        if card is not None and card.suit.colour is Colour.BLACK and not_black(patches) \
                and not self._templates_name(card, image, view):
            # The network knows black and red ink only (a deck's prototypes live in its
            # embedding): blue or green ink is a four-colour deck's diamonds or clubs. Its pip's
            # shape, where the templates see it, still tells the suit; where blur has taken the
            # shape, nothing does.
            return Reading(None, min(reading.confidence, 0.49), reading.candidates, present=True,
                           rank=reading.rank, why=NOT_BLACK), seen
        return reading, seen

    def _templates_name(self, card: Card, image: np.ndarray, view: CardView | None) -> bool:
        """Whether the glyph templates, where this reader has them, name ``card`` too."""
        return self._classical is not None and self._templates(image, view).card == card

    def _templates(self, image: np.ndarray, view: CardView | None) -> Reading:
        """The glyph templates' reading of the card at ``view`` (None: the image is a corner)."""
        assert self._classical is not None
        return self._classical.read(image) if view is None else self._classical.read_view(view)

    def _read_index(self, image: np.ndarray, view: CardView | None, patches: np.ndarray) -> tuple[Reading, bool]:
        """_look before the ink's colour is checked against the card named; ``patches``: the
        card's index patches, as Reader.patches cuts them."""
        if self.method is Method.LEARNED:
            first = self.scores(patches)
            return self._decided(first, view), bool(len(first.rank))
        classical = self._templates(image, view)
        first = self.scores(patches, classical)
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
        return self.decide(s, pips=None if view is None else lambda card: check_pips(
            view.face(), red=card.suit.colour is Colour.RED, court=card.rank > Rank.TEN))

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
               pips: Callable[[Card], PipCheck] | None = None) -> Reading:
        """The reading ``s`` makes at ``accept`` (the reader's own bar where None). ``pips``: the
        found card's pips (check_pips, for the card named), asked for only where one corner alone
        names a card;
        None where there is no card face to count (a corner close-up)."""
        d = decide(s, accept or self.accept)
        # A card was found (or given) even where no corner shows a readable index; a corner
        # close-up shows a card only where the network sees an index in it.
        present = len(s.no_index) > 1 or bool(len(s.rank))
        reading = Reading(d.card, d.confidence, d.candidates, present=present, rank=d.rank, suit=d.suit, why=d.why)
        # Patches come in pairs, one from each corner: which corners showed a readable index.
        corners = {i % 2 for i in np.flatnonzero(s.no_index < self.accept.no_index).tolist()}
        card = reading.card
        if card is not None and pips is not None and len(corners) == 1:
            # One corner read (a thumb on the other): the pips, where they can be counted, must
            # agree, as the classical reader asks; a sure index over the wrong body is refused.
            # A red court's pip beside its figure is a heart's or a diamond's, too, and no
            # court's body shows a pip card's pips.
            refusal = pips(card).refusal(card.rank, card.suit)
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


NOT_BLACK = "the index ink is blue or green, not black, and its pip's shape does not show: another deck's (a four-colour deck is read once enrolled)"
MONOCHROME = "a monochrome camera's picture: red ink is not told from black (the box needs a colour camera)"
# The generic reading's second look: three windows around the default one, read beside it.
SECOND_LOOK = (IndexWindow(0.0, 0.0, 0.4), IndexWindow(0.0, 0.0, 0.6), IndexWindow(0.02, 0.02, 0.5))
