"""Fixtures for the dealer page's security tests: a real Table on a real journal, a web app."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

from display_helpers import PIN  # noqa: E402
from security_helpers import Clock  # noqa: E402

from faro_box.display.pin import hash_pin  # noqa: E402
from faro_box.display.web import create_app  # noqa: E402
from faro_box.table.journal import Journal  # noqa: E402
from faro_box.table.table import Table  # noqa: E402


@pytest.fixture(scope="session")
def pin_hash() -> str:
    return hash_pin(PIN, n=2**10)


@pytest.fixture
def journal(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    yield journal
    journal.close()


@pytest.fixture
def table(journal) -> Table:
    return Table(journal)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(table, pin_hash, clock):
    return create_app(table, pin_hash=pin_hash, clock=clock)
