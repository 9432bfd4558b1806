"""For the tests that SIGKILL a dealing process: read its journal from outside while it runs."""

from __future__ import annotations

import sqlite3
import subprocess
import time
from pathlib import Path


def journal_commands(path: Path) -> list[str]:
    """The journal's commands as stored, in order."""
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT command FROM events ORDER BY seq")]
    finally:
        conn.close()


def wait_for_entries(path: Path, count: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    """Return once the journal holds ``count`` entries, the process ended, or ``timeout`` passed."""
    deadline = time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if path.exists() and len(journal_commands(path)) >= count:
                return
        except sqlite3.Error:  # the file is being created
            pass
        time.sleep(0.002)
