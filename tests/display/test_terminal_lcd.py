"""The terminal view and the 20x4 LCD, driven by the real Table."""

from __future__ import annotations

import dataclasses
import io

from display_helpers import DECK, deal_cards, send, start_two_players

from faro_box.display.faro_views import render_rod
from faro_box.display.lcd import FakeLcd, LcdView, lcd_lines
from faro_box.display.terminal import TerminalView
from faro_box.errors import DeviceError
from faro_box.table.faro.state import TableState
from faro_box.table.table import Table


def test_rod_text_shows_touching_and_gapped_beads() -> None:
    assert render_rod([80, 90, 100, 110]) == "|--------oooo|"
    assert render_rod([0, 90, 100, 110]) == "|o--------ooo|"  # a loser (or the soda) touches the frame
    assert render_rod([10, 90, 100, 110]) == "|-o-------ooo|"  # a winner stops one gap short
    assert render_rod([0, 10, 20, 30]) == "|oooo--------|"  # finished


def test_terminal_prints_each_command_once_with_its_announcements(table: Table) -> None:
    out = io.StringIO()
    TerminalView(out, style="table").attach(table)
    assert out.getvalue().startswith("No deal in progress.")
    start_two_players(table)
    deal_cards(table, ["5S", "KD", "9C"])
    text = out.getvalue()
    blocks = [b for b in text.split("\n\n") if b.strip()]
    assert len(blocks) == 1 + 3 + 3  # the first view, start + 2 bets, 3 cards
    last = blocks[-1]
    assert ">> Turn 1: K loses, 9 wins. Ann's 9 wins 2; Bob's coppered K wins 2; the bank pays 4." in last
    assert " 9 |-o-------ooo| 3" in last and " K |o--------ooo| 3" in last
    assert "Balances: Ann +2, Bob +2, Bank −4" in last
    assert "Bets: Ann 9 x2; Bob K x2 copper" in blocks[3]
    assert ">> Soda: 5♠." in blocks[4]


def test_terminal_in_russian_says_the_last_turn_and_the_hock(table: Table) -> None:
    out = io.StringIO()
    TerminalView(out, lang="ru", style="table").attach(table)
    start_two_players(table)
    deal_cards(table, DECK[:51])
    text = out.getvalue()
    assert "Ход 25: проигрывает десятка, выигрывает валет." in text
    assert "Хок, последняя карта: дама бубен." in text


def test_lcd_shows_last_turn_case_counts_and_balances(table: Table) -> None:
    lcd = FakeLcd()
    LcdView(lcd).attach(table)
    assert lcd.lines[0].rstrip() == "No deal"
    start_two_players(table)
    deal_cards(table, ["5S", "KD", "9C"])
    assert lcd.lines == ["T1 K loses 9 wins".ljust(20), "A23456789TJQK".ljust(20),
                         "4444344434443".ljust(20), "Bk-4 Ann+2 Bob+2".ljust(20)]
    send(table, {"type": "unread", "index": 3, "candidates": ["AS"], "snapshot": None})
    assert lcd.lines[0].rstrip() == "CONFIRM card 4?"
    assert all(len(line) == 20 and line.isascii() for line in lcd.lines)


def test_lcd_lines_fit_with_many_players() -> None:
    state = dataclasses.replace(TableState().view(), deal=1,
                                balances={f"player{i}": -i * 1.5 for i in range(10)} | {"banker": 67.5})
    lines = lcd_lines(state)
    assert lines[3] == "Bk+67.5 Pla0 Pla-1.5"[:20] and all(len(line) == 20 for line in lines)


class BrokenLcd:
    def __init__(self) -> None:
        self.broken = True
        self.shown: list[list[str]] = []

    def show(self, lines: list[str]) -> None:
        if self.broken:
            raise DeviceError("the LCD stopped answering: [Errno 121] Remote I/O error")
        self.shown.append(lines)


def test_a_failing_lcd_is_a_fault_not_a_crash(table: Table) -> None:
    lcd = BrokenLcd()
    lcd.broken = False
    LcdView(lcd).attach(table)
    lcd.broken = True
    start_two_players(table)
    assert table.state()["faults"] == [{"device": "lcd", "message": "the LCD stopped answering: [Errno 121] Remote I/O error"}]
    assert table.state()["deal"] == 1
    lcd.broken = False
    deal_cards(table, ["5S"])
    assert table.state()["faults"] == []
    assert lcd.shown[-1][0].rstrip() == "Soda 5S"
