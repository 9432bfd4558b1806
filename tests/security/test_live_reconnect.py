"""Pages whose live stream is refused (503: every viewer's place taken) in real headless
Chromium: each says it is reconnecting, shows the state meanwhile, and comes back by itself."""

from __future__ import annotations

import socket
import time

import pytest
from display_helpers import DECK, PIN

from faro_box.display.web import WebLimits, create_app, serve
from faro_box.exhibit.show import Show
from faro_box.exhibit.visitors import VisitorBook
from faro_box.exhibit.web import mount_exhibit
from faro_box.table.commands import CardSeen, StartDeal, command_from_json

SLOTS = 1          # one stream a page, the dealer's (a faro desk and a bank's desk) included


@pytest.fixture
def live(table, pin_hash):
    yield from running(table, pin_hash, WebLimits(sse_clients=SLOTS))


@pytest.fixture
def roomy(table, pin_hash):
    yield from running(table, pin_hash, WebLimits())


def running(table, pin_hash, limits: WebLimits):
    app = create_app(table, pin_hash=pin_hash, limits=limits)
    book = VisitorBook()
    book.attach(table)
    mount_exhibit(app, Show(visitors=book, hold_s=0), book)
    server = serve(app, port=0, background=True)
    assert server is not None
    yield server
    server.stop()


def hog(server, count: int) -> list[socket.socket]:
    """Streams that take every viewer's place (and are answered 200 before the page comes)."""
    streams = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 200")
        streams.append(sock)
    return streams


BANK = {"type": "start_bank", "players": ["ann", "bob"], "sides": {"ann": "right", "bob": "left"},
        "banker": "eve", "fund": 10}


def begin(table, game: str) -> None:
    if game == "faro":
        table.handle(StartDeal("foster", ("ann", "bob"), {}))
    else:
        table.handle(command_from_json(BANK))


def next_event(table, game: str) -> None:
    if game == "faro":
        table.handle(CardSeen(DECK[0], 0))
    else:
        table.handle(command_from_json({"type": "bank_bet", "player": "ann", "stake": 2}))


# What the note must never cover: the table itself.
CONTENT = {("/", "faro"): "#layout", ("/dealer", "faro"): "#desk", ("/exhibit/", "faro"): "#layout",
           ("/", "baccarat"): "#bac"}


def assert_note_stands_out(page, content: str) -> None:
    """The reconnecting note is a badge a visitor sees from across the room: inside the screen,
    in type no smaller than the page's smallest, on a colour of its own, over nothing of the table."""
    found = page.evaluate("""(content) => {
        const note = document.getElementById("conn-note"), bar = note.closest("header");
        const box = note.getBoundingClientRect(), table = document.querySelector(content).getBoundingClientRect();
        const style = getComputedStyle(note), probe = document.createElement("div");
        probe.style.fontSize = "var(--min, 18px)";   // the audience pages' smallest type; 18 px elsewhere
        document.body.appendChild(probe);
        const least = parseFloat(getComputedStyle(probe).fontSize);
        probe.remove();
        return {box: [box.left, box.top, box.right, box.bottom], table: [table.left, table.top, table.right, table.bottom],
                view: [innerWidth, innerHeight], font: parseFloat(style.fontSize), least: least,
                ground: style.backgroundColor, bar: getComputedStyle(bar).backgroundColor, display: style.display};
    }""", content)
    left, top, right, bottom = found["box"]
    assert right - left > 0 and bottom - top > 0 and found["display"] != "none", found
    assert 0 <= left and right <= found["view"][0] and 0 <= top and bottom <= found["view"][1], found
    assert found["font"] >= found["least"], found
    assert found["ground"] not in (found["bar"], "rgba(0, 0, 0, 0)"), found
    t_left, t_top, t_right, t_bottom = found["table"]
    assert right <= t_left or left >= t_right or bottom <= t_top or top >= t_bottom, found


@pytest.mark.parametrize(("path", "game"), [("/", "faro"), ("/dealer", "faro"), ("/exhibit/", "faro"),
                                            ("/", "baccarat")])
def test_a_refused_page_says_it_is_reconnecting_and_recovers_by_itself(browser, live, table, path, game):
    begin(table, game)
    held = hog(live, SLOTS)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(live.url + path)
        if path == "/dealer":
            page.fill("#pin", PIN)
            page.click("#login-button")
            page.locator("#desk").wait_for(state="visible")
        page.wait_for_selector("body[data-live='reconnecting']", timeout=15_000)
        assert "reconnecting" in page.locator("#conn-note").inner_text()
        for width, height in ((1280, 800), (800, 480)):
            page.set_viewport_size({"width": width, "height": height})
            assert_note_stands_out(page, CONTENT[path, game])
        # Meanwhile the page shows the table as it stands, not an empty desk.
        page.wait_for_function(f"() => document.body.dataset.seq === '{table.state()['seq']}'", timeout=15_000)
        for sock in held:                                    # the hog leaves
            sock.close()
        page.wait_for_selector("body[data-live='up']", timeout=45_000)
        assert not page.locator("#conn-note").is_visible()
        next_event(table, game)                              # and the stream is live again
        page.wait_for_function(f"() => document.body.dataset.seq === '{table.state()['seq']}'", timeout=15_000)
    finally:
        page.close()
        for sock in held:
            sock.close()
    assert errors == []
    deadline = time.monotonic() + 10                         # the page's places are given back
    while live.app.state.broadcaster.clients and time.monotonic() < deadline:
        time.sleep(0.1)


@pytest.mark.parametrize("game", ["faro", "baccarat"])
def test_the_dealers_page_takes_one_viewer_place(browser, roomy, table, game):
    live = roomy
    begin(table, game)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(live.url + "/dealer")
        page.fill("#pin", PIN)
        page.click("#login-button")
        page.locator("#desk").wait_for(state="visible")
        page.wait_for_selector("body[data-live='up']", timeout=15_000)
        next_event(table, game)                   # both desks have drawn from the one stream
        page.wait_for_function(f"() => document.body.dataset.seq === '{table.state()['seq']}'", timeout=15_000)
        time.sleep(1.0)                           # time for a second stream to open, if any did
        assert live.app.state.broadcaster.clients == 1
    finally:
        page.close()
