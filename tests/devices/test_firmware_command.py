"""``faro-box firmware check`` against the firmware process; ``install`` up to mpremote."""

from __future__ import annotations

import json
import subprocess

import pytest
from pty_cable import Cable, Firmware

from faro_box.cli import main
from faro_box.commands import firmware as firmware_command


@pytest.fixture
def rig(tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    cable = Cable(tmp_path)
    pico = Firmware(cable, flash)
    pico.start()
    yield cable, pico
    pico.stop()
    cable.close()


def test_check_reports_version_ping_and_state(rig, capsys):
    cable, _ = rig
    assert main(["firmware", "check", "--port", cable.port]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["protocol"] == 1 and report["servos"] == 52 and report["mode"] == "beads"
    assert report["ping"] == "PONG 0" and report["seq"] == 0 and report["rod_mm"] == 120
    assert report["targets_mm"][:4] == [80, 90, 100, 110] and report["ping_ms"] > 0


def test_check_without_a_pico_is_one_clear_error(tmp_path, capsys):
    assert main(["firmware", "check", "--port", str(tmp_path / "ttyACM7")]) == 1
    err = capsys.readouterr().err
    assert "cannot open the servo case-keeper port" in err and err.count("\n") == 1


def test_install_releases_the_running_firmware_then_copies_every_file(rig, monkeypatch, capsys):
    cable, pico = rig
    calls = []

    def fake_run(command, **kwargs):
        calls.append(command)
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(firmware_command.subprocess, "run", fake_run)
    monkeypatch.setattr(firmware_command.importlib.util, "find_spec", lambda name: object())
    assert main(["firmware", "install", "--port", cable.port]) == 0
    # REPL: the firmware reset itself into the prompt, once, without starting its watchdog
    # (which cannot be stopped, and would reboot the Pico in the middle of mpremote's copy).
    assert pico.reboots == ["reset"]
    assert pico.process.wait(timeout=5) == 0
    assert not any(record[1] == "WDT" for record in pico.records[-1])
    assert not (pico.flash / "repl.flag").exists()      # the next reset runs the firmware again
    (command,) = calls
    assert command[1:5] == ["-m", "mpremote", "connect", cable.port]
    copied = {p.rsplit("/", 1)[-1] for p in command[6:command.index(":")]}
    assert {"main.py", "fbkeeper.py", "fbproto.py", "fblines.py", "fbservo.py", "fbstore.py"} <= copied
    assert command[-2:] == ["+", "reset"]
    assert json.loads(capsys.readouterr().out)["released_running_firmware"] is True


def test_install_without_mpremote_names_the_extra_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(firmware_command.importlib.util, "find_spec", lambda name: None)
    assert main(["firmware", "install", "--port", str(tmp_path / "ttyACM0")]) == 1
    err = capsys.readouterr().err
    assert "pip install 'faro-box[firmware]'" in err and err.count("\n") == 1


def test_check_survives_noise_on_the_line(rig, capsys):
    cable, _ = rig
    cable.noise_before = {b"PING", b"GET", b"WHERE", b"VERSION"}   # each answered ERR - bad-bytes first
    assert main(["firmware", "check", "--port", cable.port]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ping"] == "PONG 0" and report["seq"] == 0 and report["moving"] is False


def test_install_refuses_a_broken_config_before_touching_the_pico(tmp_path, capsys):
    config = tmp_path / "config.json"
    config.write_text("{servos: 52")
    assert main(["firmware", "install", "--port", str(tmp_path / "none"), "--config", str(config)]) == 1
    assert "is not a JSON file" in capsys.readouterr().err
