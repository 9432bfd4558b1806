"""The box's bank path in one process: the configuration, the simulated shoe through the watcher
into the table, a restart with the last card still on the reading spot, the dealer's buttons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bank_dealer import answer_table

from faro_box.config import load_config, parse_config
from faro_box.errors import ConfigError
from faro_box.live.baccarat import BankFeeder, cards_dealt, open_bank_camera, open_configured_bank
from faro_box.table.baccarat.commands import BankBet, BankConfirm
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.reader import Reader

BANK = {"game": "baccarat_banque", "display": {"web": False}, "players": ["ann", "bob"],
        "bank": {"banker": "eve", "fund": 20, "sides": {"ann": "right", "bob": "left"}},
        "camera": {"source": "sim:3", "fps": 1000}}


def test_a_bank_configuration_names_its_bank(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('game = "baccarat_banque"\nplayers = ["ann", "bob", "cid"]\n[display]\nweb = false\n'
                    '[bank]\nbanker = "eve"\nfund = 30\nsides = { ann = "right", bob = "left", cid = "right" }\n')
    config = load_config(path)
    start = config.start_bank()
    assert config.game == "baccarat_banque"
    assert (start.players, start.sides, start.banker, start.fund) == (
        ("ann", "bob", "cid"), {"ann": "right", "bob": "left", "cid": "right"}, "eve", 30)
    assert parse_config({"game": "baccarat_banque", "display": {"web": False}}).start_bank() is None


@pytest.mark.parametrize(("change", "message"), [
    ({"game": "poker"}, "game: expected one of 'faro', 'baccarat_banque', got 'poker'"),
    ({"profile": "foster"}, "profile: faro's profile does not apply to a Baccarat Banque bank"),
    ({"house_rules": {"turn_pays": 4}}, "house_rules: faro's house rules do not apply"),
    ({"camera": {"window": [[0, 0], [9, 0], [9, 9], [0, 9]]}}, "camera.window: a Baccarat Banque bank reads"),
    ({"bank": {"banker": "eve", "fund": 200, "sides": {}}}, "bank.fund: expected a whole number of chips from "
                                                            "1 to 100, got 200"),
    ({"bank": {"banker": "eve", "fund": 20, "sides": {"ann": "up"}}}, "bank.sides.ann: expected one of "
                                                                     "'right', 'left', got 'up'"),
    ({"bank": {"banker": "eve", "fund": 20, "sides": {"ann": "right", "bob": "right"}}},
     "bank.sides: nobody plays the left side"),
    ({"bank": {"banker": "ann", "fund": 20, "sides": {"ann": "right", "bob": "left"}}},
     "bank.banker: the banker 'ann' cannot also play a side"),
    ({"bank": {"fund": 20, "sides": {"ann": "right", "bob": "left"}}}, "bank.banker: a bank with players needs"),
    ({"bank": {"bankr": "eve"}}, "bank.bankr: unknown key (known: banker, fund, sides)"),
    ({"players": None}, "players: the [bank] section needs the players"),
])
def test_a_bad_bank_configuration_is_refused_naming_the_key(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config({k: v for k, v in {**BANK, **change}.items() if v is not None})
    assert message in str(refused.value)


def test_a_faro_box_refuses_a_bank_section() -> None:
    with pytest.raises(ConfigError, match=r"^bank: only a Baccarat Banque box"):
        parse_config({"display": {"web": False}, "bank": {"fund": 10}})


def _play(table: Table, feeder: BankFeeder, camera: Any, until: Any, frames: int = 600) -> None:
    """The dealer: two bets, draw where the rules allow, and any card the reader would not name."""
    for _ in range(frames):
        if until(table.state()):
            return
        answer_table(table, camera, stakes=(3, 2))
        feeder.feed(camera.read(), camera.frame_number)
    raise AssertionError(f"not reached in {frames} frames: {table.state()['waiting']!r}")


def test_the_simulated_shoe_deals_through_the_watcher_and_a_restart_takes_no_card_twice(tmp_path: Path) -> None:
    config = parse_config(BANK)
    path = tmp_path / "journal.sqlite"
    table = Table(Journal(path))
    open_configured_bank(table, config)
    camera = open_bank_camera(config, table, settle_s=0)
    _play(table, BankFeeder(table, Reader()), camera, lambda s: len(s["results"]) == 1 and s["in_coup"]
          and s["waiting"] != "card_left")
    before = table.script()["shoe"]
    table.journal.close()

    table = Table(Journal(path))
    open_configured_bank(table, config)  # a bank is running: nothing new opens
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, Reader())
    assert feeder.camera.lying == before[-1] and table.script()["shoe"] == before
    _play(table, feeder, camera, lambda s: len(s["results"]) == 2)
    shoe = table.script()["shoe"]
    assert len(shoe) > len(before) and shoe == [str(c) for c in camera.shoe[: len(shoe)]]
    assert sum(table.state()["balances"].values()) == 300
    table.journal.close()


def test_a_reading_below_the_configured_confidence_goes_to_the_dealer(tmp_path: Path) -> None:
    config = parse_config(BANK)
    table = Table(Journal())
    open_configured_bank(table, config)
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, Reader(), min_confidence=1.0)  # no reading is that sure
    table.handle(BankBet("ann", 3))
    for _ in range(200):
        if table.state()["waiting"] == "confirm":
            break
        feeder.feed(camera.read(), camera.frame_number)
    state = table.state()
    assert state["waiting"] == "confirm" and cards_dealt(table.view()) == 0
    # The first card goes face down: its reading is the dealer's to see, not the public's.
    assert state["pending"] == {"candidates": [], "snapshot": None, "reason": "face_down"}
    assert table.dealer_state()["pending"]["candidates"] in ([str(camera.shoe[0])], [])


def test_the_dealers_buttons_at_a_bank_undo_confirm_and_open_a_new_bank(mock_pins: Any) -> None:
    import time

    from faro_box.live.baccarat import start_bank_buttons
    from faro_box.table.baccarat.commands import BankCard, BankUnread

    def press(pin: Any) -> None:
        pin.drive_low()
        pin.drive_high()
        time.sleep(0.03)

    config = parse_config({**BANK, "buttons": {"enabled": True, "bounce_time": 0.01}})
    table = Table(Journal())
    open_configured_bank(table, config)
    buttons = start_bank_buttons(table, config, pin_factory=mock_pins)
    undo, confirm, new_bank = (mock_pins.pin(n) for n in (5, 6, 13))
    table.handle(BankBet("ann", 3))
    table.handle(BankCard("9C"))
    press(undo)
    assert cards_dealt(table.view()) == 0
    table.handle(BankUnread(("7H", "7D")))
    press(confirm)  # the reader's best guess
    assert table.script()["shoe"] == ["7H"] and table.state()["pending"] is None
    press(new_bank)  # mid-coup: refused, nothing changes
    assert table.state()["bank"] == 1 and cards_dealt(table.view()) == 1
    for card in ("9C", "2S", "2C", "6D", "3C"):  # right: 7H 2C, a natural 9
        table.handle(BankCard(card))
    assert len(table.state()["results"]) == 1
    press(new_bank)  # the banker leaves; the same table opens a new bank
    state = table.state()
    assert state["bank"] == 2 and state["banker"] == "eve" and state["fund"] == 20
    assert table.state()["history"][-1]["ended"] == "left"
    buttons.close()


class _Abstaining:
    """A reader that sees a card on the spot but will not name it."""

    def read(self, image: Any, window: Any = None) -> Any:
        from types import SimpleNamespace

        white = float((image > 200).all(axis=2).mean()) > 0.05  # a card's face, not the cloth
        return SimpleNamespace(card=None, present=white, confidence=0.0, candidates=())


def test_a_card_the_reader_will_not_name_waits_for_the_dealer_with_its_picture(tmp_path: Path) -> None:
    from faro_box.commands.run import _write_png

    config = parse_config(BANK)
    table = Table(Journal())
    open_configured_bank(table, config)
    camera = open_bank_camera(config, table, settle_s=0)
    feeder = BankFeeder(table, _Abstaining(), snapshot_dir=tmp_path / "snaps", write_image=_write_png)
    table.handle(BankBet("ann", 3))
    for _ in range(40):
        feeder.feed(camera.read(), camera.frame_number)
        if table.state()["pending"]:
            break
    assert table.state()["pending"]["snapshot"] is None  # the first card goes face down
    pending = table.dealer_state()["pending"]
    assert pending["reason"] == "unread" and pending["snapshot"].startswith("/snapshots/bank1-card1-frame")
    picture = tmp_path / "snaps" / pending["snapshot"].removeprefix("/snapshots/")
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table.handle(BankConfirm(str(camera.shoe[0])))
    assert table.script()["shoe"] == [str(camera.shoe[0])]
