"""Visitors' pretend bets through the mounted web API: settled by the engine, never in the real
deal, CSRF-safe, names checked, rate limited per client and for everyone."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from faro_box.cards import Card
from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.exhibit.show import Show
from faro_box.exhibit.sources import bundled_script
from faro_box.exhibit.visitors import Refused, VisitorBook, VisitorLimits
from faro_box.exhibit.web import mount_exhibit
from faro_box.rules.faro import settle_script
from faro_box.table.commands import CardSeen
from faro_box.table.faro.scripts import script_steps
from faro_box.table.faro.state import TableState
from faro_box.table.journal import Journal
from faro_box.table.table import Table

PIN = "2468"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Dealer:
    """Plays a bundled script's commands into the table, a card at a time."""

    def __init__(self, table: Table, name: str) -> None:
        self.table = table
        self.script = bundled_script(name)
        self.steps = [s.command for s in script_steps(self.script)[0]]
        self.position = 0

    def until_cards(self, cards: int) -> None:
        while self.position < len(self.steps):
            if self.table.state()["next_index"] >= cards and isinstance(self.steps[self.position], CardSeen):
                return
            self.table.handle(self.steps[self.position])
            self.position += 1


@pytest.fixture
def rig(tmp_path: Any) -> Iterator[dict[str, Any]]:
    clock = Clock()
    with Journal(tmp_path / "exhibit.sqlite") as journal:
        table = Table(journal)
        book = VisitorBook(clock=clock)
        book.attach(table)
        show = Show(visitors=book, hold_s=0)
        table.subscribe(show.on_event)
        app = create_app(table, pin_hash=hash_pin(PIN, n=2**10))
        mount_exhibit(app, show, book)
        with TestClient(app, base_url="http://exhibit.local") as client:
            yield {"table": table, "book": book, "client": client, "clock": clock, "journal": journal}


def _join(client: TestClient, name: str) -> str:
    joined = client.post("/exhibit/api/join", json={})
    assert joined.status_code == 200, joined.text
    csrf = joined.json()["csrf"]
    named = client.post("/exhibit/api/name", json={"name": name}, headers={"x-csrf-token": csrf})
    assert named.status_code == 200, named.text
    return str(csrf)


def test_a_pretend_bet_settles_as_the_engine_settles_it_and_never_reaches_the_table(rig: dict[str, Any]) -> None:
    table, client, journal = rig["table"], rig["client"], rig["journal"]
    dealer = Dealer(table, "early_split")
    dealer.until_cards(5)   # soda, turn 1, turn 2 (the split): between turns, before turn 3
    before = [e.command for e in journal.entries()]
    layout = table.state()["open_bets"]
    csrf = _join(client, "Marie")
    deck = dealer.script["deck"]
    # Marie backs the rank of turn 3's winner, and coppers the rank of turn 3's loser.
    plain, coppered = deck[6][:-1], deck[5][:-1]
    for rank, copper in ((plain, False), (coppered, True)):
        placed = client.post("/exhibit/api/bet", json={"rank": rank, "stake": 2, "copper": copper},
                             headers={"x-csrf-token": csrf})
        assert placed.status_code == 200, placed.text
    # The real deal is untouched: not a command journaled, not a bet on its layout.
    assert [e.command for e in journal.entries()] == before
    assert table.state()["open_bets"] == layout
    dealer.until_cards(52)
    me = client.get("/exhibit/api/visitor").json()
    expected = settle_script({"game": "faro", "profile": "foster", "players": ["Marie"], "deck": deck,
                              "actions": [{"at": 3, "player": "Marie", "place": {"id": "p", "kind": "rank",
                                                                                  "ranks": [plain], "stake": 2}},
                                          {"at": 3, "player": "Marie", "place": {"id": "c", "kind": "rank",
                                                                                  "ranks": [coppered], "stake": 2,
                                                                                  "copper": True}}]})
    assert me["balance"] == expected["balances"]["Marie"] == 4
    assert [r["result"] for r in me["results"]] == ["win", "win"] and {r["turn"] for r in me["results"]} == {3}
    # The players' own settlements are exactly the script's: the visitor changed nothing.
    assert table.state()["balances"] == settle_script(dealer.script)["balances"]
    shown = client.get("/exhibit/api/show").json()["visitors"]
    assert shown["count"] == 1 and shown["leaders"] == [{"name": "Marie", "balance": 4}]


def test_a_visitor_cannot_send_a_table_command_nor_write_without_the_token(rig: dict[str, Any]) -> None:
    table, client = rig["table"], rig["client"]
    Dealer(table, "early_split").until_cards(1)
    csrf = _join(client, "Ivan")
    seq = table.state()["seq"]
    command = {"type": "place", "player": "ann", "spec": {"id": "x", "kind": "rank", "ranks": ["7"], "stake": 1}}
    assert client.post("/api/command", json=command, headers={"x-csrf-token": csrf}).status_code == 401
    bet = {"rank": "7", "stake": 1}
    assert client.post("/exhibit/api/bet", json=bet).status_code == 403                       # no token
    assert client.post("/exhibit/api/bet", json=bet, headers={"x-csrf-token": "forged"}).status_code == 403
    cross = client.post("/exhibit/api/bet", json=bet, headers={"x-csrf-token": csrf, "origin": "http://evil.example"})
    assert cross.status_code == 403 and "another site" in cross.json()["error"]
    form = client.post("/exhibit/api/bet", content=b"rank=7&stake=1", headers={
        "x-csrf-token": csrf, "content-type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    client.cookies.clear()
    assert client.post("/exhibit/api/bet", json=bet, headers={"x-csrf-token": csrf}).status_code == 401
    assert table.state()["seq"] == seq
    # The pages carry the display's security headers.
    page = client.get("/exhibit/")
    assert page.status_code == 200 and "frame-ancestors 'none'" in page.headers["content-security-policy"]
    qr = client.get("/exhibit/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml") and "<svg" in qr.text


@pytest.mark.parametrize("name,status", [("Banker", 422), ("bank", 422), ("ann", 409), ("", 422),
                                         ("x" * 17, 422), ("<b>me</b>", 422), ("a\x07b", 422), (42, 400),
                                         ("Жанна", 200), ("Jean-Luc O'Neil", 200)])
def test_names_are_checked(rig: dict[str, Any], name: Any, status: int) -> None:
    Dealer(rig["table"], "early_split").until_cards(1)
    client = rig["client"]
    csrf = client.post("/exhibit/api/join", json={}).json()["csrf"]
    answer = client.post("/exhibit/api/name", json={"name": name}, headers={"x-csrf-token": csrf})
    assert answer.status_code == status, answer.text
    if status == 200:
        assert answer.json()["name"] == name


def test_a_name_is_one_visitors_only(rig: dict[str, Any]) -> None:
    client = rig["client"]
    _join(client, "Olga")
    client.cookies.clear()
    csrf = client.post("/exhibit/api/join", json={}).json()["csrf"]
    taken = client.post("/exhibit/api/name", json={"name": "OLGA"}, headers={"x-csrf-token": csrf})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]


def test_stakes_open_bets_and_rules_are_limited(rig: dict[str, Any]) -> None:
    table, client, clock = rig["table"], rig["client"], rig["clock"]
    csrf = _join(client, "Paul")
    headers = {"x-csrf-token": csrf}
    none = client.post("/exhibit/api/bet", json={"rank": "7", "stake": 1}, headers=headers)
    assert none.status_code == 409 and "next deal" in none.json()["error"]
    dealer = Dealer(table, "early_split")
    dealer.until_cards(1)
    for bad in ({"rank": "7", "stake": 6}, {"rank": "7", "stake": 0}, {"rank": "7", "stake": True},
                {"rank": "Z", "stake": 1}, {"rank": "7", "stake": 1, "copper": "yes"},
                {"rank": "7", "stake": 1, "player": "ann"}, ["7"]):
        clock.now += 10
        assert client.post("/exhibit/api/bet", json=bad, headers=headers).status_code in (400, 422), bad
    for rank in ("2", "3", "4"):
        clock.now += 10
        assert client.post("/exhibit/api/bet", json={"rank": rank, "stake": 5}, headers=headers).status_code == 200
    clock.now += 10
    fourth = client.post("/exhibit/api/bet", json={"rank": "5", "stake": 1}, headers=headers)
    assert fourth.status_code == 422 and "at most 3" in fourth.json()["error"]
    # Inside a turn (the loser out, the winner not yet) the engine refuses, as at the table.
    dealer.until_cards(2)
    book: VisitorBook = rig["book"]
    visitor = next(iter(book._visitors.values()))
    with pytest.raises(Refused) as refused:
        book.bet(visitor, "phone", {"rank": "9", "stake": 1})
    assert refused.value.status == 422


def test_bets_are_rate_limited_per_client_and_for_everyone() -> None:
    clock = Clock()
    limits = VisitorLimits(bet_rate=0.5, bet_burst=3, global_bet_rate=0.1, global_bet_burst=5, max_open_bets=50,
                           join_rate=1 / 60, join_burst=2, global_join_rate=1.0, global_join_burst=4)
    book = VisitorBook(limits, clock=clock)
    book._state = dataclasses.replace(TableState().view(), deal=1, ended=False, next_turn=1, profile="foster",
                                      players=("ann",), exposed=(Card.parse("5S"),))
    first = book.join("10.0.0.1")
    book.set_name(first, "Ann-Marie")
    ranks = iter(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    for _ in range(3):
        book.bet(first, "10.0.0.1", {"rank": next(ranks), "stake": 1})
    with pytest.raises(Refused) as refused:
        book.bet(first, "10.0.0.1", {"rank": next(ranks), "stake": 1})
    assert refused.value.status == 429 and refused.value.retry_after == pytest.approx(2.0)
    clock.now += 2.0
    book.bet(first, "10.0.0.1", {"rank": next(ranks), "stake": 1})   # one token back after 1/rate seconds
    # Everyone together: the global bucket (5, then 1 in 10 s) stops a crowd of phones.
    second = book.join("10.0.0.2")
    book.set_name(second, "Boris")
    book.bet(second, "10.0.0.2", {"rank": "A", "stake": 1})
    with pytest.raises(Refused) as crowd:
        book.bet(second, "10.0.0.3", {"rank": "2", "stake": 1})
    assert crowd.value.status == 429
    # New visitors: two per client, then one a minute.
    book.join("10.0.0.9")
    book.join("10.0.0.9")
    with pytest.raises(Refused) as joins:
        book.join("10.0.0.9")
    assert joins.value.status == 429


def test_visitors_are_bounded_and_the_idle_are_forgotten_first() -> None:
    clock = Clock()
    book = VisitorBook(VisitorLimits(max_visitors=3, idle_s=60, join_burst=100, global_join_burst=100), clock=clock)
    old = book.join("a")
    clock.now += 30
    book.join("b")
    book.join("c")
    clock.now += 40   # "a" idle 70 s, the others 40 s
    book.join("d")
    assert len(book) == 3 and book.get(old.token) is None
    with pytest.raises(Refused) as full:
        book.join("e")
    assert full.value.status == 503


def test_the_json_api_rate_limit_answers_429_with_retry_after(rig: dict[str, Any]) -> None:
    Dealer(rig["table"], "early_split").until_cards(1)
    client = rig["client"]
    csrf = _join(client, "Rita")
    answers = [client.post("/exhibit/api/bet", json={"rank": r, "stake": 1}, headers={"x-csrf-token": csrf})
               for r in ("2", "3", "4", "5")]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert int(answers[-1].headers["retry-after"]) >= 1
