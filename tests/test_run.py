"""`faro-box run` as systemd runs it: a notify socket, a watchdog, SIGTERM to stop."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from faro_box.live.sd_notify import SystemdNotifier, sd_notify, watchdog_interval
from faro_box.table.journal import Journal

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]


def test_the_notifier_sends_datagrams_to_the_socket(tmp_path):
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    notifier = SystemdNotifier(path)
    assert notifier.notify("READY=1") and notifier.notify("WATCHDOG=1")
    assert server.recv(64) == b"READY=1" and server.recv(64) == b"WATCHDOG=1"
    notifier.close()
    server.close()
    assert not SystemdNotifier("").notify("READY=1")


def test_one_notifier_serves_run_and_the_exhibition_on_a_real_socket(tmp_path, monkeypatch):
    # The exhibition's loop notifies through the module function, run through the class: both
    # reach the socket of $NOTIFY_SOCKET, a filesystem path or an abstract name ("@...").
    from faro_box.exhibit import loop

    assert loop.sd_notify is sd_notify
    path = str(tmp_path / "notify")
    abstract = f"@faro-box-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as named, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as hidden:
        named.bind(path)
        hidden.bind("\0" + abstract[1:])
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        assert sd_notify("READY=1") and named.recv(64) == b"READY=1"
        monkeypatch.setenv("NOTIFY_SOCKET", abstract)
        assert sd_notify("STOPPING=1") and hidden.recv(64) == b"STOPPING=1"
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not sd_notify("READY=1")


def test_the_watchdog_interval_is_half_systemds(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")      # meant for another process
    assert watchdog_interval() is None


def test_a_bad_configuration_stops_run_at_start_naming_the_key(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[display]\nweb = false\n[camera]\nfps = "fast"\n')
    done = subprocess.run([*FARO_BOX, "run", "--config", str(config)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "camera.fps: expected a positive whole number, got 'fast'" in done.stderr


@pytest.mark.slow
def test_run_says_ready_pings_the_watchdog_journals_cards_and_stops_on_sigterm(tmp_path):
    journal = tmp_path / "journal.sqlite"
    config = tmp_path / "config.toml"
    config.write_text(f'journal = "{journal}"\nplayers = ["ann", "bob"]\n'
                      '[camera]\nsource = "synthetic"\nfps = 30\n[display]\nweb = false\n'
                      '[case_keeper]\nkind = "fake"\n')
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(0.5)
    env = dict(os.environ, NOTIFY_SOCKET=address, WATCHDOG_USEC="1000000")
    process = subprocess.Popen([*FARO_BOX, "run", "--config", str(config)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    messages = []
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and messages.count("WATCHDOG=1") < 8:
            try:
                messages.append(listener.recv(64).decode())
            except TimeoutError:
                assert process.poll() is None, process.stderr.read()
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    try:
        while True:
            messages.append(listener.recv(64).decode())
    except TimeoutError:
        pass
    listener.close()
    assert process.returncode == 0, err
    assert messages[0] == "READY=1" and messages[-1] == "STOPPING=1"
    assert messages.count("WATCHDOG=1") >= 8
    with Journal(journal, readonly=True) as written:
        commands = [e.command for e in written.entries()]
    assert commands[0].TYPE == "start_deal" and commands[0].players == ("ann", "bob")
    from faro_box.vision.sim.simbox import SimBox

    # The reader may leave a card to the dealer ("unread"); every card it did name is the one dealt.
    deck = SimBox(seed=0).deck
    cards = [c for c in commands if c.TYPE == "card"]
    assert cards and all(c.card == deck[c.index] for c in cards)
