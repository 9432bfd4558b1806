"""The Baccarat Banque bank through the live table: commands -> state -> journal -> restart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faro_box.errors import RuleError, ScriptError
from faro_box.rules.baccarat import settle_document
from faro_box.table.baccarat.commands import (
    Banco,
    BankBet,
    BankCall,
    BankCard,
    BankConfirm,
    BankerLeaves,
    BankUndo,
    BankUnread,
    LeaveOn,
    StartBank,
)
from faro_box.table.commands import StartDeal, command_from_json, command_to_text
from faro_box.table.events import event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table

START = StartBank(("ann", "bob", "cid"), {"ann": "right", "bob": "left", "cid": "right"}, "eve", 10)
# Seed 001 §08: right 9♣4♣ = 3, left 7♥6♦ = 3, bank 2♠3♣ = 5; right draws 4♦ (7), left 2♥ (5),
# the banker stands on 5: right wins 5, left pushes, the fund falls to 5.
SEED_08 = [START, BankBet("ann", 5), BankBet("bob", 3),
           *(BankCard(c) for c in ("9C", "7H", "2S", "4C", "6D", "3C")),
           BankCall("right", True), BankCard("4D"), BankCall("left", True), BankCard("2H"),
           BankCall("banker", False)]


def _table(path: Path | str = ":memory:") -> Table:
    return Table(Journal(path))


def _play(table: Table, commands: list) -> list[dict]:
    return [table.handle(c).state for c in commands]


def test_seed_08_through_the_live_table_and_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    table = _table(path)
    states = _play(table, SEED_08)
    state = states[-1]
    assert state["game"] == "baccarat_banque"
    assert state["hands"] == {"right": ["9C", "4C", "4D"], "left": ["7H", "6D", "2H"], "banker": ["2S", "3C"]}
    assert state["totals"] == {"right": 7, "left": 5, "banker": 5}
    last = state["last_coup"]
    assert last["results"] == {"right": "win", "left": "push"}
    assert [(s["player"], s["result"], s["amount"]) for s in last["settlements"]] == \
        [("ann", "win", 5), ("bob", "push", 0)]
    assert state["fund"] == 5
    assert state["balances"] == {"ann": 105, "bob": 100, "cid": 100, "eve": 95}
    assert state["waiting"] == "bets"
    assert state["shoe"]["remaining"] == 156 - 8
    assert state["shoe"]["by_rank"]["4"] == 10 and state["shoe"]["by_rank"]["K"] == 12
    # The same bank as a settle script settles to the same result.
    doc = settle_document(table.script())
    assert doc["fund"] == 5 and doc["coups"][0]["results"] == {"right": "win", "left": "push"}
    table.journal.close()
    again = _table(path)
    assert {k: v for k, v in again.state().items() if k != "faults"} == \
        {k: v for k, v in state.items() if k != "faults"}


def test_face_down_cards_stay_hidden_until_the_coup_ends() -> None:
    table = _table()
    states = _play(table, SEED_08[:9])  # the first six cards are out
    hands = states[-1]["hands"]
    assert hands == {"right": [None, None], "left": [None, None], "banker": [None, None]}
    assert states[-1]["totals"] == {"right": None, "left": None, "banker": None}
    assert states[-1]["waiting"] == "call_right"
    seen = []
    table.subscribe(lambda event, state: seen.append(event_to_json(event)))
    table.handle(BankCall("right", True))
    table.handle(BankCard("4D"))
    assert table.state()["hands"]["right"] == [None, None, "4D"]
    # Nor do the shoe's counts by rank: only the face-up 4D is counted out.
    assert table.state()["shoe"]["by_rank"] == {**{r: 12 for r in states[0]["shoe"]["by_rank"]}, "4": 11}
    assert table.state()["shoe"]["remaining"] == 156 - 7
    # No event or state before the end names a face-down card.
    text = json.dumps(seen) + json.dumps(table.state())
    for hidden in ("9C", "7H", "2S", "4C", "6D", "3C"):
        assert hidden not in text


def test_a_natural_shows_every_hand_at_once() -> None:
    table = _table()
    _play(table, [START, BankBet("ann", 4)])
    state = _play(table, [BankCard(c) for c in ("9C", "7H", "2S", "KD", "6D", "3C")])[-1]
    assert state["hands"]["right"] == ["9C", "KD"] and state["totals"]["right"] == 9
    assert state["last_coup"]["natural"] is True and state["fund"] == 6


def test_refusals_change_nothing_and_are_not_journaled(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    table = _table(path)
    _play(table, SEED_08[:3])
    before, seq = table.state(), table.journal.seq
    refused = [BankBet("cid", 5),            # beyond the cover (2 left)
               BankBet("eve", 1),             # the banker does not bet
               BankBet("zed", 1),             # unknown player
               BankCall("right", True),       # no cards yet
               BankerLeaves(),                # no coup played yet
               BankUndo()]                    # nothing to take back
    for command in refused:
        with pytest.raises(RuleError):
            table.handle(command)
        assert table.state() == before and table.journal.seq == seq
    _play(table, [BankCard(c) for c in ("9C", "7H", "2S", "4C", "6D", "3C")])
    mid, seq = table.state(), table.journal.seq
    for command in [BankCall("left", True),     # out of turn: right calls first
                    BankCall("right", False),   # right must draw on 3
                    BankBet("cid", 1),          # bets are closed
                    BankCall("banker", False)]:
        with pytest.raises(RuleError):
            table.handle(command)
        assert table.state() == mid and table.journal.seq == seq
    _play(table, SEED_08[9:])
    with pytest.raises(RuleError, match="no coup is being dealt"):
        table.handle(BankCall("left", True))
    assert len(table.journal.entries()) == len(SEED_08)
    table.journal.close()
    assert _table(path).state()["fund"] == 5


def test_a_side_on_five_chooses_and_a_side_on_seven_must_stand() -> None:
    table = _table()
    # right 2+3 = 5 (a choice), left 3+4 = 7 (stands), bank 1+1 = 2
    _play(table, [START, BankBet("ann", 2), BankBet("bob", 2),
                  *(BankCard(c) for c in ("2C", "3H", "AS", "3C", "4D", "AC"))])
    with pytest.raises(RuleError, match="left's call out of turn"):
        table.handle(BankCall("left", False))
    table.handle(BankCall("right", False))
    with pytest.raises(RuleError, match="stands on 7"):
        table.handle(BankCall("left", True))
    state = table.handle(BankCall("left", False)).state
    assert state["waiting"] == "call_banker"
    state = table.handle(BankCall("banker", True)).state
    assert state["waiting"] == "card_banker"
    state = table.handle(BankCard("5S")).state  # bank 2 + 5 = 7 beats both
    assert state["last_coup"]["results"] == {"right": "lose", "left": "push"}
    assert state["active"]["right"] == "cid"  # ann lost: the next right-side player takes over


def test_a_forced_draw_is_implied_by_its_card() -> None:
    table = _table()
    _play(table, SEED_08[:9])
    state = table.handle(BankCard("4D")).state  # right on 3 must draw: the card says so
    assert state["calls"] == {"right": "draw"} and state["waiting"] == "call_left"


def test_undo_takes_back_the_last_card_exactly(tmp_path: Path) -> None:
    path = tmp_path / "undo.sqlite"
    table = _table(path)
    states = _play(table, SEED_08)
    after = table.handle(BankUndo()).state
    # Exactly the state before 2H came out (the sequence number aside).
    assert {**after, "seq": 0} == {**states[-3], "seq": 0}
    # The banker's stand came after the last card (2H) and goes with it.
    assert after["hands"]["left"] == [None, None] and after["waiting"] == "card_left"
    assert after["fund"] == 10 and after["calls"] == {"right": "draw", "left": "draw"}
    state = _play(table, [BankConfirm("2H"), BankCall("banker", False)])[-1]
    assert state["fund"] == 5 and state["last_coup"]["results"] == {"right": "win", "left": "push"}
    table.handle(BankUndo())
    table.handle(BankUndo())  # and 4D: right waits for its third card again
    assert table.state()["waiting"] == "card_right"
    final = table.state()
    table.journal.close()
    replayed = _table(path).state()
    assert {k: v for k, v in replayed.items() if k != "faults"} == {k: v for k, v in final.items() if k != "faults"}


def test_an_unread_card_waits_for_the_dealer_and_later_reads_queue() -> None:
    table = _table()
    _play(table, [START, BankBet("ann", 5)])
    state = table.handle(BankUnread(("9C", "9S"))).state
    assert state["waiting"] == "confirm" and state["pending"]["candidates"] == []  # a face-down card
    assert table.dealer_state()["pending"]["candidates"] == ["9C", "9S"]
    table.handle(BankCard("7H"))  # read while the first waits
    with pytest.raises(RuleError, match="confirm"):
        table.handle(BankUndo())
    state = table.handle(BankConfirm("9C")).state
    assert state["pending"] is None and state["queued"] == 0
    assert state["waiting"] == "card_banker"  # 9C to right, 7H to left
    state = table.handle(BankUndo()).state  # takes back 7H, which came in through the queue
    assert state["waiting"] == "card_left"


def test_banco_left_on_and_the_banker_leaving() -> None:
    table = _table()
    _play(table, SEED_08)
    with pytest.raises(RuleError, match="beyond the bank's cover"):
        table.handle(LeaveOn("ann"))  # ann's 5 and 5 won make 10 against a fund of 5
    state = table.handle(LeaveOn("ann", cut=True)).state
    assert state["bets"] == [{"player": "ann", "side": "right", "stake": 5, "asked": 10, "cheval": False,
                              "banco": False, "left_on": True}]
    assert state["cover_left"] == 0
    table2 = _table()
    _play(table2, SEED_08)
    state = table2.handle(Banco("bob")).state
    assert state["bets"][0]["banco"] is True and state["bets"][0]["stake"] == 5
    state = table2.handle(BankerLeaves()).state
    assert state["ended"] == "left" and state["waiting"] is None
    assert state["session"]["net"]["eve"] == -5
    with pytest.raises(RuleError, match="ended"):
        table2.handle(BankBet("ann", 1))


def test_one_journal_holds_a_faro_deal_after_a_bank(tmp_path: Path) -> None:
    path = tmp_path / "mixed.sqlite"
    table = _table(path)
    _play(table, SEED_08)
    with pytest.raises(RuleError, match="still running"):
        table.handle(StartDeal("foster", ("ann",)))
    table.handle(BankerLeaves())
    state = table.handle(StartDeal("foster", ("ann",))).state
    assert state["game"] == "faro" and state["deal"] == 2
    assert [e.deal for e in table.journal.entries()][-1] == 2
    table.journal.close()
    assert _table(path).state()["deal"] == 2


def test_bank_commands_round_trip_and_refuse_bad_json() -> None:
    for command in [*SEED_08, BankUnread(("9C",), "/snapshots/a.png"), BankConfirm("10h"), Banco("ann"),
                    LeaveOn("ann", cheval=True, cut=True), BankerLeaves(), BankUndo()]:
        assert command_from_json(json.loads(command_to_text(command))) == command
    for bad in [{"type": "bank_bet", "player": "ann", "stake": 0},
                {"type": "bank_bet", "player": "ann", "stake": True},
                {"type": "bank_call", "seat": "middle", "draw": True},
                {"type": "bank_call", "seat": "right", "draw": "yes"},
                {"type": "start_bank", "players": ["ann"], "sides": {"ann": "up"}, "banker": "eve", "fund": 5},
                {"type": "start_bank", "players": ["ann"], "sides": {}, "banker": "eve", "fund": 500},
                {"type": "bank_card", "card": "ZZ"},
                {"type": "bank_undo", "extra": 1}]:
        with pytest.raises(ScriptError):
            command_from_json(bad)
