"""The terminal view for a headless box, in the table's language.

On a terminal the table is drawn once and redrawn in place after each command (rich's Live), the
announcements scrolling above it. Anywhere else (a pipe, a log, systemd's journal) it writes
plain lines: the table once when attached, then each announcement, a card waiting for the dealer
and each fault, one line apiece, and the final table of each deal or bank when it ends. ``style="table"`` writes the whole table as a block after each
command (a test, or a log that wants every state).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TextIO

from rich.console import Console
from rich.live import Live
from rich.text import Text

from faro_box.display.announce import balances_text, player_name
from faro_box.display.bank_views import is_bank, render_bank_text
from faro_box.display.catalogue import text
from faro_box.display.narrator import Narrator
from faro_box.table.events import Fault, FaultCleared, TableEvent

TOP = ("K", "Q", "J", "10", "9", "8")
BOTTOM = ("A", "2", "3", "4", "5", "6")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
Style = Literal["live", "lines", "table"]


def _t(key: str, lang: str, count: float | None = None, /, **fields: object) -> str:
    return text("terminal", key, lang, count, **fields)


def _bet_text(bet: Mapping[str, Any], lang: str) -> str:
    kind = bet.get("kind", "?")
    what = "-".join(bet.get("ranks") or []) or str(kind)
    if kind == "call":
        what = _t("call", lang) + " " + "-".join(str(o) for o in bet.get("order") or [])
    elif kind in ("high", "odd", "even"):
        what = _t(str(kind), lang)
    flags = " " + _t("copper", lang) if bet.get("copper") else ""
    flags += " " + _t("barred", lang) if bet.get("barred") else ""
    return f"{player_name(str(bet.get('player', '?')))} {what} x{bet.get('stake')}{flags}"


def render_rod(positions: Sequence[float], *, rod: float = 120, bead: float = 10) -> str:
    """One rod as text, outer frame at the left, one character per bead width: "|o-o------ooo|"."""
    cells = ["-"] * max(1, round(rod / bead))
    for p in positions:
        index = min(len(cells) - 1, max(0, round(p / bead)))
        cells[index] = "o"
    return "|" + "".join(cells) + "|"


def _where(state: Mapping[str, Any], lang: str) -> str:
    if state.get("finished"):
        return _t("over", lang)
    if state.get("next_turn"):
        return _t("turnN", lang, turn=state["next_turn"])
    role = str(state.get("next_role") or "")
    return _t(role, lang) if role in ("soda", "hock") else role


def pending_line(state: Mapping[str, Any], lang: str = "en") -> str | None:
    pending = state.get("pending")
    if not pending:
        return None
    guess = _t("or", lang).join(pending.get("candidates") or []) or _t("unread", lang)
    return _t("waitingCard", lang, card=pending["index"] + 1, guess=guess)


def fault_lines(state: Mapping[str, Any], lang: str = "en") -> list[str]:
    return [f"{_t('fault', lang)} {fault.get('device')}: {fault.get('message')}" for fault in state.get("faults") or []]


def render_text(state: Mapping[str, Any], announcements: Sequence[str] = (), lang: str = "en") -> str:
    """The whole table as plain text: layout with counts, bets, case-keeper, last turn, balances."""
    if is_bank(state):
        return render_bank_text(state, announcements, lang)
    lines: list[str] = []
    deal = state.get("deal")
    if deal is None:
        lines.append(_t("noDeal", lang))
    else:
        left = 52 - len(state.get("exposed") or [])
        lines.append(_t("dealLine", lang, deal=deal, profile=state.get("profile"), where=_where(state, lang),
                        cards=_t("cardsInBox", lang, left)))
    case = state.get("case") or {}

    def cell(rank: str) -> str:
        return f"{rank:>2}:{case.get(rank, '-')}"

    lines.append("  ".join(cell(r) for r in TOP))
    lines.append(" " * 40 + cell("7"))
    lines.append("  ".join(cell(r) for r in BOTTOM))
    bets = state.get("open_bets") or []
    lines.append(_t("bets", lang) + ": " + ("; ".join(_bet_text(b, lang) for b in bets) if bets else _t("none", lang)))
    beads = state.get("beads") or {}
    for rank in RANKS:
        if rank in beads:
            lines.append(f"{rank:>2} {render_rod(beads[rank])} {case.get(rank, '')}")
    last = state.get("last_turn")
    if last:
        lines.append(_t("lastTurn", lang, turn=last["turn"], loser=last["loser"], winner=last["winner"]))
    waiting = pending_line(state, lang)
    if waiting:
        lines.append(waiting)
    lines.extend(fault_lines(state, lang))
    for said in announcements:
        lines.append(f">> {said}")
    balances = state.get("balances") or {}
    if balances:
        lines.append(_t("balances", lang) + ": " + balances_text(balances, lang))
    return "\n".join(lines) + "\n"


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
        state = table.state()
        self._narrator.prime(state)
        if self.style == "live":
            console = Console(file=self._stream, force_terminal=True)
            self._live = Live(Text(render_text(state, (), self._lang)), console=console, auto_refresh=False,
                              redirect_stdout=False, redirect_stderr=False)
            self._live.start(refresh=True)
        else:
            self._write(render_text(state, (), self._lang) + ("\n" if self.style == "table" else ""))
            self._said_pending, self._said_faults = pending_line(state, self._lang), fault_lines(state, self._lang)
            self._ended = bool(state.get("ended"))
        return table.subscribe(self.on_event)

    def on_event(self, event: TableEvent, state: Mapping[str, Any]) -> None:
        said = self._narrator.hear(event, state)
        with self._lock:
            if self.style == "lines":
                self._lines(state, said)
                return
            # One command can raise several events sharing one state: show that state once.
            if said or state.get("seq") != self._printed_seq or isinstance(event, (Fault, FaultCleared)):
                self._printed_seq = state.get("seq")
                if self._live is not None:
                    for line in said:
                        self._live.console.print(Text(f">> {line}"))
                    self._live.update(Text(render_text(state, (), self._lang)), refresh=True)
                else:
                    self._write(render_text(state, said, self._lang) + "\n")

    def _lines(self, state: Mapping[str, Any], said: Sequence[str]) -> None:
        out = [f">> {line}" for line in said]
        waiting, faults = pending_line(state, self._lang), fault_lines(state, self._lang)
        if waiting and waiting != self._said_pending:
            out.append(waiting)
        out += [line for line in faults if line not in self._said_faults]
        self._said_pending, self._said_faults = waiting, faults
        ended = bool(state.get("ended"))
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
