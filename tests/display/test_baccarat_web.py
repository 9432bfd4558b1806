"""Baccarat Banque through the web: the dealer's commands (PIN, CSRF), the public state, the pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from display_helpers import PIN
from screen_checks import KIOSKS, fits, shot
from starlette.testclient import TestClient

from faro_box.display.announce_baccarat import announce_coup
from faro_box.display.web import create_app
from faro_box.errors import RuleError
from faro_box.table.table import Table

START = {"type": "start_bank", "players": ["ann", "bob", "cid"],
         "sides": {"ann": "right", "bob": "left", "cid": "right"}, "banker": "eve", "fund": 10}
# Seed 001 §08, as the dealer's page and the camera send it.
SEED_08 = [START, {"type": "bank_bet", "player": "ann", "stake": 5}, {"type": "bank_bet", "player": "bob", "stake": 3},
           *({"type": "bank_confirm", "card": c} for c in ("9C", "7H", "2S", "4C", "6D", "3C")),
           {"type": "bank_call", "seat": "right", "draw": True}, {"type": "bank_confirm", "card": "4D"},
           {"type": "bank_call", "seat": "left", "draw": True}, {"type": "bank_confirm", "card": "2H"},
           {"type": "bank_call", "seat": "banker", "draw": False}]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture
def client(table: Table, pin_hash: str) -> TestClient:
    return TestClient(create_app(table, pin_hash=pin_hash), base_url="http://127.0.0.1:8000")


def _csrf(client: TestClient) -> dict[str, str]:
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.text
    return {"x-csrf-token": response.json()["csrf"]}


def test_the_dealer_plays_the_seed_coup_through_the_api(client: TestClient, table: Table) -> None:
    headers = _csrf(client)
    for body in SEED_08:
        response = client.post("/api/command", json=body, headers=headers)
        assert response.status_code == 200, (body, response.text)
    state = client.get("/api/state").json()
    assert state["game"] == "baccarat_banque" and state["fund"] == 5
    assert state["last_coup"]["results"] == {"right": "win", "left": "push"}
    assert state["shoe"]["by_rank"]["9"] == 11 and state["shoe"]["remaining"] == 148


def test_bank_commands_need_the_pin_and_the_csrf_token(client: TestClient, table: Table) -> None:
    assert client.post("/api/command", json=START).status_code == 401
    headers = _csrf(client)
    assert client.post("/api/command", json=START, headers={"x-csrf-token": "forged"}).status_code == 403
    assert client.post("/api/command", json=START, headers=headers).status_code == 200
    # The camera's own reads are not the page's to send; the dealer names cards with bank_confirm.
    response = client.post("/api/command", json={"type": "bank_card", "card": "9C"}, headers=headers)
    assert response.status_code == 400 and "cannot send" in response.json()["error"]
    seq = table.journal.seq
    for body, status, words in [
            ({"type": "bank_bet", "player": "ann", "stake": 11}, 422, "beyond the bank's cover"),
            ({"type": "bank_bet", "player": "ann", "stake": -1}, 400, "whole number"),
            ({"type": "bank_call", "seat": "right", "draw": True}, 422, "no coup"),
            ({"type": "bank_leave"}, 422, "at least one coup")]:
        response = client.post("/api/command", json=body, headers=headers)
        assert response.status_code == status and words in response.json()["error"], response.text
    assert table.journal.seq == seq


def test_the_public_state_never_holds_a_face_down_card(client: TestClient, table: Table) -> None:
    headers = _csrf(client)
    for body in SEED_08[:9]:
        client.post("/api/command", json=body, headers=headers)
    text = client.get("/api/state").text
    assert not any(card in text for card in ("9C", "7H", "2S", "4C", "6D", "3C"))


def test_announcements_name_each_sides_result_in_three_languages() -> None:
    coup = {"coup": 1, "natural": False, "totals": {"right": 7, "left": 5, "banker": 5},
            "results": {"right": "win", "left": "push"}, "fund": 5,
            "settlements": [{"player": "ann", "side": "right", "stake": 5, "result": "win", "amount": 5},
                            {"player": "bob", "side": "left", "stake": 3, "result": "push", "amount": 0}]}
    assert announce_coup(coup, "en") == ["Coup 1.", "Right 7 against the bank's 5: right wins. Ann wins 5.",
                                         "Left 5 against the bank's 5: a tie, stakes back. Bob takes back 3.",
                                         "The bank's fund: 5."]
    assert announce_coup(coup, "ru")[1] == "Правая сторона 7 против 5 у банка: выигрывает правая. Ann выигрывает 5."
    assert announce_coup(coup, "fr")[2] == ("La gauche 5 contre 5 pour la banque\u00a0: égalité, mises rendues. "
                                            "Bob reprend sa mise de 3.")


@pytest.mark.browser
def test_the_audience_page_shows_each_sides_result(browser: Any, live: Any, table: Table) -> None:
    from faro_box.table.commands import command_from_json

    for body in SEED_08[:-1]:
        table.handle(command_from_json(body))
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/")
    page.wait_for_selector("body.bac .bac-hand[data-seat='right'] .cardface.back")
    assert page.locator(".bac-hand[data-seat='right'] .cardface.back").count() == 2  # the pair stays face down
    table.handle(command_from_json(SEED_08[-1]))  # the banker stands: the coup ends, all is shown
    page.wait_for_selector(".bac-result[data-result='win']")
    assert page.locator(".bac-hand[data-seat='right'] .bac-result").inner_text() == "Right wins"
    assert page.locator(".bac-hand[data-seat='left'] .bac-result").inner_text() == "Left tie"
    assert page.locator(".bac-hand[data-seat='right'] .total").inner_text() == "7"
    assert page.locator(".bac-hand[data-seat='right'] .cardface").count() == 3
    assert page.locator(".bac-shoe .rk[data-rank='9'] .count").inner_text() == "11"
    page.wait_for_function("() => document.querySelector('.bac-side .announcements .latest') && document"
                           ".querySelector('.bac-side .announcements .latest').textContent.startsWith('The bank')")
    said = page.locator(".bac-side .announcements").inner_text()
    assert "Right 7 against the bank's 5: right wins. Ann wins 5." in said
    assert page.locator(".audience-grid").is_hidden()  # the faro layout steps aside
    assert errors == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "baccarat_audience.png"), full_page=True)
    page.close()


# The most a bank holds on the screen: ten players (one with the longest name allowed) besides
# the banker, each with a bet on the second coup, the first coup's results announced.
CROWD = ["ann", "bob", "cid", "dee", "eli", "fay", "gus", "hal", "ivy", "Maximilian Ferdinand von Hohenzollern-Si"]
CROWDED_BANK = [{"type": "start_bank", "players": CROWD, "banker": "eve", "fund": 100,
                 "sides": {p: ("right", "left")[i % 2] for i, p in enumerate(CROWD)}},
                *({"type": "bank_bet", "player": p, "stake": 1 + i} for i, p in enumerate(CROWD)),
                *SEED_08[3:],
                *({"type": "bank_bet", "player": p, "stake": 1 + i % 3} for i, p in enumerate(CROWD)),
                *({"type": "bank_confirm", "card": c} for c in ("5C", "KH", "8S", "AD", "QC", "2D"))]


@pytest.mark.browser
@pytest.mark.parametrize("size", KIOSKS, ids=[f"{w}x{h}" for w, h in KIOSKS])
def test_a_kiosk_shows_the_whole_crowded_bank_without_scrolling(browser: Any, live: Any, table: Table,
                                                                size: tuple[int, int]) -> None:
    from faro_box.table.commands import command_from_json

    for body in CROWDED_BANK:
        table.handle(command_from_json(body))
    state = table.state()
    assert len(state["bets"]) == len(CROWD) and state["waiting"].startswith("call_")
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/")
    page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(state["seq"]))
    shot(page, f"baccarat_crowded_{size[0]}x{size[1]}.png")
    must_see = [".bac-hand h2", ".bac-hand .cardface", ".bac-waiting", ".bac-shoe .rk", ".bac-fund",
                ".bac-side .announcements .latest", ".bac-bal .balrow .amount", ".bac-bal .balrow .name"]
    fits(page, size, must_see + [".bac-bets li .stake", ".bac-bets li .name"])
    assert page.locator(".bac-bal .balrow").count() == len(CROWD) + 1
    assert page.locator(".bac-bets li").count() == len(CROWD)
    # The coup played out: every hand's cards, its total and each side's result in view.
    spare = iter(["9D", "3H", "4S"])
    while not table.state()["waiting"] == "bets":
        waiting = table.state()["waiting"]
        seat = waiting.split("_", 1)[1]
        if not waiting.startswith("call_"):
            table.handle(command_from_json({"type": "bank_confirm", "card": next(spare)}))
            continue
        try:   # a card where the rules let a side choose; a stand where they do not
            table.handle(command_from_json({"type": "bank_call", "seat": seat, "draw": True}))
        except RuleError:
            table.handle(command_from_json({"type": "bank_call", "seat": seat, "draw": False}))
    page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(table.state()["seq"]))
    shot(page, f"baccarat_crowded_coup_{size[0]}x{size[1]}.png")
    fits(page, size, must_see + [".bac-hand .total", ".bac-result"])
    assert page.locator(".bac-result").count() == 2
    assert errors == []
    page.close()

