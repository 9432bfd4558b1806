"""The journal's disk fills up or turns read-only under a live table.

The disk is simulated on the journal's own SQLite connection (``PRAGMA max_page_count``: the
file cannot grow, SQLite answers SQLITE_FULL exactly as on a full card; ``PRAGMA query_only``:
every write is refused as on a read-only file system), because a test cannot mount a small
file system everywhere. ``benchmarks/bench_faults.py`` repeats this on a real, full tmpfs.
"""

from __future__ import annotations

import json
import random

import pytest
from display_helpers import DECK, PIN
from fault_repeat import REPEAT
from starlette.testclient import TestClient

from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.errors import JournalError
from faro_box.table.commands import CardSeen, PlaceBet, StartDeal
from faro_box.table.events import event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table


def _without_faults(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "faults"}


def _fill_the_disk(journal: Journal) -> None:
    conn = journal._conn  # max_page_count and query_only hold for this connection only
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")


def _free_the_disk(journal: Journal) -> None:
    journal._conn.execute("PRAGMA max_page_count = 1073741823")


def _bet(n: int) -> PlaceBet:
    return PlaceBet("ann", {"id": f"bet-{n:04d}-" + "x" * 20, "kind": "high", "stake": 1})


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_full_disk_stops_the_table_says_so_and_loses_nothing(tmp_path, rep):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal)
    events: list[dict] = []
    table.subscribe(lambda event, state: events.append(event_to_json(event)))
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    shown = 2 * random.Random(rep).randint(0, 20) + 1     # between turns, when bets may change
    for index in range(shown):
        table.handle(CardSeen(DECK[index], index))
    _fill_the_disk(journal)
    accepted = refused = 0
    for n in range(400):     # bets until the file needs a page it cannot have
        try:
            table.handle(_bet(n))
            accepted += 1
        except JournalError as exc:
            refused += 1
            assert "disk is full" in str(exc)
            if refused == 3:
                break
    assert refused == 3, "the disk never filled"
    state = table.state()
    assert [f["device"] for f in state["faults"]] == ["journal"]
    assert "full" in state["faults"][0]["message"]
    assert [e["type"] for e in events].count("fault") == 1       # told once, not per refusal
    assert len(table.state()["open_bets"]) == accepted            # the refused bets changed nothing
    # A card is a shorter row: it may still fit on the disk (then it is journaled as usual), or not.
    try:
        table.handle(CardSeen(DECK[shown], shown))
        shown += 1
    except JournalError:
        pass
    assert table.state()["next_index"] == shown
    state = table.state()
    # Power cut now: the journal on disk holds every accepted command and nothing else.
    journal.close()
    with Journal(path) as again:
        restarted = Table(again)
        assert _without_faults(restarted.state()) == _without_faults(state)
        assert restarted.state()["faults"] == []


def test_the_table_takes_commands_again_once_space_returns(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    _fill_the_disk(journal)
    with pytest.raises(JournalError):
        for n in range(400):
            table.handle(_bet(n))
    assert table.state()["faults"][0]["device"] == "journal"
    _free_the_disk(journal)
    table.handle(CardSeen(DECK[0], 0))
    assert table.state()["faults"] == [] and table.state()["exposed"] == [DECK[0]]
    journal.close()


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_read_only_journal_refuses_through_the_dealer_page_and_shows_the_fault(tmp_path, rep):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal)
    client = TestClient(create_app(table, pin_hash=hash_pin(PIN, n=2**10)), base_url="http://127.0.0.1:8000")
    csrf = client.post("/api/login", json={"pin": PIN}).json()["csrf"]
    headers = {"x-csrf-token": csrf}
    start = {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]}
    assert client.post("/api/command", json=start, headers=headers).status_code == 200
    cards = 2 * random.Random(rep).randint(0, 20) + 1
    for index in range(cards):
        table.handle(CardSeen(DECK[index], index))
    journal._conn.execute("PRAGMA query_only = ON")       # the card turned read-only
    before = _without_faults(table.state())
    bet = {"type": "place", "player": "ann", "spec": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}}
    response = client.post("/api/command", json=bet, headers=headers)
    assert response.status_code == 503
    assert "journal cannot be written, nothing was changed" in response.json()["error"]
    shown = client.get("/api/state").json()              # what the audience and dealer pages draw
    assert shown["faults"][0]["device"] == "journal" and "readonly" in shown["faults"][0]["message"]
    assert _without_faults(shown) == json.loads(json.dumps(before))
    journal.close()
    with Journal(path, readonly=True) as written:
        assert [e.command.TYPE for e in written.entries()] == ["start_deal"] + ["card"] * cards


def test_a_failed_write_that_reached_the_file_counts_as_written(tmp_path):
    # An I/O error reported after the commit (a failing fsync): the file decides, so the live
    # table and a replay after restart agree.
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table = Table(journal)
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    real = journal._conn

    class CommitsThenFails:
        def execute(self, sql, *args):
            result = real.execute(sql, *args)
            if sql.startswith("INSERT"):
                import sqlite3

                raise sqlite3.OperationalError("disk I/O error")
            return result

    journal._conn = CommitsThenFails()  # type: ignore[assignment]
    table.handle(CardSeen(DECK[0], 0))
    journal._conn = real
    assert table.state()["exposed"] == [DECK[0]] and table.state()["faults"] == []
    journal.close()
    with Journal(path) as again:
        assert Table(again).state()["exposed"] == [DECK[0]]
