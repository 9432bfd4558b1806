"""A face-down card stays secret until its coup ends: nothing about it reaches the public state
(/api/state, the audience page), the event stream or the log; the dealer's own view names it."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from bank_dealer import answer_table
from starlette.testclient import TestClient

from faro_box.config import parse_config
from faro_box.display.announce import card_name
from faro_box.display.narrator import Narrator
from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.live.baccarat import BankFeeder, cards_dealt, open_bank_camera, open_configured_bank
from faro_box.table.baccarat.commands import (
    BankBet,
    BankCall,
    BankCard,
    BankConfirm,
    BankUndo,
    BankUnread,
    StartBank,
)
from faro_box.table.events import TableEvent, event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.table.views import View, view_to_json
from faro_box.vision.reader import Reader

START = StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 20)
BANK = {"game": "baccarat_banque", "display": {"web": False}, "players": ["ann", "bob"],
        "bank": {"banker": "eve", "fund": 20, "sides": {"ann": "right", "bob": "left"}},
        "camera": {"source": "sim:3", "fps": 1000}}
PIN = "2468"


class Public:
    """Everything a visitor could see: each event and state the table publishes, and the log."""

    def __init__(self, table: Table, caplog: pytest.LogCaptureFixture) -> None:
        self.seen: list[str] = []
        self.events: list[str] = []
        self.caplog = caplog
        self.narrator = Narrator("en")  # what the box says aloud and the pages list as announcements
        table.subscribe(self.hear)
        self.table = table

    def hear(self, event: TableEvent, state: View) -> None:
        self.events.append(json.dumps(event_to_json(event)))
        self.seen.append(json.dumps([event_to_json(event), view_to_json(state), self.narrator.hear(event, state)],
                                    ensure_ascii=False))

    def names(self, card: str, *, in_state: bool = True) -> bool:
        """Whether anything public names ``card``; without ``in_state``, the events and faults only."""
        public = [*self.seen, json.dumps(self.table.state())] if in_state else \
            [*self.events, json.dumps(self.table.state()["faults"])]
        text = "\n".join([*public, self.caplog.text])
        spoken = card_name(card, "en") if re.fullmatch(r"(10|[2-9AJQK])[SHDC]", card) else card
        return re.search(rf"\b{re.escape(card)}\b", text) is not None or spoken in text


def _table(path: Path | None = None) -> Table:
    return Table(Journal(path) if path is not None else Journal())


def test_the_candidates_of_a_face_down_card_are_the_dealers_alone(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    table = _table()
    public = Public(table, caplog)
    table.handle(START)
    table.handle(BankBet("ann", 5))
    table.handle(BankUnread(("9C", "9S"), "/snapshots/bank1-card1-frame7.png"))
    assert table.state()["pending"] == {"candidates": [], "snapshot": None, "reason": "face_down"}
    assert not public.names("9C") and not public.names("9S") and not public.names("bank1-card1-frame7.png")
    mine = table.dealer_state()["pending"]
    assert mine == {"candidates": ["9C", "9S"], "snapshot": "/snapshots/bank1-card1-frame7.png", "reason": "unread"}
    table.handle(BankConfirm("9C"))
    assert not public.names("9C")
    for card in ("7H", "2S", "4C", "KD", "3C"):  # right 9C 4C: 3; left 7H KD: 7; banker 2S 3C: 5
        table.handle(BankCard(card))
    table.handle(BankCall("right", True))
    # A third card goes face up: waiting for the dealer, its candidates may be shown.
    table.handle(BankUnread(("4D", "4H")))
    assert table.state()["pending"]["candidates"] == ["4D", "4H"]
    assert not public.names("9C")
    table.handle(BankConfirm("4D"))
    table.handle(BankCall("left", False))
    table.handle(BankCall("banker", False))
    assert public.names("9C")  # the coup is over: every card is shown


def test_a_face_down_card_taken_back_or_read_too_early_is_not_named(caplog: pytest.LogCaptureFixture) -> None:
    table = _table()
    public = Public(table, caplog)
    table.handle(START)
    table.handle(BankBet("ann", 5))
    undo = table.handle(BankCard("QH")).events and table.handle(BankUndo()).events
    assert undo[0].TYPE == "bank_undo" and not public.names("QH")
    for card in ("9C", "7H", "2S", "6C", "KD"):  # right 9C 6C: 5, a choice; left 7H KD: 7
        table.handle(BankCard(card))
    table.handle(BankUnread(("3C",)))  # the banker's second card waits for the dealer...
    table.handle(BankCard("8S"))  # ...while the camera reads one more
    dropped = table.handle(BankConfirm("3C")).events[-1]
    # The coup now waits for right's call: the read finds no hand and is dropped, unnamed.
    assert dropped.TYPE == "bank_dropped" and len(dropped.reads) == 1
    assert not public.names("8S") and not public.names("3C")
    assert table.dealer_state()["dropped"][0]["card"] == "8S"


def test_a_reading_below_min_confidence_of_a_face_down_card_is_not_public(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    config = parse_config(BANK)
    table = _table()
    public = Public(table, caplog)
    open_configured_bank(table, config)
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, Reader(), min_confidence=1.0)  # no reading is that sure
    table.handle(BankBet("ann", 3))
    for _ in range(200):
        if table.state()["waiting"] == "confirm":
            break
        feeder.feed(camera.read(), camera.frame_number)
    first = str(camera.shoe[0])
    assert table.state()["waiting"] == "confirm"
    assert not public.names(first)
    assert table.dealer_state()["pending"]["candidates"] == [first]


def test_after_a_restart_mid_coup_the_public_fault_names_no_card(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    config = parse_config(BANK)
    path = tmp_path / "journal.sqlite"
    table = _table(path)
    open_configured_bank(table, config)
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, Reader())
    for _ in range(600):
        if table.state()["in_coup"]:
            break
        answer_table(table, camera, stakes=(3, 2))
        feeder.feed(camera.read(), camera.frame_number)
    assert cards_dealt(table.view()) == 1  # right's first card, face down
    lying = table.script()["shoe"][-1]
    table.journal.close()

    caplog.set_level(logging.DEBUG)
    table = _table(path)
    public = Public(table, caplog)
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, Reader())
    for _ in range(100):
        if table.state()["faults"]:
            break
        feeder.feed(camera.read(), camera.frame_number)
    fault = table.state()["faults"][0]
    assert fault["device"] == "camera" and "enter it by hand" in fault["message"]
    assert not public.names(lying)
    assert lying in table.dealer_state()["faults"][0]["detail"]


def test_a_refused_reading_names_its_card_to_the_dealer_alone(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    from faro_box.live.baccarat_camera import BankCamera
    from faro_box.vision.shown import CardShown

    table = _table()
    public = Public(table, caplog)
    table.handle(START)
    for card in ("KS", "KS", "KS", "9C", "7H", "2S"):  # right's natural 9 ends the coup
        table.handle(BankCard(card))
    assert table.state()["results"]
    public.events.clear()  # the coup is over: its three KS are public; what follows must not name one
    caplog.clear()

    class Watcher:  # a fourth KS out of a shoe of three decks, due face down: the table refuses it
        def update(self, image: Any, frame: int) -> list[Any]:
            from faro_box.cards import Card
            return [CardShown(Card.parse("KS"), 0.99, frame)]

    BankCamera(table, Watcher()).frame(None, 5)  # type: ignore[arg-type]
    assert table.state()["faults"][0]["device"] == "camera" and not public.names("KS", in_state=False)
    assert "KS" in table.dealer_state()["faults"][0]["detail"]


def test_the_web_state_hides_a_face_down_card_and_the_dealers_view_needs_the_pin() -> None:
    table = _table()
    client = TestClient(create_app(table, pin_hash=hash_pin(PIN, n=2**4)), base_url="http://127.0.0.1:8000")
    table.handle(START)
    table.handle(BankUnread(("JC", "JS")))
    assert "JC" not in client.get("/api/state").text
    assert client.get("/api/dealer/state").status_code == 401
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    assert client.get("/api/dealer/state").json()["pending"]["candidates"] == ["JC", "JS"]
