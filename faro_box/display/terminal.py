"""The terminal view for a headless box: plain text on any stream, one block per table event."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from faro_box.display.announce import format_amount, player_name
from faro_box.display.bank_views import is_bank, render_bank_text
from faro_box.display.narrator import Narrator
from faro_box.table.events import Fault, FaultCleared, TableEvent

TOP = ("K", "Q", "J", "10", "9", "8")
BOTTOM = ("A", "2", "3", "4", "5", "6")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _signed(value: object) -> str:
    text = format_amount(value, "en")
    return text if text == "0" else ("-" if str(value).startswith("-") else "+") + text


def _bet_text(bet: Mapping[str, Any]) -> str:
    what = "-".join(bet.get("ranks") or []) or bet.get("kind", "?")
    if bet.get("kind") == "call":
        what = "call " + "-".join(str(o) for o in bet.get("order") or [])
    elif bet.get("kind") in ("high", "odd", "even"):
        what = bet["kind"]
    flags = " copper" if bet.get("copper") else ""
    flags += " barred" if bet.get("barred") else ""
    return f"{player_name(str(bet.get('player', '?')))} {what} x{bet.get('stake')}{flags}"


def render_rod(positions: Sequence[float], *, rod: float = 120, bead: float = 10) -> str:
    """One rod as text, outer frame at the left, one character per bead width: "|o-o------ooo|"."""
    cells = ["-"] * max(1, round(rod / bead))
    for p in positions:
        index = min(len(cells) - 1, max(0, round(p / bead)))
        cells[index] = "o"
    return "|" + "".join(cells) + "|"


def render_text(state: Mapping[str, Any], announcements: Sequence[str] = ()) -> str:
    """The whole table as plain text: layout with counts, bets, case-keeper, last turn, balances."""
    if is_bank(state):
        return render_bank_text(state, announcements)
    lines: list[str] = []
    deal = state.get("deal")
    if deal is None:
        lines.append("No deal in progress.")
    else:
        where = "over" if state.get("finished") else (
            f"turn {state['next_turn']}" if state.get("next_turn") else str(state.get("next_role") or ""))
        lines.append(f"Deal {deal} ({state.get('profile')}), {where}, {52 - len(state.get('exposed') or [])} "
                     "cards in the box")
    case = state.get("case") or {}

    def cell(rank: str) -> str:
        return f"{rank:>2}:{case.get(rank, '-')}"

    lines.append("  ".join(cell(r) for r in TOP))
    lines.append(" " * 40 + cell("7"))
    lines.append("  ".join(cell(r) for r in BOTTOM))
    bets = state.get("open_bets") or []
    lines.append("Bets: " + ("; ".join(_bet_text(b) for b in bets) if bets else "none"))
    beads = state.get("beads") or {}
    for rank in RANKS:
        if rank in beads:
            lines.append(f"{rank:>2} {render_rod(beads[rank])} {case.get(rank, '')}")
    last = state.get("last_turn")
    if last:
        lines.append(f"Last turn {last['turn']}: {last['loser']} loses, {last['winner']} wins")
    pending = state.get("pending")
    if pending:
        lines.append(f"WAITING: card {pending['index'] + 1} needs the dealer's confirmation "
                     f"({' or '.join(pending.get('candidates') or []) or 'unread'})")
    for fault in state.get("faults") or []:
        lines.append(f"FAULT {fault.get('device')}: {fault.get('message')}")
    for text in announcements:
        lines.append(f">> {text}")
    balances = state.get("balances") or {}
    if balances:
        lines.append("Balances: " + ", ".join(
            f"{'bank' if who == 'banker' else player_name(who)} {_signed(v)}" for who, v in balances.items()))
    return "\n".join(lines) + "\n"


class TerminalView:
    """Prints the table on ``stream`` after each command (``attach(table)`` subscribes)."""

    def __init__(self, stream: TextIO, *, lang: str = "en") -> None:
        self._stream = stream
        self._narrator = Narrator(lang)
        self._printed_seq: object = None

    def attach(self, table: Any) -> Callable[[], None]:
        state = table.state()
        self._narrator.prime(state)
        self._print(state, [])
        return table.subscribe(self.on_event)

    def on_event(self, event: TableEvent, state: Mapping[str, Any]) -> None:
        said = self._narrator.hear(event, state)
        # One command can raise several events sharing one state: print that state once.
        if said or state.get("seq") != self._printed_seq or isinstance(event, (Fault, FaultCleared)):
            self._print(state, said)

    def _print(self, state: Mapping[str, Any], said: Sequence[str]) -> None:
        self._printed_seq = state.get("seq")
        self._stream.write(render_text(state, said) + "\n")
        self._stream.flush()
