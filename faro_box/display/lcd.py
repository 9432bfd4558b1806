"""A 20x4 character LCD (HD44780 behind an I2C PCF8574, through RPLCD) and a fake that keeps the lines.

What fits in 80 characters, ASCII only (the HD44780's font has no suits and no Cyrillic); each
game draws its four lines (faro_views.py, bank_views.py), found by name in display/games.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from faro_box.display.games import display_of
from faro_box.errors import DeviceError
from faro_box.table.events import TableEvent
from faro_box.table.views import View

COLS, ROWS = 20, 4


class CharDisplay(Protocol):
    def show(self, lines: list[str]) -> None: ...


def _ascii(text: str) -> str:
    return "".join(ch if 32 <= ord(ch) < 127 else "?" for ch in text)


def lcd_lines(state: View) -> list[str]:
    """The four 20-character lines for ``state``, as its game draws them (display/games.py)."""
    return [_ascii(line)[:COLS].ljust(COLS) for line in display_of(state).lcd_lines(state)]


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
        self.display.show(lcd_lines(table.view()))
        return table.subscribe(self.on_event)

    def on_event(self, event: TableEvent, state: View) -> None:
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
