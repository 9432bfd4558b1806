"""`faro-box settle` run for real, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faro_box.cards import FULL_DECK

REPO = Path(__file__).resolve().parents[1]


def deck(first: list[str], last: list[str]) -> list[str]:
    middle = [str(c) for c in FULL_DECK if str(c) not in first + last]
    return first + middle + last


EXAMPLE = {
    "game": "faro", "profile": "teaching", "players": ["ann", "bob"],
    "deck": deck(["5S", "KD", "9C"], ["7H", "JH", "3D"]),
    "actions": [
        {"at": 1, "player": "ann", "place": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}},
        {"at": 1, "player": "bob", "place": {"id": "b1", "kind": "rank", "ranks": ["K"], "stake": 2, "copper": True}},
        {"at": 4, "player": "ann", "withdraw": "a1"},
        {"at": 25, "player": "bob", "place": {"id": "c1", "kind": "call", "order": ["7", "J", "3"], "stake": 2}},
        {"at": 3, "player": "bob", "place": {"id": "c2", "kind": "rank", "ranks": ["Q"], "stake": 3}},
    ],
}


def settle(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "faro_box.cli", "settle", *args], input=stdin,
                          capture_output=True, text=True, cwd=REPO, timeout=60)


def test_settle_prints_the_result_document(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    done = settle(str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert list(result) == ["turns", "hock", "balances", "rejected"]
    assert result["turns"][0] == {"turn": 1, "loser": "KD", "winner": "9C", "settlements": [
        {"bet": "a1", "player": "ann", "result": "win", "amount": 2},
        {"bet": "b1", "player": "bob", "result": "win", "amount": 2}]}
    assert result["turns"][24]["settlements"] == [{"bet": "c1", "player": "bob", "result": "win", "amount": 8}]
    assert result["hock"] == "3D"
    assert result["balances"] == {"ann": 2, "bob": 10, "banker": -12}
    assert result["rejected"] == [
        {"action": 2, "error": "cannot withdraw bet 'a1': it is not an open bet of 'ann'"},
        {"action": 4, "error": "bet 'c2': the 'teaching' profile takes even stakes only, not 3"}]


def test_settle_reads_standard_input():
    done = settle("-", stdin=json.dumps(EXAMPLE))
    assert done.returncode == 0 and json.loads(done.stdout)["balances"]["bob"] == 10


def test_lines_prints_one_result_per_line():
    other = {**EXAMPLE, "profile": "stuss", "actions": EXAMPLE["actions"][:2]}
    done = settle("--lines", "-", stdin=json.dumps(EXAMPLE) + "\n\n" + json.dumps(other) + "\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert [json.loads(line)["balances"] for line in lines] == [
        {"ann": 2, "bob": 10, "banker": -12}, {"ann": 2, "bob": 2, "banker": -4}]


BAD = [
    ("{not json", "is not JSON"),
    ("[1, 2]", "must be a JSON object"),
    (json.dumps({**EXAMPLE, "deck": EXAMPLE["deck"][:51]}), "a deck must hold 52 cards, this one holds 51"),
    (json.dumps({**EXAMPLE, "deck": EXAMPLE["deck"][:51] + ["5S"]}), "the deck holds '5S' twice"),
    (json.dumps({**EXAMPLE, "deck": EXAMPLE["deck"][:51] + ["XX"]}), "'XX' is not a card"),
    (json.dumps({**EXAMPLE, "profile": "vegas"}), "unknown profile 'vegas'"),
    (json.dumps({**EXAMPLE, "house_rules": {"max_bet": 3}}), "unknown house rule 'max_bet'"),
    (json.dumps({**EXAMPLE, "comment": "x"}), "unknown field 'comment'"),
    (json.dumps({**EXAMPLE, "game": "poker"}), "unknown game 'poker'"),
    (json.dumps({**EXAMPLE, "players": ["ann", "ann"]}), "the player 'ann' is listed twice"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m for _, m in BAD])
def test_a_bad_document_is_one_line_on_stderr_and_a_non_zero_exit(text, message):
    done = settle("-", stdin=text)
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert done.stderr.startswith("faro-box settle: ")


def test_lines_names_the_bad_line():
    done = settle("--lines", "-", stdin=json.dumps(EXAMPLE) + "\n" + json.dumps({**EXAMPLE, "profile": "x"}) + "\n")
    assert done.returncode != 0
    assert len(done.stdout.splitlines()) == 1
    assert "line 2: unknown profile 'x'" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_missing_file_is_a_clear_error(tmp_path):
    done = settle(str(tmp_path / "none.json"))
    assert done.returncode != 0 and "cannot read deal script" in done.stderr and "none.json" in done.stderr


def test_baccarat_banque_scripts_go_to_the_baccarat_engine():
    doc = {"game": "baccarat_banque", "players": ["ann", "bob", "cid"],
           "sides": {"ann": "right", "bob": "left", "cid": "right"}, "banker": "eve", "fund": 10,
           "shoe": ["9C", "7H", "2S", "4C", "6D", "3C", "4D", "2H"],
           "coups": [{"bets": [{"player": "ann", "stake": 5}, {"player": "bob", "stake": 3}],
                      "right_draws_on_5": True, "left_draws_on_5": False, "banker_draws": False}]}
    done = settle("-", stdin=json.dumps(doc))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["fund"] == 5 and result["balances"] == {"ann": 105, "bob": 100, "cid": 100, "eve": 95}


# ----- one set of limits: what the live table refuses, settle refuses in the same words -----------

def _table_refusal(*docs: dict) -> str:
    """The live table's refusal of the last command, sent as the dealer's page sends it (the
    commands before it are accepted)."""
    from faro_box.errors import FaroBoxError
    from faro_box.table.commands import command_from_json
    from faro_box.table.journal import Journal
    from faro_box.table.table import Table

    table = Table(Journal())
    for doc in docs[:-1]:
        table.handle(command_from_json(doc))
    with pytest.raises(FaroBoxError) as refused:
        table.handle(command_from_json(docs[-1]))
    return str(refused.value)


LIMIT_PLAYERS = {
    "21 players": [f"p{i}" for i in range(21)],
    "a 41-character name": ["ann", "x" * 41],
    "the bank's name": ["ann", "Banker"],
    "a control character": ["ann", "b\x07b"],
}


@pytest.mark.parametrize("players", LIMIT_PLAYERS.values(), ids=LIMIT_PLAYERS.keys())
def test_settle_refuses_the_players_the_table_refuses_in_the_same_words(players):
    refusal = _table_refusal({"type": "start_deal", "profile": "teaching", "players": players})
    done = settle("-", stdin=json.dumps({**EXAMPLE, "players": players, "actions": []}))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"faro-box settle: {refusal}\n"


LIMIT_ACTIONS = {
    "a stake of 10**18": ("place", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 10**18}),
    "a 41-character bet id": ("place", {"id": "x" * 41, "kind": "rank", "ranks": ["9"], "stake": 2}),
    "a bet id with a control character": ("place", {"id": "a\x001", "kind": "rank", "ranks": ["9"], "stake": 2}),
    "withdrawing a 41-character bet id": ("withdraw", "x" * 41),
}


@pytest.mark.parametrize(("verb", "what"), LIMIT_ACTIONS.values(), ids=LIMIT_ACTIONS.keys())
def test_settle_refuses_the_action_the_table_refuses_in_the_same_words(verb, what):
    start = {"type": "start_deal", "profile": "teaching", "players": ["ann", "bob"]}
    command = {"type": "place", "player": "ann", "spec": what} if verb == "place" else \
        {"type": verb, "player": "ann", "bet_id": what}
    refusal = _table_refusal(start, command)
    done = settle("-", stdin=json.dumps({**EXAMPLE, "actions": [{"at": 1, "player": "ann", verb: what}]}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rejected"] == [{"action": 0, "error": refusal}]


def test_the_limits_themselves_are_taken_by_settle():
    from faro_box.limits import MAX_BET_ID, MAX_STAKE

    bet = {"id": "x" * MAX_BET_ID, "kind": "rank", "ranks": ["9"], "stake": MAX_STAKE}
    done = settle("-", stdin=json.dumps({**EXAMPLE, "players": [f"p{i}" for i in range(19)] + ["ann"],
                                         "actions": [{"at": 1, "player": "ann", "place": bet}]}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rejected"] == []


BANK = {"game": "baccarat_banque", "players": ["ann", "bob"], "sides": {"ann": "right", "bob": "left"},
        "banker": "eve", "fund": 10, "shoe": ["9C", "7H", "2S", "4C", "6D", "3C", "4D", "2H"] * 2, "coups": []}


def _start_bank(doc: dict) -> dict:
    return {"type": "start_bank", "players": doc["players"], "sides": doc["sides"], "banker": doc["banker"],
            "fund": doc["fund"]}


LIMIT_BANKS = {
    "11 players": {"players": [f"p{i}" for i in range(11)],
                   "sides": {f"p{i}": ("right", "left")[i % 2] for i in range(11)}},
    "a 41-character name": {"players": ["ann", "b" * 41], "sides": {"ann": "right", "b" * 41: "left"}},
    "a 41-character banker": {"banker": "e" * 41},
}


@pytest.mark.parametrize("change", LIMIT_BANKS.values(), ids=LIMIT_BANKS.keys())
def test_settle_refuses_the_bank_the_table_refuses_in_the_same_words(change):
    doc = {**BANK, **change}
    refusal = _table_refusal(_start_bank(doc))
    done = settle("-", stdin=json.dumps(doc))
    assert done.returncode == 1 and done.stderr == f"faro-box settle: {refusal}\n"


def test_settle_refuses_the_bank_stake_the_table_refuses_in_the_same_words():
    from faro_box.limits import MAX_BANK_STAKE

    stake = MAX_BANK_STAKE + 1
    refusal = _table_refusal(_start_bank(BANK), {"type": "bank_bet", "player": "ann", "stake": stake})
    done = settle("-", stdin=json.dumps({**BANK, "coups": [{"bets": [{"player": "ann", "stake": stake}]}]}))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rejected"] == [{"coup": 1, "bet": 0, "error": refusal}]
