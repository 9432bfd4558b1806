"""A Baccarat Banque bank on the terminal and on the 20x4 LCD: pure functions of the table's state
(table/baccarat/state.py), which keeps the face-down pairs hidden (``None``) until the coup ends.

The terminal shows the bank, the three hands, the bets and the cover left, the last coup's result
side by side, the shoe's cards left by rank, what the table waits for, and everyone's chips.

The LCD, in 80 ASCII characters:
  line 1  a fault, a card to confirm, the coup being dealt, or the last result ("C1 R7 win L5 tie B5")
  line 2  the ranks and the fund      "A23456789TJQK F10"
  line 3  the cards left of each rank, one column each (10, 11, 12 as a, b, c, as hexadecimal
          digits: three decks hold 12 of a rank) and the shoe's total "cccbcccccbccc S148"
  line 4  chips, the banker first     "Eve95 Ann105 Bob100"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from faro_box.display.announce import player_name
from faro_box.display.catalogue import text
from faro_box.table.views import BankView

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SEATS = ("right", "left", "banker")
_SHORT = {"win": "win", "lose": "los", "push": "tie"}


def _t(key: str, lang: str, **fields: object) -> str:
    return text("bankTerminal", key, lang, **fields)


def _seat(seat: str, lang: str) -> str:
    return _t(seat, lang) if seat in SEATS else seat


def waiting_words(waiting: object, lang: str = "en") -> str:
    """What the table waits for, as the dealer would say it."""
    word = str(waiting or "")
    if word == "bets":
        return _t("waitBets", lang)
    if word == "confirm":
        return _t("waitConfirm", lang)
    if word.startswith("card_"):
        return _t("waitCard", lang, seat=_seat(word.removeprefix("card_"), lang))
    if word.startswith("call_"):
        return _t("waitCall", lang, seat=_seat(word.removeprefix("call_"), lang))
    return _t("waitNothing", lang)


def _hand(cards: Sequence[str | None], total: object) -> str:
    shown = " ".join("??" if c is None else c for c in cards) or "-"
    return shown + (f"  = {total}" if total is not None else "")


def _bet(bet: Mapping[str, Any], lang: str) -> str:
    where = "banco" if bet.get("banco") else "à cheval" if bet.get("cheval") else _seat(str(bet.get("side")), lang)
    cut = (f" ({_t('cutFrom', lang, asked=bet['asked'])})"
           if bet.get("asked", bet.get("stake")) != bet.get("stake") else "")
    return f"{player_name(str(bet.get('player')))} {bet.get('stake')} {where}{cut}"


_RESULT_KEY = {"win": "wins", "lose": "loses", "push": "ties"}


def _coup_line(coup: Mapping[str, Any], lang: str) -> str:
    totals, results = coup.get("totals") or {}, coup.get("results") or {}
    sides = ", ".join(f"{_seat(side, lang)} {totals.get(side)} "
                      f"{_t(_RESULT_KEY[str(results.get(side))], lang) if str(results.get(side)) in _RESULT_KEY else '?'}"
                      for side in SEATS[:2])
    natural = _t("natural", lang) if coup.get("natural") else ""
    return _t("lastCoup", lang, coup=coup.get("coup"), natural=natural, sides=sides, bank=totals.get("banker"))


_SEAT_TITLE = {"right": "seatRight", "left": "seatLeft", "banker": "seatBanker"}


def render_bank_text(state: BankView, announcements: Sequence[str] = (), lang: str = "en") -> str:
    lines: list[str] = []
    if state.banker is None:
        lines.append(_t("noBank", lang))
    else:
        where = _t("over", lang, why=state.ended) if state.ended else (
            _t("coupN", lang, coup=state.coup) if state.in_coup else _t("betweenCoups", lang))
        lines.append(_t("head", lang, bank=state.bank, banker=player_name(str(state.banker)),
                        fund=state.fund, declared=state.declared, where=where,
                        waiting=waiting_words(state.waiting, lang)))
        hands, totals = state.hands or {}, state.totals or {}
        active = state.active or {}
        for seat in SEATS:
            who = f" ({player_name(str(active[seat]))})" if seat in active else ""
            title = _t(_SEAT_TITLE[seat], lang) + who + ":"
            lines.append(f"  {title:<16} {_hand(hands.get(seat) or [], totals.get(seat))}")
        bets = state.bets
        cover = state.cover_left
        lines.append(_t("bets", lang) + ": " + ("; ".join(_bet(b, lang) for b in bets) if bets else _t("none", lang))
                     + (f"; {_t('coverLeft', lang, cover=cover)}" if cover is not None else ""))
    last = state.last_coup
    if last:
        lines.append(_coup_line(last, lang))
    shoe = state.shoe or {}
    if shoe.get("remaining") is not None:
        by_rank = shoe.get("by_rank") or {}
        lines.append(_t("shoe", lang, n=shoe["remaining"]) + " "
                     + "  ".join(f"{r} {by_rank.get(r, '-')}" for r in RANKS))
    waiting = bank_pending_line(state, lang)
    if waiting:
        lines.append(waiting)
    lines.extend(bank_fault_lines(state, lang))
    for said in announcements:
        lines.append(f">> {said}")
    balances = _chips(state)
    if balances:
        lines.append(_t("chips", lang) + ": " + ", ".join(f"{player_name(who)} {chips}" for who, chips in balances))
    return "\n".join(lines) + "\n"


def bank_pending_line(state: BankView, lang: str = "en") -> str | None:
    """A card waiting for the dealer (none of a face-down card's identity is in the state)."""
    pending = state.pending
    if not pending:
        return None
    return _t("waitingCard", lang, guess=" / ".join(pending.get("candidates") or []) or "?")


def bank_fault_lines(state: BankView, lang: str = "en") -> list[str]:
    return [f"FAULT {fault.get('device')}: {fault.get('message')}" for fault in state.faults]


def _chips(state: BankView) -> list[tuple[str, object]]:
    balances = dict(state.balances or {})
    banker = state.banker
    first = [(str(banker), balances.pop(banker))] if banker in balances else []
    return first + list(balances.items())


def _count(n: object) -> str:
    return format(n, "x") if isinstance(n, int) and 0 <= n <= 15 else "-"


def bank_lcd_lines(state: BankView) -> list[str]:
    """The four lines (unpadded) for a bank's state."""
    faults, pending, last = state.faults, state.pending, state.last_coup
    waiting = str(state.waiting or "")
    if faults:
        first = f"FAULT {faults[0].get('device')}"
    elif pending:
        first = "CONFIRM the card?"
    elif state.in_coup:
        seat = waiting.removeprefix("card_").removeprefix("call_")
        first = f"C{state.coup} {'call' if waiting.startswith('call_') else 'card'} {seat}"
    elif last:
        totals, results = last.get("totals") or {}, last.get("results") or {}
        first = (f"C{last.get('coup')} R{totals.get('right')} {_SHORT.get(str(results.get('right')), '?')} "
                 f"L{totals.get('left')} {_SHORT.get(str(results.get('left')), '?')} B{totals.get('banker')}")
    elif state.banker is None:
        first = "No bank"
    else:
        first = f"Bank {state.bank}: bets"
    if state.ended and not faults and not pending:
        first = f"Bank over: {state.ended}"
    shoe = state.shoe or {}
    by_rank = shoe.get("by_rank") or {}
    fund = state.fund
    ranks = "".join("T" if r == "10" else r for r in RANKS) + (f" F{fund}" if fund is not None else "")
    counts = "".join(_count(by_rank.get(r)) for r in RANKS)
    if shoe.get("remaining") is not None:
        counts += f" S{shoe['remaining']}"
    chips = " ".join(f"{player_name(who)[:3]}{amount}" for who, amount in _chips(state))
    return [first, ranks, counts, chips]
