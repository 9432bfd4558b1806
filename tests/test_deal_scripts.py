import json
import subprocess
import sys

import pytest
from table_scripts import _deck, _rank
from table_scripts import sample_script as _script

from faro_box.errors import JournalError, ScriptError
from faro_box.rules.faro import settle_script
from faro_box.table.commands import CardSeen, Misdeal, PlaceBet, StartDeal, UndoCard, WithdrawBet
from faro_box.table.games import export_deal, replay_script
from faro_box.table.journal import Journal
from faro_box.table.table import Table


def _settle_cli(doc):
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "settle", "-"], input=json.dumps(doc),
                          capture_output=True, text=True, timeout=60)
    return done


def test_a_replayed_script_settles_like_settle_and_exports_to_the_same_balances(tmp_path):
    doc = _script()
    table = Table(Journal(tmp_path / "j.sqlite"))
    replay = replay_script(table, doc)
    expected = settle_script(doc)
    assert table.state()["balances"] == expected["balances"]
    assert [t for t in table.state()["turns"]] == expected["turns"]
    assert list(replay.rejected) == expected["rejected"]
    assert table.state()["history"][-1]["outcome"] == "finished"

    exported = export_deal(table.journal)
    assert exported["deck"] == doc["deck"]
    settled = _settle_cli(exported)
    assert settled.returncode == 0, settled.stderr
    assert json.loads(settled.stdout)["balances"] == expected["balances"]
    assert json.loads(settled.stdout)["turns"] == expected["turns"]


def test_export_follows_undo_and_writes_what_stood(tmp_path):
    deck = _deck(3)
    table = Table(Journal())
    table.handle(StartDeal("foster", ("ann",), {}))
    for i in range(3):
        table.handle(CardSeen(deck[i], i))
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "high", "stake": 2}))
    table.handle(UndoCard())                       # takes the card back, and the bet placed after it
    table.handle(CardSeen(deck[2], 2))
    table.handle(PlaceBet("ann", {"id": "a2", "kind": "odd", "stake": 1}))
    table.handle(CardSeen(deck[3], 3))
    table.handle(CardSeen(deck[4], 4))
    table.handle(WithdrawBet("ann", "a2"))
    script = export_deal(table.journal)
    assert script["actions"] == [
        {"at": 2, "player": "ann", "place": {"id": "a2", "kind": "odd", "stake": 1}},
        {"at": 3, "player": "ann", "withdraw": "a2"},
    ]


def test_a_deal_in_progress_exports_the_cards_shown_so_far(tmp_path):
    doc = _script()
    doc["deck"] = doc["deck"][:17]
    table = Table(Journal())
    replay_script(table, doc)
    script = export_deal(table.journal)
    assert script["deck"] == doc["deck"]
    # settle needs the whole deck and says so; replay plays the part to the same state.
    settled = _settle_cli(script)
    assert settled.returncode == 1 and "52 cards" in settled.stderr
    again = Table(Journal())
    replay_script(again, script)
    ours, theirs = table.state(), again.state()
    for key in ("exposed", "balances", "open_bets", "turns", "beads"):
        assert ours[key] == theirs[key], key


def test_a_misdealt_deal_exports_a_script_that_settles_to_the_same_balances():
    deck = _deck(5)
    table = Table(Journal())
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    table.handle(PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": [_rank(deck[30])], "stake": 2}))
    table.handle(PlaceBet("bob", {"id": "b1", "kind": "high", "stake": 1}))
    for i in range(8):                    # a loser of turn 4 is out when the misdeal is called
        table.handle(CardSeen(deck[i], i))
    table.handle(Misdeal())
    script = export_deal(table.journal)
    assert len(script["deck"]) == 52 and script["deck"][:8] == deck[:8]
    assert script["actions"][-1] == {"at": 4, "misdeal": True}
    assert settle_script(script)["balances"] == table.state()["balances"]


def test_a_replay_resumes_where_it_stopped_without_applying_anything_twice(tmp_path):
    doc = _script()
    path = tmp_path / "j.sqlite"
    whole = Table(Journal())
    replay_script(whole, doc)

    partial = dict(doc, deck=doc["deck"][:20])     # as if the first run died after card 19
    first = Table(Journal(path))
    replay_script(first, partial)
    seq = first.journal.seq
    first.journal.close()
    resumed = Table(Journal(path))
    replay = replay_script(resumed, doc)
    assert replay.skipped == seq
    assert resumed.state() == whole.state()
    # Replaying the same finished script again adds nothing.
    again = replay_script(resumed, doc)
    assert again.outcomes == () and resumed.state() == whole.state()


def test_export_names_missing_deals():
    with pytest.raises(JournalError, match="no deal yet"):
        export_deal(Journal())
    table = Table(Journal())
    table.handle(StartDeal("foster", ("ann",), {}))
    with pytest.raises(JournalError, match="no deal 4"):
        export_deal(table.journal, 4)


@pytest.mark.parametrize("change, words", [
    ({"deck": ["QH", "QH"]}, "'QH' twice"),
    ({"deck": ["ZZ"]}, "'ZZ'"),
    ({"shoe": []}, "'shoe'"),
    ({"game": "baccarat_banque"}, "unknown field 'profile'"),  # a bank script, checked as one
    ({"game": "stuss"}, "only faro"),
    ({"players": "ann"}, "'ann'"),
])
def test_bad_scripts_are_refused_before_the_table_sees_them(change, words):
    table = Table(Journal())
    with pytest.raises(ScriptError) as caught:
        replay_script(table, {**_script(), **change})
    assert words in str(caught.value)
    assert table.journal.seq == 0
