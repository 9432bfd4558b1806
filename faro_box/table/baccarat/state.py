"""The live table's Baccarat Banque state machine: bank commands in, events out; no journal, no clock.

It drives the pure engine (``baccarat.Bank``) card by card in the deal order (right, left,
banker, twice, then the third cards), so the camera must see each card's face as it leaves the
shoe. What the table *shows* follows the rules: the first two cards of each hand stay face down
in the state and in every event until the coup ends (a natural ends it at once); third cards are
face up. Nothing here leaks a hidden card: the state is public (the audience page, phones).
That holds for a card waiting for the dealer too: while the card due is a face-down one, the
public ``pending`` names no candidate and no snapshot (``reason`` says ``face_down``), a card
taken back from a face-down place is not named, and reads dropped are counted, not named; the
dealer's own view (``dealer_view``) holds what he needs to name the card.

Right and left *call* after the first six cards, on any total, as players do at the table ("a
card" or "I stand"): the table checks the call against the rules (a choice only on 5) and waits
for each side's call in turn, so a side standing on 7 looks the same as one standing on 5.

Undo takes back the last card exactly: the bank is rebuilt by replaying its accepted commands
without that card (and without whatever the table took after it), the engine having no undo of
its own. Replaying the journal does the same rebuild at the same place, so it lands on the same state.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from faro_box.cards import Card, Rank
from faro_box.errors import RuleError
from faro_box.rules.baccarat import DEAL_ORDER, Bank, Seat, Side, Step
from faro_box.table.baccarat.commands import (
    Banco,
    BankBet,
    BankCall,
    BankCard,
    BankCommand,
    BankConfirm,
    BankerLeaves,
    BankUndo,
    BankUnread,
    LeaveOn,
    StartBank,
)
from faro_box.table.events import (
    BancoCalled,
    BankBetPlaced,
    BankCallMade,
    BankCardDealt,
    BankCardPending,
    BankCardTakenBack,
    BankClosed,
    BankEnded,
    BankReadQueued,
    BankReadsDropped,
    BankStarted,
    CoupSettled,
    CoupStarted,
    Event,
    How,
    Reason,
    WinningsLeftOn,
)
from faro_box.table.views import BankView

GAME = "baccarat_banque"
_BET_EVENTS: dict[str, type[BankBetPlaced | BancoCalled | WinningsLeftOn]] = {
    cls.TYPE: cls for cls in (BankBetPlaced, BancoCalled, WinningsLeftOn)}
_SIDE_SEATS = (Seat.RIGHT, Seat.LEFT)
# A call as a script writes it (docs/baccarat.md); a flag is read only where the choice exists.
CALL_FLAGS = {Seat.RIGHT: "right_draws_on_5", Seat.LEFT: "left_draws_on_5", Seat.BANKER: "banker_draws"}


@dataclass(frozen=True)
class _Dealt:
    """A card the bank took: which logged command carried it, and during which it was dealt
    (a card read while another waited for the dealer is dealt later, by the confirmation)."""

    carrier: int
    applied_at: int


class BankState:
    def __init__(self) -> None:
        self.number: int | None = None  # the bank's deal number in the journal
        self.bank: Bank | None = None
        self.start: StartBank | None = None
        self.log: list[BankCommand] = []  # accepted commands since the start, for undo
        self.dealt: list[_Dealt] = []
        self.calls: dict[Seat, bool] = {}  # this coup's calls (implied ones included)
        self.pending: dict[str, Any] | None = None
        self.queued: list[tuple[int, BankCard | BankUnread]] = []  # (log index, read) while one was pending
        self.choices: list[dict[str, bool]] = []  # per finished coup, the calls (for the script)
        self.dropped: list[dict[str, Any]] = []  # the reads last dropped, for the dealer's view only
        self.history: list[dict[str, Any]] = []
        self.closed = True  # no bank open: only StartBank is taken

    def fork(self) -> BankState:
        return copy.deepcopy(self)

    @property
    def running(self) -> bool:
        """A bank is open and not over."""
        return not self.closed and self.bank is not None and self.bank.ended is None

    @property
    def in_coup(self) -> bool:
        return self.running and self.bank is not None and self.bank.coup is not None

    # ----- commands ----------------------------------------------------------------------
    def apply(self, command: BankCommand, number: int | None = None) -> list[Event]:
        """Play one command; RuleError when it is refused (the state may then be half-changed:
        the live table applies commands to a fork)."""
        if isinstance(command, StartBank):
            return self._start(command, number)
        bank = self._open(command)
        if isinstance(command, BankUndo):
            return self._undo()
        self.log.append(command)
        at = len(self.log) - 1
        if isinstance(command, (BankBet, Banco, LeaveOn)):
            return self._bet(bank, command)
        if isinstance(command, BankerLeaves):
            return self._leave(bank)
        if isinstance(command, BankCard):
            if self.pending is not None:
                self.queued.append((at, command))
                return [BankReadQueued(len(self.queued))]
            return self._deal(bank, command.card, at, at, how="seen")
        if isinstance(command, BankUnread):
            if self.pending is not None:
                self.queued.append((at, command))
                return [BankReadQueued(len(self.queued))]
            self._check_card_turn(bank)
            return [self._ask(command.candidates, command.snapshot, "unread")]
        if isinstance(command, BankConfirm):
            was_pending = self.pending is not None
            events = self._deal(bank, command.card, at, at, how="confirmed")
            if was_pending:
                self.pending = None
                events += self._drain(bank, at)
            return events
        if isinstance(command, BankCall):
            return self._call(bank, Seat(command.seat), command.draw)
        raise RuleError(f"the bank does not take {command!r:.80}")

    def _open(self, command: BankCommand) -> Bank:
        if self.closed or self.bank is None:
            raise RuleError(f"no bank is open: start a bank before {command.TYPE!r}")
        # A banker may still say he leaves once the fund or the shoe ran out (settle honours it).
        if self.bank.ended is not None and not isinstance(command, (BankUndo, BankerLeaves)):
            raise RuleError(f"the bank has ended ({self.bank.ended.value}): start a new bank")
        return self.bank

    def _start(self, command: StartBank, number: int | None) -> list[Event]:
        events: list[Event] = []
        if not self.closed and self.bank is not None:
            if self.bank.coup is not None:
                raise RuleError(f"coup {len(self.bank.coups) + 1} is being dealt: finish it before a new bank")
            if self.bank.ended is None and self.bank.coups:
                raise RuleError("the bank is still running: the banker leaves (or the fund or the shoe "
                                "runs out) before a new bank")
            events += self.close()
        sides = {p: Side(s) for p, s in command.sides.items()}
        bank = Bank(command.players, sides, command.banker, command.fund)  # RuleError on a bad table
        self.number = number if number is not None else (self.number or 0) + 1
        self.bank, self.start, self.log, self.dealt = bank, command, [], []
        self.calls, self.pending, self.queued, self.closed = {}, None, [], False
        self.choices, self.dropped = [], []
        events.append(BankStarted(self.number, tuple(command.players), dict(command.sides), command.banker,
                                  command.fund))
        return events

    def close(self) -> list[Event]:
        """Close the bank (a new game starts): its result goes to the history."""
        bank = self.bank
        if bank is None or self.closed:
            return []
        event = BankClosed(self.number, bank.banker, bank.ended.value if bank.ended else None, len(bank.coups),
                           bank.fund, bank.balances)
        self.history.append({"bank": event.bank, "banker": event.banker, "ended": event.ended,
                             "coups": event.coups, "fund": event.fund, "balances": event.balances})
        self.closed = True
        return [event]

    def _bet(self, bank: Bank, command: BankBet | Banco | LeaveOn) -> list[Event]:
        if self.pending is not None:
            raise RuleError("a card waits for the dealer's confirmation: bets are closed")
        if isinstance(command, BankBet):
            bank.place(command.player, command.stake, cheval=command.cheval, cut=command.cut)
        elif isinstance(command, LeaveOn):
            bank.leave_on(command.player, cheval=command.cheval, cut=command.cut)
        else:
            bank.claim_banco(command.player)
        return [_BET_EVENTS[command.TYPE](command.player, tuple(b.to_json() for b in bank.bets), bank.cover_left)]

    def _leave(self, bank: Bank) -> list[Event]:
        if self.pending is not None:
            raise RuleError("a card waits for the dealer's confirmation")
        bank.leave()
        return [self._ended_event(bank)]

    def _check_card_turn(self, bank: Bank) -> Step:
        step = bank.next_step
        assert step is not None  # an ended bank was refused in _open
        if not step.is_card:
            raise RuleError(f"no card is due: the coup waits for {self._call_wanted(bank)}'s call "
                            "(draw or stand)")
        return step

    def _deal(self, bank: Bank, card: Card, carrier: int, applied_at: int, *, how: str) -> list[Event]:
        step = self._check_card_turn(bank)
        opening = bank.coup is None
        coup_no = len(bank.coups) + 1
        # A card for a side after the first six implies the calls the rules leave no choice in.
        for seat in _SIDE_SEATS:
            if bank.coup is not None and bank.coup.cards_dealt >= len(DEAL_ORDER) and seat not in self.calls:
                draws = bank.coup.draws(seat)
                if draws is not None:
                    self.calls[seat] = draws
            if seat is step.seat:
                break
        seat = bank.deal(card)
        self.dealt.append(_Dealt(carrier, applied_at))
        events: list[Event] = []
        if opening:
            events.append(CoupStarted(coup_no, tuple(b.to_json() for b in bank.bets)))
        face_up = bank.coup is None or len(bank.coup.hands[seat]) > 2
        events.append(BankCardDealt(coup_no, seat, card if face_up else None, How(how)))
        if bank.coup is None:
            events += self._coup_over(bank)
        return events

    def _coup_over(self, bank: Bank) -> list[Event]:
        result = bank.coups[-1]
        self.choices.append({CALL_FLAGS[seat]: draw for seat, draw in self.calls.items()})
        self.calls = {}
        report: dict[str, Any] = result.to_json()
        events: list[Event] = [CoupSettled(report["coup"], report["hands"], report["totals"], report["natural"],
                                           report["results"], report["active"], tuple(report["settlements"]),
                                           report["fund"], bank.balances)]
        if bank.ended is not None:
            events.append(self._ended_event(bank))
        return events

    def _ended_event(self, bank: Bank) -> BankEnded:
        assert bank.ended is not None
        session = bank.session()
        return BankEnded(self.number, bank.ended.value, bank.fund, bank.balances, dict(session.net),
                         tuple(session.winners))

    def _call(self, bank: Bank, seat: Seat, draw: bool) -> list[Event]:
        coup = bank.coup
        word = "draw" if draw else "stand"
        if self.pending is not None:
            raise RuleError("a card waits for the dealer's confirmation: confirm it before a call")
        if coup is None:
            raise RuleError(f"{seat.value} cannot {word}: no coup is being dealt")
        if coup.cards_dealt < len(DEAL_ORDER):
            raise RuleError(f"{seat.value} cannot {word} yet: the first two cards of each hand are still "
                            f"being dealt ({coup.cards_dealt} of {len(DEAL_ORDER)})")
        wanted = self._call_wanted(bank)
        if wanted != seat.value:
            raise RuleError(f"{seat.value}'s call out of turn: the coup waits for {wanted}")
        if seat is Seat.BANKER or coup.draws(seat) is None:
            result = bank.decide(seat, draw)  # the engine refuses a choice the rules do not give
        else:
            must = coup.draws(seat)
            if must != draw:
                two = coup.total_of_two(seat)
                rule = "must draw" if must else "stands"
                raise RuleError(f"{seat.value} cannot {word}: a side {rule} on {two} and chooses only on 5")
            result = None
        self.calls[seat] = draw
        events: list[Event] = [BankCallMade(seat, draw)]
        if result is not None:
            events += self._coup_over(bank)
        return events

    def _call_wanted(self, bank: Bank) -> str:
        """Whose call the coup waits for: each side in turn (even on a total that leaves no
        choice), then the banker."""
        coup = bank.coup
        assert coup is not None
        for seat in _SIDE_SEATS:
            if seat not in self.calls:
                return seat.value
            if self.calls[seat] and len(coup.hands[seat]) < 3:
                return f"a card for {seat.value}"
        return "banker"

    def _drain(self, bank: Bank, applied_at: int) -> list[Event]:
        events: list[Event] = []
        while self.queued and self.pending is None:
            step = bank.next_step
            if step is None or not step.is_card:
                # Read before any hand could take them (the coup waits for a call, or is over):
                # dropped, and named, so that the dealer enters them by hand when they are due.
                self.dropped = [item.to_json() for _, item in self.queued]
                self.queued = []
                # Named to the dealer only: he enters them by hand, maybe as face-down cards.
                events.append(BankReadsDropped(tuple({"type": r["type"]} for r in self.dropped)))
                break
            carrier, item = self.queued.pop(0)
            if isinstance(item, BankUnread):
                events.append(self._ask(item.candidates, item.snapshot, "unread"))
                continue
            try:
                events += self._deal(bank, item.card, carrier, applied_at, how="seen")
            except RuleError:
                # The reading conflicts with the shoe (a fourth copy): the dealer decides.
                events.append(self._ask((item.card,), None, "conflict"))
        return events

    def _undo(self) -> list[Event]:
        if self.pending is not None:
            raise RuleError("a card waits for the dealer's confirmation: confirm it before taking a card back")
        if not self.dealt:
            raise RuleError("no card of this bank has been dealt: there is nothing to take back")
        last = self.dealt[-1]
        face_down = self.bank is not None and self.bank.coup is not None and \
            self.bank.coup.cards_dealt <= len(DEAL_ORDER)
        card = self.log[last.carrier]
        assert isinstance(card, (BankCard, BankConfirm))
        keep = [c for i, c in enumerate(self.log[: last.applied_at + 1]) if i != last.carrier]
        taken_back = [c.to_json() for c in self.log[last.applied_at + 1:]]
        replay = BankState()
        replay.history = self.history
        assert self.start is not None
        replay.apply(self.start, self.number)
        for command in keep:
            replay.apply(command)
        self.__dict__.update(replay.__dict__)
        if face_down:
            taken_back = [{"type": c["type"]} for c in taken_back]
        return [BankCardTakenBack(None if face_down else card.card, tuple(taken_back))]

    # ----- what the public may see of a card waiting for the dealer ----------------------
    def _ask(self, candidates: tuple[Card, ...], snapshot: str | None, reason: str) -> BankCardPending:
        self.pending = {"candidates": [str(c) for c in candidates], "snapshot": snapshot, "reason": reason}
        public = self._public_pending()
        return BankCardPending(tuple(Card.parse(c) for c in public["candidates"]), public["snapshot"],
                               Reason(public["reason"]))

    def _due_face_down(self) -> bool:
        """The card the table waits for is one of the first two of its hand: dealt face down."""
        bank = self.bank
        step = bank.next_step if bank is not None else None
        if bank is None or step is None or not step.is_card:
            return False
        return bank.coup is None or len(bank.coup.hands[step.seat]) < 2

    def _public_pending(self) -> dict[str, Any]:
        assert self.pending is not None
        if self._due_face_down():
            return {"candidates": [], "snapshot": None, "reason": "face_down"}
        return dict(self.pending)

    def dealer_view(self) -> dict[str, Any]:
        """What the dealer's own (authenticated) page may see beyond the public state: the card
        waiting for him in full, and the reads last dropped."""
        return {"pending": dict(self.pending) if self.pending is not None else None,
                "dropped": [dict(r) for r in self.dropped]}

    # ----- snapshot ----------------------------------------------------------------------
    def waiting(self) -> str | None:
        """What the table waits for next, in words the state gives the pages."""
        bank = self.bank
        if bank is None or self.closed or bank.ended is not None:
            return None
        if self.pending is not None:
            return "confirm"
        coup = bank.coup
        if coup is None:
            return "bets"
        if coup.cards_dealt < len(DEAL_ORDER):
            return f"card_{DEAL_ORDER[coup.cards_dealt].value}"
        wanted = self._call_wanted(bank)
        if wanted.startswith("a card for "):
            return f"card_{wanted.removeprefix('a card for ')}"
        if wanted == "banker" and bank.next_step is Step.CARD_BANKER:
            return "card_banker"
        return f"call_{wanted}"

    def view(self) -> BankView:
        """What the table shows of the bank (the live table adds "seq" and "faults")."""
        bank = self.bank
        history = tuple(dict(h) for h in self.history)
        if bank is None:
            return BankView(game=GAME, deal=self.number, bank=self.number, history=history, pending=None, queued=0,
                            players=(), sides={}, banker=None, fund=None, declared=None, balances={}, active={},
                            bets=(), cover_left=None, banco_suivi=(), coup=None, in_coup=None,
                            hands={s.value: [] for s in Seat}, totals={s.value: None for s in Seat}, calls={},
                            waiting=None, results=(), last_coup=None, shoe=_shoe_json(None), ended=None,
                            session=None, finished=False, closed=True)
        coup = bank.coup
        results = tuple(r.to_json() for r in bank.coups)
        if coup is not None:
            shown = coup.shown()
            hands = {seat.value: [None if c is None else str(c) for c in shown[seat]] for seat in Seat}
            totals: dict[str, int | None] = {seat.value: coup.total(seat) if all(c is not None for c in shown[seat])
                                             and shown[seat] else None for seat in Seat}
            number = len(bank.coups) + 1
        elif bank.coups:
            last = bank.coups[-1]
            hands = {seat.value: [str(c) for c in last.hands[seat]] for seat in Seat}
            totals = {seat.value: last.totals[seat] for seat in Seat}
            number = last.number
        else:
            hands, totals, number = {s.value: [] for s in Seat}, {s.value: None for s in Seat}, None
        session = None
        if bank.ended is not None:
            s = bank.session()
            session = {"net": dict(s.net), "winners": list(s.winners)}
        return BankView(
            game=GAME, deal=self.number, bank=self.number, history=history,
            pending=self._public_pending() if self.pending is not None else None,
            queued=len(self.queued),
            players=tuple(bank.players),
            sides={p: side.value for p, side in bank.sides.items()},
            banker=bank.banker,
            fund=bank.fund,
            declared=bank.declared,
            balances=bank.balances,
            active={side.value: p for side, p in bank.active.items()},
            bets=tuple(b.to_json() for b in bank.bets),
            cover_left=bank.cover_left if bank.betting_open else None,
            banco_suivi=tuple(sorted(bank.banco_suivi)),
            coup=number,
            in_coup=coup is not None,
            hands=hands,
            totals=totals,
            calls={seat.value: "draw" if d else "stand" for seat, d in self.calls.items()},
            waiting=self.waiting(),
            results=results,
            last_coup=results[-1] if results and coup is None else None,
            shoe=_shoe_json(bank),
            ended=bank.ended.value if bank.ended is not None else None,
            session=session,
            finished=bank.ended is not None,
            closed=self.closed,
        )

    def script(self) -> dict[str, Any]:
        """The bank as a ``faro-box settle`` script (docs/baccarat.md): the cards in the order they left
        the shoe, and per coup its bets and the choices made."""
        bank, start = self.bank, self.start
        if bank is None or start is None:
            raise RuleError("no bank was started: there is nothing to export")
        coups = [{"bets": [_bet_script(b) for b in result.bets], **choices}
                 for result, choices in zip(bank.coups, self.choices, strict=True)]
        if bank.ended is not None and bank.ended.value == "left" and coups:
            coups[-1]["banker_leaves"] = True
        return {"game": GAME, "players": list(start.players), "sides": dict(start.sides),
                "banker": start.banker, "fund": start.fund, "shoe": [str(c) for c in bank.shoe.dealt],
                "coups": coups}


def _bet_script(bet: Any) -> dict[str, Any]:
    # The stake the cover accepted: the table takes bets in the order the dealer enters them,
    # settle in the order of play, and the accepted stakes fit the cover in any order.
    doc: dict[str, Any] = {"player": bet.player, "stake": bet.stake}
    if bet.cheval:
        doc["cheval"] = True
    if bet.banco:
        doc = {"player": bet.player, "banco": True}
    return doc


def _shoe_json(bank: Bank | None) -> dict[str, Any]:
    """The cards left in the shoe, and by rank the cards not yet shown: a face-down card counts as
    unseen until the coup ends, or the counts would tell its rank."""
    if bank is None:
        return {"remaining": None, "by_rank": {}}
    by_rank = dict(bank.shoe_remaining_by_rank())
    coup = bank.coup
    if coup is not None:
        for seat, shown in coup.shown().items():
            for card, seen in zip(coup.hands[seat], shown, strict=True):
                if seen is None:
                    by_rank[card.rank] += 1
    return {"remaining": bank.shoe.remaining, "by_rank": {rank.symbol: by_rank[rank] for rank in Rank}}
