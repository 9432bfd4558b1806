"""What each table event says, found by comparing the table's state before and after it.

The table's listener gets ``(event, view)``. Reading the announcements off the change of state
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

from faro_box.display import announce
from faro_box.display.games import display_of
from faro_box.table.events import TableEvent
from faro_box.table.views import FaroView, View

_MAX_REMEMBERED_BETS = 5000


class Narrator:
    """Turns a stream of (event, view) into announcements; thread-safe."""

    def __init__(self, lang: str = "en", *, keep: int = 30) -> None:
        announce.check_lang(lang)
        self.lang = lang
        self._lock = threading.Lock()
        self._prev: View | None = None
        self._bets: dict[str, dict[str, Any]] = {}
        self.recent: deque[dict[str, Any]] = deque(maxlen=keep)

    def prime(self, state: View) -> None:
        """Start from a state already reached (a restart) without announcing its past."""
        with self._lock:
            self._remember_bets(state)
            self._prev = state

    def hear(self, event: TableEvent, state: View) -> list[str]:
        """The announcements of one event, also appended to ``recent`` with the event's seq."""
        with self._lock:
            texts = self._said(event, state)
            self._remember_bets(state)
            self._prev = state
            seq = state.seq
            for text in texts:
                self.recent.append({"seq": seq, "text": text})
            return texts

    def _remember_bets(self, state: View) -> None:
        for bet in state.open_bets if isinstance(state, FaroView) else ():
            if isinstance(bet, Mapping) and "id" in bet:
                self._bets[str(bet["id"])] = dict(bet)
        if len(self._bets) > _MAX_REMEMBERED_BETS:
            for key in list(self._bets)[: len(self._bets) - _MAX_REMEMBERED_BETS]:
                del self._bets[key]

    def _said(self, event: TableEvent, state: View) -> list[str]:
        return display_of(state).narrate(event, self._prev, state, self.lang, self._bets)

