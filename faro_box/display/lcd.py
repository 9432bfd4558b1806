"""A 20x4 character LCD (HD44780 behind an I2C PCF8574, through RPLCD) and a fake that keeps the lines.

What fits in 80 characters, ASCII only (the HD44780's font has no suits and no Cyrillic):
  line 1  the last turn ("T7 K loses 9 wins"), or a pending card / a fault, which matter more
  line 2  the ranks            "A23456789TJQK"
  line 3  their case counts    "4343444434443"
  line 4  balances, bank first "Bk-8 Ann+5 Bob+3"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from faro_box.display.announce import player_name, signed_amount
from faro_box.display.bank_views import bank_lcd_lines, is_bank
from faro_box.errors import DeviceError
from faro_box.table.events import TableEvent

COLS, ROWS = 20, 4
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class CharDisplay(Protocol):
    def show(self, lines: list[str]) -> None: ...


def _ascii(text: str) -> str:
    return "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in text)


def _signed(value: object) -> str:
    # The HD44780's font has neither the minus sign nor ½.
    return signed_amount(value, "en").replace("−", "-").replace("½", ".5")


def lcd_lines(state: Mapping[str, Any]) -> list[str]:
    """The four 20-character lines for ``state`` (a bank's: bank_views.py)."""
    if is_bank(state):
        return [_ascii(line)[:COLS].ljust(COLS) for line in bank_lcd_lines(state)]
    pending, faults, last = state.get("pending"), state.get("faults") or [], state.get("last_turn")
    if faults:
        first = f"FAULT {faults[0].get('device')}"
    elif pending:
        first = f"CONFIRM card {pending.get('index', 0) + 1}?"
    elif last:
        first = f"T{last['turn']} {last['loser'][:-1]} loses {last['winner'][:-1]} wins"
    elif state.get("exposed"):
        first = f"Soda {state['exposed'][0]}"
    elif state.get("deal") is None:
        first = "No deal"
    else:
        first = f"Deal {state['deal']}: bets"
    case = state.get("case") or {}
    ranks = "".join("T" if r == "10" else r for r in _RANKS)
    counts = "".join(str(case.get(r, "-")) for r in _RANKS)
    balances = state.get("balances") or {}
    parts = [f"Bk{_signed(balances['banker'])}"] if "banker" in balances else []
    parts += [f"{player_name(p)[:3]}{_signed(v)}" for p, v in balances.items() if p != "banker"]
    lines = [first, ranks, counts, " ".join(parts)]
    return [_ascii(line)[:COLS].ljust(COLS) for line in lines]


class FakeLcd:
    """Keeps what a real LCD would show: ``lines`` (4 strings of 20 characters)."""

    def __init__(self) -> None:
        self.lines = [" " * COLS] * ROWS
        self.writes = 0

    def show(self, lines: list[str]) -> None:
        self.lines = [line[:COLS].ljust(COLS) for line in lines[:ROWS]]
        self.writes += 1


class RplcdLcd:
    """The real panel; RPLCD and the I2C bus are opened only here."""

    def __init__(self, address: int = 0x27, port: int = 1, expander: str = "PCF8574") -> None:
        try:
            from RPLCD.i2c import CharLCD  # noqa: PLC0415 - only a box with the panel needs it
            self._lcd = CharLCD(i2c_expander=expander, address=address, port=port, cols=COLS, rows=ROWS)
        except Exception as exc:  # ImportError, OSError from smbus: both mean no usable panel
            raise DeviceError(f"the LCD at I2C address {address:#x} on bus {port!r} cannot be opened: {exc}") from exc
        self._shown: list[str] = []

    def show(self, lines: list[str]) -> None:
        try:
            for row, line in enumerate(lines[:ROWS]):
                if row < len(self._shown) and self._shown[row] == line:
                    continue  # the HD44780 is slow: rewrite only the lines that changed
                self._lcd.cursor_pos = (row, 0)
                self._lcd.write_string(line)
        except OSError as exc:
            self._shown = []
            raise DeviceError(f"the LCD stopped answering: {exc}") from exc
        self._shown = list(lines)


class LcdView:
    """Shows the table on a character display after each event; a failing panel never stops the deal."""

    def __init__(self, display: CharDisplay) -> None:
        self.display = display
        self._table: Any = None
        self._failing = False

    def attach(self, table: Any) -> Callable[[], None]:
        self._table = table
        self.display.show(lcd_lines(table.state()))
        return table.subscribe(self.on_event)

    def on_event(self, event: TableEvent, state: Mapping[str, Any]) -> None:
        lines = lcd_lines(state)
        try:
            self.display.show(lines)
        except DeviceError as exc:
            self._failing = True
            if self._table is not None:
                self._table.report_fault("lcd", str(exc))
            return
        if self._failing:
            self._failing = False
            if self._table is not None:
                self._table.clear_fault("lcd")
