"""The exhibition's visitors (phones on the museum's Wi-Fi) and the audience page: they read
and place pretend bets, and nothing they send, however malformed, ever changes the deal."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.exhibit.show import Show
from faro_box.exhibit.visitors import VisitorBook
from faro_box.exhibit.web import mount_exhibit
from faro_box.table.commands import CardSeen, StartDeal
from faro_box.table.journal import Journal
from faro_box.table.table import Table

DECK = ["5S", "KD", "9C", "AS", "8H", "2C", "3D", "4H", "6S"]


@pytest.fixture
def museum(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        table = Table(journal)
        book = VisitorBook()
        book.attach(table)
        show = Show(visitors=book, hold_s=0)
        table.subscribe(show.on_event)
        app = create_app(table, pin_hash=hash_pin("2468", n=2**10))
        mount_exhibit(app, show, book)
        table.handle(StartDeal("foster", ("ann", "bob"), {}))
        for index, card in enumerate(DECK[:3]):
            table.handle(CardSeen(card, index))
        with TestClient(app, base_url="http://exhibit.local", raise_server_exceptions=False) as client:
            yield client, table, journal


def rows(journal):
    return [(e.seq, e.command) for e in journal.entries()]


def test_visitors_bets_names_and_garbage_never_touch_the_deal(museum):
    client, table, journal = museum
    before, written = table.state(), rows(journal)
    joined = client.post("/exhibit/api/join", json={})
    assert joined.status_code == 200
    csrf = {"x-csrf-token": joined.json()["csrf"]}
    assert client.post("/exhibit/api/name", json={"name": "Mira"}, headers=csrf).status_code == 200
    ok = client.post("/exhibit/api/bet", json={"rank": "9", "stake": 2, "copper": False}, headers=csrf)
    assert ok.status_code == 200, ok.text                    # a pretend bet, on the visitor's own deal
    rng = random.Random(5)
    junk = [b"", b"{", b"[" * 1000, b'{"a":' * 300, b"\xff\xfe", b"null", b'"x"', b"[]",
            b'{"rank": [[[[["9"]]]]], "stake": 1e308}', b'{"rank": "9", "stake": -1, "copper": 2}',
            b'{"name": "' + b"n" * 2000 + b'"}']
    junk += [bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))) for _ in range(60)]
    for body in junk:
        for path in ("/exhibit/api/join", "/exhibit/api/name", "/exhibit/api/bet", "/api/command"):
            for headers in (csrf, {}, {"x-csrf-token": "forged"}):
                response = client.post(path, content=body, headers={**headers, "content-type": "application/json"})
                assert response.status_code < 500, (path, body[:40], response.text)
                if response.status_code >= 400:
                    assert response.json()["error"]
    assert table.state() == before and rows(journal) == written


def test_a_10_mb_visitor_name_is_refused_not_stored(museum):
    client, table, _ = museum
    csrf = {"x-csrf-token": client.post("/exhibit/api/join", json={}).json()["csrf"]}
    response = client.post("/exhibit/api/name", json={"name": "v" * (10 * 1024 * 1024)}, headers=csrf)
    assert response.status_code == 413
    me = client.get("/exhibit/api/visitor").json()
    assert len(str(me)) < 2000
