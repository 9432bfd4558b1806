"""Every text of every view in every language, counts in each language's CLDR plural forms
(Babel's rules on the server, the browser's Intl.PluralRules on the pages), and the pages take
their texts from the box's one catalogue."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest
from display_helpers import DECK, deal_cards, start_two_players

from faro_box.display import catalogue as cat
from faro_box.display.catalogue import LANGUAGES, catalogue, plural_categories, text
from faro_box.display.web import create_app, serve
from faro_box.table.table import Table

STATIC = [Path(cat.__file__).parent / "static", Path(cat.__file__).parent.parent / "exhibit" / "static"]


def _fields(value: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(value) if name}


def _forms(entry: Any) -> dict[str, str]:
    """Every string of one language's entry, by where it sits."""
    if isinstance(entry, str):
        return {"": entry}
    if "plural" in entry:
        return {f"plural.{k}": v for k, v in entry["plural"].items()}
    return {k: v for k, v in entry.items()}


def test_every_text_has_every_language_with_the_same_fields():
    missing = []
    for view, keys in catalogue().items():
        for key, entry in keys.items():
            if set(entry) != set(LANGUAGES):
                missing.append(f"{view}.{key}: {sorted(set(LANGUAGES) - set(entry))}")
                continue
            english = _forms(entry["en"])
            for lang in LANGUAGES:
                forms = _forms(entry[lang])
                if not all(isinstance(v, str) and v.strip() for v in forms.values()):
                    missing.append(f"{view}.{key}.{lang}: empty")
                if isinstance(entry["en"], dict) and "plural" in entry["en"]:
                    have = set(entry[lang].get("plural", {})) if isinstance(entry[lang], dict) else set()
                    if have != plural_categories(lang):
                        missing.append(f"{view}.{key}.{lang}: plural forms {sorted(have)}, CLDR has "
                                       f"{sorted(plural_categories(lang))}")
                    fields = {f for v in english.values() for f in _fields(v)}
                    if any(_fields(v) - fields for v in forms.values()):
                        missing.append(f"{view}.{key}.{lang}: fields differ")
                elif set(forms) != set(english) or any(_fields(forms[k]) != _fields(english[k]) for k in english):
                    missing.append(f"{view}.{key}.{lang}: not the same texts or fields as English")
    assert not missing, missing


@pytest.mark.parametrize(("n", "expected"), [(1, "1 карта в коробке"), (3, "3 карты в коробке"),
                                             (5, "5 карт в коробке"), (21, "21 карта в коробке"),
                                             (31, "31 карта в коробке"), (44, "44 карты в коробке"),
                                             (11, "11 карт в коробке")])
def test_russian_counts_take_their_plural_form(n: int, expected: str) -> None:
    assert text("terminal", "cardsInBox", "ru", n) == expected


def test_no_page_keeps_a_language_table_of_its_own():
    # Russian or French text in a page's own script means a copy of the catalogue.
    cyrillic = re.compile("[\u0400-\u04ff]")
    for folder in STATIC:
        for path in folder.glob("*.js"):
            assert not cyrillic.search(path.read_text(encoding="utf-8")), path.name
            assert "peut" not in path.read_text(encoding="utf-8") and "Taille" not in path.read_text(encoding="utf-8")


@pytest.mark.browser
def test_the_audience_page_speaks_russian_from_the_catalogue(browser: Any, table: Table, pin_hash: str) -> None:
    server = serve(create_app(table, pin_hash=pin_hash, lang="ru"), port=0, background=True)
    assert server is not None
    try:
        start_two_players(table)
        deal_cards(table, DECK[:21])  # 31 cards left: "31 карта"
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        page.wait_for_function("() => document.querySelector('.boxcount') && "
                               "document.querySelector('.boxcount').textContent.length > 0")
        assert page.locator(".boxcount").inner_text() == "31 карта в коробке"
        assert page.locator("#casekeeper h2").inner_text() == "Счёты"
        assert page.evaluate("document.documentElement.lang") == "ru"
        # Amounts as the terminal writes them: a true minus, a decimal comma in Russian.
        assert page.evaluate("Faro.amount(-1.5)") == "\u22121,5" and page.evaluate("Faro.amount(2)") == "+2"
        assert not errors, errors
    finally:
        server.stop()


@pytest.mark.browser
def test_page_amounts_are_the_terminals(browser: Any, table: Table, pin_hash: str) -> None:
    from faro_box.display.announce import signed_amount

    server = serve(create_app(table, pin_hash=pin_hash), port=0, background=True)
    assert server is not None
    try:
        page = browser.new_page()
        page.goto(server.url + "/")
        for lang in LANGUAGES:
            for value in (0, 2, -5, 1.5, -0.5, 2.25, -10.75):
                # Set and read in one task: each render of a new state sets the page's language
                # back to the table's (Faro.viewTexts), and may run between two evaluations.
                got = page.evaluate(f"() => {{ document.documentElement.lang = '{lang}'; return Faro.amount({value}); }}")
                assert got == signed_amount(value, lang), (lang, value)
    finally:
        server.stop()


def test_every_text_a_page_asks_for_is_in_the_catalogue():
    dealer = catalogue()["dealer"]
    html = (STATIC[0] / "dealer.html").read_text(encoding="utf-8")
    keys = re.findall(r'data-text(?:-label|-placeholder|-alt)?="(\w+)"', html)
    js = (STATIC[0] / "dealer.js").read_text(encoding="utf-8")
    keys += re.findall(r'\btx\("(\w+)"', js)
    assert len(keys) > 40 and not [k for k in keys if k not in dealer]
    desk = re.findall(r'\btx\("(\w+)"', (STATIC[0] / "baccarat.js").read_text(encoding="utf-8"))
    assert len(desk) > 20 and not [k for k in desk if k not in catalogue()["baccaratDesk"]]
    counted = re.findall(r'count\(\w+, "(\w+)"', "".join(p.read_text(encoding="utf-8") for f in STATIC
                                                        for p in f.glob("*.js")))
    views = catalogue()
    assert counted and all(any(k in views[v] and "plural" in views[v][k]["en"] for v in views) for k in counted)


@pytest.mark.browser
def test_the_dealer_page_speaks_french_before_and_after_the_login(browser: Any, table: Table, pin_hash: str) -> None:
    from display_helpers import PIN

    server = serve(create_app(table, pin_hash=pin_hash, lang="fr"), port=0, background=True)
    assert server is not None
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/dealer")
        assert page.locator("#login h2").inner_text() == "Code du banquier"
        assert page.locator("#login-button").inner_text() == "Entrer"
        page.fill("#pin", PIN)
        page.click("#login-button")
        page.locator("#desk").wait_for(state="visible")
        assert page.locator("#start").inner_text() == "Commencer la taille"
        assert page.locator("#card").get_attribute("placeholder") == "p. ex. QH"
        page.click("#place")  # nothing chosen: the page says what to do, in French
        assert page.locator("#message").inner_text() == "Touchez un rang, ou deux à quatre pour un groupe."
        assert not errors, errors
    finally:
        server.stop()


def test_the_terminal_shows_a_bank_in_the_chosen_language() -> None:
    from faro_box.display.terminal import render_text
    from faro_box.table.baccarat.commands import BankBet, StartBank
    from faro_box.table.journal import Journal

    table = Table(Journal())
    table.handle(StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 10))
    table.handle(BankBet("ann", 5))
    russian = render_text(table.view(), (), "ru")
    assert russian.startswith("Банк 1: банкир Eve, фонд 10 из 10; между конами; ждём ставок, потом первой карты")
    assert "Ставки: Ann 5 правая" in russian and "Фишки: Eve 100, Ann 100, Bob 100" in russian
    french = render_text(table.view(), (), "fr")
    assert french.startswith("Banque 1\u00a0: Eve tient la banque") and "Jetons\u00a0:" not in french
