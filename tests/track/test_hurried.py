"""A hurried dealer's thumb lands on the next card the moment the card above clears the window,
and pushes it off at once: that card never lies in full view. Two cards of one rank and colour
(a 2S, then the 2C) look alike to the tracker's print likeness as one card twice does."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest
from track_helpers import Scripted, TruthReader, run_box

from faro_box.cards import FULL_DECK, Card
from faro_box.vision.reader import Reader
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import CardExposed, NeedsConfirmation, Tracker

C = Card.parse


@pytest.mark.parametrize(("before", "hurried"), [("2S", "2C"), ("10S", "10C"), ("4C", "4S"), ("6H", "6D")])
def test_a_card_seen_only_under_the_thumb_is_asked_about_never_skipped(before, hurried):
    head = [C("AC"), C(before), C(hurried), C("KH"), C("4D")]
    deck = head + [c for c in FULL_DECK if c not in head]
    box = SimBox(deck, seed=300, nuisance=0.5, cards=5, hurried=[2])
    events = run_box(box, Reader())  # type: ignore[arg-type]
    named = [(e.index, e.card) for e in events if isinstance(e, CardExposed)]
    assert [(i, str(c)) for i, c in named if box.deck[i] != c] == []
    asked = [e for e in events if isinstance(e, NeedsConfirmation) and e.index == 2]
    assert asked and asked[0].candidates[0] == C(hurried)


def test_a_hurried_card_is_one_between_two_others():
    with pytest.raises(ValueError, match="hurried"):
        SimBox(seed=1, cards=5, hurried=[0])
    with pytest.raises(ValueError, match="hurried"):
        SimBox(seed=1, cards=5, hurried=[4])


def _dealt(box: SimBox, reader, answer_after: int = 15,
           picture: Callable[[int], np.ndarray] | None = None) -> tuple[Tracker, list]:
    """The box through a tracker, the dealer answering each question ``answer_after`` frames
    later with the card its snapshot shows; ``picture``: frame n as the camera gives it (default
    the box's)."""
    tracker = Tracker(reader, window=box.window)
    events: list = []
    due: list[tuple[int, int, Card | None]] = []

    def take(new: list, n: int) -> None:
        events.extend(new)
        due.extend((n + answer_after, e.index, box.truth(e.frame).card) for e in new
                   if isinstance(e, NeedsConfirmation))

    for n in range(len(box)):
        if isinstance(reader, TruthReader):
            reader.frame = n
        take(tracker.update(box.frame(n) if picture is None else picture(n), n), n)
        while due and due[0][0] <= n:
            _, index, card = due.pop(0)
            tracker.confirm(index, card)
    take(tracker.finish(), len(box))
    while due:  # the video ended: the dealer answers what is still open
        _, index, card = due.pop(0)
        tracker.confirm(index, card)
        take(tracker.finish(), len(box))
    return tracker, events


def test_cards_pushed_on_in_a_row_while_the_dealer_is_asked_are_each_asked_about():
    # Three cards pushed on at once, one after another: the first asked about, the next two go
    # by while the dealer has not answered. Before, unread cards in a row were one question,
    # and the third was skipped in silence.
    head = [C("AC"), C("5H"), C("2S"), C("2C"), C("3D"), C("KH"), C("4D")]
    deck = head + [c for c in FULL_DECK if c not in head]
    box = SimBox(deck, seed=300, nuisance=0.5, cards=7, hurried=[2, 3, 4])
    tracker, events = _dealt(box, Reader(), answer_after=60)  # type: ignore[arg-type]
    assert tracker.exposed == tuple(head)
    assert {e.index for e in events if isinstance(e, NeedsConfirmation)} >= {2, 3, 4}
    assert all(box.deck[e.index] == e.card for e in events if isinstance(e, CardExposed))


def test_a_look_alike_card_the_reader_abstains_on_after_the_card_slid_off_is_asked_about():
    # The 2C lies in full view, but the reader is unsure and guesses the 2S read before it;
    # its print is like the 2S's. Before, that was taken for a hand passing over the 2S.
    head = [C("AC"), C("2S"), C("2C"), C("KH")]
    deck = head + [c for c in FULL_DECK if c not in head]
    box = SimBox(deck, seed=301, nuisance=0.0, cards=4)
    unsure = Scripted(None, 0.5, (C("2S"), C("2C")), why="suit unsure")
    reader = TruthReader(box, script=lambda n, card: unsure if card == C("2C") else None)
    tracker, events = _dealt(box, reader)
    asked = [e for e in events if isinstance(e, NeedsConfirmation)]
    assert [e.index for e in asked] == [2]
    assert tracker.exposed == tuple(head)


def test_unread_cards_dealt_under_a_hand_while_the_dealer_is_slow_to_answer_are_each_asked_about():
    # The dealer's hand hides the window whenever a card is not lying in full view, so no card is
    # ever seen moving off, and the reader cannot name the third to sixth cards. The dealer takes
    # four seconds to answer the question about the third, while the next ones are dealt. Before,
    # unread cards in a row were one question unless one was seen moving off: a card was lost in
    # silence and every later card recorded a place off.
    box = SimBox(seed=402, nuisance=0.0, cards=8)
    unread = set(box.deck[2:6])
    reader = TruthReader(box, script=lambda n, card: Scripted(None, 0.3, (), why="rank unsure") if card in unread
                         else None)
    q = box.window.astype(np.float32)
    centre = (int(q[:, 0].mean()), int(q[:, 1].mean()))
    axes = (int(0.6 * np.ptp(q[:, 0])), int(0.6 * np.ptp(q[:, 1])))

    def under_a_hand(n: int) -> np.ndarray:
        frame = box.frame(n)
        if box.truth(n).clean:
            return frame
        frame = frame.copy()
        cv2.ellipse(frame, centre, axes, 0, 0, 360, tuple(int(c) for c in box._skin), -1)
        return frame

    tracker, events = _dealt(box, reader, answer_after=120, picture=under_a_hand)
    assert tracker.exposed == tuple(box.deck[:8])
    assert {e.index for e in events if isinstance(e, NeedsConfirmation)} >= {2, 3, 4, 5}
    assert all(box.deck[e.index] == e.card for e in events if isinstance(e, CardExposed))
