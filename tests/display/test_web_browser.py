"""The pages in real headless Chromium against uvicorn and the real Table (screenshots in artifacts/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from display_helpers import DECK, PIN, deal_cards, send, start_two_players

from faro_box.table.table import Table

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def _dealer_login(browser: Any, live: Any) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.goto(live.url + "/dealer")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.locator("#desk").wait_for(state="visible")
    return page


def test_audience_page_shows_a_turns_settlement(browser: Any, live: Any, table: Table) -> None:
    start_two_players(table)
    send(table, {"type": "place", "player": "bob", "spec": {"id": "b2", "kind": "group", "ranks": ["4", "5", "9", "10"],
                                                            "stake": 1}})
    send(table, {"type": "place", "player": "ann", "spec": {"id": "a2", "kind": "high", "stake": 3}})
    deal_cards(table, ["5S"])
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/")
    page.wait_for_selector(".chip[data-bet='a1']")
    assert page.locator(".lcard[data-rank='9'] .chip[data-bet='a1']").inner_text().replace("\u2009", " ") == "A 2"
    assert page.locator(".lcard[data-rank='K'] .chip.copper[data-bet='b1']").count() == 1
    deal_cards(table, ["KD", "9C"])
    latest = page.locator("#announcements .latest")
    latest.wait_for()
    page.wait_for_function("() => document.querySelector('#announcements .latest') && "
                           "document.querySelector('#announcements .latest').textContent.startsWith('Turn 1')")
    assert latest.inner_text() == ("Turn 1: K loses, 9 wins. Ann's 9 wins 2; Bob's coppered K wins 2; "
                                   "Bob's 4-5-9-10 wins 1; Ann's high card loses 3; the bank pays 2.")
    assert page.locator(".cardface.loser .rank").inner_text() == "K"
    assert page.locator(".cardface.winner .rank").inner_text() == "9"
    balances = page.locator(".baltable").inner_text()
    assert "Ann" in balances and "\u22121" in balances and "+3" in balances  # ann 2 - 3, bob 2 + 1
    assert page.locator(".chip[data-bet='a1']").count() == 0  # settled bets leave the layout
    assert page.locator(".stripbox.high .chip[data-bet='a2']").count() == 1  # high card stays
    # The case-keeper: the soda's bead touches the frame, the winner's stops one gap short.
    beads = page.locator("svg.beads circle.bead.out")
    assert beads.count() == 3
    deal_cards(table, ["AS", "8H", "2C", "3D"])
    page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(table.state()["seq"]))
    assert errors == []
    shot(page, "audience_turn.png")
    page.set_viewport_size({"width": 412, "height": 915})  # a phone in the room
    shot(page, "audience_phone.png")
    page.close()


def test_dealer_page_refuses_a_wrong_pin_and_places_a_bet_by_clicks(browser: Any, live: Any, table: Table) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/dealer")
    page.fill("#pin", "0000")
    page.click("#login-button")
    page.wait_for_function("() => document.getElementById('login-message').textContent.length > 0")
    assert page.inner_text("#login-message") == "wrong PIN"
    assert page.locator("#desk").is_hidden()
    shot(page, "dealer_wrong_pin.png")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.locator("#desk").wait_for(state="visible")
    page.fill("#players-input", "ann, bob, cy")
    page.select_option("#profile", "foster")
    page.click("#start")
    page.locator("#players button[data-player='bob']").click()
    page.click(".lcard[data-rank='9']")
    page.click("#copper")
    page.fill("#stake", "3")
    page.click("#place")
    page.wait_for_selector(".lcard[data-rank='9'] .chip.copper")
    bets = table.state()["open_bets"]
    assert [(b["player"], b["kind"], b["ranks"], b["stake"], b.get("copper")) for b in bets] == [
        ("bob", "rank", ["9"], 3, True)]
    # A group by selecting several ranks, then a high-card bet from the strip, for ann.
    page.locator("#players button[data-player='ann']").click()
    page.click("#copper")
    page.fill("#stake", "2")
    for rank in ("4", "5", "9", "10"):
        page.click(f".lcard[data-rank='{rank}']")
    page.click("#place")
    page.wait_for_selector(".lcard[data-rank='4'] .chip.group")
    page.click(".stripbox.high")
    page.wait_for_selector(".stripbox.high .chip")
    kinds = [(b["player"], b["kind"], b.get("ranks")) for b in table.state()["open_bets"]]
    assert kinds[1:] == [("ann", "group", ["4", "5", "9", "10"]), ("ann", "high", None)]
    # A refused bet shows the engine's reason and changes nothing.
    page.locator("#players button[data-player='cy']").click()
    for rank in ("A", "6"):  # not side by side: not a layout group
        page.click(f".lcard[data-rank='{rank}']")
    page.click("#place")
    page.wait_for_function("() => document.getElementById('message').className.includes('error')")
    assert "group" in page.inner_text("#message").lower()
    assert len(table.state()["open_bets"]) == 3
    shot(page, "dealer_bets.png")
    # Withdraw by click.
    page.click(f"button[data-withdraw='{bets[0]['id']}']")
    page.wait_for_function("() => !document.querySelector('.lcard[data-rank=\"9\"] .chip.copper')")
    assert [b["player"] for b in table.state()["open_bets"]] == ["ann", "ann"]
    assert errors == []
    page.close()


def test_dealer_confirms_a_card_the_reader_could_not_read(browser: Any, live: Any, table: Table) -> None:
    start_two_players(table)
    send(table, {"type": "unread", "index": 0, "candidates": ["5S", "6S"], "snapshot": None})
    page = _dealer_login(browser, live)
    page.locator("#pending").wait_for(state="visible")
    assert page.inner_text("#pending-title") == "Card 1 is waiting for the dealer's confirmation"
    page.click("#candidates button:has-text('5S')")
    page.locator("#pending").wait_for(state="hidden")
    assert table.state()["exposed"] == ["5S"]
    page.close()


def test_dealer_answers_no_new_card_when_the_card_before_still_lies_on_top(browser: Any, live: Any,
                                                                          table: Table) -> None:
    start_two_players(table)
    deal_cards(table, ["5S", "KD"])
    send(table, {"type": "unread", "index": 2, "candidates": ["9C"], "snapshot": None})
    page = _dealer_login(browser, live)
    page.locator("#no-card").wait_for(state="visible")
    assert page.inner_text("#no-card") == "No new card: KD still on top"
    page.click("#no-card")
    page.locator("#pending").wait_for(state="hidden")
    state = table.state()
    assert state["pending"] is None and state["exposed"] == ["5S", "KD"]
    assert [e.command.TYPE for e in table.journal.entries()][-1] == "no_card"
    page.close()


def test_dealer_bars_a_bet_and_says_it_goes_by_clicks(browser: Any, live: Any, table: Table) -> None:
    start_two_players(table)
    page = _dealer_login(browser, live)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.click("button[data-bar='a1']")
    page.locator("button[data-release='a1']").wait_for()
    assert [(b["id"], b["barred"]) for b in table.state()["open_bets"]] == [("a1", True), ("b1", False)]
    # A barred 9 neither wins nor loses: turn 1 (KD loses, 9C wins) pays bob's copper alone.
    deal_cards(table, ["5S", "KD", "9C"])
    assert table.state()["balances"]["ann"] == 0 and table.state()["balances"]["bob"] == 2
    page.click("button[data-release='a1']")
    page.locator("button[data-bar='a1']").wait_for()
    assert [(b["id"], b["barred"]) for b in table.state()["open_bets"]][0] == ("a1", False)
    assert [e.command.TYPE for e in table.journal.entries()][-1] == "release"
    assert errors == []
    page.close()


def test_dealer_calls_a_triple_by_its_colours(browser: Any, live: Any, table: Table) -> None:
    # Three sevens are left for the last turn: Foster's houses call the order of their colours.
    last = ["7H", "7C", "7D"]
    deck = [c for c in DECK if c not in last] + last
    send(table, {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]})
    deal_cards(table, deck[:49])
    page = _dealer_login(browser, live)
    assert page.locator("#colours").is_hidden()
    page.click("#call")
    for colour in ("red", "black", "red"):
        page.click(f"#call-{colour}")
    assert page.inner_text("#call-order") == "red \u2192 black \u2192 red"
    page.fill("#stake", "3")
    page.click("#place")
    page.wait_for_function("() => document.getElementById('message').className.includes('ok')")
    bets = table.state()["open_bets"]
    assert [(b["player"], b["kind"], b["order"], b["stake"]) for b in bets] == [
        ("ann", "call", ["red", "black", "red"], 3)]
    deal_cards(table, last[:2])   # the hock is known by elimination
    state = table.state()
    assert state["exposed"][-3:] == last and state["balances"]["ann"] == 6   # 2 to 1
    page.close()
