import random

import pytest

from faro_box.cards import FULL_DECK, Card
from faro_box.devices.case_keeper import RecordingCaseKeeper
from faro_box.errors import DeviceError, FaroBoxError, JournalError, RuleError
from faro_box.rules.faro.beads import case_keeper
from faro_box.table.commands import (
    CardSeen,
    CardUnread,
    ConfirmCard,
    EndDeal,
    Misdeal,
    PlaceBet,
    StartDeal,
    UndoCard,
    WithdrawBet,
)
from faro_box.table.events import event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table

DECK = [str(c) for c in FULL_DECK]
random.Random(7).shuffle(DECK)


def _table(journal=None):
    keeper = RecordingCaseKeeper()
    table = Table(journal or Journal(), keeper)
    events = []
    table.subscribe(lambda event, state: events.append(event_to_json(event)))
    return table, keeper, events


def _start(table, *players):
    table.handle(StartDeal("foster", players or ("ann", "bob"), {}))


def _deal(table, upto, start=0):
    for index in range(start, upto):
        table.handle(CardSeen(DECK[index], index, 0.99))


def _rank(card):
    return Card.parse(card).rank.symbol


def test_cards_and_bets_become_state_and_events():
    table, keeper, events = _table()
    _start(table)
    winner_rank = _rank(DECK[2])
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": [winner_rank], "stake": 2}))
    _deal(table, 3)
    state = table.state()
    assert state["deal"] == 1 and state["game"] == "faro" and state["profile"] == "foster"
    assert state["exposed"] == DECK[:3]
    assert state["next_index"] == 3 and state["next_turn"] == 2 and state["next_role"] == "loser"
    assert state["beads"] == case_keeper([Card.parse(c) for c in DECK[:3]]).to_json()["beads"]
    assert keeper.last == case_keeper([Card.parse(c) for c in DECK[:3]])
    turn = state["last_turn"]
    assert turn["turn"] == 1 and turn["loser"] == DECK[1] and turn["winner"] == DECK[2]
    # Ann's bet on the winner's rank wins (unless the loser split it: the deck is fixed, it does not).
    assert _rank(DECK[1]) != winner_rank
    assert turn["settlements"] == [{"bet": "a1", "player": "ann", "result": "win", "amount": 2}]
    assert state["balances"] == {"ann": 2, "bob": 0, "banker": -2}
    assert state["seq"] == 5 and state["pending"] is None and state["faults"] == []
    types = [e["type"] for e in events]
    assert types == ["start_deal", "place", "card", "card", "card", "turn"]
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5, 5]
    assert events[2]["role"] == "soda" and events[3]["role"] == "loser" and events[4]["role"] == "winner"


def test_a_refused_command_changes_nothing_and_moves_no_bead():
    table, keeper, events = _table()
    _start(table)
    _deal(table, 5)
    before, shown, heard = table.state(), len(keeper.states), len(events)
    refused = [
        CardSeen(DECK[2], 5),             # already shown: the rules refuse it
        CardSeen(DECK[3], 3),             # already recorded
        CardSeen(DECK[9], 3),             # index 3 is recorded as another card
        ConfirmCard(5, DECK[0]),          # entering a shown card by hand
        PlaceBet("zed", {"id": "z1", "kind": "rank", "ranks": ["9"], "stake": 1}),
        PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 0}),
        WithdrawBet("ann", "nothing"),
        StartDeal("foster", ("cy",), {}),  # a deal is in progress
        EndDeal(),                        # it is not over
    ]
    for command in refused:
        with pytest.raises(FaroBoxError):
            table.handle(command)
    assert table.state() == before
    assert len(keeper.states) == shown and len(events) == heard
    assert table.journal.seq == before["seq"]


def test_a_bad_profile_or_house_rule_is_refused_before_the_journal():
    table, _, _ = _table()
    for command in (StartDeal("nosuch", ("ann",), {}), StartDeal("foster", ("ann",), {"turn_pays": "lots"})):
        with pytest.raises(FaroBoxError):
            table.handle(command)
    assert table.journal.seq == 0 and table.state()["deal"] is None


def test_an_unread_card_waits_for_the_dealer_and_later_cards_queue_behind_it():
    table, keeper, events = _table()
    _start(table)
    _deal(table, 3)
    table.handle(CardUnread(3, (DECK[3], DECK[20]), "/snapshots/3.jpg"))
    state = table.state()
    assert state["pending"] == {"index": 3, "candidates": [DECK[3], DECK[20]],
                                "snapshot": "/snapshots/3.jpg", "reason": "unread"}
    assert len(state["exposed"]) == 3
    with pytest.raises(RuleError, match="waits for the dealer"):
        table.handle(CardSeen(DECK[3], 3))
    with pytest.raises(RuleError, match="waits for the dealer"):
        table.handle(PlaceBet("ann", {"id": "a1", "kind": "high", "stake": 1}))
    with pytest.raises(RuleError, match="confirm it before"):
        table.handle(UndoCard())
    table.handle(CardSeen(DECK[4], 4))          # the next card was read meanwhile: it waits
    assert table.state()["queued"] == [4] and len(table.state()["exposed"]) == 3
    with pytest.raises(RuleError):
        table.handle(ConfirmCard(3, DECK[0]))   # the dealer names a card already shown: still pending
    assert table.state()["pending"]["index"] == 3
    table.handle(ConfirmCard(3, DECK[3]))
    state = table.state()
    assert state["exposed"] == DECK[:5] and state["pending"] is None and state["queued"] == []
    assert [e["type"] for e in events[-3:]] == ["card", "card", "turn"]
    assert events[-3]["how"] == "confirmed" and events[-2]["how"] == "seen"


def test_a_missed_card_is_asked_for():
    table, _, _ = _table()
    _start(table)
    _deal(table, 2)
    table.handle(CardSeen(DECK[3], 3))   # card 2 never reached the tracker
    state = table.state()
    assert state["pending"]["index"] == 2 and state["pending"]["reason"] == "missed"
    assert state["queued"] == [3]
    table.handle(ConfirmCard(2, DECK[2]))
    assert table.state()["exposed"] == DECK[:4]


def test_a_queued_reading_that_conflicts_with_the_dealer_goes_back_to_the_dealer():
    table, _, _ = _table()
    _start(table)
    _deal(table, 2)
    table.handle(CardUnread(2))
    table.handle(CardSeen(DECK[3], 3))
    table.handle(ConfirmCard(2, DECK[3]))    # the dealer names the card the camera saw as card 3
    state = table.state()
    assert state["exposed"] == DECK[:2] + [DECK[3]]
    assert state["pending"] == {"index": 3, "candidates": [DECK[3]], "snapshot": None, "reason": "conflict"}


def test_undo_moves_the_bead_back_and_reverts_the_turn():
    table, keeper, events = _table()
    _start(table)
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": [_rank(DECK[2])], "stake": 2}))
    _deal(table, 2)
    before = table.state()
    bead_before = keeper.last
    _deal(table, 3, start=2)
    assert table.state()["balances"]["ann"] == 2
    table.handle(UndoCard())
    after = table.state()
    assert keeper.last == bead_before
    for key in ("exposed", "beads", "case", "balances", "turns", "open_bets", "next_index"):
        assert after[key] == before[key], key
    assert events[-1]["type"] == "undo" and events[-1]["card"] == DECK[2]
    assert events[-1]["reverted"]["settlements"][0]["amount"] == 2


def test_a_whole_deal_ends_with_the_hock_by_elimination_and_undo_takes_back_the_winner():
    table, keeper, events = _table()
    _start(table)
    _deal(table, 51)
    state = table.state()
    assert state["exposed"] == DECK and state["finished"] and state["hock"] == DECK[51]
    assert events[-2]["type"] == "card" and events[-2]["how"] == "by elimination"
    assert events[-1]["type"] == "deal_finished"
    with pytest.raises(RuleError, match="already recorded"):
        table.handle(CardSeen(DECK[51], 51))
    table.handle(UndoCard())
    assert table.state()["exposed"] == DECK[:50]
    _deal(table, 51, start=50)
    table.handle(EndDeal())
    state = table.state()
    assert state["ended"] and state["history"][0]["outcome"] == "finished"
    with pytest.raises(RuleError, match="no deal is in progress"):
        table.handle(CardSeen(DECK[0], 0))
    table.handle(StartDeal("teaching", ("cy",), {}))
    assert table.state()["deal"] == 2 and table.state()["exposed"] == []


def test_a_misdeal_pays_every_bet_and_closes_the_deal():
    table, _, events = _table()
    _start(table)
    table.handle(PlaceBet("bob", {"id": "b1", "kind": "rank", "ranks": [_rank(DECK[40])], "stake": 3}))
    _deal(table, 6)
    table.handle(Misdeal())
    state = table.state()
    assert state["ended"] and state["finished"]
    assert state["balances"]["bob"] == 3 and state["history"][-1]["outcome"] == "misdeal"
    assert [e["type"] for e in events[-2:]] == ["misdeal", "end_deal"]


class BrokenKeeper(RecordingCaseKeeper):
    def __init__(self):
        super().__init__()
        self.broken = True

    def show(self, state):
        if self.broken:
            raise DeviceError("servo board not answering on /dev/ttyACM0")
        super().show(state)


def test_a_device_fault_is_listed_and_reported_once():
    keeper = BrokenKeeper()
    keeper.broken = False
    table = Table(Journal(), keeper)
    heard = []
    table.subscribe(lambda event, state: heard.append(event_to_json(event)))
    _start(table)
    keeper.broken = True
    _deal(table, 4)
    faults = [e for e in heard if e["type"] == "fault"]
    assert len(faults) == 1 and faults[0]["device"] == "case_keeper"
    assert table.state()["faults"] == [{"device": "case_keeper",
                                        "message": "servo board not answering on /dev/ttyACM0"}]
    assert table.state()["exposed"] == DECK[:4]     # the deal goes on without its case-keeper
    keeper.broken = False
    _deal(table, 5, start=4)
    assert table.state()["faults"] == []
    assert [e["type"] for e in heard].count("fault_cleared") == 1
    assert keeper.last == case_keeper([Card.parse(c) for c in DECK[:5]])


class FailingJournal(Journal):
    def append(self, command):
        raise JournalError("disk full")


def test_nothing_changes_when_the_journal_cannot_commit():
    table = Table(FailingJournal())
    with pytest.raises(JournalError):
        table.handle(StartDeal("foster", ("ann",), {}))
    assert table.state()["deal"] is None


def test_a_restarted_table_stands_exactly_where_it_stopped(tmp_path):
    path = tmp_path / "journal.sqlite"
    table, keeper, _ = _table(Journal(path))
    _start(table)
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "group", "ranks": ["4", "5", "9", "10"], "stake": 2}))
    table.handle(PlaceBet("bob", {"id": "b1", "kind": "high", "stake": 1, "copper": True}))
    _deal(table, 9)
    table.handle(UndoCard())
    table.handle(CardUnread(8, (DECK[8],)))
    table.handle(CardSeen(DECK[9], 9))
    before = table.state()
    beads = keeper.last
    table.journal.close()

    again, keeper2, _ = _table(Journal(path))
    assert again.state() == before
    assert keeper2.last == beads
    again.handle(ConfirmCard(8, DECK[8]))
    assert again.state()["exposed"] == DECK[:10]
