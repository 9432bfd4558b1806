"""The display side of each game, found by name: ``find_display("faro")``,
``find_display("baccarat_banque")``; ``display_of(state)`` for the game a state belongs to.

table/games.py holds each game's commands, state machine and scripts; the table must not depend
on the displays, so what each game says and draws lives here, keyed by the same names as
``faro_box.table.games.GAMES``: what its narrator announces of a change of state, its terminal
text, its four LCD lines, the line of a card waiting for the dealer and of each fault, and the
page script that draws it on the web pages (display/static). Nothing registers itself on import:
the registry is this list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from faro_box.display import announce, announce_baccarat
from faro_box.display.bank_views import bank_fault_lines, bank_lcd_lines, bank_pending_line, render_bank_text
from faro_box.display.faro_views import faro_lcd_lines, fault_lines, pending_line, render_faro_text
from faro_box.errors import ScriptError
from faro_box.table.events import TableEvent
from faro_box.table.games import BACCARAT_BANQUE, FARO
from faro_box.table.views import BankView, FaroView, View

V = TypeVar("V", FaroView, BankView)
# (event, the view before (of either game), the view after, language, the bets as they stood on
# the layout) -> announcements
Narrate = Callable[[TableEvent, View | None, V, str, Mapping[str, Mapping[str, Any]]], list[str]]


@dataclass(frozen=True)
class GameDisplay(Generic[V]):
    name: str                                            # a table.games.GAMES name
    narrate: Narrate[V]
    text: Callable[[V, Sequence[str], str], str]         # (view, announcements, lang) -> the terminal's table
    lcd_lines: Callable[[V], list[str]]                  # four lines, unpadded, for the 20x4 LCD
    pending_line: Callable[[V, str], str | None]         # a card waiting for the dealer, or None
    fault_lines: Callable[[V, str], list[str]]
    web_script: str                                      # the page script in display/static that draws it


def _narrate_bank(event: TableEvent, prev: View | None, state: BankView, lang: str,
                  bets: Mapping[str, Mapping[str, Any]]) -> list[str]:
    # A coup's result names its stakes itself: the bank needs neither the event nor the bets.
    return announce_baccarat.narrate(prev, state, lang)


FARO_DISPLAY = GameDisplay[FaroView](FARO, announce.narrate, render_faro_text, faro_lcd_lines, pending_line,
                                     fault_lines, "faro.js")
BANK_DISPLAY = GameDisplay[BankView](BACCARAT_BANQUE, _narrate_bank, render_bank_text, bank_lcd_lines,
                                     bank_pending_line, bank_fault_lines, "baccarat.js")
DISPLAYS: tuple[GameDisplay[Any], ...] = (FARO_DISPLAY, BANK_DISPLAY)


def find_display(name: object) -> GameDisplay[Any]:
    """The display side of the game called ``name``; ScriptError naming the games there are."""
    for display in DISPLAYS:
        if display.name == name:
            return display
    raise ScriptError(f"unknown game {name!r:.40}: expected one of {', '.join(d.name for d in DISPLAYS)}")


def display_of(view: View) -> GameDisplay[Any]:
    """The display side of the game ``view`` shows."""
    return find_display(view.game)
