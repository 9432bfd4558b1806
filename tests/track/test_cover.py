"""What covers the card: a thumb over the window's edge, never the card's own print; and no card
named before the tracker knows where the window is."""

from __future__ import annotations

import cv2
import numpy as np
from track_helpers import Scripted, TruthReader, expected_labels, label, run_box, still_frames, thumbed

from faro_box.cards import FULL_DECK, Card, Colour, Rank
from faro_box.vision.sim.photobox import PhotoBox
from faro_box.vision.sim.render import render_card
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import CardExposed, NeedsConfirmation, Tracker, TrackerSettings


def large_index(card: Card) -> np.ndarray:
    """A face whose index is a real deck's size: the rank glyph down to a fifth of the card, the
    suit pip under it reaching from 24 % to 33 % down, close to the left edge."""
    face = render_card(card, width=250, height=350)
    h, w = face.shape[:2]
    ink = (40, 30, 200) if card.suit.colour is Colour.RED else (30, 30, 30)
    face[int(0.03 * h):int(0.36 * h), int(0.03 * w):int(0.17 * w)] = (245, 245, 242)
    cv2.putText(face, str(card)[0], (int(0.035 * w), int(0.2 * h)), cv2.FONT_HERSHEY_SIMPLEX, 1.6, ink, 4)
    cv2.circle(face, (int(0.095 * w), int(0.285 * h)), int(0.045 * h), ink, -1, cv2.LINE_AA)
    return face


def test_a_large_index_pip_near_the_edge_is_not_a_thumb_but_a_thumb_still_is():
    box = PhotoBox({c: large_index(c) for c in FULL_DECK[:8]}, seed=2, nuisance=1.0)
    reader = TruthReader(box)
    events = run_box(box, reader)
    assert [label(e) for e in events] == expected_labels(box)
    # The thumb resting on the card before it pushes, the hand and the slide never reached the reader.
    assert reader.reads and all(box.truth(n).clean for n in reader.reads)


def test_a_bluish_camera_white_is_still_paper():
    box = PhotoBox({c: render_card(c) for c in FULL_DECK[:5]}, seed=4, nuisance=0.5, cast=(1.25, 0.95, 0.6))
    reader = TruthReader(box)
    assert [label(e) for e in run_box(box, reader)] == expected_labels(box)
    assert all(box.truth(n).clean for n in reader.reads)


def test_without_a_window_the_tracker_finds_it_and_names_no_card_from_an_unknown_frame():
    # As `faro-box track` runs a recording without --window: nobody answers questions. A reader
    # that abstains on a hand-covered picture, as a real one does: before, every such picture
    # became a question counted as a card, the count ran ahead, and a card that was not the
    # hock was named as the hock at confidence 1.0.
    box = SimBox(seed=21, nuisance=1.0, still=(4, 6), pace=0.6)
    reader = TruthReader(box, script=lambda n, card: None if box.truth(n).clean else
                         Scripted(None, 0.1, (FULL_DECK[0],), card is not None, why="covered"))
    tracker = Tracker(reader, settings=TrackerSettings(hold=False))
    events = run_box(box, reader, tracker)
    named = [e for e in events if isinstance(e, CardExposed)]
    assert all(box.deck[e.index] == e.card for e in named), [(e.index, str(e.card)) for e in named
                                                              if box.deck[e.index] != e.card]
    assert not any(isinstance(e, NeedsConfirmation) for e in events)
    assert tracker.window is not None and np.abs(tracker.window - box.window).max() < 4
    assert len(named) == 52


def test_no_window_and_no_card_found_reads_nothing():
    box = SimBox(seed=3, nuisance=0.0, cards=2)
    reader = TruthReader(box)
    tracker = Tracker(reader)
    floor = np.full((480, 640, 3), (35, 85, 30), np.uint8)
    for n in range(20):
        assert tracker.update(floor, n) == []
    assert tracker.window is None and reader.reads == []


def test_the_empty_box_floor_under_a_bright_light_starts_no_phantom_deal():
    # Balanced on itself, the floor of an empty box under a bright light looks like paper; the
    # reader finds no card on it. Only a card named starts a new deal.
    box = PhotoBox({c: render_card(c) for c in FULL_DECK}, seed=6, nuisance=0.2, still=(3, 5), pace=0.6,
                   cast=(1.6, 1.6, 1.6))
    reader = TruthReader(box)
    tracker = Tracker(reader, window=box.window)
    labels = [label(e) for e in run_box(box, reader, tracker)]
    assert labels[:52] == expected_labels(box)[:52]
    assert all(kind == "empty" for kind, _, _ in labels[52:]), labels[52:]  # no question, no new deal
    assert len(tracker.exposed) == 52


def full_bleed_court(card: Card) -> np.ndarray:
    """A face whose court picture reaches both long edges of the card (a real deck's first court
    does that before the tracker has seen any court's print)."""
    face = render_card(card, width=250, height=350)
    if card.rank >= Rank.JACK:
        h = face.shape[0]
        face[int(0.40 * h):int(0.60 * h), :] = (40, 60, 190)
    return face


def test_a_court_that_rests_too_briefly_to_be_seen_in_full_view_is_asked_about_never_skipped():
    # Its picture reaches the window's edge, so it never counts as uncovered; it rests 5-9
    # frames, less than the tracker waits before it forgives a still edge as the card's print.
    # Before, the court was skipped in silence and every later card landed one index off.
    cards = [c for c in FULL_DECK if c.rank >= Rank.JACK][:6] + [c for c in FULL_DECK if c.rank <= Rank.THREE][:6]
    box = PhotoBox({c: full_bleed_court(c) for c in cards}, seed=5, nuisance=0.3, still=(3, 6))
    reader = TruthReader(box)
    tracker = Tracker(reader, window=box.window.tolist())
    asked, named = [], []
    for n in range(len(box)):
        reader.frame = n
        for event in tracker.update(box.frame(n), n):
            if isinstance(event, NeedsConfirmation):
                asked.append(event)
                shown = box.truth(event.frame).card  # what the dealer sees in the snapshot
                tracker.confirm(event.index, shown)
            elif isinstance(event, CardExposed):
                named.append(event)
    courts = [i for i, c in enumerate(box.deck[:box.cards]) if c.rank >= Rank.JACK]
    assert courts and all(box.deck[e.index] == e.card for e in named)
    assert tracker.exposed == tuple(box.deck[:box.cards])
    assert any(e.index in courts and "too briefly" in e.reason for e in asked)
    assert all(e.snapshot is not None for e in asked)


class _Script:
    """Reads what the test says lies there: a card, or an abstention ("t") under a thumb or hand."""

    def __init__(self, box: SimBox) -> None:
        self.box, self.now, self.reads = box, 0, 0

    def read(self, image, *, window=None):
        self.reads += 1
        if self.now == "t":
            return Scripted(None, 0.3, tuple(self.box.deck[1:3]), why="covered")
        return Scripted(self.box.deck[self.now], 0.99, (self.box.deck[self.now],))


def _scripted(cards: int) -> tuple[SimBox, list[np.ndarray], _Script, Tracker]:
    """A quiet simulated box, one still frame of each card, a scripted reader and its tracker."""
    box = SimBox(seed=22, nuisance=0.0, cards=cards, still=(30, 40))
    reader = _Script(box)
    return box, still_frames(box), reader, Tracker(reader, window=box.window)


def _run(tracker: Tracker, reader: _Script, seq, answer=None, start: int = 0) -> list:
    events = []
    for n, (now, image) in enumerate(seq, start):
        reader.now = now
        for event in tracker.update(image, n):
            events.append(event)
            if isinstance(event, NeedsConfirmation) and answer is not None:
                tracker.confirm(event.index, answer(event))
    return events


def test_a_still_hand_over_most_of_the_window_is_not_taken_for_cards():
    # Before, with too little of the card showing to compare, every still frame of the hand was
    # "another card": a question a frame (and a reading a frame).
    box = SimBox(seed=22, nuisance=0.0, cards=3, still=(30, 40))
    card = still_frames(box)[0]
    q = box.window.astype(np.float32)
    hand = card.copy()
    cv2.fillPoly(hand, [q.astype(np.int32)], tuple(int(c) for c in box._skin))
    centre = q.mean(axis=0)
    bare = np.zeros(hand.shape[:2], np.uint8)
    cv2.fillPoly(bare, [(centre + (q - centre) * 0.35).astype(np.int32)], 1)
    hand[bare > 0] = card[bare > 0]
    reader = _Script(box)
    tracker = Tracker(reader, window=box.window)
    events = _run(tracker, reader, [(0, card)] * 8 + [("t", hand)] * 11 + [(0, card)] * 8,
                  answer=lambda e: box.deck[0])
    assert not any(isinstance(e, NeedsConfirmation) for e in events)
    assert tracker.exposed == (box.deck[0],) and reader.reads <= 3


def test_the_card_after_an_unread_one_is_read_even_if_it_lies_still_only_briefly():
    # Card 1 lies under a thumb, never in full view; card 2 lies still two frames. Before, the
    # question about card 1 took the frame card 2 was to be read on, and card 2 went unseen.
    box, f, reader, tracker = _scripted(5)
    _run(tracker, reader, [(0, f[0])] * 8 + [("t", thumbed(box, f[1]))] * 6 + [(2, f[2])] * 2 + [(3, f[3])] * 8,
         answer=lambda e: box.deck[e.index])
    assert tracker.exposed == tuple(box.deck[:4])


def test_a_resumed_deal_forgets_the_card_kept_from_before():
    box, f, reader, tracker = _scripted(4)
    events = _run(tracker, reader, [(0, f[0])] * 8 + [("t", thumbed(box, f[1]))] * 6)
    tracker.resume(box.deck[:2])  # the dealer entered card 1 by hand
    events += _run(tracker, reader, [(2, f[2])] * 8, start=14)
    assert not any(isinstance(e, NeedsConfirmation) for e in events)
    assert tracker.exposed == tuple(box.deck[:3])


def test_a_card_that_went_by_while_the_dealer_was_asked_is_asked_about_with_its_picture():
    box, f, reader, tracker = _scripted(5)
    events = _run(tracker, reader, [(0, f[0])] * 8 + [("t", f[1])] * 14 + [("t", thumbed(box, f[2]))] * 6
                  + [(3, f[3])] * 8)
    asked = [e for e in events if isinstance(e, NeedsConfirmation)]
    assert [e.index for e in asked] == [1]  # card 1 is asked about; cards 2 and 3 wait for the answer
    tracker.confirm(1, box.deck[1])
    released = tracker.update(f[3], 36)
    assert [type(e) for e in released] == [NeedsConfirmation] and released[0].index == 2
    assert released[0].snapshot is not None and "too briefly" in released[0].reason
    tracker.confirm(2, box.deck[2])
    assert [(type(e), e.index) for e in tracker.update(f[3], 37)] == [(CardExposed, 3)]
    assert tracker.exposed == tuple(box.deck[:4])


def test_a_recording_that_ends_on_a_card_under_the_thumb_asks_about_it():
    # The last card lies under the thumb when the recording ends: no card follows to show it
    # went by. Before, the deal's record ended one card short, in silence.
    box, f, reader, tracker = _scripted(3)
    events = _run(tracker, reader, [(0, f[0])] * 8 + [("t", thumbed(box, f[1]))] * 6)
    assert not any(isinstance(e, NeedsConfirmation) for e in events)
    asked = tracker.finish()
    assert [(type(e), e.index) for e in asked] == [(NeedsConfirmation, 1)]
    assert "stream ended" in asked[0].reason and asked[0].snapshot is not None
    tracker.confirm(1, box.deck[1])
    assert tracker.exposed == tuple(box.deck[:2]) and tracker.finish() == []


def test_a_recording_that_ends_on_the_card_read_last_under_the_thumb_asks_nothing():
    box, f, reader, tracker = _scripted(3)
    _run(tracker, reader, [(0, f[0])] * 8 + [("t", thumbed(box, f[0]))] * 6)
    assert tracker.finish() == [] and tracker.exposed == (box.deck[0],)


def test_a_recording_that_ends_while_a_question_is_open_asks_about_the_kept_card_after_the_answer():
    box, f, reader, tracker = _scripted(5)
    _run(tracker, reader, [(0, f[0])] * 8 + [("t", f[1])] * 14 + [("t", thumbed(box, f[2]))] * 6)
    assert tracker.finish() == []  # held behind the question about card 1
    tracker.confirm(1, box.deck[1])
    asked = tracker.finish()
    assert [(type(e), e.index) for e in asked] == [(NeedsConfirmation, 2)]


def test_the_card_read_last_slid_under_the_thumb_is_not_asked_about_as_a_new_card():
    # The card read last slides a little under the dealer's thumb: its print no longer lines up
    # with how it lay, so it looked like a new card kept under the thumb, and when the next card
    # came the dealer was asked about a card never dealt. The reader, sure it is the card read
    # last, settles it.
    box, f, reader, tracker = _scripted(4)
    slid = thumbed(box, np.roll(f[0], 10, axis=0))
    events = _run(tracker, reader, [(0, f[0])] * 8 + [(0, slid)] * 6 + [(2, f[2])] * 8)
    assert not any(isinstance(e, NeedsConfirmation) for e in events)
    assert tracker.exposed == (box.deck[0], box.deck[2])


def test_a_new_card_under_the_thumb_that_the_reader_doubts_is_still_asked_about():
    box, f, reader, tracker = _scripted(4)
    slid = thumbed(box, np.roll(f[0], 10, axis=0))
    events = _run(tracker, reader, [(0, f[0])] * 8 + [("t", slid)] * 6 + [(2, f[2])] * 8)
    asked = [e for e in events if isinstance(e, NeedsConfirmation)]
    assert [e.index for e in asked] == [1] and "too briefly" in asked[0].reason
