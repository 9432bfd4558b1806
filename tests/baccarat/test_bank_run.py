"""`faro-box run` with `game = "baccarat_banque"`: the simulated shoe under the camera, the dealer's
page taking bets, calls and unread cards, systemd's notify, and a power cut mid-coup."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

from faro_box.demo.baccarat import shuffled_shoe
from faro_box.display.pin import hash_pin
from faro_box.rules.baccarat import settle_document
from faro_box.table.journal import Journal
from faro_box.table.table import Table

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]
PIN = "2468"
SEED = 5


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _config(tmp_path: Path, port: int) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(f'journal = "{tmp_path / "journal.sqlite"}"\ngame = "baccarat_banque"\n'
                      f'players = ["ann", "bob", "cid"]\npin_hash = "{hash_pin(PIN, n=2**4)}"\n'
                      '[bank]\nbanker = "eve"\nfund = 20\nsides = { ann = "right", bob = "left", cid = "right" }\n'
                      f'[camera]\nsource = "sim:{SEED}"\nfps = 30\n'
                      f'[display]\nport = {port}\nterminal = true\n')
    return config


class Box:
    """One `faro-box run` process, its notify socket and the dealer's page."""

    def __init__(self, tmp_path: Path, config: Path, port: int, name: str) -> None:
        address = str(tmp_path / f"notify-{name}")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.listener.bind(address)
        self.listener.settimeout(0.05)
        env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="1000000")
        self.out = tmp_path / f"stdout-{name}.txt"
        with self.out.open("w") as stdout:
            self.process = subprocess.Popen([*FARO_BOX, "run", "--config", str(config)], env=env,
                                            stdout=stdout, stderr=subprocess.PIPE, text=True)
        self.messages: list[str] = []
        self.url = f"http://127.0.0.1:{port}"
        self._wait(lambda: "READY=1" in self.messages, 120, "READY")
        self.client = httpx2.Client(base_url=self.url, timeout=30)
        login = self.client.post("/api/login", json={"pin": PIN})
        assert login.status_code == 200, login.text
        self.csrf = {"x-csrf-token": login.json()["csrf"]}

    def listen(self) -> None:
        try:
            while True:
                self.messages.append(self.listener.recv(64).decode())
        except TimeoutError:
            pass

    def _wait(self, done: Any, seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            assert time.monotonic() < deadline, f"no {what} in {seconds} s"
            if self.process.poll() is not None:
                raise AssertionError(f"faro-box run exited {self.process.returncode}: {self.process.stderr.read()}")
            self.listen()

    def state(self) -> dict[str, Any]:
        self.listen()
        return dict(self.client.get("/api/state").json())

    def send(self, body: dict[str, Any]) -> httpx2.Response:
        return self.client.post("/api/command", json=body, headers=self.csrf)

    def deal_until(self, done: Any, shoe: list[str], seconds: float = 120) -> dict[str, Any]:
        """Play the dealer on the page until ``done(state)``: bets, calls (draw on 0–5 where
        allowed), and every card the reader would not name (the card that was dealt)."""
        deadline = time.monotonic() + seconds
        while True:
            state = self.state()
            if done(state):
                return state
            assert time.monotonic() < deadline, f"the bank stalled: {state['waiting']!r}"
            assert self.process.poll() is None, self.process.stderr.read()
            waiting = state["waiting"] or ""
            dealt = 156 - state["shoe"]["remaining"]
            if waiting == "bets" and not state["bets"]:
                for body in ({"player": "ann", "stake": 4}, {"player": "bob", "stake": 3},
                             {"player": "cid", "stake": 2, "cheval": True}):
                    assert self.send({"type": "bank_bet", "cut": True, **body}).status_code == 200
            elif waiting.startswith("call_"):
                if self.send({"type": "bank_call", "seat": waiting[5:], "draw": True}).status_code != 200:
                    assert self.send({"type": "bank_call", "seat": waiting[5:], "draw": False}).status_code == 200
            elif waiting == "confirm":
                assert self.send({"type": "bank_confirm", "card": shoe[dealt]}).status_code == 200
            time.sleep(0.05)

    def stop(self, sig: int) -> int:
        self.client.close()
        self.process.send_signal(sig)
        _, err = self.process.communicate(timeout=60)
        self.listen()
        self.listener.close()
        self.stderr = err
        return self.process.returncode


@pytest.mark.slow
def test_a_bank_runs_from_the_camera_and_resumes_exactly_after_a_power_cut(tmp_path: Path) -> None:
    port = _free_port()
    config = _config(tmp_path, port)
    shoe = [str(c) for c in shuffled_shoe(SEED)]
    journal = tmp_path / "journal.sqlite"

    first = Box(tmp_path, config, port, "first")
    opened = first.state()
    assert opened["game"] == "baccarat_banque" and opened["banker"] == "eve" and opened["fund"] == 20
    assert opened["sides"] == {"ann": "right", "bob": "left", "cid": "right"}
    # Kill the box in the second coup, once two of its cards are out.
    first.deal_until(lambda s: len(s["results"]) == 1 and s["in_coup"] and s["waiting"] != "card_left", shoe)
    assert first.stop(signal.SIGKILL) == -signal.SIGKILL
    assert first.messages[0] == "READY=1" and "WATCHDOG=1" in first.messages
    with Journal(journal, readonly=True) as written:
        at_the_cut = Table(written).state()
    assert at_the_cut["in_coup"] and len(at_the_cut["results"]) == 1

    second = Box(tmp_path, config, port, "second")
    resumed = second.state()
    # The coup carries on where it was cut (the simulated banker may have dealt on meanwhile).
    same = ("results", "bets", "balances", "fund", "active", "declared", "coup")
    assert {k: resumed[k] for k in same} == {k: at_the_cut[k] for k in same}
    assert resumed["seq"] >= at_the_cut["seq"] and resumed["in_coup"]
    second.deal_until(lambda s: len(s["results"]) >= 3 and s["waiting"] == "bets", shoe)
    assert second.send({"type": "bank_leave"}).status_code == 200
    final = second.state()
    assert second.stop(signal.SIGTERM) == 0, second.stderr
    assert second.messages[0] == "READY=1" and second.messages[-1] == "STOPPING=1"
    assert "after the restart the card on the reading spot is taken as the last card dealt" in second.stderr
    # The terminal view printed the bank: the sides' results and everyone's chips.
    printed = second.out.read_text()
    assert ">> Coup 3" in printed and "Bank 1: Eve banks" in printed and "Shoe: " in printed
    assert printed.rstrip().endswith("Chips: " + ", ".join(
        f"{w.capitalize()} {c}" for w, c in [("eve", final["balances"]["eve"]),
                                             *((p, c) for p, c in final["balances"].items() if p != "eve")]))

    assert final["ended"] == "left" and sum(final["balances"].values()) == 400
    with Journal(journal, readonly=True) as written:
        commands = [e.command for e in written.entries()]
        script = Table(written).script()
    # Every card in the order the simulated banker dealt it, and the camera named most of them.
    assert script["shoe"] == shoe[: len(script["shoe"])]
    # The card still lying on the spot at the restart was not dealt a second time, nor refused.
    assert sum(1 for c in commands if c.TYPE in ("bank_card", "bank_confirm")) == len(script["shoe"])
    read = sum(1 for c in commands if c.TYPE == "bank_card")
    assert read >= len(script["shoe"]) // 2
    assert sum(1 for c in commands if c.TYPE == "start_bank") == 1
    assert settle_document(script)["balances"] == final["balances"]
