"""Helpers for the dealer page's security tests."""

from __future__ import annotations

from display_helpers import PIN
from starlette.testclient import TestClient

BASE = "http://127.0.0.1:8000"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def login(app) -> tuple[TestClient, dict[str, str]]:
    client = TestClient(app, base_url=BASE)
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.text
    return client, {"x-csrf-token": response.json()["csrf"]}
