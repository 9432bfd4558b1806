"""One deal of faro as a mutable board: cards leave the box one by one, bets come and go.

Like python-chess's Board: ``expose`` pushes a card, ``undo`` pops it and reverts exactly what
it did (and any bet changed since, so the deal is as it was before that card). Everything a
caller gets back (bets, exposures, turn results, settlements) is frozen.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

from faro_box.cards import DECK_SIZE, FULL_DECK, Card, Rank, Suit
from faro_box.errors import CardError, RuleError
from faro_box.rules.faro.bets import EVERY_TURN, RANKED, Bet, parse_bet
from faro_box.rules.faro.profiles import BetKind, Profile
from faro_box.rules.faro.settle import (
    Result,
    Settlement,
    call_fits,
    call_pays,
    paid,
    settle_at_hock,
    settle_call,
    settle_on_turn,
    void,
)

BANKER = "banker"
LAST_TURN = 25
HOCK_INDEX = DECK_SIZE - 1
_LAST_TURN_WINNER = 2 * LAST_TURN
_CALL_INDEX = 2 * LAST_TURN - 1  # the next card is turn 25's loser: three cards remain
_LOSING = (Result.LOSE, Result.SPLIT)


class Role(enum.Enum):
    SODA = "soda"
    LOSER = "loser"
    WINNER = "winner"
    HOCK = "hock"


def role_of(index: int) -> Role:
    if index == 0:
        return Role.SODA
    if index == HOCK_INDEX:
        return Role.HOCK
    return Role.LOSER if index % 2 else Role.WINNER


def turn_of(index: int) -> int | None:
    return (index + 1) // 2 if 0 < index < HOCK_INDEX else None


_ROLES = tuple(role_of(i) for i in range(DECK_SIZE))
_COMPLETES_TURN = tuple(role is Role.WINNER for role in _ROLES)
_TURNS = tuple(turn_of(i) for i in range(DECK_SIZE))


_SUIT_NUMBER = {suit.value: number for number, suit in enumerate(Suit)}




def card_bit(card: Card) -> int:
    return 1 << (card.rank << 2) + _SUIT_NUMBER[card.suit._value_]


_DECK_BITS = tuple((c, card_bit(c)) for c in FULL_DECK)
_BIT_OF = {c.text: bit for c, bit in _DECK_BITS}  # by str(card): strings hash in C, Cards do not
_CARD_OF_BIT = {bit: c for c, bit in _DECK_BITS}
_DECK_ORDER_OF_BIT = {bit: n for n, (_, bit) in enumerate(_DECK_BITS)}
_ALL_BITS = sum(bit for _, bit in _DECK_BITS)


def _texts(cards: Sequence[Card]) -> str:
    return repr([str(c) for c in cards])


class TurnResult(NamedTuple):
    turn: int
    loser: Card
    winner: Card
    settlements: tuple[Settlement, ...]  # in the order the bets were placed
    hock: Card | None = None  # the last turn knows the hock by elimination

    def to_json(self) -> dict[str, object]:
        return {"turn": self.turn, "loser": self.loser.text, "winner": self.winner.text,
                "settlements": [s.to_json() for s in self.settlements] if self.settlements else []}


@dataclass(frozen=True, slots=True)
class Exposure:
    index: int  # 0 (soda) … 51 (hock)
    card: Card
    role: Role
    turn: int | None
    turn_result: TurnResult | None = None  # set on the winner that completes a turn


# Makes a NamedTuple from all its fields without running its Python-level __new__: a deal
# makes 25 turn results and dozens of settlements, and that call is a good part of their cost.
_new_tuple = tuple.__new__

# Undo log entries: what to do to take one change back.
_UNPLACE, _RESTORE, _REPLACE = 0, 1, 2

# Enum members bound once: looking one up on its class (Python 3.11) costs more than the
# arithmetic of a settlement, and these names sit on the hot path.
K_CALL = BetKind.CALL
ROLE_WINNER = Role.WINNER


class Deal:
    """A deal in progress; RuleError on anything the rules refuse, and then nothing changes."""

    def __init__(self, profile: Profile, players: Sequence[str]) -> None:
        players = tuple(players)
        if not players or not all(isinstance(p, str) and p for p in players) or BANKER in players or len(
                set(players)) != len(players):
            raise RuleError(f"players must be distinct non-empty names other than 'banker', not {players!r}")
        self.profile = profile
        self.players: tuple[str, ...] = players
        self._exposed: list[Card] = []
        # The cards shown as bits of one int, not a set of Cards: hashing a Card runs Python code
        # and costs more than the settlement of a turn.
        self._shown = 0
        self._open: dict[str, Bet] = {}
        self._seq: dict[str, int] = {}  # every id used in this deal, in placement order
        self._placed: list[str] = []  # the same ids by placement number
        # The open bets a turn can touch, as bits of their placement numbers: those standing on
        # each rank, and those that play every turn. Bits, not sets of ids, because OR-ing them
        # costs nothing and reading the bits low to high gives the bets in placement order.
        self._on_rank = [0] * 14  # by rank value; index 0 unused
        self._every_turn = 0
        self._halves: dict[str, int] = dict.fromkeys((*players, BANKER), 0)
        self._turns: list[TurnResult] = []
        # One undo log for the deal: (card, what to do, bet), card being the index of the card
        # the change came with or after; undoing card i takes back every entry of card >= i.
        self._undo_log: list[tuple[int, int, Bet]] = []
        self._misdeal: tuple[Settlement, ...] | None = None

    # ----- state -------------------------------------------------------------------------
    @property
    def exposed(self) -> tuple[Card, ...]:
        return tuple(self._exposed)

    @property
    def exposures(self) -> tuple[Exposure, ...]:
        return tuple(Exposure(i, card, _ROLES[i], _TURNS[i], self._result_of(i))
                     for i, card in enumerate(self._exposed))

    def _result_of(self, index: int) -> TurnResult | None:
        return self._turns[(index >> 1) - 1] if _ROLES[index] is ROLE_WINNER else None

    @property
    def next_index(self) -> int:
        return len(self._exposed)

    @property
    def next_role(self) -> Role | None:
        n = len(self._exposed)
        return None if n == DECK_SIZE or self._misdeal is not None else role_of(n)

    @property
    def next_turn(self) -> int | None:
        """The turn the next card belongs to (1 before the soda); None once the last turn is done."""
        n = len(self._exposed)
        if self._misdeal is not None or n > _LAST_TURN_WINNER:
            return None
        return turn_of(n) or 1

    @property
    def between_turns(self) -> bool:
        n = len(self._exposed)
        return self._misdeal is None and (n == 0 or n % 2 == 1) and n <= _CALL_INDEX

    @property
    def case(self) -> Mapping[Rank, int]:
        return MappingProxyType({r: self._left(r) for r in Rank})

    @property
    def in_case(self) -> frozenset[Rank]:
        return frozenset(r for r in Rank if self._left(r) == 1)

    @property
    def finished_ranks(self) -> frozenset[Rank]:
        return frozenset(r for r in Rank if not self._left(r))

    @property
    def finished(self) -> bool:
        return len(self._exposed) == DECK_SIZE and self._shown == _ALL_BITS

    @property
    def misdealt(self) -> bool:
        return self._misdeal is not None

    @property
    def misdeal_settlements(self) -> tuple[Settlement, ...] | None:
        return self._misdeal

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The cards still in the box, in FULL_DECK order."""
        left = _ALL_BITS & ~self._shown
        bits = []
        while left:  # one step per card left: before the last turn, three
            bit = left & -left
            bits.append(bit)
            left ^= bit
        bits.sort(key=_DECK_ORDER_OF_BIT.__getitem__)
        return tuple([_CARD_OF_BIT[bit] for bit in bits])

    @property
    def open_bets(self) -> tuple[Bet, ...]:
        return tuple(self._open.values())

    def bet(self, bet_id: str) -> Bet | None:
        return self._open.get(bet_id)

    @property
    def turns(self) -> tuple[TurnResult, ...]:
        return tuple(self._turns)

    @property
    def hock(self) -> Card | None:
        """Known once the last turn is complete (by elimination), before it leaves the box."""
        return self._turns[-1].hock if len(self._turns) == LAST_TURN else None

    @property
    def balances(self) -> Mapping[str, Fraction]:
        return MappingProxyType({who: Fraction(h, 2) for who, h in self._halves.items()})

    @property
    def balance_halves(self) -> Mapping[str, int]:
        return MappingProxyType(self._halves)

    # ----- bets --------------------------------------------------------------------------
    def place(self, player: str, spec: Mapping[str, object]) -> Bet:
        """Put a bet on the layout (``spec`` is the script's ``place`` object)."""
        self._check_player(player)
        profile = self.profile
        bet = parse_bet(player, spec, profile)
        if not self.between_turns:
            self._refuse_outside_turns(f"place bet {bet.id!r}")
        bet_id, seq = bet.id, self._seq
        if bet_id in seq:
            raise RuleError(f"bet id {bet_id!r} is already used in this deal: give each bet its own id")
        self._check_can_stand(bet)
        if profile.case_ban:
            self._check_case_ban(bet)
        if bet.marker:
            chips, markers = self._cover(player)
            if chips < markers + bet.stake:
                raise RuleError(
                    f"bet {bet_id!r}: betting markers must be covered by chips on the layout: {player!r} has "
                    f"{chips} in chips there and would have {markers + bet.stake} in markers")
        placed = self._placed
        seq[bet_id] = len(placed)
        placed.append(bet_id)
        self._add(bet)
        self._log(_UNPLACE, bet)
        return bet

    def withdraw(self, player: str, bet_id: str) -> Bet:
        bet = self._own_open_bet(player, bet_id, "withdraw")
        if self.profile.markers and not bet.marker:
            chips, markers = self._cover(player)
            if markers and chips - bet.stake < markers:
                raise RuleError(
                    f"bet {bet_id!r} cannot come down: its chips cover {player!r}'s betting markers "
                    f"({markers}); take the markers down first")
        self._remove(bet)
        self._log(_RESTORE, bet)
        return bet

    def bar(self, player: str, bet_id: str) -> Bet:
        """The player freezes the bet: it neither wins nor loses until he says it goes."""
        bet = self._own_open_bet(player, bet_id, "bar")
        if bet.barred:
            raise RuleError(f"bet {bet_id!r} is already barred")
        return self._swap(bet, bet._replace(barred=True))

    def release(self, player: str, bet_id: str) -> Bet:
        """"It goes": the barred bet plays again from the next turn."""
        bet = self._own_open_bet(player, bet_id, "release")
        if not bet.barred:
            raise RuleError(f"bet {bet_id!r} is not barred")
        self._check_can_stand(bet)
        return self._swap(bet, bet._replace(barred=False))

    # ----- cards -------------------------------------------------------------------------
    def expose(self, card: Card | str) -> Exposure:
        """The next card leaves the box; a winner settles its turn."""
        if card.__class__ is not Card:
            try:
                card = Card.parse(card)  # type: ignore[arg-type]
            except CardError as exc:
                raise RuleError(str(exc)) from None
        assert isinstance(card, Card)
        index = len(self._exposed)
        result = self.play(card)
        return Exposure(index, card, _ROLES[index], _TURNS[index], result)

    def play(self, card: Card) -> TurnResult | None:
        """``expose`` for simulations: the same move, returning only the turn it completes."""
        if self._misdeal is not None:
            raise RuleError(f"the deal was called a misdeal: {str(card)!r} cannot be played")
        exposed = self._exposed
        index = len(exposed)
        if index == DECK_SIZE:
            raise RuleError(f"the deal is over: all 52 cards are out, so {str(card)!r} cannot leave the box")
        bit = _BIT_OF[card.text]
        if self._shown & bit:
            shown_at = exposed.index(card)
            raise RuleError(f"{str(card)!r} was already shown (card {shown_at + 1} of this deal)")
        self._shown |= bit
        exposed.append(card)
        if not _COMPLETES_TURN[index]:
            return None
        result = self._settle_turn(index >> 1, exposed[-2], card)
        self._turns.append(result)
        return result

    def play_turn(self, loser: Card, winner: Card) -> TurnResult:
        """``play(loser)`` then ``play(winner)`` in one call, refused whole (nothing changes)
        when either card cannot be played."""
        return self.play_turns((loser, winner))[0]

    def play_turns(self, cards: Sequence[Card]) -> list[TurnResult]:
        """Whole turns in one call, for simulations that know the deck: ``cards`` are the
        turns' losers and winners in the order they leave the box. The same as playing them
        one by one, but refused whole (nothing changes) when any of them cannot be played."""
        exposed = self._exposed
        index = len(exposed)
        if self._misdeal is not None:
            raise RuleError(f"the deal was called a misdeal: {_texts(cards)} cannot be played")
        if not index & 1 or index > _CALL_INDEX:
            next_card = "none: all 52 cards are out" if index == DECK_SIZE else f"the {_ROLES[index].value}"
            raise RuleError(f"{_texts(cards)} cannot be played: the next card out of the box is {next_card}, "
                            "not a turn's loser")
        if not cards or len(cards) % 2 or index + len(cards) - 1 > _LAST_TURN_WINNER:
            raise RuleError(f"{_texts(cards)} are not whole turns from card {index + 1} to turn 25's winner "
                            f"(card {_LAST_TURN_WINNER + 1}) at most")
        shown = self._shown
        for card in cards:
            bit = _BIT_OF[card.text]
            if shown & bit:
                number = exposed.index(card) + 1 if card in exposed else index + cards.index(card) + 1
                raise RuleError(f"{str(card)!r} was already shown (card {number} of this deal)")
            shown |= bit
        self._shown = shown
        turns = self._turns
        settle_turn = self._settle_turn
        on_rank = self._on_rank
        turn = (index + 1) >> 1
        exposed += cards  # settling a turn looks only at the cards' bits, set above
        for loser, winner in zip(cards[::2], cards[1::2], strict=True):
            lr, wr = loser.rank, winner.rank
            # Most turns touch no bet: they are settled here, without a call. (The last turn
            # always settles: whatever still stands is settled on it or on the hock.)
            if on_rank[lr] | on_rank[wr] | self._every_turn or turn == LAST_TURN:
                turns.append(settle_turn(turn, loser, winner))
            else:
                turns.append(_new_tuple(TurnResult, (turn, loser, winner, (), None)))
            turn += 1
        return turns[-(len(cards) >> 1):]

    def undo(self) -> Exposure:
        """Take back the last card, with every settlement it made and every bet change since."""
        if self._misdeal is not None:
            raise RuleError("the deal was called a misdeal: it cannot be taken back")
        if not self._exposed:
            raise RuleError("no card has left the box: there is nothing to take back")
        index = len(self._exposed) - 1
        log = self._undo_log
        while log and log[-1][0] >= index:
            _, op, bet = log.pop()
            if op == _UNPLACE:
                self._remove(bet)
                del self._seq[bet.id]
                self._placed.pop()  # placements are taken back newest first
            elif op == _RESTORE:
                self._add(bet)
            else:
                self._open[bet.id] = bet
        result = self._result_of(index)
        card = self._exposed.pop()
        self._shown &= ~card_bit(card)
        if result is not None:
            self._turns.pop()
            self._book(result.settlements, sign=-1)
        self._open = dict(sorted(self._open.items(), key=lambda item: self._seq[item[0]]))
        return Exposure(index, card, _ROLES[index], _TURNS[index], result)

    def misdeal(self) -> tuple[Settlement, ...]:
        """Old Hoyle: a box with more or fewer than 52 cards, or a card shown twice, is a
        misdeal and the bank pays every bet standing on the layout. The deal ends there."""
        if self._misdeal is not None:
            raise RuleError("the deal was already called a misdeal")
        remaining = self.remaining
        settlements = []
        for bet in self._open.values():
            if bet.barred:
                settlements.append(void(bet))
            elif bet.kind is K_CALL:
                settlements.append(paid(bet, call_pays(remaining, self.profile) or 0))
            else:
                settlements.append(paid(bet))
        self._book(settlements, sign=1)
        for bet in list(self._open.values()):
            self._remove(bet)
        self._misdeal = tuple(settlements)
        return self._misdeal

    # ----- inside ------------------------------------------------------------------------
    def _settle_turn(self, turn: int, loser: Card, winner: Card) -> TurnResult:
        if turn == LAST_TURN:
            return self._settle_last_turn(loser, winner)
        lr, wr = loser.rank, winner.rank
        on_rank = self._on_rank
        touched = on_rank[lr] | on_rank[wr] | self._every_turn
        if not touched:
            return _new_tuple(TurnResult, (turn, loser, winner, (), None))
        profile = self.profile
        opened = self._open
        placed = self._placed
        settlements: list[Settlement] = []
        halves = self._halves
        banker = 0  # the bank's change: minus the players'
        while touched:
            lowest = touched & -touched  # the lowest bit left: the bets come in placement order
            touched ^= lowest
            bet = opened[placed[lowest.bit_length() - 1]]
            if bet.barred:
                continue
            settlement = settle_on_turn(bet, lr, wr, profile)
            if settlement is None:
                continue
            if bet.kind not in EVERY_TURN:
                self._remove(bet)
                self._undo_log.append((turn << 1, _RESTORE, bet))
            settlements.append(settlement)
            halves[bet.player] += settlement.halves
            banker -= settlement.halves
        halves[BANKER] += banker
        if profile.markers:
            self._force_off_markers(settlements, turn << 1)  # voids: nothing more to book
        return _new_tuple(TurnResult, (turn, loser, winner, tuple(settlements), None))

    def _settle_last_turn(self, loser: Card, winner: Card) -> TurnResult:
        """Turn 25 settles every bet still open: calls on the last three, the rest on this
        turn or else on the hock."""
        lr, wr = loser.rank, winner.rank
        profile = self.profile
        hock = self._last_card()
        settlements: list[Settlement] = []
        for bet in list(self._open.values()):
            kind = bet.kind
            if bet.barred:
                if kind in EVERY_TURN:
                    continue
                settlement = void(bet)
            elif kind is K_CALL:
                settlement = settle_call(bet, loser, winner, hock, profile)
            else:
                outcome = settle_on_turn(bet, lr, wr, profile)
                if outcome is not None:
                    settlement = outcome
                elif kind in EVERY_TURN:
                    continue
                else:
                    settlement = settle_at_hock(bet, profile)
            if kind not in EVERY_TURN:
                self._remove(bet)
                self._undo_log.append((_LAST_TURN_WINNER, _RESTORE, bet))
            settlements.append(settlement)
        if profile.markers:
            self._force_off_markers(settlements, _LAST_TURN_WINNER)
        if settlements:
            self._book(settlements, sign=1)
        return TurnResult(LAST_TURN, loser, winner, tuple(settlements), hock)

    def _last_card(self) -> Card:
        return _CARD_OF_BIT[_ALL_BITS & ~self._shown]

    def _force_off_markers(self, settlements: list[Settlement], index: int) -> None:
        # Seed 000: after a loss the player must take his markers down unless chips still cover them.
        losers = {s.player for s in settlements if s.result in _LOSING}
        forced = []
        for player in sorted(losers, key=self.players.index):
            chips, markers = self._cover(player)
            if markers and chips < markers:
                for bet in [b for b in self._open.values() if b.player == player and b.marker]:
                    self._remove(bet)
                    self._undo_log.append((index, _RESTORE, bet))
                    forced.append(void(bet))
        if forced:
            settlements.extend(forced)
            settlements.sort(key=lambda s: self._seq[s.bet_id])

    def _book(self, settlements: Sequence[Settlement], sign: int) -> None:
        halves = self._halves
        for s in settlements:
            change = sign * s.halves
            halves[s.player] += change
            halves[BANKER] -= change

    def _add(self, bet: Bet) -> None:
        self._open[bet.id] = bet
        bit = 1 << self._seq[bet.id]
        if bet.kind in EVERY_TURN:
            self._every_turn |= bit
        for rank in bet.ranks:
            self._on_rank[rank] |= bit

    def _remove(self, bet: Bet) -> None:
        del self._open[bet.id]
        keep = ~(1 << self._seq[bet.id])
        self._every_turn &= keep
        for rank in bet.ranks:
            self._on_rank[rank] &= keep

    def _swap(self, old: Bet, new: Bet) -> Bet:
        self._open[new.id] = new
        self._log(_REPLACE, old)
        return new

    def _log(self, op: int, bet: Bet) -> None:
        index = len(self._exposed) - 1
        if index >= 0:  # changes before the soda are not taken back by undo
            self._undo_log.append((index, op, bet))

    def _check_player(self, player: str) -> None:
        if player not in self._halves or player == BANKER:
            raise RuleError(f"unknown player {player!r}: the players are {', '.join(self.players)}")

    def _refuse_outside_turns(self, what: str) -> None:
        if self._misdeal is not None:
            raise RuleError(f"cannot {what}: the deal was called a misdeal")
        if len(self._exposed) > _CALL_INDEX:
            raise RuleError(f"cannot {what}: the last turn is over")
        raise RuleError(f"cannot {what} during turn {turn_of(len(self._exposed))}: bets change only between turns")

    def _own_open_bet(self, player: str, bet_id: str, what: str) -> Bet:
        self._check_player(player)
        if not self.between_turns:
            self._refuse_outside_turns(f"{what} bet {bet_id!r}")
        bet = self._open.get(bet_id) if isinstance(bet_id, str) else None
        if bet is None or bet.player != player:
            raise RuleError(f"cannot {what} bet {bet_id!r}: it is not an open bet of {player!r}")
        return bet

    def _check_can_stand(self, bet: Bet) -> None:
        if bet.kind is K_CALL:
            n = len(self._exposed)
            if n != _CALL_INDEX:
                raise RuleError(f"bet {bet.id!r}: the turn is called only before the last turn (25), "
                                f"not before turn {turn_of(n) or 1}")
            why = call_fits(bet.order, self.remaining, self.profile)
            if why:
                raise RuleError(f"bet {bet.id!r}: {why}")
            return
        shown = self._shown
        for rank in bet.ranks:
            if not ~shown >> (rank << 2) & 15:  # all four cards of the rank are out
                raise RuleError(f"bet {bet.id!r}: no cards of rank {rank.symbol!r} are left in the box")

    def _check_case_ban(self, bet: Bet) -> None:
        # Most casinos (seed 000) forbid backing a case card before backing a rank that can split;
        # the last turn is played "as usual", so the ban stops before it.
        if bet.kind not in RANKED or len(self._exposed) >= _CALL_INDEX:
            return
        left = self._left
        cases = [r for r in bet.ranks if left(r) == 1]
        if not cases:
            return
        backs_split = any(
            b.player == bet.player and b.kind in RANKED and any(left(r) >= 2 for r in b.ranks)
            for b in self._open.values())
        if not backs_split:
            raise RuleError(
                f"bet {bet.id!r}: house rule: no bet on the case {cases[0].symbol!r} (one card left) before "
                f"{bet.player!r} backs a rank that can still split")

    def _left(self, rank: int) -> int:
        """How many cards of this rank are still in the box: its four bits not yet shown."""
        return (~self._shown >> (rank << 2) & 15).bit_count()

    def _cover(self, player: str) -> tuple[int, int]:
        chips = markers = 0
        for bet in self._open.values():
            if bet.player == player:
                if bet.marker:
                    markers += bet.stake
                else:
                    chips += bet.stake
        return chips, markers
