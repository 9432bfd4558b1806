"""A faro deal on the terminal and on the 20x4 LCD: pure functions of the table's state.

The terminal shows the layout with each rank's cards left in the box, the open bets, the
case-keeper's rods, the last turn, a card waiting for the dealer, the faults and the balances.

The LCD, in 80 ASCII characters (lcd.py pads them and replaces what its font lacks):
  line 1  the last turn ("T7 K loses 9 wins"), or a pending card / a fault, which matter more
  line 2  the ranks            "A23456789TJQK"
  line 3  their case counts    "4343444434443"
  line 4  balances, bank first "Bk-8 Ann+5 Bob+3"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from faro_box.display.announce import balances_text, player_name, signed_amount
from faro_box.display.catalogue import text
from faro_box.table.views import FaroView, View

TOP = ("K", "Q", "J", "10", "9", "8")
BOTTOM = ("A", "2", "3", "4", "5", "6")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


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


def _where(state: FaroView, lang: str) -> str:
    if state.finished:
        return _t("over", lang)
    if state.next_turn:
        return _t("turnN", lang, turn=state.next_turn)
    role = state.next_role.value if state.next_role is not None else ""
    return _t(role, lang) if role in ("soda", "hock") else role


def pending_line(state: FaroView, lang: str = "en") -> str | None:
    pending = state.pending
    if not pending:
        return None
    guess = _t("or", lang).join(pending.get("candidates") or []) or _t("unread", lang)
    return _t("waitingCard", lang, card=pending["index"] + 1, guess=guess)


def fault_lines(state: View, lang: str = "en") -> list[str]:
    return [f"{_t('fault', lang)} {fault.get('device')}: {fault.get('message')}" for fault in state.faults]


def render_faro_text(state: FaroView, announcements: Sequence[str] = (), lang: str = "en") -> str:
    """The whole table as plain text: layout with counts, bets, case-keeper, last turn, balances."""
    lines: list[str] = []
    deal = state.deal
    if deal is None:
        lines.append(_t("noDeal", lang))
    else:
        left = 52 - len(state.exposed)
        lines.append(_t("dealLine", lang, deal=deal, profile=state.profile, where=_where(state, lang),
                        cards=_t("cardsInBox", lang, left)))
    case = state.case or {}

    def cell(rank: str) -> str:
        return f"{rank:>2}:{case.get(rank, '-')}"

    lines.append("  ".join(cell(r) for r in TOP))
    lines.append(" " * 40 + cell("7"))
    lines.append("  ".join(cell(r) for r in BOTTOM))
    bets = state.open_bets
    lines.append(_t("bets", lang) + ": " + ("; ".join(_bet_text(b, lang) for b in bets) if bets else _t("none", lang)))
    beads = state.beads or {}
    for rank in RANKS:
        if rank in beads:
            lines.append(f"{rank:>2} {render_rod(beads[rank])} {case.get(rank, '')}")
    last = state.last_turn
    if last:
        lines.append(_t("lastTurn", lang, turn=last["turn"], loser=last["loser"], winner=last["winner"]))
    waiting = pending_line(state, lang)
    if waiting:
        lines.append(waiting)
    lines.extend(fault_lines(state, lang))
    for said in announcements:
        lines.append(f">> {said}")
    balances = state.balances or {}
    if balances:
        lines.append(_t("balances", lang) + ": " + balances_text(balances, lang))
    return "\n".join(lines) + "\n"


def _signed(value: object) -> str:
    # The HD44780's font has neither the minus sign nor ½.
    return signed_amount(value, "en").replace("−", "-").replace("½", ".5")


def faro_lcd_lines(state: FaroView) -> list[str]:
    """The four lines (unpadded) for a faro deal's state."""
    pending, faults, last = state.pending, state.faults, state.last_turn
    if faults:
        first = f"FAULT {faults[0].get('device')}"
    elif pending:
        first = f"CONFIRM card {pending.get('index', 0) + 1}?"
    elif last:
        first = f"T{last['turn']} {last['loser'][:-1]} loses {last['winner'][:-1]} wins"
    elif state.exposed:
        first = f"Soda {state.exposed[0]}"
    elif state.deal is None:
        first = "No deal"
    else:
        first = f"Deal {state.deal}: bets"
    case = state.case or {}
    ranks = "".join("T" if r == "10" else r for r in RANKS)
    counts = "".join(str(case.get(r, "-")) for r in RANKS)
    balances = state.balances or {}
    parts = [f"Bk{_signed(balances['banker'])}"] if "banker" in balances else []
    parts += [f"{player_name(p)[:3]}{_signed(v)}" for p, v in balances.items() if p != "banker"]
    return [first, ranks, counts, " ".join(parts)]
