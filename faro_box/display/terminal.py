"""The terminal view for a headless box, in the table's language.

On a terminal the table is drawn once and redrawn in place after each command (rich's Live), the
announcements scrolling above it. Anywhere else (a pipe, a log, systemd's journal) it writes
plain lines: the table once when attached, then each announcement, a card waiting for the dealer
and each fault, one line apiece, and the final table of each deal or bank when it ends. ``style="table"`` writes the whole table as a block after each
command (a test, or a log that wants every state).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Literal, TextIO

from rich.console import Console
from rich.live import Live
from rich.text import Text

from faro_box.display.games import display_of
from faro_box.display.narrator import Narrator
from faro_box.table.events import Fault, FaultCleared, TableEvent
from faro_box.table.views import View

Style = Literal["live", "lines", "table"]


def render_text(state: View, announcements: Sequence[str] = (), lang: str = "en") -> str:
    """The whole table as plain text, as its game draws it (display/games.py)."""
    return display_of(state).text(state, announcements, lang)


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class TerminalView:
    """Shows the table on ``stream`` after each command (``attach(table)`` subscribes); ``close()``
    ends a live view, leaving the last table on the screen."""

    def __init__(self, stream: TextIO, *, lang: str = "en", style: Style | None = None) -> None:
        self._stream = stream
        self._lang = lang
        self._narrator = Narrator(lang)
        self._printed_seq: object = None
        self.style: Style = style or ("live" if _is_terminal(stream) else "lines")
        self._lock = threading.Lock()
        self._live: Live | None = None
        self._said_pending: object = None
        self._said_faults: list[str] = []
        self._partial = ""
        self._ended = False

    def attach(self, table: Any) -> Callable[[], None]:
        state = table.view()
        self._narrator.prime(state)
        if self.style == "live":
            console = Console(file=self._stream, force_terminal=True)
            self._live = Live(Text(render_text(state, (), self._lang)), console=console, auto_refresh=False,
                              redirect_stdout=False, redirect_stderr=False)
            self._live.start(refresh=True)
        else:
            self._write(render_text(state, (), self._lang) + ("\n" if self.style == "table" else ""))
            game = display_of(state)
            self._said_pending, self._said_faults = game.pending_line(state, self._lang), game.fault_lines(state, self._lang)
            self._ended = bool(state.ended)
        return table.subscribe(self.on_event)

    def on_event(self, event: TableEvent, state: View) -> None:
        said = self._narrator.hear(event, state)
        with self._lock:
            if self.style == "lines":
                self._lines(state, said)
                return
            # One command can raise several events sharing one state: show that state once.
            if said or state.seq != self._printed_seq or isinstance(event, (Fault, FaultCleared)):
                self._printed_seq = state.seq
                if self._live is not None:
                    for line in said:
                        self._live.console.print(Text(f">> {line}"))
                    self._live.update(Text(render_text(state, (), self._lang)), refresh=True)
                else:
                    self._write(render_text(state, said, self._lang) + "\n")

    def _lines(self, state: View, said: Sequence[str]) -> None:
        out = [f">> {line}" for line in said]
        game = display_of(state)
        waiting, faults = game.pending_line(state, self._lang), game.fault_lines(state, self._lang)
        if waiting and waiting != self._said_pending:
            out.append(waiting)
        out += [line for line in faults if line not in self._said_faults]
        self._said_pending, self._said_faults = waiting, faults
        ended = bool(state.ended)
        if ended and not self._ended:  # a deal or a bank is over: its final table, once, for the log
            out.append(render_text(state, (), self._lang).rstrip("\n"))
        self._ended = ended
        if out:
            self._write("\n".join(out) + "\n")

    def _write(self, text_: str) -> None:
        self._stream.write(text_)
        self._stream.flush()

    def write(self, data: str) -> int:
        """Others' lines (the demo's remarks) go above a live table rather than through it."""
        self._partial += data
        *lines, self._partial = self._partial.split("\n")
        with self._lock:
            for line in lines:
                if self._live is not None:
                    self._live.console.print(Text(line))
                else:
                    self._write(line + "\n")
        return len(data)

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        with self._lock:
            if self._live is not None:
                self._live.stop()
                self._live = None
