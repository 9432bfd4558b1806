"""The live table's state machine: commands in, events out; no journal, no devices, no clock.

``TableState.apply(command)`` may change the state partly before a refusal, so the live table
applies every command to a ``fork()`` first and keeps the fork only when the command was
accepted and journaled (see table.py). Replaying the same commands in the same order gives the
same state, bead for bead: nothing here depends on time or chance.

Card entry, in the words of the tracker and the dealer:
- ``CardSeen(index == next)``: the card leaves the box (the rules refuse a card already shown).
- ``CardUnread``: the card left the box unread: the table is *pending* until ``ConfirmCard``.
- a card seen past the next index (the camera missed one) makes the missed card pending too.
- cards read while a card is pending wait in order (``queued``) and follow its confirmation.
- ``ConfirmCard`` with nothing pending enters the next card by hand.
- ``NoCard`` answers the question: no card left the box (the one before still lies on top).
- after the last turn's winner the hock is known by elimination and leaves the box by itself.
"""

from __future__ import annotations

import copy
from typing import Any

from faro_box.cards import DECK_SIZE, FULL_DECK, Card, Rank
from faro_box.errors import RuleError
from faro_box.rules.faro import LAST_TURN, Deal, Exposure, Role, house_profile
from faro_box.rules.faro.beads import BeadGeometry, case_keeper
from faro_box.rules.faro.deal import HOCK_INDEX
from faro_box.rules.faro.settle import json_amount
from faro_box.table.commands import Command
from faro_box.table.events import (
    BetBarred,
    BetPlaced,
    BetReleased,
    BetWithdrawn,
    CardPending,
    CardQueued,
    CardTaken,
    CardTakenBack,
    DealEnded,
    DealFinished,
    DealOutcome,
    DealStarted,
    Event,
    How,
    MisdealCalled,
    NoCardTaken,
    Reason,
    TurnSettled,
)
from faro_box.table.faro.commands import (
    BarBet,
    CardSeen,
    CardUnread,
    ConfirmCard,
    EndDeal,
    Misdeal,
    NoCard,
    PlaceBet,
    ReleaseBet,
    StartDeal,
    UndoCard,
    WithdrawBet,
)
from faro_box.table.views import FaroView

_BET_EVENTS: dict[str, type[BetPlaced | BetWithdrawn | BetBarred | BetReleased]] = {
    cls.TYPE: cls for cls in (BetPlaced, BetWithdrawn, BetBarred, BetReleased)}


def _all_out(deal: Deal) -> bool:
    # The whole deck left the box (the hock included); counted here rather than with
    # Deal.finished so the table does not lean on the case counts for the end of a deal.
    return deal.next_index == DECK_SIZE


def _balances(deal: Deal) -> dict[str, int | float]:
    return {who: json_amount(halves) for who, halves in deal.balance_halves.items()}


class TableState:
    def __init__(self, geometry: BeadGeometry | None = None) -> None:
        self.geometry = geometry or BeadGeometry()
        self.deal_number: int | None = None
        self.deal: Deal | None = None
        self.profile = ""
        self.house_rules: dict[str, Any] = {}
        self.ended = True            # no deal open: only StartDeal is taken
        self.pending: dict[str, Any] | None = None
        self.queued: list[CardSeen | CardUnread] = []
        self.history: list[dict[str, Any]] = []
        # The deal's bet actions as a deal script writes them, each with the number of cards out
        # when it was made: an undo takes back the bet changes made since that card (as Deal does).
        self.actions: list[tuple[int, dict[str, Any]]] = []

    def fork(self) -> TableState:
        return copy.deepcopy(self)

    # ----- commands ----------------------------------------------------------------------
    def apply(self, command: Command) -> list[Event]:
        """Play one command; RuleError (or another FaroBoxError) when it is refused."""
        if isinstance(command, StartDeal):
            return self._start(command)
        deal = self._open_deal(command)
        if isinstance(command, (PlaceBet, WithdrawBet, BarBet, ReleaseBet)):
            return self._bet(deal, command)
        if isinstance(command, CardSeen):
            return self._seen(deal, command)
        if isinstance(command, CardUnread):
            return self._unread(deal, command)
        if isinstance(command, ConfirmCard):
            return self._confirm(deal, command)
        if isinstance(command, NoCard):
            return self._no_card(deal, command)
        if isinstance(command, UndoCard):
            return self._undo(deal)
        if isinstance(command, Misdeal):
            return self._misdeal(deal)
        if isinstance(command, EndDeal):
            return self._end(deal)
        raise RuleError(f"the table does not take {command!r:.80}")

    def _open_deal(self, command: Command) -> Deal:
        if self.deal is None or self.ended:
            raise RuleError(f"no deal is in progress: start a deal before {command.TYPE!r}")
        return self.deal

    def _start(self, command: StartDeal) -> list[Event]:
        events: list[Event] = []
        if self.deal is not None and not self.ended:
            if not _all_out(self.deal):
                raise RuleError(f"deal {self.deal_number} is still in progress ({self.deal.next_index} cards "
                                "shown): end it or call a misdeal first")
            events += self._close(self.deal)
        profile = house_profile(command.profile, command.house_rules)
        self.deal = Deal(profile, command.players)
        self.deal_number = (self.deal_number or 0) + 1
        self.profile, self.house_rules = command.profile, dict(command.house_rules)
        self.ended, self.pending, self.queued, self.actions = False, None, [], []
        events.append(DealStarted(self._number, self.profile, tuple(command.players), dict(self.house_rules)))
        return events

    def _bet(self, deal: Deal, command: PlaceBet | WithdrawBet | BarBet | ReleaseBet) -> list[Event]:
        if self.pending is not None:
            raise RuleError(f"card {self.pending['index']} waits for the dealer's confirmation: "
                            "bets change only between turns")
        at = deal.next_turn or LAST_TURN
        if isinstance(command, PlaceBet):
            bet = deal.place(command.player, command.spec)
            action: dict[str, Any] = {"at": at, "player": command.player, "place": bet.to_json()}
        elif isinstance(command, WithdrawBet):
            bet = deal.withdraw(command.player, command.bet_id)
            action = {"at": at, "player": command.player, "withdraw": bet.id}
        elif isinstance(command, BarBet):
            bet = deal.bar(command.player, command.bet_id)
            action = {"at": at, "player": command.player, "bar": bet.id}
        else:
            bet = deal.release(command.player, command.bet_id)
            action = {"at": at, "player": command.player, "release": bet.id}
        self.actions.append((deal.next_index, action))
        return [_BET_EVENTS[command.TYPE](command.player, bet.to_json())]

    def _seen(self, deal: Deal, command: CardSeen) -> list[Event]:
        index = command.index
        self._check_not_recorded(deal, index, command.card)
        if self.pending is not None:
            if index == self.pending["index"]:
                raise RuleError(f"card {index} waits for the dealer's confirmation; the reading "
                                f"{str(command.card)!r} is not taken")
            return self._queue(command)
        if index > deal.next_index:
            return self._missed(deal, command)
        return self._expose(deal, command.card, how="seen")

    def _unread(self, deal: Deal, command: CardUnread) -> list[Event]:
        index = command.index
        self._check_not_recorded(deal, index, None)
        if self.pending is not None:
            if index == self.pending["index"]:
                raise RuleError(f"card {index} already waits for the dealer's confirmation")
            return self._queue(command)
        if index > deal.next_index:
            return self._missed(deal, command)
        return self._ask(index, command.candidates, command.snapshot, "unread")

    def _confirm(self, deal: Deal, command: ConfirmCard) -> list[Event]:
        expected = self.pending["index"] if self.pending is not None else deal.next_index
        if command.index != expected:
            self._check_not_recorded(deal, command.index, command.card)
            raise RuleError(f"card {command.index} cannot be entered now: the next card is card {expected}")
        events = self._expose(deal, command.card, how="confirmed")
        self.pending = None
        return events + self._drain(deal)

    def _no_card(self, deal: Deal, command: NoCard) -> list[Event]:
        """The dealer answers the question: no card left the box, the one before still lies on top."""
        index = command.index
        if self.pending is None or index != self.pending["index"]:
            raise RuleError(f"card {index} is not waiting for the dealer's confirmation: there is no "
                            "question to answer with 'no new card'")
        if index == 0:
            raise RuleError("card 0 (the soda) cannot be answered with 'no new card': no card lies beneath it")
        if self.queued:
            raise RuleError(f"card(s) {', '.join(str(q.index) for q in self.queued)} were read after card {index}: "
                            f"name card {index} instead")
        self.pending = None
        return [NoCardTaken(index, deal.exposed[index - 1])]

    def _undo(self, deal: Deal) -> list[Event]:
        if self.pending is not None:
            raise RuleError(f"card {self.pending['index']} waits for the dealer's confirmation: "
                            "confirm it before taking a card back")
        events: list[Event] = [self._take_back(deal)]
        # The hock leaves the box by itself, so taking back "the last card" means the turn's winner.
        if isinstance(events[0], CardTakenBack) and events[0].role is Role.HOCK:
            events.append(self._take_back(deal))
        return events

    def _take_back(self, deal: Deal) -> CardTakenBack:
        before = deal.next_index
        exposure = deal.undo()
        self.actions = [(n, a) for n, a in self.actions if n != before]
        return CardTakenBack(exposure.index, exposure.card, exposure.role, exposure.turn,
                             exposure.turn_result.to_json() if exposure.turn_result else None)

    def _misdeal(self, deal: Deal) -> list[Event]:
        if deal.next_turn is None:
            raise RuleError("the last turn is over: end the deal instead of calling a misdeal")
        at = deal.next_turn
        settlements = deal.misdeal()
        self.actions.append((deal.next_index, {"at": at, "misdeal": True}))
        event = MisdealCalled(self._number, tuple(s.to_json() for s in settlements), _balances(deal))
        return [event, *self._close(deal)]

    def _end(self, deal: Deal) -> list[Event]:
        if not _all_out(deal):
            left = 52 - deal.next_index
            raise RuleError(f"deal {self.deal_number} is not over: {left} card(s) are still in the box "
                            "(call a misdeal to stop it)")
        return self._close(deal)

    # ----- inside ------------------------------------------------------------------------
    def _close(self, deal: Deal) -> list[Event]:
        outcome = DealOutcome.MISDEAL if deal.misdealt else DealOutcome.FINISHED
        hock = deal.exposed[HOCK_INDEX] if _all_out(deal) else None
        event = DealEnded(self._number, self.profile, outcome, hock, _balances(deal))
        self.history.append({"deal": self.deal_number, "profile": self.profile, "outcome": outcome.value,
                             "hock": None if hock is None else str(hock), "balances": event.balances})
        self.ended, self.pending, self.queued = True, None, []
        return [event]

    @property
    def _number(self) -> int:
        assert self.deal_number is not None  # a deal was started
        return self.deal_number

    def _check_not_recorded(self, deal: Deal, index: int, card: Card | None) -> None:
        if index < deal.next_index:
            shown = str(deal.exposed[index])
            if card == deal.exposed[index]:
                raise RuleError(f"card {index} ({shown!r}) is already recorded")
            read = "unread" if card is None else str(card)
            raise RuleError(f"card {index} is recorded as {shown!r}; the reading {read!r} is not "
                            "taken (undo to correct it)")
        if any(q.index == index for q in self.queued):
            raise RuleError(f"card {index} is already waiting behind card {self.pending and self.pending['index']}")

    def _queue(self, command: CardSeen | CardUnread) -> list[Event]:
        self.queued.append(command)
        self.queued.sort(key=lambda q: q.index)
        return [CardQueued(command.index, command.card if isinstance(command, CardSeen) else None)]

    def _missed(self, deal: Deal, command: CardSeen | CardUnread) -> list[Event]:
        events = self._ask(deal.next_index, (), None, "missed")
        return events + self._queue(command)

    def _ask(self, index: int, candidates: tuple[Card, ...], snapshot: str | None, reason: str) -> list[Event]:
        # The state the pages read keeps the cards as text; the event keeps the cards.
        self.pending = {"index": index, "candidates": [str(c) for c in candidates], "snapshot": snapshot,
                        "reason": reason}
        return [CardPending(index, candidates, snapshot, Reason(reason))]

    def _expose(self, deal: Deal, card: Card, how: str) -> list[Event]:
        exposure = deal.expose(card)
        events = self._exposure_events(exposure, How(how))
        if deal.next_index == HOCK_INDEX and deal.hock is not None:
            events += self._exposure_events(deal.expose(deal.hock), How.BY_ELIMINATION)
        return events

    def _exposure_events(self, exposure: Exposure, how: How) -> list[Event]:
        deal = self.deal
        assert deal is not None
        events: list[Event] = [CardTaken(exposure.index, exposure.card, exposure.role, exposure.turn, how)]
        result = exposure.turn_result
        if result is not None:
            last = exposure.turn == LAST_TURN
            events.append(TurnSettled(result.turn, result.loser, result.winner,
                                      tuple(s.to_json() for s in result.settlements), last,
                                      deal.hock if last else None, _balances(deal)))
        if _all_out(deal):
            events.append(DealFinished(self._number, exposure.card, _balances(deal)))
        return events

    def _drain(self, deal: Deal) -> list[Event]:
        events: list[Event] = []
        while self.queued and self.pending is None:
            item = self.queued.pop(0)
            if item.index != deal.next_index:
                self.queued.insert(0, item)
                events += self._ask(deal.next_index, (), None, "missed")
            elif isinstance(item, CardUnread):
                events += self._ask(item.index, item.candidates, item.snapshot, "unread")
            else:
                try:
                    events += self._expose(deal, item.card, how="seen")
                except RuleError:
                    # The reading conflicts with a card the dealer confirmed: the dealer decides.
                    events += self._ask(item.index, (item.card,), None, "conflict")
        return events

    # ----- snapshot ----------------------------------------------------------------------
    def view(self) -> FaroView:
        """What the table shows of the deal (the live table adds "seq" and "faults")."""
        deal = self.deal
        exposed = deal.exposed if deal is not None else ()
        beads = case_keeper(exposed, self.geometry)
        turns = tuple(t.to_json() for t in deal.turns) if deal is not None else ()
        open_bets = tuple({**bet.to_json(), "player": bet.player, "barred": bet.barred}
                          for bet in (deal.open_bets if deal is not None else ()))
        totals: dict[str, Any] = {}
        closed = self.history if self.ended else self.history + (
            [{"balances": _balances(deal)}] if deal is not None else [])
        for record in closed:
            for who, amount in record["balances"].items():
                totals[who] = totals.get(who, 0) + amount
        playing = deal is not None and not self.ended
        return FaroView(
            deal=self.deal_number,
            game="faro",
            profile=self.profile or None,
            house_rules=dict(self.house_rules),
            players=tuple(deal.players) if deal is not None else (),
            exposed=tuple(exposed),
            next_index=deal.next_index if deal is not None else 0,
            next_turn=deal.next_turn if deal is not None and playing else None,
            next_role=deal.next_role if deal is not None and playing and deal.next_role else None,
            case={rank.symbol: deal.case[rank] if deal is not None else 4 for rank in Rank},
            in_case=tuple(r.symbol for r in sorted(deal.in_case)) if deal is not None else (),
            beads=beads.to_json()["beads"],
            open_bets=open_bets,
            turns=turns,
            last_turn=turns[-1] if turns else None,
            balances=_balances(deal) if deal is not None else {},
            pending=dict(self.pending) if self.pending is not None else None,
            queued=tuple(q.index for q in self.queued),
            finished=bool(deal is not None and (_all_out(deal) or deal.misdealt)),
            misdeal=tuple(s.to_json() for s in deal.misdeal_settlements or ()) if deal is not None and deal.misdealt
            else None,
            hock=deal.hock if deal is not None else None,
            ended=self.ended,
            history=tuple(dict(h) for h in self.history),
            totals=totals,
        )

    def script(self) -> dict[str, Any]:
        """The current (or last) deal as a deal script (the format ``faro-box settle`` reads).

        The deck is the cards in the order they left the box. A deal in progress has fewer than
        52: the script holds just those (``faro-box replay`` plays them; ``settle`` refuses a
        short deck). A misdealt deal's deck is completed with the cards never shown, in
        new-deck order, after its ``{"at": t, "misdeal": true}`` action, which stops the script
        before they come out.
        """
        deal = self.deal
        if deal is None:
            raise RuleError("no deal was started: there is nothing to export")
        deck = [str(c) for c in deal.exposed]
        if deal.misdealt:
            shown = set(deal.exposed)
            deck += [str(c) for c in FULL_DECK if c not in shown]
        return {"game": "faro", "profile": self.profile, "house_rules": dict(self.house_rules),
                "players": list(deal.players), "deck": deck,
                "actions": [dict(a) for _, a in self.actions]}

