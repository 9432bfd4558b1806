"""The demonstration deal: the simulated dealing box through the real reader, tracker and table.

Nothing here is a shortcut around the product: every frame of ``vision.simbox.SimBox`` goes
through ``live.TrackerBridge``, the very glue ``faro-box run`` feeds its camera to, into
``vision.track.Tracker`` with the real ``vision.reader.Reader``; the tracker's events become
table commands (journaled), the table moves the fake case-keeper's beads and feeds the
displays. Only two parts are played by the program: the players, who place the bets of
``plan_bets`` between turns, and the dealer, who answers the table's "confirm that card" with
the card that really left the box (the simulated box knows it).

The deck is shuffled from the seed, then stacked a little so that one demonstration shows every
kind of bet at work: a split on a turn, and the last three cards fixed by the shuffle.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from faro_box.cards import DECK_SIZE, FULL_DECK, Card
from faro_box.errors import RuleError
from faro_box.live.faro import TrackerBridge
from faro_box.rules.faro import LAST_TURN, Role, settle_script
from faro_box.table.commands import (
    Command,
    ConfirmCard,
    EndDeal,
    PlaceBet,
    StartDeal,
    WithdrawBet,
)
from faro_box.table.events import CardTaken, CardTakenBack, How, TableEvent
from faro_box.table.faro.state import TableState
from faro_box.table.games import export_deal
from faro_box.table.table import Table
from faro_box.table.views import FaroView, View

if TYPE_CHECKING:
    from _typeshed import SupportsFlush, SupportsWrite

    class _Out(SupportsWrite[str], SupportsFlush, Protocol):
        """Where the demo writes its remarks: a text stream, or the terminal view."""

PLAYERS = ("ann", "bob", "cy", "dora")
PROFILE = "foster"


def stacked_deck(seed: int) -> tuple[Card, ...]:
    """The seed's shuffle, with one turn made a split (loser and winner of one rank) if none is."""
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    if _split_turn(deck) is None:
        for turn in range(4, 20):
            loser = deck[2 * turn - 1]
            shown_before = {c.rank for c in deck[1:2 * turn - 1]}
            later = [i for i in range(2 * turn + 1, DECK_SIZE - 3) if deck[i].rank == loser.rank]
            if loser.rank not in shown_before and later:
                deck[2 * turn], deck[later[0]] = deck[later[0]], deck[2 * turn]
                break
    return tuple(deck)


def _split_turn(deck: Sequence[Card]) -> int | None:
    """The first turn whose two cards share a rank not shown in any earlier turn."""
    seen: set[int] = set()
    for turn in range(1, LAST_TURN):
        loser, winner = deck[2 * turn - 1], deck[2 * turn]
        if loser.rank == winner.rank and loser.rank not in seen:
            return turn
        seen |= {loser.rank, winner.rank}
    return None


@dataclass(frozen=True)
class PlannedBet:
    at: int             # placed between turns, before turn ``at`` (1 = before the soda)
    command: Command
    shows: str          # what it demonstrates, for the program's own notes
    cards: int | None = None  # placed when exactly this many cards are out (a journal's own moment)


def plan_bets(deck: Sequence[Card]) -> tuple[PlannedBet, ...]:
    """The players' bets for this deck: a plain winner, a copper, a split, a group, high card
    (taken down later) and two calls on the last turn (one right, one wrong)."""
    first: dict[int, tuple[int, str]] = {}   # rank -> (turn, "loser" | "winner" | "split")
    for turn in range(1, LAST_TURN + 1):
        loser, winner = deck[2 * turn - 1], deck[2 * turn]
        if loser.rank == winner.rank:
            first.setdefault(loser.rank, (turn, "split"))
        first.setdefault(loser.rank, (turn, "loser"))
        first.setdefault(winner.rank, (turn, "winner"))

    def earliest(kind: str, taken: set[int]) -> int | None:
        options = [(t, r) for r, (t, k) in first.items() if k == kind and r not in taken and t < LAST_TURN]
        return min(options)[1] if options else None

    plan: list[PlannedBet] = []
    taken: set[int] = set()
    win = earliest("winner", taken)
    if win is not None:
        taken.add(win)
        plan.append(PlannedBet(1, PlaceBet("ann", {"id": "ann-1", "kind": "rank", "ranks": [_sym(win)],
                                                   "stake": 2}), "a plain bet that wins"))
    lose = earliest("loser", taken)
    if lose is not None:
        taken.add(lose)
        plan.append(PlannedBet(1, PlaceBet("bob", {"id": "bob-1", "kind": "rank", "ranks": [_sym(lose)],
                                                   "stake": 2, "copper": True}), "a coppered bet that wins"))
    split = earliest("split", taken)
    if split is not None:
        taken.add(split)
        plan.append(PlannedBet(1, PlaceBet("cy", {"id": "cy-1", "kind": "rank", "ranks": [_sym(split)],
                                                  "stake": 2}), "a split: the bank takes half"))
    plan.append(PlannedBet(2, PlaceBet("cy", {"id": "cy-2", "kind": "group", "ranks": ["4", "5", "9", "10"],
                                              "stake": 2}), "a group bet on the 2x2 block"))
    plan.append(PlannedBet(1, PlaceBet("dora", {"id": "dora-1", "kind": "high", "stake": 1}),
                           "high card, settled every turn"))
    plan.append(PlannedBet(9, WithdrawBet("dora", "dora-1"), "a bet taken down"))
    plan += _calls(deck[-3:])
    return tuple(sorted(plan, key=lambda p: p.at))


def _calls(last: Sequence[Card]) -> list[PlannedBet]:
    loser, winner, hock = last
    ranks = [loser.rank, winner.rank, hock.rank]
    if len(set(ranks)) == 1:   # a triple: Foster's houses call the order of the colours
        right = [c.colour.value for c in last]
        wrong = [right[1], right[0], right[2]] if right[0] != right[1] else [right[0], right[2], right[1]]
    else:
        right = [_sym(r) for r in ranks]
        wrong = [right[1], right[0], right[2]] if right[0] != right[1] else [right[2], right[1], right[0]]
    calls = [PlannedBet(LAST_TURN, PlaceBet("dora", {"id": "dora-call", "kind": "call", "order": right,
                                                      "stake": 1}), "calling the turn right")]
    if wrong != right:
        calls.append(PlannedBet(LAST_TURN, PlaceBet("ann", {"id": "ann-call", "kind": "call", "order": wrong,
                                                             "stake": 1}), "calling the turn wrong"))
    return calls


def _sym(rank: int) -> str:
    return FULL_DECK[rank - 1].rank.symbol


@dataclass
class DemoResult:
    balances: dict[str, Any]
    exposed: list[str]
    read: int            # cards the camera read and the table took
    confirmed: int       # cards the dealer named after the reader abstained
    wrong: list[int]     # indices where the table holds another card than the box dealt
    already_done: bool   # the journal already held this demo's finished deal
    settled: dict[str, Any] | None  # settle_script's balances for the exported deal (None: not over)


class Demo:
    """One demonstration deal on ``table`` from ``box`` (a SimBox) read by ``tracker``."""

    def __init__(self, table: Table, box: Any, tracker: Any, *, realtime: bool, fps: float,
                 out: _Out, snapshot_dir: Path | None = None,
                 write_image: Callable[[Path, Any], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 start: StartDeal | None = None, plan: Sequence[PlannedBet] | None = None) -> None:
        self.table, self.box, self.tracker = table, box, tracker
        self.realtime = realtime
        self.period = 1.0 / fps
        self.out = out
        self.clock, self.sleep = clock, sleep
        self.deck: tuple[Card, ...] = tuple(box.deck)
        # The exhibition hands in another deal's start and bets; the demo plays its own.
        self.start = start or StartDeal(PROFILE, PLAYERS, {})
        self.plan = tuple(plan) if plan is not None else plan_bets(self.deck)
        self.done: set[int] = set()
        self.read = self.confirmed = 0
        # The table's state as its last event left it: asked once per event, not three times a frame.
        first = table.view()
        self._state: FaroView = first if isinstance(first, FaroView) else TableState().view()
        self._unsubscribe = table.subscribe(self._on_event)
        self.bridge = TrackerBridge(table, tracker, snapshot_dir=snapshot_dir, write_image=write_image)

    def close(self) -> None:
        """Stop listening to the table (a loop of deals on one table keeps no old demo alive)."""
        self._unsubscribe()
        self.bridge.close()

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    # ----- the deal --------------------------------------------------------------------------
    def run(self) -> DemoResult:
        if self._resume_or_start():
            return self._result(already_done=True)
        period = self.period
        first = self._first_frame()
        started = self.clock() - first * period
        for n, frame in self._frames(first):
            # The clock is asked once a frame in either mode: an exhibition's pacer counts the
            # frame's work, stops and pings the watchdog there.
            now = self.clock()
            if self.realtime:
                delay = started + n * period - now
                if delay > 0:
                    self.sleep(delay)
            self.bridge.feed(frame, n)
            self._answer_pending()
            self._place_due()
        state = self.table.state()
        if state["finished"] and not state["ended"]:
            self.table.handle(EndDeal())
        elif not state["finished"]:
            self.say(f"The box is empty but the table holds only {state['next_index']} cards.")
        return self._result(already_done=False)

    def _first_frame(self) -> int:
        """Where the box's film takes up the deal: frame 0, or for a deal resumed from the journal
        the first frame that shows its last recorded card on top (the tracker resumed on the
        journal's cards takes that card for one already dealt)."""
        shown = self._state.next_index
        if shown == 0:
            return 0
        return next((n for n in range(len(self.box)) if self.box.truth(n).index == shown - 1), 0)

    def _frames(self, first: int) -> Iterator[tuple[int, Any]]:
        """The box's frames in order from ``first``; drawn one thread ahead so drawing and reading
        overlap."""
        count = len(self.box)
        with ThreadPoolExecutor(1, thread_name_prefix="faro-box-simbox") as painter:
            ahead: deque[Future[Any]] = deque(painter.submit(self.box.frame, n) for n in range(first, min(first + 4, count)))
            for n in range(first, count):
                frame = ahead.popleft().result()
                if n + len(ahead) + 1 < count:
                    ahead.append(painter.submit(self.box.frame, n + len(ahead) + 1))
                yield n, frame

    def _resume_or_start(self) -> bool:
        """True when the journal already holds this very deal, finished."""
        start = self.start
        journal = self.table.journal
        state = self.table.state()
        ours = [str(c) for c in self.deck]
        if state["deal"] is not None and state["exposed"] == ours[:len(state["exposed"])] \
                and journal.entries(deal=journal.deal)[0].command == start:
            if state["ended"] and len(state["exposed"]) == DECK_SIZE:
                self.say(f"The journal already holds this demonstration's finished deal {state['deal']}.")
                return True
            if not state["ended"]:
                journaled = [e.command for e in journal.entries(deal=journal.deal)]
                self.done = {i for i, p in enumerate(self.plan) if p.command in journaled}
                self.say(f"Resuming deal {state['deal']} at card {state['next_index']} from the journal.")
                return False
        self.table.handle(start)
        self._place_due()
        return False

    def _answer_pending(self) -> None:
        pending = self._state.pending
        if pending is None:
            return
        index = pending["index"]
        truth = str(self.deck[index])
        if self.realtime:
            self.sleep(1.5)   # let the audience see the prompt
        guesses = ", ".join(pending["candidates"]) or "no guess"
        self.say(f"The dealer names card {index + 1}: {truth} (the reader was not sure: {guesses}).")
        self._handle(ConfirmCard(index, self.deck[index]))

    def _place_due(self) -> None:
        state = self._state
        if state.ended or state.pending is not None or state.queued:
            return
        turn, index = state.next_turn, state.next_index
        if turn is None or not (index == 0 or index % 2 == 1):
            return
        for number, planned in enumerate(self.plan):
            if number in self.done or planned.at > turn:
                continue
            if planned.cards is not None and planned.cards > index:
                continue   # after the soda: wait for it
            if planned.cards is not None and planned.cards < index or planned.at == 1 and index > 1 or planned.at > 1 and index != 2 * planned.at - 1:
                self.done.add(number)   # its moment has passed (a resumed deal): not placed late
                continue
            self.done.add(number)
            self._handle(planned.command)

    def _on_event(self, event: TableEvent, view: View) -> None:
        if isinstance(view, FaroView):
            self._state = view
        if isinstance(event, CardTaken) and event.how is How.SEEN:
            self.read += 1
        elif isinstance(event, CardTaken) and event.how is How.CONFIRMED:
            self.confirmed += 1
        elif isinstance(event, CardTakenBack):
            self.say(f"Card {event.index + 1} ({event.card}) is taken back.")
            # An undone winner also takes back the bets placed after it: they go on again.
            if event.role is Role.WINNER and event.turn:
                again = event.turn + 1
                self.done -= {i for i, p in enumerate(self.plan) if p.at == again}

    def _handle(self, command: Command) -> bool:
        try:
            self.table.handle(command)
            return True
        except RuleError as exc:
            self.say(f"The table refuses {command.TYPE}: {exc}")
            return False

    def _result(self, *, already_done: bool) -> DemoResult:
        state = self.table.state()
        ours = [str(c) for c in self.deck]
        wrong = [i for i, card in enumerate(state["exposed"]) if card != ours[i]]
        settled = None
        if state["finished"]:
            # The journal's own account of the deal, settled by the rules engine alone.
            settled = settle_script(export_deal(self.table.journal, state["deal"]))["balances"]
        return DemoResult(dict(state["balances"]), list(state["exposed"]), self.read, self.confirmed,
                          wrong, already_done, settled)
