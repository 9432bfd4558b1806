"""A Pi without a real-time clock boots in 1970 and jumps to the right date once the network
answers: nothing in the box may order, expire or throttle by the wall clock."""

from __future__ import annotations

import random
import time

import pytest
from display_helpers import DECK, PIN
from fault_repeat import REPEAT
from starlette.testclient import TestClient

from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.table.commands import CardSeen, PlaceBet, StartDeal, UndoCard
from faro_box.table.journal import Journal
from faro_box.table.table import Table


def _commands():
    yield StartDeal("foster", ("ann", "bob"), {})
    yield PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2})
    for index in range(9):
        yield CardSeen(DECK[index], index)
    yield UndoCard()
    yield CardSeen(DECK[8], 8)
    yield PlaceBet("bob", {"id": "b1", "kind": "high", "stake": 3})
    for index in range(9, 20):
        yield CardSeen(DECK[index], index)


class JumpingClock:
    """Wall times as a clockless Pi reports them: 1970, then 2026, then back, then far ahead."""

    def __init__(self, rep: int) -> None:
        rng = random.Random(rep)
        first = [0.0, 1.0, 1.7e9, 2.0, 1.2e9, 4.1e9, -5.0, 86400.0]
        self.times = iter(first + [rng.choice([0.0, -1e9, 1.7e9, 4.1e9]) + rng.uniform(-1e6, 1e6)
                                   for _ in range(100)])

    def __call__(self) -> float:
        return next(self.times)


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_journal_written_under_a_jumping_clock_replays_in_order(tmp_path, rep):
    steady, jumping = tmp_path / "steady.sqlite", tmp_path / "jumping.sqlite"
    for path, clock in ((steady, lambda: 1.7e9), (jumping, JumpingClock(rep))):
        with Journal(path, clock=clock) as journal:
            table = Table(journal)
            for command in _commands():
                table.handle(command)
    with Journal(steady) as a, Journal(jumping) as b:
        walls = [e.wall_time for e in b.entries()]
        assert walls != sorted(walls)                     # the clock really went backwards
        assert [e.command for e in a.entries()] == [e.command for e in b.entries()]
        assert Table(a).state() == Table(b).state()
        assert Table(b).state()["exposed"] == DECK[:20]


def test_dealer_sessions_and_pin_lockouts_ignore_the_wall_clock(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    client = TestClient(create_app(table, pin_hash=hash_pin(PIN, n=2**10)), base_url="http://127.0.0.1:8000")
    csrf = client.post("/api/login", json={"pin": PIN}).json()["csrf"]
    start = {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]}
    # The clock jumps 56 years ahead (NTP answered), then back to 1970 (a reboot).
    codes = []
    for wall, body in ((1.77e9, start), (0.0, {"type": "end_deal"})):
        monkeypatch.setattr(time, "time", lambda wall=wall: wall)
        codes.append(client.post("/api/command", json=body, headers={"x-csrf-token": csrf}).status_code)
    assert codes == [200, 422]   # the session holds (422: the rules refuse ending a fresh deal, not 401)
    assert table.state()["deal"] == 1
    # Wrong PINs stay locked out whatever the wall clock says.
    other = TestClient(client.app, base_url="http://127.0.0.1:8000")
    codes = [other.post("/api/login", json={"pin": "0000"}).status_code for _ in range(5)]
    assert codes == [401, 401, 401, 401, 429]
    monkeypatch.setattr(time, "time", lambda: 4.1e9)
    assert other.post("/api/login", json={"pin": PIN}).status_code == 429
    journal.close()
