"""The exhibition screen in the language it shows: the table's own parts (the layout strip, the
case-keeper heading, the box's count) follow the screen's language, not the table's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from exhibit.server import exhibit_server
from faro_box.exhibit.sources import bundled_script
from faro_box.table.commands import CardSeen
from faro_box.table.faro.scripts import script_steps

pytestmark = [pytest.mark.browser]


STATUS = {"ru": ["Талия", "1", "Ход", "4"], "fr": ["Taille", "1", "Coup", "4"]}
TITLES = {"ru": ("Фараон — выставка", "Фараон — ставки понарошку"),
          "fr": ("Pharaon — exposition", "Pharaon — mises pour rire")}
HEADING = {"ru": "Фараон", "fr": "Pharaon"}


@pytest.fixture
def screen(tmp_path) -> Iterator[Any]:
    """An exhibition server whose table (speaking English) is at turn 4 of the triple deal."""
    with exhibit_server(tmp_path) as (table, _show, server):  # the table speaks English
        for step in script_steps(bundled_script("triple"))[0]:
            if isinstance(step.command, CardSeen) and table.state()["next_index"] >= 7:
                break
            table.handle(step.command)
        yield server


@pytest.mark.parametrize(("lang", "heading", "box"), [("ru", "Счёты", "карт"), ("fr", "Tableau des cartes", "cartes")])
def test_the_table_on_the_exhibition_screen_speaks_the_screens_language(browser: Any, screen, lang, heading,
                                                                          box) -> None:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(screen.url + f"/exhibit/?lang={lang}")
    page.wait_for_function("() => document.querySelector('#casekeeper h2')")
    assert page.locator("#casekeeper h2").inner_text() == heading
    assert box in page.locator(".boxcount").inner_text()
    assert page.locator("#status").inner_text().split()[:4] == STATUS[lang]
    page.wait_for_function(f"() => document.title === {TITLES[lang][0]!r}")
    assert page.locator(".topbar h1").inner_text() == HEADING[lang]
    visit = browser.new_page(viewport={"width": 390, "height": 844})
    visit.on("pageerror", lambda exc: errors.append(str(exc)))
    visit.goto(screen.url + f"/exhibit/visit?lang={lang}")
    visit.wait_for_function(f"() => document.title === {TITLES[lang][1]!r}")
    assert visit.locator(".topbar h1").inner_text() == HEADING[lang]
    # The status line is drawn from the first state the page receives, after its title.
    visit.wait_for_function("() => document.querySelector('#status').innerText.trim() !== ''")
    assert visit.locator("#status").inner_text().split()[:2] == STATUS[lang][:2]
    assert not errors, errors


def test_the_table_turns_to_the_next_language_with_the_screen_without_waiting_for_a_card(browser: Any,
                                                                                          screen) -> None:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(screen.url + "/exhibit/")                     # English first, then every 10 s the next
    page.wait_for_function("() => document.body.dataset.lang === 'ru'", timeout=30_000)
    page.wait_for_function("() => document.querySelector('#status').innerText.startsWith('Талия')", timeout=3_000)
    assert page.locator("#casekeeper h2").inner_text() == "Счёты"
    assert page.title() == TITLES["ru"][0]
