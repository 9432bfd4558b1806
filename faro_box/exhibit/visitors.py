"""Visitors' pretend bets: placed from a phone, settled by the rules engine beside the real deal.

No money, no login: a visitor is a random token in a cookie and a name of their choosing. Each
visitor's bets live on a *shadow* ``Deal`` of their own that follows the cards of the table's
deal (through the table's listener), so the engine settles them exactly as it settles the
players' bets. The book only ever *reads* the table (``subscribe`` and ``state``): it holds no
way to send the table a command, so a pretend bet can never change the real deal.

Everything a stranger can grow is bounded: visitors (the idle ones are forgotten first), open
bets per visitor, stakes, names, and the rate of bets and of new visitors per client address and
for everyone together (token buckets).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from faro_box.cards import Rank
from faro_box.display.throttle import TokenBuckets
from faro_box.errors import FaroBoxError, RuleError
from faro_box.rules.faro import Deal, house_profile
from faro_box.rules.faro.settle import json_amount
from faro_box.table.events import CardTaken, CardTakenBack, DealEnded, DealStarted, MisdealCalled, TableEvent
from faro_box.table.views import FaroView, View

RESERVED = frozenset({"banker", "bank", "dealer", "house", "банк", "банкомёт", "banque", "banquier"})
_NAME = re.compile(r"^[\w][\w .'\-]*$")
_RANKS = {r.symbol: r for r in Rank}


@dataclass(frozen=True)
class VisitorLimits:
    max_visitors: int = 300
    idle_s: float = 3600.0          # a visitor unseen this long may be forgotten for a new one
    max_open_bets: int = 3
    max_stake: int = 5
    name_length: int = 16
    bet_rate: float = 0.5           # bets per second per client (and per visitor), after a burst
    bet_burst: int = 3
    global_bet_rate: float = 5.0
    global_bet_burst: int = 20
    join_rate: float = 1 / 120      # new visitors per second per client address
    join_burst: int = 3
    global_join_rate: float = 1.0
    global_join_burst: int = 30
    recent: int = 12                # settlements remembered for the display


class Refused(FaroBoxError):
    """A visitor's request that is refused; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


@dataclass
class Visitor:
    token: str
    csrf: str
    seen: float
    name: str | None = None
    banked: int = 0                     # half-chips from the deals already over
    deal: Deal | None = None            # the shadow deal of the table's current deal
    deal_number: int | None = None
    placed: int = 0
    results: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=8))
    labels: dict[str, str] = field(default_factory=dict)   # open bet id -> "7 coppered"

    @property
    def halves(self) -> int:
        live = self.deal.balance_halves.get(self.name or "", 0) if self.deal is not None else 0
        return self.banked + live


def check_name(name: object, limits: VisitorLimits, taken: set[str]) -> str:
    if not isinstance(name, str):
        raise Refused(400, f"a name must be text, not {name!r:.40}")
    clean = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(clean) <= limits.name_length:
        raise Refused(422, f"a name has 1 to {limits.name_length} characters, not {len(clean)}: {clean[:40]!r}")
    if not _NAME.match(clean) or "_" in clean:
        raise Refused(422, f"a name is letters, digits, spaces, hyphens and apostrophes: {clean!r}")
    if clean.casefold() in RESERVED:
        raise Refused(422, f"{clean!r} is the bank's: choose another name")
    if clean.casefold() in taken:
        raise Refused(409, f"{clean!r} is taken: choose another name")
    return clean


class VisitorBook:
    def __init__(self, limits: VisitorLimits | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or VisitorLimits()
        lim = self.limits
        self._clock = clock
        self._lock = threading.RLock()
        self._visitors: dict[str, Visitor] = {}
        self._bets_per_client = TokenBuckets(lim.bet_rate, lim.bet_burst, clock)
        self._bets_all = TokenBuckets(lim.global_bet_rate, lim.global_bet_burst, clock)
        self._joins_per_client = TokenBuckets(lim.join_rate, lim.join_burst, clock)
        self._joins_all = TokenBuckets(lim.global_join_rate, lim.global_join_burst, clock)
        self._state: View | None = None
        self.recent: deque[dict[str, Any]] = deque(maxlen=lim.recent)
        self.version = 0

    # ----- the table ---------------------------------------------------------------------
    def attach(self, table: Any) -> Callable[[], None]:
        """Follow ``table`` (anything with ``view()`` and ``subscribe()``): read only."""
        with self._lock:
            self._state = table.view()
        unsubscribe: Callable[[], None] = table.subscribe(self.on_event)
        return unsubscribe

    def on_event(self, event: TableEvent, state: View) -> None:
        with self._lock:
            if isinstance(event, CardTaken):
                self._expose(event)
            elif isinstance(event, CardTakenBack):
                for visitor in self._following(state):
                    assert visitor.deal is not None
                    if len(visitor.deal.exposed) > event.index:
                        visitor.deal.undo()
            elif isinstance(event, MisdealCalled):
                for visitor in self._following(state):
                    assert visitor.deal is not None
                    visitor.deal.misdeal()
            elif isinstance(event, (DealEnded, DealStarted)):
                for visitor in self._visitors.values():
                    self._bank(visitor)
            self._state = state
            self.version += 1

    def _following(self, state: View) -> list[Visitor]:
        number = state.deal
        return [v for v in self._visitors.values() if v.deal is not None and v.deal_number == number]

    def _expose(self, event: CardTaken) -> None:
        index = event.index
        for visitor in self._visitors.values():
            deal = visitor.deal
            if deal is None or len(deal.exposed) != index:
                continue
            try:
                exposure = deal.expose(event.card)
            except FaroBoxError:
                self._bank(visitor)   # out of step with the table: its bets are returned
                continue
            result = exposure.turn_result
            if result is None:
                continue
            for s in result.settlements:
                record = {"name": visitor.name, "bet": s.bet_id, "result": s.result.value,
                          "amount": json_amount(s.halves), "turn": result.turn,
                          "what": visitor.labels.pop(s.bet_id, s.bet_id)}
                visitor.results.append(record)
                self.recent.append(record)

    def _bank(self, visitor: Visitor) -> None:
        """The deal is over for this visitor: its result joins the visitor's balance."""
        if visitor.deal is not None:
            visitor.banked += visitor.deal.balance_halves.get(visitor.name or "", 0)
        visitor.deal = None
        visitor.deal_number = None
        visitor.labels.clear()

    # ----- visitors ----------------------------------------------------------------------
    def join(self, client: str) -> Visitor:
        """A new visitor (a phone without our cookie)."""
        with self._lock:
            for bucket, key in ((self._joins_per_client, client), (self._joins_all, "*")):
                wait = bucket.take(key)
                if wait:
                    raise Refused(429, f"too many new visitors from here: wait {wait:.0f} s", wait)
            now = self._clock()
            if len(self._visitors) >= self.limits.max_visitors:
                idle = [v for v in self._visitors.values() if now - v.seen > self.limits.idle_s and v.deal is None]
                if not idle:
                    raise Refused(503, "the exhibition has all the visitors it can follow: try again later", 60)
                oldest = min(idle, key=lambda v: v.seen)
                del self._visitors[oldest.token]
            visitor = Visitor(secrets.token_urlsafe(24), secrets.token_urlsafe(24), now)
            self._visitors[visitor.token] = visitor
            self.version += 1
            return visitor

    def get(self, token: str | None) -> Visitor | None:
        if not token:
            return None
        with self._lock:
            visitor = self._visitors.get(token)
            if visitor is not None:
                visitor.seen = self._clock()
            return visitor

    def set_name(self, visitor: Visitor, name: object) -> str:
        with self._lock:
            if visitor.deal is not None:
                raise Refused(409, "your bets of this deal carry your name: change it after the deal")
            taken = {v.name.casefold() for v in self._visitors.values() if v.name and v is not visitor}
            taken |= {str(p).casefold() for p in (self._state.players if self._state is not None else ())}
            visitor.name = check_name(name, self.limits, taken)
            self.version += 1
            return visitor.name

    def bet(self, visitor: Visitor, client: str, spec: object) -> dict[str, Any]:
        """Place a pretend rank bet ``{"rank": "7", "stake": 1..max, "copper": bool}``."""
        lim = self.limits
        if not isinstance(spec, Mapping) or set(spec) - {"rank", "stake", "copper"}:
            raise Refused(400, f'a pretend bet is {{"rank": "7", "stake": 1, "copper": false}}, not {spec!r:.80}')
        rank, stake, copper = spec.get("rank"), spec.get("stake"), spec.get("copper", False)
        if not isinstance(rank, str) or rank not in _RANKS:
            raise Refused(422, f"no such rank {rank!r:.10}: use one of {' '.join(_RANKS)}")
        if isinstance(stake, bool) or not isinstance(stake, int) or not 1 <= stake <= lim.max_stake:
            raise Refused(422, f"a pretend stake is 1 to {lim.max_stake} chips, not {stake!r:.20}")
        if not isinstance(copper, bool):
            raise Refused(422, f"copper is true or false, not {copper!r:.20}")
        with self._lock:
            if visitor.name is None:
                raise Refused(409, "choose a name first")
            for bucket, key in ((self._bets_per_client, client), (self._bets_per_client, "v:" + visitor.token),
                                (self._bets_all, "*")):
                wait = bucket.take(key)
                if wait:
                    raise Refused(429, f"one moment: the next pretend bet in {wait:.0f} s", wait)
            deal = self._shadow(visitor)
            if len(deal.open_bets) >= lim.max_open_bets:
                raise Refused(422, f"at most {lim.max_open_bets} pretend bets at a time")
            visitor.placed += 1
            bet_id = f"{visitor.token[:6]}-{rank}{'c' if copper else ''}{visitor.placed}"
            try:
                bet = deal.place(visitor.name, {"id": bet_id, "kind": "rank", "ranks": [rank], "stake": stake,
                                                "copper": copper})
            except RuleError as exc:
                raise Refused(422, str(exc)) from None
            visitor.labels[bet.id] = f"{rank} coppered" if copper else str(rank)
            self.version += 1
            return {"bet": bet.id, "rank": rank, "stake": stake, "copper": copper}

    def _shadow(self, visitor: Visitor) -> Deal:
        state = self._state
        if not isinstance(state, FaroView) or state.deal is None or state.profile is None or state.ended or state.next_turn is None:
            raise Refused(409, "no deal is being dealt: your bet can go on when the next deal starts")
        number = state.deal
        if visitor.deal is not None and visitor.deal_number == number:
            return visitor.deal
        self._bank(visitor)
        profile = house_profile(state.profile, state.house_rules)
        assert visitor.name is not None
        deal = Deal(profile, (visitor.name,))
        for card in state.exposed:
            deal.expose(card)
        visitor.deal, visitor.deal_number = deal, number
        return deal

    # ----- what the screens show ---------------------------------------------------------
    def me(self, visitor: Visitor) -> dict[str, Any]:
        with self._lock:
            bets = []
            if visitor.deal is not None:
                bets = [{"bet": b.id, "rank": b.ranks[0].symbol if b.ranks else None, "stake": b.stake,
                         "copper": b.copper} for b in visitor.deal.open_bets]
            return {"name": visitor.name, "balance": json_amount(visitor.halves), "open_bets": bets,
                    "results": list(visitor.results), "max_stake": self.limits.max_stake,
                    "max_open_bets": self.limits.max_open_bets}

    def summary(self, top: int = 5) -> dict[str, Any]:
        with self._lock:
            named = [v for v in self._visitors.values() if v.name]
            ranked = sorted(named, key=lambda v: (-v.halves, v.name or ""))[:top]
            return {"count": len(named),
                    "total": json_amount(sum(v.halves for v in named)),
                    "leaders": [{"name": v.name, "balance": json_amount(v.halves)} for v in ranked],
                    "recent": list(self.recent)[-6:]}

    def __len__(self) -> int:
        return len(self._visitors)
