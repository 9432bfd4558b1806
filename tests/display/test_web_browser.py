"""The pages in real headless Chromium against uvicorn and the real Table (screenshots in artifacts/)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from display_helpers import DECK, PIN, deal_cards, send, start_two_players
from screen_checks import KIOSKS, assert_no_scroll, min_type_px, outside, scroll_size, small_text

from faro_box.display.web import create_app, serve
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


# The most the table allows on the screen at once: twenty players (one with the longest name a
# player may have), a past deal, and a last turn that settles a bet of every player.
CROWD = ["ann", "bob", "cy", "dora", "eli", "fay", "gus", "hal", "ida", "jo", "kit", "lou", "max", "nell", "otto",
         "pru", "quin", "rose", "sam", "Maximilian Ferdinand von Hohenzollern-Si"]


def crowded_deal(table: Table) -> None:
    send(table, {"type": "start_deal", "profile": "foster", "players": CROWD})
    deal_cards(table, DECK[:51])   # a whole deal: it goes into the past deals
    send(table, {"type": "start_deal", "profile": "foster", "players": CROWD})
    for i, player in enumerate(CROWD):
        send(table, {"type": "place", "player": player, "spec": {"id": f"r{i}", "kind": "rank", "stake": 1 + i % 5,
                                                               "ranks": [["9", "K", "8", "A"][i % 4]], "copper": i % 3 == 0}})
        send(table, {"type": "place", "player": player, "spec": {"id": f"w{i}", "kind": "rank", "stake": 2 + i % 3,
                                                               "ranks": [["3", "2"][i % 2]]}})
    specs: list[tuple[str, dict[str, Any]]] = [
        ("bob", {"id": "g1", "kind": "group", "ranks": ["4", "5", "9", "10"], "stake": 1}),
        ("cy", {"id": "g2", "kind": "group", "ranks": ["J", "K"], "stake": 2}),
        ("ida", {"id": "h1", "kind": "high", "stake": 3}), ("ida", {"id": "o1", "kind": "odd", "stake": 2}),
        ("fay", {"id": "e1", "kind": "even", "stake": 2}),
        ("hal", {"id": "g3", "kind": "group", "ranks": ["6", "7"], "stake": 5})]
    for player, spec in specs:
        send(table, {"type": "place", "player": player, "spec": spec})
    send(table, {"type": "place", "player": "gus", "spec": {"id": "q1", "kind": "rank", "ranks": ["Q"], "stake": 4}})
    deal_cards(table, DECK[:7])   # soda and three turns: turn 3 settles every player's 2 or 3


# What a visitor must see on a kiosk, on every screen: the layout (its 13 cards and the strip),
# the case-keeper, the last turn's two cards and their words, the latest announcement and every
# balance with its last-turn change.
MUST_SEE = ["#layout", ".lcard", ".stripbox", "#casekeeper svg", "#lastturn .cardface", "#lastturn .cardface .label",
            "#announcements .latest", ".balrow .amount", ".balrow .change.up, .balrow .change.down", ".balrow .name",
            ".chip.group"]


def _open_kiosk(browser: Any, url: str, size: tuple[int, int], table: Table) -> Any:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(table.state()["seq"]))
    page.errors = errors
    return page


@pytest.mark.parametrize("size", KIOSKS, ids=[f"{w}x{h}" for w, h in KIOSKS])
def test_a_kiosk_shows_the_whole_crowded_table_without_scrolling(browser: Any, live: Any, table: Table,
                                                                 size: tuple[int, int]) -> None:
    crowded_deal(table)
    page = _open_kiosk(browser, live.url, size, table)
    shot(page, f"audience_crowded_{size[0]}x{size[1]}.png")
    assert_no_scroll(page)
    for selector in MUST_SEE:
        assert outside(page, selector) == [], selector
    assert page.locator(".balrow").count() == len(CROWD) + 1   # every player and the bank
    assert page.locator(".lcard").count() == 13
    amounts = page.locator(".balrow .amount").all_inner_texts()
    state = table.state()
    assert amounts[-1].replace("\u2212", "-") == f"{state['balances']['banker']:+d}".replace("+0", "0")
    assert small_text(page, min_type_px(*size)) == []
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("size", [(800, 480), (1366, 768)], ids=["800x480", "1366x768"])
def test_a_card_waiting_for_the_dealer_leaves_the_table_in_view(browser: Any, live: Any, table: Table,
                                                               size: tuple[int, int]) -> None:
    crowded_deal(table)
    send(table, {"type": "unread", "index": 7, "candidates": ["4H", "4D"], "snapshot": None})
    page = _open_kiosk(browser, live.url, size, table)
    shot(page, f"audience_pending_{size[0]}x{size[1]}.png")
    assert outside(page, ".banner.pending") == []
    for selector in MUST_SEE:
        assert outside(page, selector) == [], selector
    page.close()


def test_chips_that_do_not_fit_their_card_are_counted_on_one_chip(browser: Any, live: Any, table: Table) -> None:
    send(table, {"type": "start_deal", "profile": "foster", "players": CROWD})
    for i, player in enumerate(CROWD):
        send(table, {"type": "place", "player": player, "spec": {"id": f"q{i}", "kind": "rank", "ranks": ["Q"],
                                                               "stake": 1}})
    page = _open_kiosk(browser, live.url, (800, 480), table)
    cell = page.locator(".lcard[data-rank='Q'] .chips")
    shown = cell.locator(".chip[data-bet]").count()
    more = cell.locator(".chip.more").inner_text()
    assert 0 < shown < len(CROWD) and more == f"+{len(CROWD) - shown}"
    assert outside(page, ".lcard[data-rank='Q'] .chip") == []
    page.close()


@pytest.fixture
def live_ru(table: Table, pin_hash: str) -> Any:
    server = serve(create_app(table, pin_hash=pin_hash, lang="ru"), port=0, background=True)
    assert server is not None
    yield server
    server.stop()


@pytest.mark.parametrize("size", KIOSKS, ids=[f"{w}x{h}" for w, h in KIOSKS])
def test_the_russian_words_under_the_last_turns_cards_fit(browser: Any, live_ru: Any, table: Table,
                                                           size: tuple[int, int]) -> None:
    crowded_deal(table)
    page = _open_kiosk(browser, live_ru.url, size, table)
    shot(page, f"audience_ru_{size[0]}x{size[1]}.png")
    assert page.locator("#lastturn .label").all_inner_texts() == ["проигрывает", "выигрывает"]
    assert_no_scroll(page)
    for selector in MUST_SEE:
        assert outside(page, selector) == [], selector
    # Each word lies under its own card, the two words apart.
    boxes = [page.locator("#lastturn .label").nth(i).bounding_box() for i in range(2)]
    assert boxes[0]["x"] + boxes[0]["width"] < boxes[1]["x"], boxes
    assert small_text(page, min_type_px(*size)) == []
    page.close()


def test_a_group_bet_is_one_chip_where_its_cards_meet(browser: Any, live: Any, table: Table) -> None:
    start_two_players(table)
    send(table, {"type": "place", "player": "bob", "spec": {"id": "b2", "kind": "group", "ranks": ["4", "5", "9", "10"],
                                                            "stake": 1}})
    page = _open_kiosk(browser, live.url, (1280, 720), table)
    chips = page.locator("[data-bet='b2']")
    assert chips.count() == 1
    assert chips.locator(".stake").inner_text() == "B\u20091"
    assert chips.locator(".ranks").inner_text() == "4\u00b75\u00b79\u00b710"
    chip = chips.bounding_box()
    centre = (chip["x"] + chip["width"] / 2, chip["y"] + chip["height"] / 2)
    # The chip covers a corner of each of the four cards, and its centre is where they meet.
    for rank in ("4", "5", "9", "10"):
        card = page.locator(f".lcard[data-rank='{rank}']").bounding_box()
        assert (card["x"] < chip["x"] + chip["width"] and chip["x"] < card["x"] + card["width"]
                and card["y"] < chip["y"] + chip["height"] and chip["y"] < card["y"] + card["height"]), rank
    ten, five = (page.locator(f".lcard[data-rank='{r}']").bounding_box() for r in ("10", "5"))
    assert ten["x"] + ten["width"] <= centre[0] <= five["x"]
    assert ten["y"] + ten["height"] <= centre[1] <= five["y"]
    page.close()


def wait_for_bets(table: Table, done: Any, timeout: float = 15.0) -> list[dict[str, Any]]:
    """The table's open bets once ``done(bets)`` holds: the page's request may still be on its way
    when its message shows (a message left from an earlier action has the same class)."""
    deadline = time.monotonic() + timeout
    while True:
        bets = table.state()["open_bets"]
        if done(bets) or time.monotonic() > deadline:
            return bets
        time.sleep(0.05)


PHONE = (412, 915)


@pytest.mark.parametrize("size", [*KIOSKS, PHONE], ids=[f"{w}x{h}" for w, h in [*KIOSKS, PHONE]])
def test_the_dealer_page_is_usable_on_every_screen(browser: Any, live: Any, table: Table, size: tuple[int, int]) -> None:
    crowded_deal(table)
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(live.url + "/dealer")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.locator("#desk").wait_for(state="visible")
    page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(table.state()["seq"]))
    shot(page, f"dealer_{size[0]}x{size[1]}.png")
    # The page may scroll down, never sideways; every control lies within the screen's width
    # and is large enough for a finger.
    sizes = scroll_size(page)
    assert sizes["w"] == sizes["vw"], sizes
    controls = page.evaluate("""() => Array.from(document.querySelectorAll('#desk button, #desk input, #desk select,'
                                                       + ' #desk .lcard, #desk .stripbox'))
      .filter((e) => e.getBoundingClientRect().width > 0)
      .map((e) => { const r = e.getBoundingClientRect();
                    return [e.id || e.dataset.rank || e.dataset.kind || e.textContent.slice(0, 20), r.left, r.right, r.height]; })""")
    assert len(controls) > 30
    assert [c for c in controls if c[1] < 0 or c[2] > size[0] + 1] == []
    assert [c for c in controls if c[3] < 40] == []
    # A bet placed by taps at this size reaches the table.
    page.locator("#players button[data-player='ann']").click()
    page.click(".lcard[data-rank='J']")
    page.fill("#stake", "2")
    page.click("#place")
    bets = wait_for_bets(table, lambda bets: any(b["player"] == "ann" for b in bets))
    assert [b["ranks"] for b in bets if b["player"] == "ann"][-1] == ["J"]
    assert errors == []
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
    page.wait_for_selector(".layout-grid .chip.group")
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
    bets = wait_for_bets(table, lambda bets: len(bets) > 0)
    assert [(b["player"], b["kind"], b["order"], b["stake"]) for b in bets] == [
        ("ann", "call", ["red", "black", "red"], 3)]
    deal_cards(table, last[:2])   # the hock is known by elimination
    state = table.state()
    assert state["exposed"][-3:] == last and state["balances"]["ann"] == 6   # 2 to 1
    page.close()


# Twenty players whose names share long beginnings (and some their endings too).
NAMESAKES = [f"{first} {last}" for first in ("Margaret", "Maximilian", "Alexandra", "Christopher")
             for last in ("Ashworth", "Ashcroft", "Ashby", "Ashford", "Ashdown")]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=["800x480", "1280x720"])
def test_players_whose_names_share_a_beginning_are_never_shown_alike(browser: Any, live: Any, table: Table,
                                                                      size: tuple[int, int]) -> None:
    send(table, {"type": "start_deal", "profile": "foster", "players": NAMESAKES})
    for i, player in enumerate(NAMESAKES):
        send(table, {"type": "place", "player": player, "spec": {"id": f"r{i}", "kind": "rank", "stake": 1 + i % 5,
                                                               "ranks": [["9", "K", "8", "A"][i % 4]]}})
    deal_cards(table, DECK[:7])
    page = _open_kiosk(browser, live.url, size, table)
    shot(page, f"audience_namesakes_{size[0]}x{size[1]}.png")
    shown = page.evaluate("""() => Array.from(document.querySelectorAll('.balrow:not(.bankrow) .name'))
        .map((n) => ({text: n.innerText, fits: n.scrollWidth <= n.clientWidth + 1}))""")
    assert len(shown) == len(NAMESAKES)
    assert all(s["fits"] for s in shown), shown                  # nothing hidden past the edge
    texts = [s["text"] for s in shown]
    assert len(set(texts)) == len(texts), texts                  # every player told apart
    assert_no_scroll(page)
    assert small_text(page, min_type_px(*size)) == []
    assert page.errors == []
    page.close()
