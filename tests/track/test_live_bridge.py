"""The live bridge keeps the tracker on the table's cards: after a restart mid-deal (the journal
replayed), after the dealer's "no new card" answer, and after an undo from the dealer page."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from kill_helpers import wait_for_entries
from live_dealer import PLAYERS, dealer_box
from starlette.testclient import TestClient
from track_helpers import Scripted, TruthReader, still_frames, thumbed

from faro_box.cards import FULL_DECK, Card
from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.errors import VisionError
from faro_box.live.faro import TrackerBridge
from faro_box.table.commands import CardUnread, ConfirmCard, PlaceBet, StartDeal, UndoCard
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import CardExposed, NeedsConfirmation, Tracker

HERE = Path(__file__).parent
C = Card.parse
PIN = "1357"


class RecordingTracker(Tracker):
    """The real tracker, keeping every event it hands out."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.events: list = []

    def update(self, image, frame):
        events = super().update(image, frame)
        self.events += events
        return events






def _feed(bridge: TrackerBridge, reader: TruthReader, box: SimBox, frames: range) -> None:
    for n in frames:
        reader.frame = n
        bridge.feed(box.frame(n), n)


def _entries(journal: Journal, after: int) -> list:
    return [e.command for e in journal.entries() if e.seq > after]


# ----- 1. a restart mid-deal -------------------------------------------------------------------

def test_resume_takes_the_tables_cards_and_refuses_what_no_deal_holds() -> None:
    box = SimBox(seed=4, cards=4, still=(4, 6))
    tracker = Tracker(TruthReader(box), window=box.window)
    tracker.resume([box.deck[0], box.deck[1], None])
    assert tracker.exposed == (box.deck[0], box.deck[1], None) and tracker.next_index == 3
    assert box.deck[1] not in tracker.remaining() and len(tracker.remaining()) == 50
    for bad in ([C("AS"), C("AS")], [None, C("AS")], [C(c) for c in ("AS", "2S")] * 27):
        with pytest.raises(VisionError, match="cannot resume a deal"):
            tracker.resume(bad)
    assert tracker.exposed == (box.deck[0], box.deck[1], None)  # a refusal changes nothing


def test_a_resumed_tracker_does_not_take_a_dealt_card_shown_again_for_a_new_one() -> None:
    """The box shows a card dealt long ago (the restarted camera, a card put in the wrong
    place): it is a question for the dealer, never card n; the top card is no event at all."""
    box = SimBox(seed=6, cards=3, still=(6, 8))
    top = box.deck[0]
    old, *others = [c for c in FULL_DECK if c not in box.deck[:3]][:3]

    def script(frame, card):
        return Scripted(old, 0.99, (old,)) if card == box.deck[1] else None

    reader = TruthReader(box, script=script)
    tracker = Tracker(reader, window=box.window)
    tracker.resume([others[0], old, others[1], top])    # four cards out, box.deck[0] on top
    events = []
    for n in range(len(box)):
        reader.frame = n
        events += tracker.update(box.frame(n), n)
    assert not any(isinstance(e, CardExposed) and e.card in (top, old) for e in events)
    asked = [e for e in events if isinstance(e, NeedsConfirmation)]
    assert asked and asked[0].index == 4 and old not in asked[0].candidates


def test_a_box_killed_mid_deal_and_restarted_carries_on_without_a_question(tmp_path: Path) -> None:
    """SIGKILL the dealing process once its journal holds a random part of the deal; the
    restarted bridge (the journal replayed) sets the tracker on the deal's cards: the card lying
    on the box is not new, the next event is the table's next card, and the deal ends right."""
    seed, cards = 5, 9
    box = dealer_box(seed, cards)
    rng = random.Random(4711)
    for trial in range(2):
        path = tmp_path / f"killed-{trial}.sqlite"
        process = subprocess.Popen([sys.executable, str(HERE / "live_dealer.py"), str(path), str(seed),
                                    str(cards), "0.004"], cwd=HERE, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        wait_for_entries(path, rng.randint(3, cards - 2), process)   # start_deal and 2..cards-3 cards
        time.sleep(rng.uniform(0, 0.02))
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

        with Journal(path) as journal:
            table = Table(journal)
            state = table.state()
            shown, seq = state["next_index"], state["seq"]
            assert 1 <= shown < cards and state["pending"] is None
            reader = TruthReader(box)
            tracker = RecordingTracker(reader, window=box.window.tolist())
            bridge = TrackerBridge(table, tracker)
            assert tracker.exposed == tuple(box.deck[:shown]) and tracker.next_index == shown
            # The box as the restarted camera finds it: the last card the journal holds on top.
            first = next(n for n in range(len(box)) if box.truth(n).index == shown - 1)
            _feed(bridge, reader, box, range(first, len(box)))
            new = [e for e in tracker.events if isinstance(e, CardExposed)]
            assert [e.index for e in new] == list(range(shown, cards))   # no dealt card came again
            after = _entries(journal, seq)
            assert [c.TYPE for c in after] == ["card"] * (cards - shown)  # no question, no refusal
            assert [c.index for c in after] == list(range(shown, cards))
            assert table.state()["exposed"] == [str(c) for c in box.deck[:cards]]


def test_a_restart_while_the_dealer_is_asked_waits_for_the_answer(tmp_path: Path) -> None:
    box = SimBox(seed=3, cards=6, still=(6, 10))
    unread = box.deck[3]
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        table = Table(journal)
        table.handle(StartDeal("foster", PLAYERS, {}))
        reader = TruthReader(box, script=lambda n, card: Scripted(None, 0.1, ()) if card == unread else None)
        bridge = TrackerBridge(table, Tracker(reader, window=box.window.tolist()))
        asked_at = 0
        while table.state()["pending"] is None:
            _feed(bridge, reader, box, range(asked_at, asked_at + 1))
            asked_at += 1
        assert table.state()["pending"]["index"] == 3
    with Journal(path) as journal:                       # the power comes back
        table = Table(journal)
        reader = TruthReader(box)
        tracker = RecordingTracker(reader, window=box.window.tolist())
        bridge = TrackerBridge(table, tracker)
        assert tracker.exposed == (*box.deck[:3], None)   # its question is the table's
        table.handle(ConfirmCard(3, str(unread)))
        assert tracker.exposed == tuple(box.deck[:4])
        _feed(bridge, reader, box, range(asked_at, len(box)))
        state = table.state()
        assert state["exposed"] == [str(c) for c in box.deck[:6]] and state["pending"] is None
        assert [e.index for e in tracker.events if isinstance(e, CardExposed)] == [4, 5]


# ----- 2 and 3. the dealer's answers from the dealer page ------------------------------------------

def _dealer(table: Table) -> tuple[TestClient, dict[str, str]]:
    client = TestClient(create_app(table, pin_hash=hash_pin(PIN, n=2**10)), base_url="http://127.0.0.1:8000")
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.text
    return client, {"x-csrf-token": response.json()["csrf"]}


def _hover(box: SimBox) -> tuple[int, range]:
    """A card a hand passes over after it was read, and the frames from the hand leaving it on."""
    for j in range(box.cards - 1):
        frames = [n for n in range(len(box)) if box.truth(n).index == j]
        clean = [box.truth(n).clean for n in frames]
        back = [k for k in range(1, len(clean)) if clean[k] and not clean[k - 1] and any(clean[:k - 1])]
        if back:
            return j, range(frames[back[0]], frames[-1] + 1)
    raise AssertionError("no hover in this simulated deal")


def test_no_new_card_from_the_dealer_page_reaches_the_table_the_journal_and_the_tracker(tmp_path: Path) -> None:
    """A hand passes over card j and the reader cannot name it again: the tracker asks about
    card j+1. The dealer taps "no new card" (card j still on top): the table journals the
    answer, the tracker withdraws its question, and every later card is read as before."""
    box = SimBox(seed=3, cards=6, still=(8, 16))
    j, after_hover = _hover(box)
    reader = TruthReader(box, script=lambda n, card: Scripted(None, 0.1, ()) if n in after_hover else None)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    tracker = RecordingTracker(reader, window=box.window.tolist())
    bridge = TrackerBridge(table, tracker)
    client, headers = _dealer(table)
    assert client.post("/api/command", json={"type": "start_deal", "profile": "foster", "players": ["ann"]},
                       headers=headers).status_code == 200
    answered = []
    for n in range(len(box)):
        _feed(bridge, reader, box, range(n, n + 1))
        pending = table.state()["pending"]
        if pending is not None:
            assert pending["index"] == j + 1 and not answered
            response = client.post("/api/command", json={"type": "no_card", "index": j + 1}, headers=headers)
            assert response.status_code == 200, response.text
            answered.append(n)
            assert table.state()["pending"] is None and table.state()["next_index"] == j + 1
            assert tracker.exposed == tuple(box.deck[:j + 1])   # the question withdrawn
    assert answered, "the tracker never asked"
    state = table.state()
    assert state["exposed"] == [str(c) for c in box.deck[:6]] and state["pending"] is None
    types = [e.command.TYPE for e in journal.entries()]
    assert types.count("unread") == 1 and types.count("no_card") == 1
    assert [e.index for e in tracker.events if isinstance(e, CardExposed)] == list(range(6))
    # Replayed, the journal gives the same table.
    again = Table(journal)
    assert {k: v for k, v in again.state().items() if k != "faults"} == \
        {k: v for k, v in state.items() if k != "faults"}
    # Nothing is asked now: the same answer is refused, with the reason, and changes nothing.
    refused = client.post("/api/command", json={"type": "no_card", "index": 6}, headers=headers)
    assert refused.status_code == 422 and "not waiting for the dealer's confirmation" in refused.json()["error"]
    assert table.state()["seq"] == state["seq"]
    journal.close()


def _answer(client: TestClient, headers: dict[str, str], table: Table, box: SimBox, n: int) -> dict | None:
    """The dealer at frame ``n`` answers the table's question from what lies on the box."""
    pending = table.state()["pending"]
    if pending is None:
        return None
    index = pending["index"]
    if box.truth(n).index == index - 1:
        doc = {"type": "no_card", "index": index}
    else:
        doc = {"type": "confirm", "index": index, "card": str(box.deck[index])}
    response = client.post("/api/command", json=doc, headers=headers)
    assert response.status_code == 200, response.text
    return pending


def test_an_undo_from_the_dealer_page_puts_the_card_back_in_the_trackers_deck(tmp_path: Path) -> None:
    """The reader takes card 2 for another card; the dealer undoes it on the dealer page: the
    tracker expects index 2 again and no longer counts the misread card as dealt. It looks at
    the box afresh and puts what it reads to the dealer (the card taken back may lie there, or
    the one before it); the camera reads on from card 3."""
    box = SimBox(seed=7, cards=6, still=(6, 10))
    wrong = next(c for c in FULL_DECK if c not in box.deck[:6])
    misreading = [True]   # a one-off misread: looked at again, the card reads right

    def script(n, card):
        return Scripted(wrong, 0.99, (wrong,)) if card == box.deck[2] and misreading[0] else None

    reader = TruthReader(box, script=script)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    tracker = RecordingTracker(reader, window=box.window.tolist())
    bridge = TrackerBridge(table, tracker)
    client, headers = _dealer(table)
    client.post("/api/command", json={"type": "start_deal", "profile": "foster", "players": ["ann"]}, headers=headers)
    n = 0
    while table.state()["next_index"] < 3:
        _feed(bridge, reader, box, range(n, n + 1))
        n += 1
    assert table.state()["exposed"][2] == str(wrong) and tracker.exposed[2] == wrong
    misreading[0] = False
    seq = table.state()["seq"]
    response = client.post("/api/command", json={"type": "undo", "after": seq}, headers=headers)
    assert response.status_code == 200, response.text
    assert tracker.next_index == 2 and wrong in tracker.remaining()
    assert table.state()["next_index"] == 2
    questions = []
    for m in range(n, len(box)):
        _feed(bridge, reader, box, range(m, m + 1))
        if (asked := _answer(client, headers, table, box, m)) is not None:
            questions.append(asked)
    assert [(q["index"], q["candidates"]) for q in questions] == [(2, [str(box.deck[2])])]
    state = table.state()
    assert state["exposed"] == [str(c) for c in box.deck[:6]] and state["pending"] is None
    assert [e.index for e in tracker.events if isinstance(e, CardExposed)] == [0, 1, 2, 2, 3, 4, 5]
    journal.close()


def test_a_card_put_back_then_no_new_card_and_undo_bring_the_tracker_back(tmp_path: Path) -> None:
    """The dealer's slip: card i+1 is put back on the box and the reader cannot name card i
    again, so the tracker asks about card i+2. "No new card", then an undo on the dealer page:
    the tracker expects card i+1 again and reads it when it leaves the box once more."""
    i = 1
    box = SimBox(seed=5, cards=5, slips=(i,), still=(6, 10))
    back = [n for n in range(len(box)) if box.truth(n).index == i and n > next(
        m for m in range(len(box)) if box.truth(m).index == i + 1)]
    reader = TruthReader(box, script=lambda n, card: Scripted(None, 0.1, ()) if n in back else None)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    tracker = RecordingTracker(reader, window=box.window.tolist())
    bridge = TrackerBridge(table, tracker)
    client, headers = _dealer(table)
    client.post("/api/command", json={"type": "start_deal", "profile": "foster", "players": ["ann"]}, headers=headers)
    questions = 0
    for n in range(len(box)):
        _feed(bridge, reader, box, range(n, n + 1))
        pending = table.state()["pending"]
        if pending is not None and questions == 0:
            assert pending["index"] == i + 2
            for doc in ({"type": "no_card", "index": i + 2}, {"type": "undo"}):
                response = client.post("/api/command", json=doc, headers=headers)
                assert response.status_code == 200, response.text
            assert tracker.exposed == tuple(box.deck[:i + 1]) and table.state()["next_index"] == i + 1
        elif pending is not None:
            _answer(client, headers, table, box, n)
        questions += pending is not None
    assert 1 <= questions <= 2     # the card put back, unreadable, may be asked about once more
    assert table.state()["exposed"] == [str(c) for c in box.deck[:5]]
    journal.close()


def test_a_card_entered_by_hand_is_dealt_for_the_tracker_too(tmp_path: Path) -> None:
    box = SimBox(seed=4, cards=3, still=(6, 8))
    table = Table(Journal())
    table.handle(StartDeal("foster", PLAYERS, {}))
    tracker = Tracker(TruthReader(box), window=box.window.tolist())
    TrackerBridge(table, tracker)
    table.handle(ConfirmCard(0, "QS"))
    table.handle(CardUnread(1, ("2C",)))
    assert tracker.exposed == (C("QS"),)       # the table's question is not the tracker's
    table.handle(ConfirmCard(1, "2C"))
    assert tracker.exposed == (C("QS"), C("2C")) and tracker.next_index == 2


class OneCardTracker(Tracker):
    """A tracker whose next frame shows ``card`` as the next card (the thread test needs the
    camera's event at a moment it chooses, not where the video puts it)."""

    def __init__(self, card: Card) -> None:
        super().__init__(TruthReader(SimBox(seed=1, cards=2)))
        self.card = card

    def update(self, image, frame):
        cards = self.exposed   # the table's, read as the real tracker reads them before a frame
        self.resume([*cards, self.card])
        return [CardExposed(self.card, len(cards), 0.99, frame)]


def test_a_dealer_command_while_the_camera_waits_for_the_table_deadlocks_nothing():
    """The web thread holds the table (telling its listeners) while the camera's thread holds
    the bridge and waits for the table: the bridge's listener must not wait for the camera."""
    table = Table(Journal())
    table.handle(StartDeal("foster", PLAYERS, {}))
    telling, go_on = threading.Event(), threading.Event()

    def slow_display(event, state):      # subscribed before the bridge: it is told first
        if event.TYPE == "place":
            telling.set()
            go_on.wait(10)

    table.subscribe(slow_display)
    tracker = OneCardTracker(C("QS"))
    bridge = TrackerBridge(table, tracker)
    bet = PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 1})
    web = threading.Thread(target=table.handle, args=(bet,), daemon=True)
    web.start()
    assert telling.wait(10)
    camera = threading.Thread(target=bridge.feed, args=(None, 0), daemon=True)
    camera.start()
    time.sleep(0.3)                      # the camera's thread now waits for the table
    go_on.set()
    web.join(10)
    camera.join(10)
    assert not web.is_alive() and not camera.is_alive(), "deadlock"
    state = table.state()
    assert state["exposed"] == ["QS"] and [b["id"] for b in state["open_bets"]] == ["a1"]
    assert tracker.exposed == (C("QS"),)


# ----- 4. a journal that ends in an open bank of Baccarat Banque --------------------------------

def test_a_faro_camera_waits_while_a_bank_is_open_and_follows_the_faro_deal_after_it(tmp_path: Path) -> None:
    """`faro-box run` for faro on a journal whose bank is still open: the frames are no faro
    cards (nothing is journaled, nothing fails); once the banker leaves and a faro deal starts,
    the same bridge reads the box into it."""
    from faro_box.table.baccarat.commands import BankBet, BankCall, BankCard, BankerLeaves, StartBank

    table = Table(Journal(tmp_path / "journal.sqlite"))
    table.handle(StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 10))
    for command in (BankBet("ann", 5), BankBet("bob", 3), *(BankCard(c) for c in ("9C", "7H", "2S", "4C", "6D", "3C")),
                    BankCall("right", True), BankCard("4D"), BankCall("left", True), BankCard("2H"),
                    BankCall("banker", False), BankBet("ann", 2)):
        table.handle(command)
    box = SimBox(seed=8, cards=3, still=(6, 8))
    reader = TruthReader(box)
    bridge = TrackerBridge(table, Tracker(reader, window=box.window))
    seq = table.journal.seq
    _feed(bridge, reader, box, range(len(box)))
    assert table.journal.seq == seq and table.state()["game"] == "baccarat_banque"
    table.handle(BankerLeaves())
    table.handle(StartDeal("foster", PLAYERS, {}))
    _feed(bridge, reader, box, range(len(box)))
    assert table.state()["exposed"] == [str(c) for c in box.deck[:3]]


# ----- 5. one source of truth: the tracker reads the table's cards --------------------------------

def test_the_tracker_reads_which_cards_are_out_from_the_table_itself() -> None:
    """No bridge tells it anything: following ``table.cards_out`` the tracker has the table's
    cards after a card entered by hand, the table's question, the dealer's answer and an undo."""
    box = SimBox(seed=4, cards=3, still=(6, 8))
    table = Table(Journal())
    table.handle(StartDeal("foster", PLAYERS, {}))
    tracker = Tracker(TruthReader(box), window=box.window.tolist())
    tracker.follow(table.cards_out)
    table.handle(ConfirmCard(0, "QS"))
    assert tracker.exposed == (C("QS"),) and tracker.next_index == 1 and C("QS") not in tracker.remaining()
    table.handle(CardUnread(1, ("2C",)))
    assert table.cards_out() == (C("QS"), None) and tracker.exposed == (C("QS"),)
    table.handle(ConfirmCard(1, "2C"))
    assert tracker.exposed == (C("QS"), C("2C"))
    table.handle(UndoCard())
    assert tracker.exposed == (C("QS"),) and C("2C") in tracker.remaining()
    tracker.follow(None)             # on its own again: it keeps what it had
    table.handle(ConfirmCard(1, "3D"))
    assert tracker.exposed == (C("QS"),)


def test_a_recording_that_ends_on_a_card_under_the_thumb_leaves_the_table_asking(tmp_path: Path) -> None:
    box = SimBox(seed=22, nuisance=0.0, cards=3, still=(30, 40))
    still = still_frames(box)
    frames = [(0, still[0])] * 8 + [(None, thumbed(box, still[1]))] * 6

    class Script:
        now: int | None = 0

        def read(self, image, *, window=None):
            if self.now is None:
                return Scripted(None, 0.3, tuple(box.deck[1:3]), why="covered")
            return Scripted(box.deck[self.now], 0.99, (box.deck[self.now],))

    reader = Script()
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    table.handle(StartDeal("foster", ["ann"], {}))
    bridge = TrackerBridge(table, Tracker(reader, window=box.window.tolist()))
    for n, (now, image) in enumerate(frames):
        reader.now = now
        bridge.feed(image, n)
    assert table.state()["exposed"] == [str(box.deck[0])] and table.state()["pending"] is None
    bridge.finish()
    pending = table.state()["pending"]
    assert pending is not None and pending["index"] == 1
    journal.close()
