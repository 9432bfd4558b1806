"""Fixtures for the display: a real Table on a real SQLite journal, a fast PIN hash, servers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from display_helpers import PIN

from faro_box.display.pin import hash_pin
from faro_box.display.web import RunningServer, create_app, serve
from faro_box.table.journal import Journal
from faro_box.table.table import Table


@pytest.fixture(scope="session")
def pin_hash() -> str:
    return hash_pin(PIN, n=2**10)  # the stored form is the same; only cheaper to check in tests


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    journal = Journal(tmp_path / "journal.sqlite")
    yield Table(journal)
    close = getattr(journal, "close", None)
    if callable(close):
        close()


@pytest.fixture
def live(table: Table, pin_hash: str) -> Iterator[RunningServer]:
    server = serve(create_app(table, pin_hash=pin_hash), port=0, background=True)
    assert server is not None
    yield server
    server.stop()
