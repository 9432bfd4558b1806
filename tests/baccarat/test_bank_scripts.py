"""Bank scripts through the live table: `faro-box replay` plays one into a journal, `faro-box
export` writes a journaled bank back as a script, and `faro-box settle` gives the same result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from baccarat_deals import shoe_order
from hypothesis import given, settings
from test_baccarat_properties import scripts

from faro_box.cards import FULL_DECK
from faro_box.errors import ScriptError
from faro_box.rules.baccarat import settle_document
from faro_box.table.baccarat import scripts as bank_scripts
from faro_box.table.baccarat.commands import BankBet, BankCall, BankConfirm, StartBank
from faro_box.table.games import export_deal
from faro_box.table.journal import Journal
from faro_box.table.table import Table

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]
REST = [str(c) for c in FULL_DECK] * 3
SEED_08 = shoe_order(["9C", "4C"], ["7H", "6D"], ["2S", "3C"], ["4D", "2H"])
SHOE = SEED_08 + [c for c in REST if c not in SEED_08] + [c for c in SEED_08 if SEED_08.count(c) == 1] * 2
SCRIPT = {"game": "baccarat_banque", "players": ["ann", "bob", "cid"],
          "sides": {"ann": "right", "bob": "left", "cid": "right"}, "banker": "eve", "fund": 10,
          "shoe": SHOE[:60],
          "coups": [{"bets": [{"player": "ann", "stake": 5}, {"player": "bob", "stake": 3},
                              {"player": "cid", "stake": 4}],
                     "right_draws_on_5": True, "left_draws_on_5": False},
                    {"bets": [{"player": "cid", "stake": 2, "cheval": True}, {"player": "zed", "stake": 1}],
                     "banker_draws": True},
                    {"bets": [{"player": "bob", "banco": True}], "banker_leaves": True},
                    {"bets": [{"player": "ann", "stake": 1}]}]}


def _run(*args: object, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*FARO_BOX, *map(str, args)], capture_output=True, text=True, timeout=120, **kwargs)


def _same_result(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a["coups"] == b["coups"] and a["balances"] == b["balances"]
    assert a["fund"] == b["fund"] and a["ended"] == b["ended"]


def test_the_shoe_holds_each_card_three_times() -> None:
    assert len(SHOE) == 156 and all(SHOE.count(c) == 3 for c in SHOE)


def test_replay_journals_a_bank_and_export_writes_it_back_as_settle_reads_it(tmp_path: Path) -> None:
    script, journal = tmp_path / "bank.json", tmp_path / "journal.sqlite"
    script.write_text(json.dumps(SCRIPT))
    original = json.loads(_run("settle", script).stdout)
    assert original["coups"][0]["results"] == {"right": "win", "left": "push"}  # seed 001 §08
    replayed = _run("replay", script, "--journal", journal)
    assert replayed.returncode == 0, replayed.stderr
    lines = replayed.stdout.splitlines()
    assert "Right 7 against the bank's 5: right wins. Ann wins 5." in replayed.stdout
    for refused in original["rejected"]:
        bet = f" bet {refused['bet']}" if refused["bet"] is not None else ""
        assert f"refused: coup {refused['coup']}{bet}: {refused['error']}" in lines
    assert lines[-1] == "chips: " + ", ".join(f"{w} {c}" for w, c in original["balances"].items())
    exported = _run("export", "--journal", journal)
    assert exported.returncode == 0, exported.stderr
    settled = _run("settle", "-", input=exported.stdout)
    assert settled.returncode == 0, settled.stderr
    _same_result(json.loads(settled.stdout), original)
    again = _run("replay", script, "--journal", journal)  # the same script again: nothing twice
    assert again.returncode == 0 and "(resumed: " in again.stdout
    with Journal(journal, readonly=True) as written:
        assert sum(1 for e in written.entries() if e.command.TYPE == "start_bank") == 1


@settings(max_examples=25, deadline=None)
@given(scripts())
def test_any_script_replays_to_settles_result_and_exports_to_it(script: dict[str, Any]) -> None:
    try:
        expected = settle_document(script)
    except ScriptError:
        with pytest.raises(ScriptError):
            bank_scripts.script_steps(script)
        return
    with Journal() as journal:
        table = Table(journal)
        replay = bank_scripts.replay(table, script)
        state = table.state()
        assert state["balances"] == expected["balances"] and state["fund"] == expected["fund"]
        assert state["results"] == expected["coups"] and state["ended"] == expected["ended"]
        assert [(r["coup"], r["bet"]) for r in replay.rejected] == [(r["coup"], r["bet"])
                                                                    for r in expected["rejected"]]
        _same_result(settle_document(export_deal(journal)), expected)


def test_a_replay_cut_short_resumes_without_playing_anything_twice() -> None:
    steps, _ = bank_scripts.script_steps(SCRIPT)
    with Journal() as whole:
        full = Table(whole)
        bank_scripts.replay(full, SCRIPT)
        expected = full.state()
    with Journal() as journal:
        table = Table(journal)
        for command in steps[:17]:  # the power went in the middle of coup 2
            table.handle(command)
        replay = bank_scripts.replay(table, SCRIPT)
        assert replay.skipped == 17
        assert [e.command for e in journal.entries()] == steps
        assert {k: v for k, v in table.state().items() if k != "faults"} == \
            {k: v for k, v in expected.items() if k != "faults"}


def test_a_live_bank_exports_as_it_was_played_bets_out_of_order_and_cut() -> None:
    with Journal() as journal:
        table = Table(journal)
        table.handle(StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 6))
        # The dealer enters bob first: the cover cuts ann, who comes first in the order of play.
        table.handle(BankBet("bob", 4))
        table.handle(BankBet("ann", 5, cut=True))
        for card in SEED_08[:6]:
            table.handle(BankConfirm(card))
        table.handle(BankCall("right", True))
        table.handle(BankConfirm("4D"))
        table.handle(BankCall("left", True))
        table.handle(BankConfirm("2H"))
        table.handle(BankCall("banker", False))
        state = table.state()
        in_progress = export_deal(journal)
        table.handle(BankBet("ann", 1))
        table.handle(BankConfirm("KH"))
        assert export_deal(journal)["coups"] == in_progress["coups"]  # a coup being dealt is left out
        assert export_deal(journal)["shoe"] == [*SEED_08, "KH"]
        settled = settle_document(in_progress)
        assert settled["balances"] == state["balances"] and settled["fund"] == state["fund"]
        # Settle lists the settlements in the order of play, the table in the order it took the bets.
        assert [{**c, "settlements": sorted(c["settlements"], key=str)} for c in settled["coups"]] == \
            [{**c, "settlements": sorted(c["settlements"], key=str)} for c in state["results"]]
        assert {s["player"]: (s["stake"], s["result"], s["amount"]) for s in settled["coups"][0]["settlements"]} \
            == {"bob": (4, "push", 0), "ann": (2, "win", 2)}


def test_a_bank_that_ended_exports_the_banker_leaving() -> None:
    with Journal() as journal:
        table = Table(journal)
        bank_scripts.replay(table, SCRIPT)
        assert table.state()["ended"] == "left"
        exported = export_deal(journal)
        assert exported["coups"][-1].get("banker_leaves") is True
        assert settle_document(exported)["ended"] == "left"
