"""Fixtures for the dealer page's security tests: a real Table on a real journal, a web app."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

from display_helpers import PIN  # noqa: E402

from faro_box.display.pin import hash_pin  # noqa: E402
from faro_box.display.web import create_app  # noqa: E402
from faro_box.journal import Journal  # noqa: E402
from faro_box.table import Table  # noqa: E402

BASE = "http://127.0.0.1:8000"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


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


def login(app) -> tuple[TestClient, dict[str, str]]:
    client = TestClient(app, base_url=BASE)
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.text
    return client, {"x-csrf-token": response.json()["csrf"]}
