"""The web API against the real Table on a real SQLite journal: reading is open, writing is the
dealer's alone (session cookie + CSRF token + JSON body), and every refusal is clear JSON."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx2
import pytest
from display_helpers import PIN, deal_cards, start_two_players
from starlette.testclient import TestClient

from faro_box.display.web import Broadcaster, WebLimits, create_app
from faro_box.table.table import Table


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def login(client: TestClient, pin: str = PIN) -> str:
    response = client.post("/api/login", json={"pin": pin})
    assert response.status_code == 200, response.text
    return response.json()["csrf"]


def place(player: str = "ann", bet_id: str = "a1", rank: str = "9", stake: int = 2) -> dict:
    return {"type": "place", "player": player, "spec": {"id": bet_id, "kind": "rank", "ranks": [rank], "stake": stake}}


@pytest.fixture
def client(table: Table, pin_hash: str) -> TestClient:
    return TestClient(create_app(table, pin_hash=pin_hash), base_url="http://127.0.0.1:8000")


@pytest.fixture
def dealer(client: TestClient, table: Table) -> tuple[TestClient, dict[str, str]]:
    csrf = login(client)
    headers = {"x-csrf-token": csrf}
    response = client.post("/api/command", json={"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]},
                           headers=headers)
    assert response.status_code == 200, response.text
    return client, headers


def test_state_is_the_tables_state(client: TestClient, table: Table) -> None:
    start_two_players(table)
    doc = client.get("/api/state").json()
    assert doc == json.loads(json.dumps(table.state()))
    assert doc["deal"] == 1 and [b["id"] for b in doc["open_bets"]] == ["a1", "b1"]


def test_pages_are_local_and_carry_security_headers(client: TestClient) -> None:
    for path in ("/", "/dealer"):
        page = client.get(path)
        assert page.status_code == 200
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
        assert "http://" not in page.text and "https://" not in page.text  # nothing from a CDN
    for asset in ("faro.js", "faro.css", "audience.js", "dealer.js"):
        assert client.get(f"/static/{asset}").status_code == 200


def test_login_sets_a_strict_httponly_cookie(client: TestClient) -> None:
    response = client.post("/api/login", json={"pin": PIN})
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and "Path=/" in cookie
    assert response.json()["csrf"] not in cookie
    assert client.get("/api/session").json() == response.json()


def test_dealer_places_a_bet(dealer: tuple[TestClient, dict[str, str]], table: Table) -> None:
    client, headers = dealer
    response = client.post("/api/command", json=place(), headers=headers)
    assert response.status_code == 200 and response.json()["ok"] is True
    assert [b["id"] for b in table.state()["open_bets"]] == ["a1"]


def test_command_without_session_is_refused(client: TestClient, table: Table) -> None:
    before = table.state()
    for body in ({"type": "start_deal", "profile": "foster", "players": ["eve"]}, {"type": "undo"}, place()):
        response = client.post("/api/command", json=body, headers={"x-csrf-token": "anything"})
        assert response.status_code == 401
        assert "PIN" in response.json()["error"]
    assert table.state() == before


def test_csrf_token_is_required_and_must_be_this_sessions(
        dealer: tuple[TestClient, dict[str, str]], table: Table, pin_hash: str) -> None:
    client, headers = dealer
    seq = table.state()["seq"]
    assert client.post("/api/command", json=place()).status_code == 403
    wrong = client.post("/api/command", json=place(), headers={"x-csrf-token": headers["x-csrf-token"][:-2] + "xx"})
    assert wrong.status_code == 403 and "CSRF" in wrong.json()["error"]
    # A second dealer session: its token does not work with the first session's cookie.
    other = TestClient(client.app, base_url="http://127.0.0.1:8000")
    other_token = login(other)
    assert other_token != headers["x-csrf-token"]
    assert client.post("/api/command", json=place(), headers={"x-csrf-token": other_token}).status_code == 403
    # ... nor the first session's token with the second cookie.
    assert other.post("/api/command", json=place(), headers=headers).status_code == 403
    assert table.state()["seq"] == seq


def test_a_write_from_another_origin_is_refused(dealer: tuple[TestClient, dict[str, str]], table: Table) -> None:
    client, headers = dealer
    response = client.post("/api/command", json=place(), headers={**headers, "origin": "http://evil.example"})
    assert response.status_code == 403 and "evil.example" in response.json()["error"]
    ok = client.post("/api/command", json=place(), headers={**headers, "origin": "http://127.0.0.1:8000"})
    assert ok.status_code == 200


def test_replays_change_nothing(dealer: tuple[TestClient, dict[str, str]], table: Table) -> None:
    client, headers = dealer
    assert client.post("/api/command", json=place(), headers=headers).status_code == 200
    seq = table.state()["seq"]
    again = client.post("/api/command", json=place(), headers=headers)
    assert again.status_code == 422 and "a1" in again.json()["error"]
    assert client.post("/api/logout", json={}, headers=headers).status_code == 200
    # The same request after logout, cookie and token replayed by hand.
    replay = client.post("/api/command", json=place("bob", "b1", "K"), headers=headers)
    assert replay.status_code == 401
    assert table.state()["seq"] == seq and len(table.state()["open_bets"]) == 1


def test_wrong_pins_are_rate_limited(table: Table, pin_hash: str) -> None:
    clock = Clock()
    client = TestClient(create_app(table, pin_hash=pin_hash, clock=clock))
    for _ in range(3):
        assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
    locked = client.post("/api/login", json={"pin": "0000"})
    assert locked.status_code == 401  # the fourth guess is checked, then the lock starts
    refused = client.post("/api/login", json={"pin": PIN})  # even the right PIN waits
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "wait" in refused.json()["error"]
    clock.now += 1.5
    assert client.post("/api/login", json={"pin": "1111"}).status_code == 401
    clock.now += 1.5
    assert client.post("/api/login", json={"pin": "2222"}).status_code == 429  # now 2 s
    clock.now += 2.5
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200


def test_the_lock_doubles_and_has_a_ceiling(table: Table, pin_hash: str) -> None:
    clock = Clock()
    client = TestClient(create_app(table, pin_hash=pin_hash, clock=clock,
                                   limits=WebLimits(free_pin_tries=0, lockout_max_s=8)))
    waits = []
    for _ in range(6):
        assert client.post("/api/login", json={"pin": "0000"}).status_code == 401
        refused = client.post("/api/login", json={"pin": "0000"})
        waits.append(int(refused.headers["retry-after"]))
        clock.now += 100
    assert waits == [1, 2, 4, 8, 8, 8]


@pytest.mark.parametrize(("body", "ctype", "status", "words"), [
    (b"{not json", "application/json", 400, "not JSON"),
    (b'{"type": "undo", "x": NaN}', "application/json", 400, "not JSON"),
    (b"\xff\xfe", "application/json", 400, "not JSON"),
    (b"[1, 2]", "application/json", 400, "JSON object"),
    (b'{"type": "undo"}', "text/plain", 415, "application/json"),
    (b'{"type": "undo"}', "application/x-www-form-urlencoded", 415, "application/json"),
    (b'{"type": "nuke"}', "application/json", 400, "'nuke'"),
    (b'{"type": "card", "card": "QH", "index": 0}', "application/json", 400, "'card'"),
    (b'{"type": "place", "player": "ann"}', "application/json", 400, "lacks spec"),
    (b'{"type": "place", "player": "ann", "spec": {"id": "x", "kind": "rank", "ranks": ["9"], "stake": 1000000}}',
     "application/json", 422, "limit"),
    (b'{"type": "place", "player": "zed", "spec": {"id": "x", "kind": "rank", "ranks": ["9"], "stake": 1}}',
     "application/json", 422, "zed"),
])
def test_malformed_bodies_get_one_clear_json_error(
        dealer: tuple[TestClient, dict[str, str]], table: Table, body: bytes, ctype: str, status: int,
        words: str) -> None:
    client, headers = dealer
    seq = table.state()["seq"]
    response = client.post("/api/command", content=body, headers={**headers, "content-type": ctype})
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    assert words in response.json()["error"]
    assert table.state()["seq"] == seq


def test_oversized_bodies_are_refused_before_reading(dealer: tuple[TestClient, dict[str, str]], table: Table) -> None:
    client, headers = dealer
    seq = table.state()["seq"]
    huge_name = "x" * (10 * 1024 * 1024)
    response = client.post("/api/command", json={"type": "start_deal", "profile": "foster", "players": [huge_name]},
                           headers=headers)
    assert response.status_code == 413 and "too large" in response.json()["error"]

    def chunks():  # no content-length: the limit holds while streaming
        for _ in range(40):
            yield b" " * 1024

    streamed = client.post("/api/command", content=chunks(), headers={**headers, "content-type": "application/json"})
    assert streamed.status_code == 413
    long_name = client.post("/api/command", json={"type": "start_deal", "profile": "foster", "players": ["y" * 500]},
                            headers=headers)
    assert long_name.status_code == 400 and "at most 40 characters" in long_name.json()["error"]
    assert table.state()["seq"] == seq


def test_visitors_can_only_read(client: TestClient, table: Table) -> None:
    start_two_players(table)
    before = table.state()
    for method in ("PUT", "DELETE", "PATCH", "POST"):
        for path in ("/", "/dealer", "/api/state", "/api/events", "/static/faro.js"):
            response = client.request(method, path, content=b"{}", headers={"content-type": "application/json"})
            assert response.status_code in (405, 401), (method, path, response.status_code)
    assert client.post("/api/logout", json={}).status_code == 401
    assert client.get("/api/session").status_code == 401
    assert table.state() == before


def test_a_rule_refusal_reports_and_changes_nothing(dealer: tuple[TestClient, dict[str, str]], table: Table) -> None:
    client, headers = dealer
    seq = table.state()["seq"]
    response = client.post("/api/command", json={"type": "undo"}, headers=headers)
    assert response.status_code == 422 and response.json()["error"]
    assert table.state()["seq"] == seq


def test_snapshots_are_for_the_dealer_only(table: Table, pin_hash: str, tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    (shots / "card17.jpg").write_bytes(b"\xff\xd8jpeg")
    (tmp_path / "secret.jpg").write_bytes(b"secret")
    client = TestClient(create_app(table, pin_hash=pin_hash, snapshot_dir=shots))
    assert client.get("/snapshots/card17.jpg").status_code == 401
    login(client)
    assert client.get("/snapshots/card17.jpg").content == b"\xff\xd8jpeg"
    for bad in ("..%2Fsecret.jpg", "nothing.jpg", "journal.sqlite"):
        assert client.get(f"/snapshots/{bad}").status_code == 404


def test_broadcaster_queues_are_bounded_and_keep_the_latest() -> None:
    async def scenario() -> tuple[int, list[str], int]:
        broadcaster = Broadcaster(WebLimits(sse_queue=4))
        broadcaster.attach(asyncio.get_running_loop())
        queue = broadcaster.subscribe()
        for n in range(1000):  # a phone that reads nothing
            broadcaster.publish(f"m{n}")
        await asyncio.sleep(0.05)
        size = queue.qsize()
        items = [queue.get_nowait() for _ in range(size)]
        return size, items, broadcaster.dropped

    size, items, dropped = asyncio.run(scenario())
    assert size == 4 and items == ["m996", "m997", "m998", "m999"] and dropped == 996


def test_too_many_viewers_are_told_to_come_back(table: Table, pin_hash: str) -> None:
    app = create_app(table, pin_hash=pin_hash, limits=WebLimits(sse_clients=0))
    response = TestClient(app).get("/api/events")
    assert response.status_code == 503 and response.json()["error"].startswith("too many live viewers")


def read_sse(lines, want: int) -> list[dict]:
    messages, data = [], None
    for line in lines:
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            messages.append(data)
            data = None
            if len(messages) == want:
                return messages
    return messages


def test_event_stream_sends_the_state_and_the_settlement(live, table: Table) -> None:
    start_two_players(table)
    deal_cards(table, ["5S"])
    with httpx2.Client(base_url=live.url, timeout=5) as http, http.stream("GET", "/api/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = read_sse(lines, 1)[0]
        assert first["state"]["exposed"] == ["5S"]
        deal_cards(table, ["KD", "9C"])
        messages = read_sse(lines, 2)
    last = messages[-1]
    assert last["state"]["last_turn"]["turn"] == 1
    assert last["announcements"][-1]["text"] == (
        "Turn 1: K loses, 9 wins. Ann's 9 wins 2; Bob's coppered K wins 2; the bank pays 4.")


def test_command_from_the_dealer_reaches_the_stream(live, table: Table) -> None:
    with httpx2.Client(base_url=live.url, timeout=5) as dealer:
        csrf = dealer.post("/api/login", json={"pin": PIN}).json()["csrf"]
        with httpx2.Client(base_url=live.url, timeout=5) as viewer, viewer.stream("GET", "/api/events") as stream:
            lines = stream.iter_lines()
            read_sse(lines, 1)
            response = dealer.post("/api/command", json={"type": "start_deal", "profile": "french",
                                                          "players": ["ann"]}, headers={"x-csrf-token": csrf})
            assert response.status_code == 200
            message = read_sse(lines, 1)[0]
    assert message["state"]["profile"] == "french" and message["event"]["type"] == "start_deal"
    assert message["announcements"][-1]["text"] == "Deal 1 begins: Ann."
