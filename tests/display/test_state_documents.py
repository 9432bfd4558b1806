"""The JSON that leaves the box stays byte for byte what the pages' scripts read, whatever the
listeners hold inside: every message of the event stream (state, event, announcements) and every
``/api/state`` document, over whole faro deals (turns, a cat-hop, a split, coppers, a card
unread and confirmed, a card taken back, a misdeal) and a Baccarat Banque bank.

The digests were taken from the documents before the listeners took the typed view; a change
that alters one byte of what a page reads changes a digest.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from display_helpers import DECK, PIN, deal_cards, send, start_two_players
from starlette.testclient import TestClient

from faro_box.cards import FULL_DECK
from faro_box.display.pin import hash_pin
from faro_box.display.web import create_app
from faro_box.table.games import replay_script
from faro_box.table.journal import Journal
from faro_box.table.table import Table

DEALS = Path(__file__).resolve().parents[2] / "faro_box" / "exhibit" / "deals"
DIGESTS = Path(__file__).with_name("state_documents.json")
BANK = {"game": "baccarat_banque", "players": ["ann", "bob", "cid"],
        "sides": {"ann": "right", "bob": "left", "cid": "right"}, "banker": "eve", "fund": 10,
        "shoe": [str(c) for c in FULL_DECK][::-1] * 2,
        "coups": [{"bets": [{"player": "ann", "stake": 5}, {"player": "bob", "stake": 3}],
                   "right_draws_on_5": True, "left_draws_on_5": False},
                  {"bets": [{"player": "cid", "stake": 2, "cheval": True}], "banker_draws": True},
                  {"bets": [{"player": "bob", "banco": True}], "banker_leaves": True}]}


def _by_hand(table: Table) -> None:
    start_two_players(table)
    deal_cards(table, DECK[:5])
    send(table, {"type": "unread", "index": 5, "candidates": ["2C", "2D"]})
    send(table, {"type": "confirm", "index": 5, "card": "2C"})
    deal_cards(table, DECK[6:9])
    send(table, {"type": "undo"})
    table.report_fault("camera", "no frame for 2 s")
    table.clear_fault("camera")
    send(table, {"type": "misdeal"})


def _scripted(doc: dict[str, Any]) -> Callable[[Table, Callable[[], None]], None]:
    def play(table: Table, between: Callable[[], None]) -> None:
        replay_script(table, doc, between=between)
    return play


def _documents(play: Callable[[Table, Callable[[], None]], None]) -> list[str]:
    table = Table(Journal())
    app = create_app(table, pin_hash=hash_pin(PIN, n=2**10))
    broadcaster = app.state.broadcaster
    sent: list[str] = []
    publish = broadcaster.publish

    def recorded(message: str) -> None:
        sent.append(message)
        publish(message)

    broadcaster.publish = recorded
    client = TestClient(app)

    def state_document() -> None:
        sent.append(client.get("/api/state").text)

    play(table, state_document)
    state_document()
    app.state.unsubscribe()
    return sent


CASES: dict[str, Callable[[Table, Callable[[], None]], None]] = {
    **{path.stem: _scripted(json.loads(path.read_text(encoding="utf-8")))
       for path in sorted(DEALS.glob("*.json")) if path.stem != "catalogue"},
    "by_hand": lambda table, between: _by_hand(table),
    "bank": _scripted(BANK),
}


def _digest(documents: list[str]) -> dict[str, Any]:
    return {"documents": len(documents), "bytes": sum(len(d.encode()) for d in documents),
            "sha256": hashlib.sha256("\n\x00".join(documents).encode()).hexdigest()}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_stream_and_the_state_documents_are_byte_for_byte_as_before(case: str) -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))[case]
    assert _digest(_documents(CASES[case])) == expected


if __name__ == "__main__":  # writes the digests: only when a change to the documents is meant
    DIGESTS.write_text(json.dumps({case: _digest(_documents(play)) for case, play in sorted(CASES.items())},
                                  indent=1) + "\n", encoding="utf-8")
