"""The dealer's "no new card" answer: the card the tracker asks about never left the box (the
card before it still lies on top). Journaled, replayed, refused clearly when nothing fits."""

import re

import pytest

from faro_box.cards import FULL_DECK
from faro_box.devices.case_keeper import RecordingCaseKeeper
from faro_box.errors import RuleError, ScriptError
from faro_box.table.commands import CardSeen, CardUnread, NoCard, StartDeal, command_from_json
from faro_box.table.events import event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table

DECK = [str(c) for c in FULL_DECK]


def _dealt(journal: Journal, cards: int) -> tuple[Table, list[dict]]:
    table = Table(journal, RecordingCaseKeeper())
    events: list[dict] = []
    table.subscribe(lambda event, state: events.append(event))
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    for index in range(cards):
        table.handle(CardSeen(DECK[index], index, 0.99))
    return table, events


def test_no_new_card_withdraws_the_question_and_the_deal_goes_on(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    table, events = _dealt(journal, 3)
    beads = table.state()["beads"]
    table.handle(CardUnread(3, ("KD",)))
    outcome = table.handle(NoCard(3))
    assert [event_to_json(e) for e in outcome.events] == [{"type": "no_card", "index": 3, "card": DECK[2],
                                                          "seq": outcome.seq}]
    state = table.state()
    assert state["pending"] is None and state["next_index"] == 3 and state["beads"] == beads
    table.handle(CardSeen(DECK[3], 3, 0.99))          # the card leaves the box later, read as usual
    assert table.state()["exposed"] == DECK[:4]
    assert [e.command.TYPE for e in journal.entries()][-3:] == ["unread", "no_card", "card"]
    replayed = Table(journal).state()
    assert {k: v for k, v in replayed.items() if k != "faults"} == \
        {k: v for k, v in table.state().items() if k != "faults"}
    journal.close()


@pytest.mark.parametrize("setup, index, message", [
    ((), 3, "card 3 is not waiting for the dealer's confirmation"),             # nothing asked
    ((CardUnread(3),), 4, "card 4 is not waiting for the dealer's confirmation"),
    ((CardUnread(3), CardSeen(DECK[5], 4, 0.9)), 3, "card(s) 4 were read after card 3: name card 3 instead"),
])
def test_no_new_card_is_refused_when_it_answers_nothing_and_changes_nothing(setup, index, message):
    table, _ = _dealt(Journal(), 3)
    for command in setup:
        table.handle(command)
    before = table.state()
    with pytest.raises(RuleError, match=re.escape(message)):
        table.handle(NoCard(index))
    assert table.state() == before


def test_no_new_card_for_the_soda_is_refused():
    table, _ = _dealt(Journal(), 0)
    table.handle(CardUnread(0))
    with pytest.raises(RuleError, match="no card lies beneath it"):
        table.handle(NoCard(0))
    assert table.state()["pending"]["index"] == 0


def test_no_card_round_trips_as_json_and_bad_input_is_quoted():
    assert command_from_json({"type": "no_card", "index": 7}) == NoCard(7)
    assert NoCard(7).to_json() == {"type": "no_card", "index": 7}
    with pytest.raises(ScriptError, match="'seven'"):
        command_from_json({"type": "no_card", "index": "seven"})
    with pytest.raises(ScriptError, match="lacks index"):
        command_from_json({"type": "no_card"})
