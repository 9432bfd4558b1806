"""The display side of each game, found by the table's game names (display/games.py)."""

from __future__ import annotations

import io

import pytest

from faro_box.display import web
from faro_box.display.games import DISPLAYS, display_of, find_display
from faro_box.display.terminal import TerminalView
from faro_box.errors import ScriptError
from faro_box.table.baccarat.commands import BankBet, BankUnread, StartBank
from faro_box.table.games import DEALER_COMMANDS, GAMES
from faro_box.table.journal import Journal
from faro_box.table.table import Table


def test_every_game_the_table_deals_has_its_display_and_no_other() -> None:
    assert [find_display(game.name).name for game in GAMES] == [game.name for game in GAMES]
    assert sorted(d.name for d in DISPLAYS) == sorted(game.name for game in GAMES)


@pytest.mark.parametrize("page", ["audience.html", "dealer.html"])
def test_each_games_page_script_is_loaded_by_the_pages(page: str) -> None:
    html = (web.STATIC / page).read_text(encoding="utf-8")
    for display in DISPLAYS:
        assert (web.STATIC / display.web_script).is_file()
        assert f'src="/static/{display.web_script}"' in html


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(ScriptError, match="'whist'.*faro, baccarat_banque"):
        find_display("whist")


def test_a_table_shows_the_display_of_the_game_at_hand() -> None:
    table = Table(Journal())
    assert display_of(table.view()).name == "faro"
    table.handle(StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 10))
    assert display_of(table.view()).name == "baccarat_banque"


def test_the_terminals_lines_tell_a_banks_card_waiting_for_the_dealer() -> None:
    # The faro line read the pending card's index, which a bank's pending card has not.
    table, out = Table(Journal()), io.StringIO()
    TerminalView(out, style="lines").attach(table)
    for command in (StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 10), BankBet("ann", 5),
                    BankUnread()):
        table.handle(command)
    assert out.getvalue().splitlines()[-1] == "WAITING: the next card needs the dealer's confirmation (?)"


def test_the_dealers_page_takes_the_registrys_commands_not_a_copy_of_them() -> None:
    assert web.DEALER_COMMANDS is DEALER_COMMANDS
