"""The tracker: one event per exposed card, in order, through hands, blur, shadows, light, shake,
noise, a dealer's slip, a camera gap; abstentions and contradictions become questions."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from track_helpers import Scripted, TruthReader, expected_labels, label, run_answered, run_box, thumbed

from faro_box.cards import FULL_DECK, Card
from faro_box.errors import VisionError
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import (
    BoxEmpty,
    CardExposed,
    CardReturned,
    NeedsConfirmation,
    Tracker,
    TrackerSettings,
    event_to_json,
)

C = Card.parse


@pytest.mark.parametrize("nuisance", [0.0, 0.5, 1.0])
def test_every_card_once_in_order_within_three_frames_through_every_nuisance(nuisance):
    box = SimBox(seed=11, nuisance=nuisance, cards=9)
    reader = TruthReader(box)
    events = run_box(box, reader)
    assert [label(e) for e in events] == expected_labels(box)
    for event, expected in zip(events, box.expected(), strict=True):
        assert 0 <= event.frame - expected.frame <= 3, (event, expected)
        assert box.truth(event.frame).clean  # read while nothing was over the card
    # Hands, the thumb resting on the card, blur and shadows never reached the reader.
    assert all(box.truth(n).clean for n in reader.reads)


@pytest.mark.slow
def test_a_card_seen_for_a_long_time_is_one_event_and_read_once():
    box = SimBox(seed=3, nuisance=1.0, cards=2, still=(600, 600))  # 20 s per card at 30 fps
    reader = TruthReader(box)
    events = run_box(box, reader)
    assert [label(e) for e in events] == expected_labels(box)
    assert len(reader.reads) <= 6  # shadows and hands passing over the card may cost a re-read


def test_a_card_put_back_on_the_box_is_reported_and_shown_again():
    box = SimBox(seed=5, nuisance=0.5, cards=5, slips=(2,))
    events = run_box(box, TruthReader(box))
    deck = box.deck
    assert [label(e) for e in events] == [
        ("card", 0, deck[0]), ("card", 1, deck[1]), ("card", 2, deck[2]), ("card", 3, deck[3]),
        ("returned", 2, deck[2]), ("card", 3, deck[3]), ("card", 4, deck[4])]
    assert isinstance(events[4], CardReturned)


def test_an_abstention_asks_the_dealer_and_never_guesses():
    box = SimBox(seed=8, nuisance=0.5, cards=5)
    unreadable = box.deck[2]

    def script(frame, card):
        if card == unreadable:
            return Scripted(None, 0.3, (C("AS"), box.deck[0], unreadable))
        return None

    reader = TruthReader(box, script=script)
    tracker = Tracker(reader, window=box.window)
    events = run_box(box, reader, tracker)
    kinds = [label(e) for e in events]
    assert kinds[:3] == [("card", 0, box.deck[0]), ("card", 1, box.deck[1]), ("confirm", 2, None)]
    ask = events[2]
    assert isinstance(ask, NeedsConfirmation)
    # The dealt soda is not offered; the snapshot is the window warped upright.
    assert box.deck[0] not in ask.candidates and unreadable in ask.candidates
    assert ask.snapshot is not None and ask.snapshot.shape[2] == 3
    # Cards read while the dealer has not answered are held, then released by the answer.
    assert not any(isinstance(e, CardExposed) and e.index > 2 for e in events)
    tracker.confirm(2, unreadable)
    released = tracker.update(box.frame(len(box) - 1), len(box))
    assert [label(e) for e in released] == [("card", 3, box.deck[3]), ("card", 4, box.deck[4])]
    assert tracker.exposed == box.deck[:5]


def test_a_card_too_briefly_still_to_be_read_is_asked_about_never_skipped():
    box = SimBox(seed=12, nuisance=0.5, cards=5, still=(4, 4))  # the dealer is quick
    unreadable = box.deck[2]
    reader = TruthReader(box, script=lambda frame, card: Scripted(None, 0.3, ()) if card == unreadable else None)
    tracker = Tracker(reader, window=box.window, settings=TrackerSettings(retries=10))
    events = []
    for n in range(len(box)):
        reader.frame = n
        for event in tracker.update(box.frame(n), n):
            events.append(event)
            if isinstance(event, NeedsConfirmation):
                assert box.truth(event.frame).card == unreadable  # the snapshot shows it
                tracker.confirm(event.index, unreadable)
    assert [label(e) for e in events] == [("card", 0, box.deck[0]), ("card", 1, box.deck[1]),
                                          ("confirm", 2, None), ("card", 3, box.deck[3]), ("card", 4, box.deck[4])]


def test_a_card_the_camera_saw_too_dark_to_show_paper_is_asked_about_never_skipped():
    # A camera that underexposed every frame of one card (an LED flickering, auto exposure
    # lagging): no paper shows, as in an empty box. Mid-deal the box is never empty: before,
    # the card was skipped in silence and every later card announced one place early.
    box = SimBox(seed=12, nuisance=0.3, cards=5)
    dark = box.deck[2]
    reader = TruthReader(box, script=lambda frame, card: Scripted(None, 0.2, ()) if card == dark else None)
    tracker = Tracker(reader, window=box.window)
    events = []
    for n in range(len(box)):
        reader.frame = n
        frame = box.frame(n)
        if box.truth(n).card == dark:
            frame = (frame * 0.2).astype(np.uint8)
            assert not tracker.sees_card(frame)  # no paper in it at all
        for event in tracker.update(frame, n):
            events.append(event)
            if isinstance(event, NeedsConfirmation):
                assert event.reason == "a card lay on the box too dark to be seen"
                tracker.confirm(event.index, dark)
    assert [label(e) for e in events] == [("card", 0, box.deck[0]), ("card", 1, box.deck[1]),
                                          ("confirm", 2, None), ("card", 3, box.deck[3]), ("card", 4, box.deck[4])]


def test_a_hand_laid_still_over_the_card_read_last_asks_nothing():
    # No paper shows under a hand over the whole window either: once it lifts off the same
    # card, nothing was dealt.
    box = SimBox(seed=12, nuisance=0.0, cards=4, still=(40, 60))
    top = box.expected()[1].frame + 10  # card 1 lies read, still, in full view
    reader = TruthReader(box, script=lambda frame, card: Scripted(None, 0.2, ()) if top <= frame < top + 8 else None)
    tracker = Tracker(reader, window=box.window)
    events = []
    for n in range(len(box)):
        reader.frame = n
        frame = box.frame(n)
        if top <= n < top + 8:
            frame = frame.copy()
            x0, y0 = box.window.min(axis=0).astype(int) - 10
            x1, y1 = box.window.max(axis=0).astype(int) + 10
            hand = np.random.default_rng(n).normal(0.0, 12.0, (y1 - y0, x1 - x0, 1)) + box._skin
            for finger in range(4):  # the gaps between fingers: a hand's own print
                hand[:, (finger + 1) * (x1 - x0) // 5 - 2:(finger + 1) * (x1 - x0) // 5 + 2] *= 0.6
            frame[y0:y1, x0:x1] = np.clip(hand, 0, 255).astype(np.uint8)
        events += tracker.update(frame, n)
    assert [label(e) for e in events] == expected_labels(box)


def test_a_reading_the_deck_forbids_becomes_a_question_not_a_card():
    box = SimBox(seed=9, nuisance=0.3, cards=4)
    soda = box.deck[0]

    def script(frame, card):
        return Scripted(soda, 0.97, (soda,)) if card == box.deck[3] else None

    events = run_box(box, TruthReader(box, script=script))
    assert [label(e) for e in events][:3] == [("card", i, box.deck[i]) for i in range(3)]
    assert label(events[3]) == ("confirm", 3, None)
    assert soda not in events[3].candidates
    assert len(events) == 4


def _hover_over_card_1(box):
    """Frames where a hand covers card 1 and, after it, card 1 lies clean again."""
    st, (e1, e2) = box._steps, (box.expected()[1].frame, box.expected()[2].frame)
    covered = [n for n in range(e1, e2) if st[n].base == 1 and st[n].mover < 0 and not box.truth(n).clean]
    first_run = [n for i, n in enumerate(covered) if n - i == covered[0]]
    clean = [n for n in range(e1, e2) if first_run and n > first_run[-1] and box.truth(n).clean and st[n].base == 1]
    return first_run, clean


def test_a_hand_passing_over_an_unreadable_top_card_is_not_a_new_card():
    box = SimBox(seed=22, nuisance=1.0, cards=3, still=(40, 60))
    covered, clean_again = _hover_over_card_1(box)
    assert covered and clean_again  # this deal has a hand hovering over card 1 before it is dealt off

    def script(frame, card):  # after the hand, card 1 cannot be named: its best guess is itself
        if card == box.deck[1] and frame > covered[0]:
            return Scripted(None, 0.4, (box.deck[1], C("2C")))
        return None

    events = run_box(box, TruthReader(box, script=script))
    assert [label(e) for e in events] == expected_labels(box)


def test_an_unreadable_new_card_whose_best_guess_is_the_card_before_is_asked_about():
    # A king of clubs after the king of spades: the reader sees a king, cannot tell the suit,
    # and its best guess is the king lying there before. Before, that was taken for a hand
    # passing over the old card: the new one was skipped in silence, every later card one off.
    box = SimBox(seed=22, nuisance=0.3, cards=4, still=(20, 30))

    def script(frame, card):
        if card == box.deck[2]:
            return Scripted(None, 0.4, (box.deck[1], box.deck[2]), rank=box.deck[2].rank)
        return None

    reader = TruthReader(box, script=script)
    tracker = Tracker(reader, window=box.window)
    questions, named = [], []
    for n in range(len(box)):
        reader.frame = n
        for event in tracker.update(box.frame(n), n):
            if isinstance(event, NeedsConfirmation):
                questions.append(event.index)
                tracker.confirm(event.index, box.deck[event.index])  # the dealer names it
            elif isinstance(event, CardExposed):
                named.append(event)
    assert questions == [2]
    assert all(box.deck[e.index] == e.card for e in named)
    assert tracker.exposed == tuple(box.deck[:box.cards])


def test_the_dealer_withdraws_a_question_when_no_card_had_left_the_box():
    box = SimBox(seed=22, nuisance=1.0, cards=3, still=(40, 60))
    covered, _ = _hover_over_card_1(box)

    def script(frame, card):  # after a hand passed over it, card 1 cannot be named, no guesses
        if card == box.deck[1] and frame > covered[0]:
            return Scripted(None, 0.3, ())
        return None

    reader = TruthReader(box, script=script)
    tracker = Tracker(reader, window=box.window)
    events = []
    for n in range(len(box)):
        reader.frame = n
        for event in tracker.update(box.frame(n), n):
            events.append(event)
            if isinstance(event, NeedsConfirmation):
                # The snapshot shows card 1 still on top: the dealer answers with it.
                assert box.truth(event.frame).card == box.deck[1] and event.index == 2
                tracker.confirm(event.index, box.deck[1])
    assert sum(isinstance(e, NeedsConfirmation) for e in events) == 1
    assert [label(e) for e in events if not isinstance(e, NeedsConfirmation)] == expected_labels(box)
    assert tracker.exposed == box.deck[:3]


def _cheap_deal(deck):
    """One still picture per card (and the empty box), with a hand over the window between
    cards: a whole deal in a few hundred frames."""
    box = SimBox(deck, seed=2, nuisance=0.0, still=(3, 3))
    stills = [box.frame(e.frame) for e in box.expected()]
    right = int(box.window[:, 0].max())
    y = int(box.window[:, 1].mean())
    frames, shown = [], []
    for i, still in enumerate(stills):
        hand = still.copy()
        cv2.ellipse(hand, (right + 10, y), (60, 30), 0, 0, 360, (120, 150, 205), -1)
        frames += [hand, hand.copy()] + [still] * 4
        shown += [None, None] + [i] * 4
    return box, frames, shown


@pytest.mark.parametrize("abstain_on_hock", [False, True])
def test_the_hock_is_known_by_elimination_and_the_empty_box_ends_the_deal(abstain_on_hock):
    deck = FULL_DECK[::-1]
    box, frames, shown = _cheap_deal(deck)

    class Reader:
        i: int | None = None

        def read(self, image, *, window=None):
            if self.i is None or self.i >= 52:
                return Scripted(None, 0.0, (), False)
            if self.i == 51 and abstain_on_hock:
                return Scripted(None, 0.2, ())
            return Scripted(deck[self.i], 0.9, (deck[self.i],))

    reader = Reader()
    tracker = Tracker(reader, window=box.window)
    events = []
    for n, (frame, i) in enumerate(zip(frames, shown, strict=True)):
        reader.i = i
        events += tracker.update(frame, n)
    assert [label(e) for e in events] == [("card", i, deck[i]) for i in range(52)] + [("empty", 52, None)]
    assert events[51].confidence == 1.0
    assert isinstance(events[-1], BoxEmpty)
    assert tracker.remaining() == ()


def test_a_new_deck_in_the_empty_box_starts_a_new_deal():
    deck = FULL_DECK
    box, frames, shown = _cheap_deal(deck)

    class Reader:
        i: int | None = None

        def read(self, image, *, window=None):
            if self.i is None or self.i >= 52:
                return Scripted(None, 0.0, (), False)
            return Scripted(deck[self.i], 0.9)

    reader = Reader()
    tracker = Tracker(reader, window=box.window)
    n = 0
    for _round in range(2):
        events = []
        for frame, i in zip(frames, shown, strict=True):
            reader.i = i
            events += tracker.update(frame, n)
            n += 1
        assert [label(e) for e in events][:2] == [("card", 0, deck[0]), ("card", 1, deck[1])]
        assert label(events[-1]) == ("empty", 52, None)


def test_a_camera_gap_in_the_middle_of_a_deal_neither_invents_nor_loses_a_card():
    box = SimBox(seed=13, nuisance=0.7, cards=8)
    # The camera is away from before card 4 is slid off until card 4... the slide happens unseen.
    start = box.expected()[4].frame - 12
    stop = box.expected()[4].frame + 1
    reader = TruthReader(box)
    tracker = Tracker(reader, window=box.window)
    events = []
    for n in range(len(box)):
        if start <= n < stop:
            continue  # no frames: the tracker sees the frame numbers jump
        reader.frame = n
        events += tracker.update(box.frame(n), n)
    assert [label(e) for e in events] == expected_labels(box)


def test_find_mode_without_a_window_names_no_wrong_card():
    # Without a window the tracker finds it (the card's outline, still, nothing over its edge)
    # before it reads anything; any question is answered with the card on the box.
    box = SimBox(seed=4, nuisance=0.3, cards=4)
    reader = TruthReader(box)
    tracker = Tracker(reader)
    events = run_answered(box, reader, tracker)
    assert all(box.deck[e.index] == e.card for e in events if isinstance(e, CardExposed))
    assert tracker.exposed == box.deck[:4]


def test_find_mode_reads_the_cards_dealt_before_the_window_was_found():
    # The dealer's thumb never leaves the window's edge while the first two cards lie there, so
    # the window is found only on the third. Before, the third card was announced as the soda
    # and every later card one place early; now the pictures kept meanwhile are looked at
    # through the window once it is known.
    box = SimBox(seed=4, nuisance=0.0, cards=5)
    reader = TruthReader(box)
    tracker = Tracker(reader)
    events = run_answered(box, reader, tracker,
                          lambda n: thumbed(box, box.frame(n)) if box.truth(n).index < 2 else box.frame(n))
    assert tracker.window is not None
    assert tracker.exposed == box.deck[:5]
    assert [label(e) for e in events] == [("confirm", 0, None), ("confirm", 1, None)] + [
        ("card", i, box.deck[i]) for i in range(2, 5)]


def test_events_as_json_lines():
    card = CardExposed(C("5S"), 0, 0.98123, 41)
    assert event_to_json(card) == {"event": "card", "index": 0, "card": "5S", "confidence": 0.981, "frame": 41}
    ask = NeedsConfirmation(7, 390, (C("QH"), C("QD")), np.zeros((2, 2, 3), np.uint8), "suit unsure")
    assert event_to_json(ask) == {"event": "confirm", "index": 7, "frame": 390, "candidates": ["QH", "QD"],
                                  "reason": "suit unsure"}
    assert event_to_json(CardReturned(C("2C"), 6, 400)) == {"event": "returned", "index": 6, "card": "2C",
                                                            "frame": 400}
    assert event_to_json(BoxEmpty(2000, 52)) == {"event": "empty", "frame": 2000, "dealt": 52}


def test_bad_input_is_refused_clearly():
    box = SimBox(seed=1, cards=2)
    tracker = Tracker(TruthReader(box), window=box.window)
    tracker.update(box.frame(0), 5)
    with pytest.raises(VisionError, match="frame numbers must increase: 5 after 5"):
        tracker.update(box.frame(1), 5)
    with pytest.raises(VisionError, match="no card at index 0 is waiting"):
        tracker.confirm(0, C("AS"))
    outside = Tracker(TruthReader(box), window=[[600, 10], [700, 10], [700, 200], [600, 200]])
    with pytest.raises(VisionError, match="reaches outside the 640x480 picture"):
        outside.update(box.frame(0), 0)
    with pytest.raises(VisionError, match="anticlockwise"):
        Tracker(TruthReader(box), window=[[0, 0], [0, 100], [100, 100], [100, 0]])
    with pytest.raises(VisionError, match="still_frames must be at least 1, not 0"):
        TrackerSettings(still_frames=0)


def test_the_real_reader_on_the_simulated_box_names_no_wrong_card():
    from faro_box.vision.reader import Reader

    box = SimBox(seed=1, nuisance=0.5, cards=10)
    tracker = Tracker(Reader(), window=box.window)
    events = []
    for n in range(len(box)):
        for event in tracker.update(box.frame(n), n):
            events.append(event)
            if isinstance(event, NeedsConfirmation):
                tracker.confirm(event.index, box.deck[event.index])  # the dealer answers
    cards = [e for e in events if isinstance(e, CardExposed)]
    asked = [e for e in events if isinstance(e, NeedsConfirmation)]
    assert all(box.deck[e.index] == e.card for e in cards)
    assert sorted([e.index for e in cards] + [e.index for e in asked]) == list(range(10))
    assert tracker.exposed == box.deck[:10]
    # The reader alone abstains on the first still frame of 4 of these 10 cards (rank and pip
    # joined by blur); the tracker's further looks name them all, within 3 frames.
    assert not asked
    for event, expected in zip(events, box.expected(), strict=True):
        assert 0 <= event.frame - expected.frame <= 3
