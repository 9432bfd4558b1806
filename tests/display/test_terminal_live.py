"""The terminal view on a real pseudo-terminal redraws the table in place (the screen, as a
terminal emulator draws it, holds one table under the announcements); through a pipe it writes
plain lines."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte

HERE = Path(__file__).parent
COLS, ROWS = 120, 60
CHILD = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from display_helpers import DECK, deal_cards, start_two_players
from faro_box.display.terminal import TerminalView
from faro_box.table.journal import Journal
from faro_box.table.table import Table

table = Table(Journal())
view = TerminalView(sys.stdout, lang=sys.argv[1])
view.attach(table)
start_two_players(table)
deal_cards(table, DECK[:9])
view.close()
print("done", flush=True)
"""


def _run_on_a_terminal(lang: str) -> bytes:
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", CHILD, lang])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    out, deadline = b"", time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, out[-2000:]
    return out


def _screen(output: bytes) -> list[str]:
    screen = pyte.Screen(COLS, ROWS)
    stream = pyte.ByteStream(screen)
    stream.feed(output)
    return [line.rstrip() for line in screen.display]


def test_on_a_terminal_the_table_is_redrawn_in_place():
    output = _run_on_a_terminal("en")
    lines = _screen(output)
    shown = [line for line in lines if line]
    # One table on the screen, the last state's, with the announcements above it.
    assert sum(line.startswith("Balances:") for line in shown) == 1, "\n".join(shown)
    assert sum(line.startswith("Deal 1 (foster)") for line in shown) == 1
    assert not any(line.startswith("No deal in progress") for line in shown)
    announcements = [i for i, line in enumerate(shown) if line.startswith(">> ")]
    table_top = next(i for i, line in enumerate(shown) if line.startswith("Deal 1 (foster)"))
    assert len(announcements) >= 5 and max(announcements) < table_top
    assert any(line.startswith(">> Turn 4:") for line in shown)
    assert shown[-1] == "done"
    # The bytes the program wrote: the table many times over, each time over the last one.
    assert output.count(b"Balances:") > 1


def test_through_a_pipe_the_view_writes_plain_lines():
    done = subprocess.run([sys.executable, "-c", CHILD, "en"], capture_output=True, timeout=120)
    text = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in text
    lines = text.splitlines()
    assert lines[0] == "No deal in progress." and text.count("No deal in progress.") == 1
    said = [line for line in lines if line.startswith(">> ")]
    assert said[0] == ">> Deal 1 begins: Ann, Bob." and any(line.startswith(">> Turn 4:") for line in said)
    assert len(lines) == 18 + len(said) + 1  # the table once, one line per announcement, "done"


def test_the_terminal_view_speaks_russian_with_its_plurals():
    lines = [line for line in _screen(_run_on_a_terminal("ru")) if line]
    head = next(line for line in lines if line.startswith("Талия 1 (foster)"))
    assert head.endswith("43 карты в коробке"), head
    assert any(line.startswith("Ставки:") for line in lines) and any(line.startswith("Счёт:") for line in lines)
    assert any("Банк −" in line or "Банк +" in line for line in lines)
