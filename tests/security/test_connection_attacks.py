"""Connections that never finish against a real `faro-box run` on 127.0.0.1: headers sent a
byte at a time, a thousand idle sockets, a body abandoned half-way."""

from __future__ import annotations

import socket
import time

import pytest
from box import Box


@pytest.fixture
def box(tmp_path):
    running = Box(tmp_path)
    yield running
    running.stop()


def connect(box: Box) -> socket.socket:
    return socket.create_connection(("127.0.0.1", box.port), timeout=5)


def closed_by_server(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(4096) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True
    finally:
        sock.setblocking(True)


def test_40_slow_header_connections_are_closed_within_15_s(box):
    slow = [connect(box) for _ in range(40)]
    for sock in slow:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    start, open_ = time.monotonic(), set(range(40))
    while open_ and time.monotonic() - start < 20:
        for i in sorted(open_):
            try:
                slow[i].sendall(b"X-Slow: 1\r\n")    # a header line a second, never the blank line
            except OSError:
                open_.discard(i)
                continue
            if closed_by_server(slow[i]):
                open_.discard(i)
        time.sleep(1.0)
    elapsed = time.monotonic() - start
    for sock in slow:
        sock.close()
    assert not open_ and elapsed < 15, f"{len(open_)} still open after {elapsed:.0f} s"
    assert box.request("GET", "/api/state")[0] == 200


def test_a_kept_alive_connection_that_dribbles_its_next_request_is_closed_too(box):
    with connect(box) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        closed = False
        while not closed and time.monotonic() - start < 20:
            try:
                sock.sendall(b"G" if time.monotonic() - start < 1 else b"X")   # a byte a second
            except OSError:
                break
            time.sleep(1.0)
            closed = closed_by_server(sock)
        assert time.monotonic() - start < 15


def test_1100_idle_connections_do_not_stop_the_server_or_flood_its_log(tmp_path):
    box = Box(tmp_path, files=1024)          # a Pi's default limit of open files
    idle: list[socket.socket] = []
    try:
        for _ in range(1100):                # more than its limit of open files
            idle.append(connect(box))
        time.sleep(2)
        start = time.monotonic()
        status, _ = box.request("GET", "/api/state", timeout=10)   # answered at once, if only "busy"
        assert status in (200, 503) and time.monotonic() - start < 5
        deadline = time.monotonic() + 20      # the idle ones go at the header deadline
        while box.request("GET", "/api/state", timeout=10)[0] != 200:
            assert time.monotonic() < deadline, "the server never served again"
            time.sleep(0.5)
        log = box.stderr()
    finally:
        for sock in idle:
            sock.close()
        box.stop()
    assert "accept" not in log and len(log.splitlines()) < 10, log[-2000:]


def test_a_client_gone_mid_body_leaves_no_traceback(box):
    import http.client

    login = http.client.HTTPConnection("127.0.0.1", box.port, timeout=30)
    login.request("POST", "/api/login", body=b'{"pin": "2468"}', headers={"content-type": "application/json"})
    answer = login.getresponse()
    cookie = answer.getheader("set-cookie", "").split(";")[0]
    csrf = __import__("json").loads(answer.read())["csrf"]
    login.close()
    for path, extra in (("/api/login", ""), ("/api/command", f"cookie: {cookie}\r\nx-csrf-token: {csrf}\r\n")):
        for _ in range(3):
            with connect(box) as sock:
                sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                             f"{extra}content-length: 1000\r\n\r\n{{\"type\": \"und".encode())
                time.sleep(0.3)
    time.sleep(1)
    assert box.request("GET", "/api/state")[0] == 200
    log = box.stderr()
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]


@pytest.mark.parametrize("unit", ["faro-box.service", "faro-box-exhibit.service"])
def test_the_units_give_the_server_room_for_its_connection_cap(unit):
    from pathlib import Path

    from faro_box.display.server import ServerLimits

    text = (Path(__file__).resolve().parents[2] / "systemd" / unit).read_text()
    limits = [int(line.split("=", 1)[1]) for line in text.splitlines() if line.startswith("LimitNOFILE=")]
    assert limits and limits[0] >= ServerLimits().max_connections + 256
