"""The edges of the HTTP API: unknown paths and methods answered in the API's JSON, and a
web page elsewhere that rebinds its own name to this box (DNS rebinding) refused."""

from __future__ import annotations

import pytest
from display_helpers import PIN
from security_helpers import BASE
from starlette.testclient import TestClient

from faro_box.display.web import create_app
from faro_box.exhibit.show import Show
from faro_box.exhibit.visitors import VisitorBook
from faro_box.exhibit.web import mount_exhibit


@pytest.fixture
def museum(table, pin_hash):
    app = create_app(table, pin_hash=pin_hash, server_names=["faro.example.org"])
    book = VisitorBook()
    book.attach(table)
    mount_exhibit(app, Show(visitors=book, hold_s=0), book)
    return app


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/api/nothing", 404), ("DELETE", "/api/state", 405), ("GET", "/api/login", 405),
    ("PUT", "/api/command", 405), ("GET", "/exhibit/api/nothing", 404), ("GET", "/exhibit/api/join", 405),
])
def test_unknown_api_paths_and_methods_answer_json(museum, method, path, status):
    response = TestClient(museum, base_url=BASE).request(method, path)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]


def test_other_unknown_paths_stay_plain(museum):
    response = TestClient(museum, base_url=BASE).get("/no-such-page")
    assert response.status_code == 404 and not response.headers["content-type"].startswith("application/json")


REBOUND = ["evil.example.com", "evil.example.com:8000", "127.0.0.1.nip.io", "faro.example.org.evil.com", ""]
GUARDED = [("GET", "/dealer"), ("GET", "/api/state"), ("GET", "/api/session"), ("POST", "/api/login"),
           ("GET", "/exhibit/api/show"), ("POST", "/exhibit/api/join")]


@pytest.mark.parametrize("host", REBOUND)
def test_a_foreign_host_name_is_refused_on_the_dealers_and_api_routes(museum, host, table):
    client = TestClient(museum, base_url=BASE)
    for method, path in GUARDED:
        response = client.request(method, path, json={"pin": PIN}, headers={"host": host})
        assert response.status_code == 421, (host, path, response.text)
        assert "faro_dealer" not in response.headers.get("set-cookie", "")
    assert table.state()["deal"] is None


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "192.168.1.20:8000", "[::1]:8000", "[fe80::1]",
                                  "faro-box", "faro-box.local", "faro-box.local.", "box.home.arpa",
                                  "localhost:8000", "faro.example.org", "FARO.example.org:80"])
def test_this_boxs_own_names_are_served(museum, host):
    client = TestClient(museum, base_url=BASE)
    assert client.get("/api/state", headers={"host": host}).status_code == 200
    assert client.post("/api/login", json={"pin": PIN}, headers={"host": host}).status_code == 200
