"""What each table event says, found by comparing the table's state before and after it.

The table's listener gets ``(event, state)``. Reading the announcements off the change of state
(a new turn in ``turns``, the first card exposed, a new pending card, a new deal in ``history``)
rather than off the event's fields keeps every view (web, terminal, LCD, speech) saying the
same thing however the event is worded, and a view that starts mid-deal says nothing twice.

The narrator also remembers each bet as it stood on the layout, because a turn's settlements
name only bet ids and a settled bet has already left ``open_bets``.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping
from typing import Any

from faro_box.cards import FULL_DECK
from faro_box.display import announce, announce_baccarat
from faro_box.table.events import MisdealCalled, TableEvent

_MAX_REMEMBERED_BETS = 5000


class Narrator:
    """Turns a stream of (event, state) into announcements; thread-safe."""

    def __init__(self, lang: str = "en", *, keep: int = 30) -> None:
        announce.check_lang(lang)
        self.lang = lang
        self._lock = threading.Lock()
        self._prev: Mapping[str, Any] | None = None
        self._bets: dict[str, dict[str, Any]] = {}
        self.recent: deque[dict[str, Any]] = deque(maxlen=keep)

    def prime(self, state: Mapping[str, Any]) -> None:
        """Start from a state already reached (a restart) without announcing its past."""
        with self._lock:
            self._remember_bets(state)
            self._prev = state

    def hear(self, event: TableEvent, state: Mapping[str, Any]) -> list[str]:
        """The announcements of one event, also appended to ``recent`` with the event's seq."""
        with self._lock:
            texts = self._said(event, state)
            self._remember_bets(state)
            self._prev = state
            seq = state.get("seq", getattr(event, "seq", None))
            for text in texts:
                self.recent.append({"seq": seq, "text": text})
            return texts

    def _remember_bets(self, state: Mapping[str, Any]) -> None:
        for bet in state.get("open_bets") or ():
            if isinstance(bet, Mapping) and "id" in bet:
                self._bets[str(bet["id"])] = dict(bet)
        if len(self._bets) > _MAX_REMEMBERED_BETS:
            for key in list(self._bets)[: len(self._bets) - _MAX_REMEMBERED_BETS]:
                del self._bets[key]

    def _said(self, event: TableEvent, state: Mapping[str, Any]) -> list[str]:
        lang, prev = self.lang, self._prev or {}
        if state.get("game") == announce_baccarat.GAME:
            return announce_baccarat.narrate(prev, state, lang)
        said: list[str] = []
        if isinstance(event, MisdealCalled):
            said.append(announce.announce_misdeal(list(event.settlements), lang, self._bets))
        history, prev_history = list(state.get("history") or []), list(prev.get("history") or [])
        if len(history) > len(prev_history):
            past = history[-1]
            said.append(announce.announce_deal_end(past.get("number", past.get("deal", "?")),
                                                   past.get("balances") or {}, lang))
        if state.get("deal") is not None and state.get("deal") != prev.get("deal") and not state.get("finished"):
            said.append(announce.announce_deal_start(state["deal"], state.get("players") or [], lang))
        exposed, prev_exposed = list(state.get("exposed") or []), list(prev.get("exposed") or [])
        same_deal = state.get("deal") == prev.get("deal")
        if not same_deal:
            prev_exposed = []
        if len(exposed) < len(prev_exposed):
            said.append(announce.announce_undo(prev_exposed[-1], lang))
        elif exposed and len(prev_exposed) == 0:
            said.append(announce.announce_soda(exposed[0], lang))
        turns, prev_turns = list(state.get("turns") or []), list(prev.get("turns") or []) if same_deal else []
        for turn in turns[len(prev_turns):] if len(turns) > len(prev_turns) else ():
            said.append(announce.announce_turn(_with_hock(turn, exposed), lang, self._bets))
        pending, prev_pending = state.get("pending"), prev.get("pending")
        if pending and (not prev_pending or prev_pending.get("index") != pending.get("index")):
            said.append(announce.announce_pending(pending.get("index", 0), pending.get("candidates") or [], lang))
        return said


def _with_hock(turn: Mapping[str, Any], exposed: list[str]) -> Mapping[str, Any]:
    """The last turn names the hock: the one card of the deck not yet exposed."""
    if turn.get("turn") != 25 or turn.get("hock"):
        return turn
    shown = set(exposed)
    left = [str(card) for card in FULL_DECK if str(card) not in shown]
    if len(exposed) == 52:
        return {**turn, "hock": exposed[-1]}
    return {**turn, "hock": left[0]} if len(left) == 1 else turn
