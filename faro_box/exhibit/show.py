"""What the exhibition screen shows beside the table: the attract screen, the panels, the odds.

``Show`` listens to the table. Each event may cue explanation panels (``panels.cues``); a cued
panel replaces the one on screen once that one has been up ``panel_s`` seconds (the last one
stays until the next cue), and the deal is held for
``hold_s`` (through ``on_hold``) the first time a panel is shown in a deal, so visitors can
read it before the cards move on. Between the turn's winner and the next loser the odds panel is
refreshed from ``odds_for_deal``. Between deals the screen is the attract screen: the next
deal's title, a countdown, the panels in turn, the QR code for phones.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from faro_box.exhibit.odds_view import odds_panel
from faro_box.exhibit.panels import ORDER, cues, panel_json
from faro_box.exhibit.sources import LANGS, ExhibitDeal
from faro_box.table.events import DealStarted, TableEvent
from faro_box.table.views import View

log = logging.getLogger(__name__)
_ODDS_EVENTS = frozenset({"start_deal", "place", "withdraw", "bar", "release", "turn", "card", "undo"})


def _deal_json(deal: ExhibitDeal | None, loop: int | None = None) -> dict[str, Any] | None:
    if deal is None:
        return None
    return {"name": deal.name, "title": {lang: deal.title_in(lang) for lang in LANGS},
            "blurb": {lang: deal.blurb.get(lang, "") for lang in LANGS}, "loop": loop}


class Show:
    def __init__(self, *, lang: str = "en", visit_url: str | None = None, panel_s: float = 8.0,
                 hold_s: float = 8.0, attract_panel_s: float = 10.0, visitors: Any = None,
                 on_hold: Callable[[float], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lang = lang
        self.visit_url = visit_url
        self.panel_s, self.hold_s, self.attract_panel_s = panel_s, hold_s, attract_panel_s
        self.visitors = visitors
        self.on_hold = on_hold
        self._clock = clock
        self._lock = threading.Lock()
        self._mode = "attract"
        self._deal: dict[str, Any] | None = None
        self._next: dict[str, Any] | None = None
        self._attract_since = clock()
        self._attract_until: float | None = None
        self._queue: deque[tuple[dict[str, Any], float]] = deque(maxlen=8)
        self._shown: set[str] = set()
        self._odds: dict[str, Any] | None = None
        self.cued: deque[str] = deque(maxlen=200)   # the panels cued, for tests and the log

    # ----- the loop tells ----------------------------------------------------------------
    def deal_starts(self, deal: ExhibitDeal, loop: int) -> None:
        with self._lock:
            self._mode = "deal"
            self._deal = _deal_json(deal, loop)
            self._shown = set()
            self._queue.clear()
            self._odds = None

    def attract(self, next_deal: ExhibitDeal | None, seconds: float) -> None:
        with self._lock:
            self._mode = "attract"
            self._next = _deal_json(next_deal)
            now = self._clock()
            self._attract_since = now
            self._attract_until = now + seconds

    # ----- the table tells ---------------------------------------------------------------
    def on_event(self, event: TableEvent, state: View) -> None:
        hold = 0.0
        with self._lock:
            for cue in cues(event, state, frozenset(self._shown)):
                first = cue.panel not in self._shown
                self._shown.add(cue.panel)
                self.cued.append(cue.panel)
                now = self._clock()
                start = max(now, self._queue[-1][1] + self.panel_s) if self._queue else now
                self._queue.append((panel_json(cue.panel, cue.variant), start))
                if first:
                    hold += self.hold_s
            refresh = event.TYPE in _ODDS_EVENTS
        if refresh:
            try:
                odds = odds_panel(state)
            except Exception:  # the odds panel must never stop the deal
                log.exception("the odds panel could not be computed")
                odds = None
            if odds is not None or isinstance(event, DealStarted):
                with self._lock:
                    self._odds = odds
        if hold and self.on_hold is not None:
            self.on_hold(hold)

    # ----- the screen asks ---------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        with self._lock:
            now = self._clock()
            while len(self._queue) > 1 and self._queue[1][1] <= now:
                self._queue.popleft()
            panel = self._queue[0][0] if self._queue else None
            countdown = None
            if self._mode == "attract":
                step = int((now - self._attract_since) // self.attract_panel_s)
                panel = panel_json(ORDER[step % len(ORDER)])
                if self._attract_until is not None:
                    countdown = max(0, round(self._attract_until - now))
            doc = {"mode": self._mode, "lang": self.lang, "langs": list(LANGS), "deal": self._deal,
                   "next": self._next, "countdown": countdown, "panel": panel, "odds": self._odds,
                   "visit_url": self.visit_url}
        doc["visitors"] = self.visitors.summary() if self.visitors is not None else None
        return doc
