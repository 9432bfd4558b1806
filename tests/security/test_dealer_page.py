"""Every write endpoint of the dealer's page, attacked: no session, a forged cookie, another
session's token, no token, a replayed request, oversized and malformed bodies. Whatever is
refused leaves the table and its journal exactly as they were."""

from __future__ import annotations

import json

import pytest
from display_helpers import DECK, PIN
from security_helpers import BASE, login
from starlette.testclient import TestClient

from faro_box.config import DisplayConfig
from faro_box.display.web import DEALER_COMMANDS, serve

BET = {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}
FARO_COMMANDS = ("bar", "confirm", "end_deal", "misdeal", "no_card", "place", "release", "start_deal", "undo",
                 "withdraw")


def setup_for(kind: str) -> list[dict]:
    """Commands that bring the table to where ``kind`` is accepted once."""
    start = {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]}
    cards = [{"type": "card", "card": c, "index": i} for i, c in enumerate(DECK[:3])]
    return {
        "start_deal": [],
        "place": [start],
        "withdraw": [start, {"type": "place", "player": "ann", "spec": BET}],
        "bar": [start, {"type": "place", "player": "ann", "spec": BET}],
        "release": [start, {"type": "place", "player": "ann", "spec": BET},
                    {"type": "bar", "player": "ann", "bet_id": "a1"}],
        "no_card": [start, *cards, {"type": "unread", "index": 3, "candidates": []}],
        "confirm": [start, {"type": "unread", "index": 0, "candidates": [DECK[0]]}],
        "undo": [start, *cards],
        "end_deal": [start, *[{"type": "card", "card": c, "index": i} for i, c in enumerate(DECK[:51])]],
        "misdeal": [start, *cards],
    }[kind]


def body_for(kind: str) -> dict:
    if kind not in FARO_COMMANDS:
        return {"type": kind}     # a bank's command: refused before its body is even read
    return {
        "start_deal": {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]},
        "place": {"type": "place", "player": "ann", "spec": BET},
        "withdraw": {"type": "withdraw", "player": "ann", "bet_id": "a1"},
        "bar": {"type": "bar", "player": "ann", "bet_id": "a1"},
        "release": {"type": "release", "player": "ann", "bet_id": "a1"},
        "no_card": {"type": "no_card", "index": 3},
        "confirm": {"type": "confirm", "index": 0, "card": DECK[0]},
        "undo": {"type": "undo"},
        "end_deal": {"type": "end_deal"},
        "misdeal": {"type": "misdeal"},
    }[kind]


def prepare(table, kind: str) -> None:
    from faro_box.table.commands import command_from_json

    for doc in setup_for(kind):
        table.handle(command_from_json(doc))


def journal_rows(journal) -> list:
    return [(e.seq, e.command) for e in journal.entries()]


def test_every_faro_command_of_the_dealer_page_is_attacked_below():
    assert set(FARO_COMMANDS) <= set(DEALER_COMMANDS)


@pytest.mark.parametrize("kind", sorted(DEALER_COMMANDS))
def test_each_command_without_a_session_or_with_a_stolen_token_changes_nothing(kind, app, table, journal):
    if kind in FARO_COMMANDS:
        prepare(table, kind)
    dealer, headers = login(app)
    rival, rival_headers = login(app)               # another dealer session, its own token
    before, rows = table.state(), journal_rows(journal)
    body = body_for(kind)
    anonymous = TestClient(app, base_url=BASE)
    attempts = [
        (anonymous, {}, 401),                                           # no session at all
        (anonymous, headers, 401),                                      # a token without its cookie
        (TestClient(app, base_url=BASE, cookies={"faro_dealer": "forged" * 8}), headers, 401),
        (dealer, {}, 403),                                              # the cookie without a token
        (dealer, rival_headers, 403),                                   # another session's token
        (rival, headers, 403),
        (dealer, {"x-csrf-token": headers["x-csrf-token"][:-1]}, 403),  # a token one character short
        (dealer, {**headers, "origin": "http://evil.example"}, 403),    # a page of another site
    ]
    for client, extra, status in attempts:
        response = client.post("/api/command", json=body, headers=extra)
        assert response.status_code == status, (kind, extra, response.text)
        assert set(response.json()) == {"error"}
    assert table.state() == before and journal_rows(journal) == rows
    if kind in FARO_COMMANDS:
        # The real dealer, same body: accepted (so the refusals above were about the attacker).
        assert dealer.post("/api/command", json=body, headers=headers).status_code == 200


@pytest.mark.parametrize("kind", FARO_COMMANDS)
def test_a_replayed_request_changes_nothing(kind, app, table, journal):
    prepare(table, kind)
    dealer, headers = login(app)
    body = body_for(kind)
    if kind == "undo":
        body = {**body, "after": table.state()["seq"]}           # as the dealer's page sends it
    raw = json.dumps(body).encode()
    send = {"content": raw, "headers": {**headers, "content-type": "application/json"}}
    assert dealer.post("/api/command", **send).status_code == 200
    after_once, rows = table.state(), journal_rows(journal)
    replay = dealer.post("/api/command", **send)                  # the same bytes, same session
    assert replay.status_code in (409, 422), replay.text
    assert table.state() == after_once and journal_rows(journal) == rows
    assert dealer.post("/api/logout", json={}, headers=headers).status_code == 200
    late = dealer.post("/api/command", **send)                    # after the dealer logged out
    assert late.status_code == 401
    assert table.state() == after_once and journal_rows(journal) == rows


def test_a_session_expires_when_idle_and_its_requests_are_refused(app, table, clock):
    dealer, headers = login(app)
    clock.now += 4 * 3600 + 1
    response = dealer.post("/api/command", json=body_for("start_deal"), headers=headers)
    assert response.status_code == 401 and table.state()["deal"] is None


def test_logout_and_login_are_protected_too(app, table, pin_hash):
    dealer, headers = login(app)
    rival, rival_headers = login(app)
    assert TestClient(app, base_url=BASE).post("/api/logout", json={}, headers=headers).status_code == 401
    assert dealer.post("/api/logout", json={}, headers=rival_headers).status_code == 403
    assert dealer.post("/api/logout", json={}).status_code == 403
    # The dealer is still logged in after the refused logouts.
    assert dealer.get("/api/session").status_code == 200
    for bad in (b"not json", b'{"pin": 2468}', b"[]", b'{"pin": "' + b"9" * 20_000 + b'"}'):
        response = TestClient(app, base_url=BASE).post(
            "/api/login", content=bad, headers={"content-type": "application/json"})
        assert response.status_code in (400, 401, 413) and set(response.json()) == {"error"}
    assert table.state()["deal"] is None


MALFORMED = [
    (b"", "application/json", 400),
    (b"{", "application/json", 400),
    (b"[" * 5000, "application/json", 400),                      # nests deeper than Python follows
    (b'{"a":' * 3000, "application/json", 400),
    (b'{"type": "undo"}', "text/plain", 415),
    (b"type=undo", "application/x-www-form-urlencoded", 415),      # what a cross-site form sends
    (b'{"type": "undo", "n": NaN}', "application/json", 400),
    (b"\xff\xfe{}", "application/json", 400),
    (b'"undo"', "application/json", 400),
    (b'{"type": "card", "card": "AS", "index": 0}', "application/json", 400),   # the camera's, not the page's
    (b'{"type": "undo", "after": "7"}', "application/json", 400),
    (b'{"type": "place", "player": "ann", "spec": {"id": "a", "kind": "rank", "ranks": ["9"], "stake": 10000000}}',
     "application/json", 422),
    (b'{"type": "start_deal", "profile": "foster", "players": ["' + b"x" * 15_000 + b'"]}', "application/json", 400),
]


@pytest.mark.parametrize(("body", "ctype", "status"), MALFORMED)
def test_malformed_bodies_are_one_clear_json_error(body, ctype, status, app, table, journal):
    prepare(table, "place")
    dealer, headers = login(app)
    before, rows = table.state(), journal_rows(journal)
    response = dealer.post("/api/command", content=body, headers={**headers, "content-type": ctype})
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error"} and response.json()["error"]
    assert table.state() == before and journal_rows(journal) == rows


def test_oversized_bodies_are_refused_and_a_10_mb_name_is_never_stored(app, table, journal):
    dealer, headers = login(app)
    name = "n" * (10 * 1024 * 1024)
    doc = {"type": "start_deal", "profile": "foster", "players": [name]}
    stated = dealer.post("/api/command", json=doc, headers=headers)
    assert stated.status_code == 413

    def chunks():                                    # no content-length: counted while reading
        yield b'{"type": "start_deal", "profile": "foster", "players": ["'
        for _ in range(64):
            yield b"n" * 16384
        yield b'"]}'

    streamed = dealer.post("/api/command", content=chunks(), headers={**headers, "content-type": "application/json"})
    assert streamed.status_code == 413
    lying = dealer.post("/api/command", content=b"{}", headers={**headers, "content-type": "application/json",
                                                                 "content-length": "99999999999"})
    assert lying.status_code in (400, 413)
    assert table.state()["deal"] is None and journal_rows(journal) == []


def test_visitors_can_only_read(app, table, journal):
    prepare(table, "place")
    before, rows = table.state(), journal_rows(journal)
    visitor = TestClient(app, base_url=BASE)
    assert visitor.get("/").status_code == 200 and visitor.get("/api/state").status_code == 200
    for path in ("/", "/api/state", "/api/events", "/dealer", "/api/session"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert visitor.request(method, path, json=body_for("undo")).status_code in (401, 405), (method, path)
    for method in ("GET", "PUT", "DELETE"):
        assert visitor.request(method, "/api/command").status_code == 405
    assert visitor.get("/api/session").status_code == 401
    assert visitor.get("/snapshots/deal1-card1.png").status_code == 401
    assert table.state() == before and journal_rows(journal) == rows


def test_wrong_pins_are_throttled_and_the_pin_is_stored_as_scrypt(app, clock, pin_hash):
    guesser = TestClient(app, base_url=BASE)
    codes = [guesser.post("/api/login", json={"pin": f"{n:04d}"}).status_code for n in range(6)]
    assert codes[:4] == [401] * 4 and codes[4:] == [429, 429]
    assert guesser.post("/api/login", json={"pin": PIN}).status_code == 429    # even the right one waits
    clock.now += 3
    assert guesser.post("/api/login", json={"pin": PIN}).status_code == 200
    assert pin_hash.startswith("scrypt$") and PIN not in pin_hash


def test_the_server_listens_on_localhost_unless_configured():
    assert DisplayConfig().host == "127.0.0.1"
    assert serve.__defaults__[0] == "127.0.0.1"


@pytest.mark.parametrize("path", ["/snapshots/..%2f..%2fetc%2fpasswd", "/snapshots/%2e%2e%2fjournal.sqlite",
                                  "/static/../web.py", "/static/%2e%2e/web.py",
                                  "/static/..%2fweb.py", "/static/%2e%2e%2f%2e%2e%2fconfig.py",
                                  "/exhibit/static/..%2fweb.py", "/static//etc/passwd"])
def test_paths_out_of_the_served_folders_are_not_found(app, tmp_path, path):
    dealer, _ = login(app)
    response = dealer.get(path)
    assert response.status_code in (400, 404), (path, response.status_code)
    assert b"import" not in response.content and b"root:" not in response.content


def test_a_right_and_a_wrong_pin_take_the_same_time(pin_hash):
    import time as clock

    from faro_box.display.pin import check_pin

    def timed(pin: str) -> float:
        start = clock.perf_counter()
        check_pin(pin, pin_hash)
        return clock.perf_counter() - start

    right, wrong = [], []
    for _ in range(31):                  # interleaved, and the fastest of each: other work only slows
        right.append(timed(PIN))
        wrong.append(timed("1357"))
    ratio = min(right) / min(wrong)
    assert 0.67 < ratio < 1.5, ratio
