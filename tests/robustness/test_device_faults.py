"""Devices that fail mid-deal under the real Table: each fault shows once in state()["faults"],
goes away by itself when the device is back, and the beads end where the deal says."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass

import pytest
from fault_repeat import REPEAT
from pty_cable import Cable, Firmware

from faro_box.cards import Card
from faro_box.commands.run import _start_buttons
from faro_box.config import parse_config
from faro_box.devices.servo_case_keeper import ServoCaseKeeper
from faro_box.devices.servo_frames import parse_positions_line, to_tenths
from faro_box.live.faro import TrackerBridge
from faro_box.rules.faro.beads import case_keeper
from faro_box.table.commands import CardSeen, ConfirmCard, StartDeal
from faro_box.table.events import event_to_json
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.sim.simbox import SimBox
from faro_box.vision.track import Tracker

DECK = [str(c) for c in SimBox(seed=3).deck]


class FaultLog:
    def __init__(self, table: Table) -> None:
        self.events: list[dict] = []
        table.subscribe(lambda event, state: self.events.append(event_to_json(event))
                        if event.TYPE in ("fault", "fault_cleared") else None)

    def of(self, device: str) -> list[str]:
        return [e["type"] for e in self.events if e.get("device") == device]


def wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def servo_table(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "config.json").write_text(json.dumps({"driver": "pca9685", "speed": 4000, "tick_ms": 5}))
    cable = Cable(tmp_path)
    firmware = Firmware(cable, flash)
    firmware.start()
    keeper = ServoCaseKeeper(cable.port, ack_timeout=0.3, heartbeat=0.2, reconnect_interval=0.05)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal, keeper)
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    try:
        yield cable, firmware, keeper, table
    finally:
        keeper.close()
        firmware.stop()
        cable.close()
        journal.close()


def deal(table: Table, stop: int) -> None:
    for index in range(table.state()["next_index"], stop):
        table.handle(CardSeen(DECK[index], index))


def firmware_shows_the_deal(cable: Cable, table: Table) -> bool:
    want = to_tenths(case_keeper([Card.parse(c) for c in table.state()["exposed"]]).flat_positions())
    _, targets = parse_positions_line(cable.ask("GET"), "STATE")
    return targets == want


@pytest.mark.parametrize("rep", range(REPEAT))
def test_the_case_keepers_port_vanishes_mid_deal_and_comes_back(servo_table, rep):
    cable, _, keeper, table = servo_table
    rng = random.Random(rep)
    faults = FaultLog(table)
    before, during = rng.randint(1, 40), rng.randint(0, 8)
    deal(table, before)
    assert keeper.wait_synced(5) and table.state()["faults"] == []
    cable.unplug()
    deal(table, before + during)                        # the deal goes on without the beads
    wait_for(lambda: table.state()["faults"])
    assert table.state()["faults"][0]["device"] == "case_keeper"
    deal(table, before + 2 * during)
    cable.plug()
    wait_for(lambda: not table.state()["faults"])
    assert keeper.wait_synced(5) and firmware_shows_the_deal(cable, table)
    assert faults.of("case_keeper") == ["fault", "fault_cleared"]


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_pico_that_reboots_mid_deal_gets_its_beads_back(servo_table, rep):
    cable, firmware, keeper, table = servo_table
    rng = random.Random(rep)
    faults = FaultLog(table)
    before = rng.randint(1, 45)
    deal(table, before)
    assert keeper.wait_synced(5)
    firmware.stop()
    time.sleep(rng.uniform(0, 0.5))                     # off for a moment
    firmware.start()                                    # power back: every bead at home, READY
    wait_for(lambda: keeper.stats.firmware_restarts or keeper.stats.disconnects)
    deal(table, before + rng.randint(0, 5))
    wait_for(lambda: faults.of("case_keeper")[-1:] == ["fault_cleared"])
    assert keeper.wait_synced(5) and firmware_shows_the_deal(cable, table)
    assert faults.of("case_keeper") == ["fault", "fault_cleared"]


CONFIG = """journal = "{journal}"
players = ["ann", "bob"]
pin_hash = "scrypt$1024$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
[buttons]
enabled = true
bounce_time = 0.0
stuck_after = 0.2
[display]
web = false
"""


@pytest.mark.parametrize("rep", range(REPEAT))
def test_a_stuck_button_is_reported_once_cleared_on_release_and_fires_nothing(tmp_path, rep, mock_pins):
    import tomllib

    journal = Journal(tmp_path / "journal.sqlite")
    try:
        config = parse_config(tomllib.loads(CONFIG.format(journal=tmp_path / "journal.sqlite")))
        table = Table(journal)
        faults = FaultLog(table)
        table.handle(StartDeal("foster", ("ann", "bob"), {}))
        cards = random.Random(rep).randint(2, 48)
        deal(table, cards)
        buttons = _start_buttons(table, config, pin_factory=mock_pins)
        undo = mock_pins.pin(config.buttons.undo)
        undo.drive_low()                                # pressed ... and stuck there
        time.sleep(0.8)                                 # four hold periods
        state = table.state()
        assert state["faults"] == [{"device": "button undo", "message": "held down or stuck"}]
        undone = 2 if cards == 50 else 1                # the hock goes back with the last winner
        assert state["next_index"] == cards - undone    # the press undid one card, nothing more
        undo.drive_high()
        assert table.state()["faults"] == []
        assert faults.of("button undo") == ["fault", "fault_cleared"]
        undo.drive_low()
        undo.drive_high()                               # a normal press works again
        state = table.state()
        left = cards - undone - 1
        assert state["next_index"] == left
        assert state["beads"] == case_keeper([Card.parse(c) for c in DECK[:left]]).to_json()["beads"]
        buttons.close()
    finally:
        journal.close()


@dataclass(frozen=True)
class Reading:
    card: Card | None
    confidence: float
    candidates: tuple[Card, ...]


class TruthReader:
    """Reads what the simulated camera really shows: this test is about the outage, not about
    the card reader (which has its own tests and benchmark). The tracker still decides from
    the pictures when a card has come to rest and when the view changed."""

    def __init__(self, box: SimBox) -> None:
        self.box, self.frame = box, 0

    def read(self, image, *, window=None) -> Reading:
        card = self.box.truth(self.frame).card
        return Reading(card, 1.0 if card else 0.0, (card,) if card else ())


# Frames [start, stop) of the simulated 8-card deal that never arrive; each outage ends at
# least 30 frames before the video, so the last card has time to come to rest in view.
FRAMES = len(SimBox(seed=3, cards=8))
OUTAGES = [(60, 80), (95, 200)] + [(a, a + random.Random(a).randint(1, min(120, FRAMES - 30 - a)))
                                    for a in random.Random(REPEAT).sample(range(10, FRAMES - 40), REPEAT - 1)]


@pytest.mark.parametrize("gone", OUTAGES[:max(2, REPEAT)])
def test_the_camera_gone_mid_deal_and_back(tmp_path, gone):
    """Frames ``gone`` never arrive (the run loop reports the camera and calls ``lost``); after
    them the first card read is put to the dealer, who answers from what was really dealt."""
    box = SimBox(seed=3, cards=8)
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(journal)
    faults = FaultLog(table)
    table.handle(StartDeal("foster", ("ann", "bob"), {}))
    reader = TruthReader(box)
    bridge = TrackerBridge(table, Tracker(reader, window=box.window.tolist()))
    dealt_in_outage = {box.truth(n).index for n in range(*gone)} - {box.truth(gone[0] - 1).index}
    for n in range(len(box)):
        if gone[0] <= n < gone[1]:
            table.report_fault("camera", "no picture from the camera")   # as faro-box run does
            bridge.lost(n)
            continue
        table.clear_fault("camera")
        reader.frame = n
        bridge.feed(box.frame(n), n)
        while (pending := table.state()["pending"]) is not None:      # the dealer answers
            index = pending["index"]
            table.handle(ConfirmCard(index, str(box.deck[index])))
    state = table.state()
    shown = box.truth(len(box) - 1).index + 1
    assert state["exposed"] == DECK[:shown] and shown == 8
    assert state["beads"] == case_keeper(box.deck[:shown]).to_json()["beads"]
    assert faults.of("camera") == ["fault", "fault_cleared"]
    if gone == (95, 200):
        assert len(dealt_in_outage) >= 2          # really cards the camera never saw
    journal.close()
