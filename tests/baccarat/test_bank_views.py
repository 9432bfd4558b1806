"""A bank on the terminal view and on the LCD (its fake): hands, results, the shoe by rank, chips,
and no face-down card told before the coup ends."""

from __future__ import annotations

import io

from faro_box.display.lcd import FakeLcd, LcdView
from faro_box.display.terminal import TerminalView
from faro_box.table.baccarat.commands import BankBet, BankCall, BankCard, BankConfirm, BankUnread, StartBank
from faro_box.table.journal import Journal
from faro_box.table.table import Table

START = StartBank(("ann", "bob", "cid"), {"ann": "right", "bob": "left", "cid": "right"}, "eve", 10)
FIRST_SIX = ("9C", "7H", "2S", "4C", "6D", "3C")  # seed 001 §08


def _table() -> tuple[Table, io.StringIO, FakeLcd]:
    table = Table(Journal())
    out, lcd = io.StringIO(), FakeLcd()
    TerminalView(out, style="table").attach(table)
    LcdView(lcd).attach(table)
    for command in (START, BankBet("ann", 5), BankBet("bob", 3)):
        table.handle(command)
    return table, out, lcd


def test_the_terminal_shows_a_bank_without_telling_a_face_down_card() -> None:
    table, out, _ = _table()
    for card in FIRST_SIX:
        table.handle(BankCard(card))
    table.handle(BankCall("right", True))
    table.handle(BankCard("4D"))
    during = out.getvalue()
    last = during[during.rindex("Bank 1:"):]
    assert "Right (Ann):     ?? ?? 4D" in last and "Banker:          ?? ??" in last
    assert "waiting for left's call: a card or stand" in last
    assert "Bets: Ann 5 right; Bob 3 left" in last
    # Only the face-up 4D is counted out of the shoe by rank; no hidden card is named.
    assert "Shoe: 149 left: A 12  2 12  3 12  4 11  5 12  6 12" in last
    assert not any(card in during for card in FIRST_SIX)
    table.handle(BankCall("left", True))
    table.handle(BankCard("2H"))
    table.handle(BankCall("banker", False))
    after = out.getvalue()[len(during):]
    assert ">> Right 7 against the bank's 5: right wins. Ann wins 5." in after
    assert ">> Left 5 against the bank's 5: a tie, stakes back. Bob takes back 3." in after
    assert "Last coup 1: right 7 wins, left 5 ties against the bank's 5" in after
    assert "Right (Ann):     9C 4C 4D  = 7" in after
    assert "Shoe: 148 left: A 12  2 10  3 11  4 10" in after
    assert after.rstrip().endswith("Chips: Eve 95, Ann 105, Bob 100, Cid 100")


def test_the_lcd_shows_the_coup_the_shoe_by_rank_and_the_chips() -> None:
    table, _, lcd = _table()
    assert lcd.lines[0].rstrip() == "Bank 1: bets"
    assert lcd.lines[1].rstrip() == "A23456789TJQK F10" and lcd.lines[2].rstrip() == "ccccccccccccc S156"
    for card in FIRST_SIX:
        table.handle(BankCard(card))
    assert lcd.lines[0].rstrip() == "C1 call right"
    assert lcd.lines[2].rstrip() == "ccccccccccccc S150"  # six cards out, all face down
    table.handle(BankCall("right", True))
    table.handle(BankUnread(("4D", "4H")))
    assert lcd.lines[0].rstrip() == "CONFIRM the card?"
    table.handle(BankConfirm("4D"))
    table.handle(BankCall("left", True))
    table.handle(BankCard("2H"))
    table.handle(BankCall("banker", False))
    assert [line.rstrip() for line in lcd.lines] == [
        "C1 R7 win L5 tie B5", "A23456789TJQK F5", "cabacbbcbcccc S148", "Eve95 Ann105 Bob100"]
    assert all(len(line) == 20 and line.isascii() for line in lcd.lines)
    table.report_fault("camera", "no picture")
    assert lcd.lines[0].rstrip() == "FAULT camera"
