"""The exhibition screens in real headless Chromium: the attract screen, the panels timed to the
deal, the odds, the QR code, and a visitor's pretend bet from a phone (screenshots in artifacts/)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_checks import KIOSKS, fits

from exhibit.server import exhibit_server
from faro_box.exhibit.sources import bundled_deals, bundled_script
from faro_box.table.commands import CardSeen
from faro_box.table.faro.scripts import script_steps
from faro_box.table.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PUBLIC_URL = "http://192.168.1.20:8150/exhibit/visit"   # as exhibit.public_url sets it


@pytest.fixture
def exhibit(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with exhibit_server(tmp_path, visit_url=PUBLIC_URL) as (table, show, server):
        yield {"table": table, "show": show, "url": server.url}


def _deal_until(table: Table, name: str, cards: int) -> None:
    for command in [s.command for s in script_steps(bundled_script(name))[0]]:
        if isinstance(command, CardSeen) and table.state()["next_index"] >= cards:
            return
        table.handle(command)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def _font_px(page: Any, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)"))


def _type_at_least(page: Any, selector: str, px: float) -> None:
    """Fails unless the element's type reaches ``px``; waits out a redraw that replaces it."""
    page.wait_for_function(
        "([s, px]) => { const e = document.querySelector(s);"
        " return e !== null && e.isConnected && parseFloat(getComputedStyle(e).fontSize) >= px; }",
        arg=[selector, px], timeout=5000)


def test_attract_screen_then_the_split_panel_and_the_odds(browser: Any, exhibit: dict[str, Any]) -> None:
    show, table = exhibit["show"], exhibit["table"]
    deals = bundled_deals()
    show.attract(deals[0], 45)
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(exhibit["url"] + "/exhibit/?lang=en")
    page.wait_for_selector("body[data-mode='attract']")
    page.wait_for_function("() => document.getElementById('attract-next').textContent.length > 0")
    assert page.inner_text("#attract-next") == "Next deal: An early split"
    assert "starts in" in page.inner_text("#attract-count")
    assert page.locator("#attract-panel h2").inner_text()
    # The QR code is drawn by the server, as SVG, for the phone page.
    page.wait_for_function("() => { const i = document.querySelector('.attract-qr img');"
                           " return i.complete && i.naturalWidth > 0; }")
    # Large type: readable from 3 m.
    assert _font_px(page, ".attract-next") >= 48
    _type_at_least(page, "#attract-panel p", 30)
    shot(page, "exhibit_attract.png")

    show.deal_starts(deals[0], 1)
    _deal_until(table, "early_split", 5)   # through turn 2: the split of the 6s
    page.wait_for_selector("body[data-mode='deal']")
    page.wait_for_selector("#panel[data-panel='split']", timeout=15000)
    assert page.locator("#panel h2").inner_text() == "The split: where the bank earns"
    assert "33 times in 833" in page.locator("#panel p").inner_text()
    page.wait_for_function("() => document.getElementById('odds').textContent.includes('1 in')")
    odds = page.inner_text("#odds")
    assert "next turn splits" in odds and "bank's edge" in odds
    assert page.inner_text("#dealtitle") == "An early split"
    page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(table.state()["seq"]))
    _type_at_least(page, "#panel p", 30)
    _type_at_least(page, "#odds .big", 30)
    assert page.locator("#attract").is_hidden()
    shot(page, "exhibit_split_panel.png")
    for lang, title in (("ru", "Сплит: здесь банк зарабатывает"), ("fr", "Le doublet : là où gagne la banque")):
        page.goto(exhibit["url"] + f"/exhibit/?lang={lang}")
        page.wait_for_selector("#panel[data-panel='split']")
        assert page.locator("#panel h2").inner_text() == title
        shot(page, f"exhibit_split_panel_{lang}.png")
    assert errors == []
    page.close()


def test_a_visitor_bets_from_a_phone_and_the_screen_shows_it(browser: Any, exhibit: dict[str, Any]) -> None:
    show, table = exhibit["show"], exhibit["table"]
    show.deal_starts(bundled_deals()[1], 1)
    _deal_until(table, "cat_hop", 1)
    phone = browser.new_page(viewport={"width": 412, "height": 915})
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    phone.goto(exhibit["url"] + "/exhibit/visit")
    phone.click(".langbar button[data-lang='en']")
    phone.fill("#name", "Marie")
    phone.click("#name-button")
    phone.wait_for_selector("#betcard:not(.hidden)")
    phone.click("#ranks button[data-rank='7']")
    phone.click("#stakes button[data-stake='3']")
    phone.click("#copper")
    phone.click("#bet-button")
    phone.wait_for_function("() => document.getElementById('message').textContent.startsWith('Placed')")
    assert phone.inner_text("#message") == "Placed: 7 (c) × 3"
    assert "7 (c) × 3" in phone.inner_text("#mine")
    assert table.state()["open_bets"] == [b for b in table.state()["open_bets"] if b["player"] != "Marie"]
    shot(phone, "exhibit_visit_phone.png")
    kiosk = browser.new_page(viewport={"width": 1920, "height": 1080})
    kiosk.goto(exhibit["url"] + "/exhibit/?lang=en")
    kiosk.wait_for_function("() => document.getElementById('visitors').textContent.includes('Marie')")
    shot(kiosk, "exhibit_visitors.png")
    assert errors == []
    phone.close()
    kiosk.close()


def _decoded_qr(png: bytes) -> str:
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


@pytest.mark.parametrize("mode", ["attract", "deal"])
def test_the_qr_code_on_the_screen_opens_the_configured_address(browser: Any, exhibit: dict[str, Any],
                                                                mode: str) -> None:
    show = exhibit["show"]
    if mode == "attract":
        show.attract(bundled_deals()[0], 45)
    else:
        show.deal_starts(bundled_deals()[0], 1)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(exhibit["url"] + "/exhibit/?lang=en")
    figure = ".attract-qr" if mode == "attract" else ".qr-card"
    page.wait_for_function("(f) => { const i = document.querySelector(f + ' img');"
                           " return i.complete && i.naturalWidth > 0; }", arg=figure)
    # What a phone's camera reads off the screen, decoded from the drawn pixels.
    assert _decoded_qr(page.locator(figure).screenshot()) == PUBLIC_URL
    assert "127.0.0.1" not in page.locator(figure).inner_html()
    page.close()


def test_no_code_when_the_box_has_only_loopback(browser: Any, exhibit: dict[str, Any]) -> None:
    from faro_box.exhibit.web import visit_url_for

    show = exhibit["show"]
    show.visit_url = visit_url_for("127.0.0.1", 8150)   # a display bound to this machine alone
    show.attract(bundled_deals()[0], 45)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(exhibit["url"] + "/exhibit/?lang=en")   # the kiosk's own browser, at 127.0.0.1
    page.wait_for_selector(".attract-qr.noqr")
    assert page.locator(".attract-qr img").is_hidden()
    assert "exhibit.public_url" in page.inner_text("#attract-qrcaption")
    assert _decoded_qr(page.screenshot()) == ""
    assert page.request.get(exhibit["url"] + "/exhibit/qr.svg").status == 404
    assert page.request.get(exhibit["url"] + "/exhibit/api/show").json()["visit_url"] is None
    shot(page, "exhibit_attract_noqr.png")
    page.close()


@pytest.mark.parametrize("size", KIOSKS, ids=[f"{w}x{h}" for w, h in KIOSKS])
def test_the_kiosk_fits_every_screen_in_every_language(browser: Any, exhibit: dict[str, Any],
                                                       size: tuple[int, int]) -> None:
    show, table = exhibit["show"], exhibit["table"]
    show.attract(bundled_deals()[0], 45)
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for lang in ("en", "ru", "fr"):
        page.goto(exhibit["url"] + f"/exhibit/?lang={lang}")
        page.wait_for_selector("body[data-mode='attract']")
        page.wait_for_function("() => document.querySelector('.attract-qr img').naturalWidth > 0")
        fits(page, size, [".attract-title", ".attract-next", ".attract-blurb", "#attract-panel h2", "#attract-panel p",
                           ".attract-qr img", "#attract-qrcaption"])
        shot(page, f"exhibit_attract_{lang}_{size[0]}x{size[1]}.png")
    show.deal_starts(bundled_deals()[0], 1)
    _deal_until(table, "early_split", 5)
    for lang in ("en", "ru", "fr"):
        page.goto(exhibit["url"] + f"/exhibit/?lang={lang}")
        page.wait_for_selector("#panel[data-panel='split']", timeout=15000)
        page.wait_for_function("(seq) => document.body.dataset.seq === seq", arg=str(table.state()["seq"]))
        page.wait_for_function("() => document.querySelector('.qr-card img').naturalWidth > 0")
        fits(page, size, ["#layout", ".lcard", ".stripbox", "#casekeeper svg", "#announcements .latest", "#panel h2",
                           "#panel p", "#odds .big", "#visitors h2", ".qr-card img", "#qrcaption"])
        shot(page, f"exhibit_deal_{lang}_{size[0]}x{size[1]}.png")
    assert errors == []
    page.close()

