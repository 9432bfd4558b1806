"""One bank of Baccarat Banque: the banker's fund against the right and left sides (seed 001).

``Bank`` is mutable and live-usable, like a dealer at the table: take bets (``place``,
``claim_banco``, ``leave_on``) before the cards, then ``deal`` cards one at a time in the deal
order and ``decide`` where a choice exists. A coup settles itself when its last card or decision
is in. Every refusal is a RuleError that changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from faro_box.cards import Card, Rank
from faro_box.errors import RuleError
from faro_box.rules.baccarat.banco import BancoStanding, resolve
from faro_box.rules.baccarat.bets import Bet, Settlement, settle
from faro_box.rules.baccarat.coup import Coup, Step
from faro_box.rules.baccarat.hands import Outcome, Seat, Side
from faro_box.rules.baccarat.players import Active
from faro_box.rules.baccarat.shoe import MIN_CARDS_FOR_COUP, Shoe

STARTING_CHIPS = 100
# Seed 001 §02: 3–11 at the table, the banker included.
MIN_PLAYERS, MAX_PLAYERS = 2, 10


class End(enum.Enum):
    LEFT = "left"        # the banker left after at least one coup
    RUINED = "ruined"    # the fund reached 0
    SHOE = "shoe"        # fewer than 9 cards were left for a new coup


@dataclass(frozen=True, slots=True)
class CoupResult:
    number: int
    hands: Mapping[Seat, tuple[Card, ...]]
    totals: Mapping[Seat, int]
    natural: bool
    outcomes: Mapping[Side, Outcome]
    active: Mapping[Side, str]
    bets: tuple[Bet, ...]
    settlements: tuple[Settlement, ...]
    fund: int  # after the coup

    def to_json(self) -> dict[str, object]:
        return {"coup": self.number,
                "hands": {seat.value: [str(c) for c in self.hands[seat]] for seat in Seat},
                "totals": {seat.value: self.totals[seat] for seat in Seat},
                "natural": self.natural,
                "results": {side.value: self.outcomes[side].value for side in Side},
                "active": {side.value: self.active[side] for side in Side},
                "settlements": [s.to_json() for s in self.settlements],
                "fund": self.fund}


@dataclass(frozen=True, slots=True)
class Session:
    """The session result: every personal total against the 100 chips each started with (§07)."""

    net: Mapping[str, int]
    winners: tuple[str, ...]  # the best result; equal results share the win


def award_bank(declarations: Mapping[str, int], order: Sequence[str],
               lot: Callable[[tuple[str, ...]], str] | None = None) -> tuple[str, int]:
    """The largest declared fund takes the bank; ``lot`` draws among equal declarations."""
    if not declarations:
        raise RuleError("nobody declared a fund: there is no bank")
    for player, fund in declarations.items():
        if player not in order:
            raise RuleError(f"{player!r} declares a fund but is not at the table")
        _check_fund(fund)
    best = max(declarations.values())
    tied = tuple(p for p in order if declarations.get(p) == best)
    if len(tied) == 1:
        return tied[0], best
    if lot is None:
        raise RuleError(f"{', '.join(map(repr, tied))} all declare {best}: draw lots")
    chosen = lot(tied)
    if chosen not in tied:
        raise RuleError(f"the lot chose {chosen!r}, who is not among {tied!r}")
    return chosen, best


def _check_fund(fund: object) -> int:
    if isinstance(fund, bool) or not isinstance(fund, int) or not 0 < fund <= STARTING_CHIPS:
        raise RuleError(f"a fund must be a whole number of chips from 1 to the banker's "
                        f"{STARTING_CHIPS}, not {fund!r}")
    return fund


class Bank:
    def __init__(self, players: Sequence[str], sides: Mapping[str, Side], banker: str, fund: int,
                 *, shoe: Shoe | None = None) -> None:
        players = tuple(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RuleError(f"a bank needs {MIN_PLAYERS} to {MAX_PLAYERS} players besides the banker, "
                            f"not {len(players)}: {players!r:.120}")
        for player in players:
            if not isinstance(player, str) or not player.strip():
                raise RuleError(f"a player is named by non-empty text, not {player!r}")
        if len(set(players)) != len(players):
            twice = next(p for p in players if players.count(p) > 1)
            raise RuleError(f"{twice!r} is listed twice among the players")
        if not isinstance(banker, str) or not banker.strip():
            raise RuleError(f"the banker is named by non-empty text, not {banker!r}")
        if banker in players:
            raise RuleError(f"the banker {banker!r} cannot also play a side: 'players' holds everyone "
                            f"but the banker")
        for player in players:
            if not isinstance(sides.get(player), Side):
                raise RuleError(f"{player!r} has no side (right or left): {sides.get(player)!r}")
        extra = [p for p in sides if p not in players]
        if extra:
            raise RuleError(f"{extra[0]!r} has a side but is not among the players")
        for side in Side:
            if not any(sides[p] is side for p in players):
                raise RuleError(f"nobody plays the {side.value} side: each side needs at least one player")
        shoe = Shoe() if shoe is None else shoe
        if shoe.remaining < MIN_CARDS_FOR_COUP:
            raise RuleError(f"the shoe holds {shoe.remaining} cards: a bank needs {MIN_CARDS_FOR_COUP}")
        self.players = players
        self.sides: dict[str, Side] = {p: sides[p] for p in players}
        self.banker = banker
        self.declared = _check_fund(fund)
        self._fund = fund
        self._chips = {p: STARTING_CHIPS for p in players}
        self._shoe = shoe
        self._active = Active.seat(players, self.sides)
        self._suivi: frozenset[str] = frozenset()
        self._results: list[CoupResult] = []
        self._ended: End | None = None
        self._claims: list[str] = []
        self._bets: list[Bet] = []
        self._coup: Coup | None = None
        self._coup_bets: tuple[Bet, ...] = ()

    # -- state -------------------------------------------------------------------------------
    @property
    def fund(self) -> int:
        return self._fund

    @property
    def balances(self) -> dict[str, int]:
        """Everyone's chips now; what is left of the fund belongs to the banker."""
        return {**self._chips, self.banker: STARTING_CHIPS - self.declared + self._fund}

    @property
    def ended(self) -> End | None:
        return self._ended

    @property
    def coups(self) -> tuple[CoupResult, ...]:
        return tuple(self._results)

    @property
    def active(self) -> dict[Side, str]:
        return self._active.by_side()

    @property
    def banco_suivi(self) -> frozenset[str]:
        """Who lost a banco last coup, and so comes first among banco claims this coup."""
        return self._suivi

    @property
    def betting_open(self) -> bool:
        return self._ended is None and self._coup is None

    @property
    def coup(self) -> Coup | None:
        """The coup being dealt (None between coups)."""
        return self._coup

    @property
    def bets(self) -> tuple[Bet, ...]:
        """The bets that stand for this coup: a banco's, or the ordinary ones in the order taken."""
        if self._coup is not None:
            return self._coup_bets
        banco = self.banco()
        return banco.bets if banco.bets else tuple(self._bets)

    def banco(self) -> BancoStanding:
        return resolve(self._claims, self._fund, self.players, self.sides, self._suivi)

    @property
    def cover_left(self) -> int:
        return self._fund - sum(bet.stake for bet in self.bets)

    @property
    def next_step(self) -> Step | None:
        if self._ended is not None:
            return None
        return Step.CARD_RIGHT if self._coup is None else self._coup.next_step

    @property
    def shoe(self) -> Shoe:
        return self._shoe

    def shoe_remaining_by_rank(self) -> dict[Rank, int]:
        return self._shoe.remaining_by_rank()

    def free_chips(self, player: str) -> int:
        """A player's chips not yet staked this coup."""
        return self._chips[player] - sum(b.stake for b in self.bets if b.player == player)

    def winnings_left(self, player: str) -> int:
        """What the player's bets of the last coup left in front of him: stake and profit, or the stake."""
        self._known(player)
        if not self._results:
            raise RuleError(f"{player!r} has nothing to leave on: no coup has been played")
        last = self._results[-1]
        amount = sum(s.returned for s in last.settlements if s.player == player and s.result is not Outcome.LOSE)
        if amount == 0:
            raise RuleError(f"{player!r} has nothing to leave on: no bet of his won or tied in coup {last.number}")
        return amount

    def session(self) -> Session:
        balances = self.balances
        best = max(balances.values())
        return Session({p: chips - STARTING_CHIPS for p, chips in balances.items()},
                       tuple(p for p, chips in balances.items() if chips == best))

    # -- bets --------------------------------------------------------------------------------
    def claim_banco(self, player: str) -> BancoStanding:
        """A claim to cover the whole fund: it displaces every ordinary bet of this coup."""
        self._check_betting()
        self._known(player)
        if player in self._claims:
            raise RuleError(f"{player!r} has already called banco this coup")
        if self._chips[player] < self._fund:
            raise RuleError(f"{player!r} holds {self._chips[player]} chips: a banco covers the whole "
                            f"fund of {self._fund}")
        self._claims.append(player)
        self._bets.clear()
        return self.banco()

    def place(self, player: str, stake: int, *, cheval: bool = False, cut: bool = False) -> Bet:
        """An ordinary bet on the player's side (``cheval``: half on each side).

        A stake beyond the cover left is refused, or with ``cut`` cut down to what is left.
        """
        return self._place(player, stake, cheval=cheval, cut=cut, left_on=False)

    def leave_on(self, player: str, *, cheval: bool = False, cut: bool = False) -> Bet:
        """Leave last coup's winnings on: a new bet of ``winnings_left(player)`` that must fit the cover again."""
        self._check_betting()
        return self._place(player, self.winnings_left(player), cheval=cheval, cut=cut, left_on=True)

    def _place(self, player: str, stake: int, *, cheval: bool, cut: bool, left_on: bool) -> Bet:
        self._check_betting()
        self._known(player)
        if isinstance(stake, bool) or not isinstance(stake, int) or stake <= 0:
            raise RuleError(f"a stake must be a positive whole number of chips, not {stake!r}")
        if self._claims:
            raise RuleError(f"{self.banco().bets[0].player!r} called banco: no ordinary bet stands "
                            f"against a banco this coup")
        free = self.free_chips(player)
        if stake > free:
            raise RuleError(f"{player!r} stakes {stake} but has {free} chips free")
        if cheval and stake % 2:
            raise RuleError(f"an à cheval stake is split equally between the sides in whole chips: "
                            f"{stake} is odd")
        left = self.cover_left
        accepted = stake
        if stake > left:
            if left == 0:
                raise RuleError("the bank's cover is used up")
            if not cut:
                raise RuleError(f"a stake of {stake} is beyond the bank's cover: {left} left")
            accepted = left - left % 2 if cheval else left
            if accepted == 0:
                raise RuleError(f"the cover left ({left}) cannot take an à cheval bet in whole chips")
        bet = Bet(player, None if cheval else self.sides[player], accepted, stake, left_on=left_on)
        self._bets.append(bet)
        return bet

    # -- the coup ----------------------------------------------------------------------------
    def deal(self, card: Card) -> Seat:
        """The next card out of the shoe: the first one closes the bets; return the hand it went to."""
        self._check_open()
        if self._coup is None:
            self._shoe.check(card)
            self._coup_bets = self.bets
            self._coup = Coup(self._shoe)
        seat = self._coup.deal(card)
        if self._coup.finished:
            self._finish()
        return seat

    def decide(self, seat: Seat, draw: bool) -> CoupResult | None:
        """A side's choice on 5 or the banker's draw or stand; the coup's result once it is over."""
        self._check_open()
        if self._coup is None:
            raise RuleError(f"{seat.value}'s decision out of turn: no coup is being dealt")
        self._coup.decide(seat, draw)
        return self._finish() if self._coup.finished else None

    def leave(self) -> None:
        """The banker leaves between coups, after at least one; what is left of the fund is his."""
        if self._ended is End.LEFT:
            raise RuleError("the banker has already left")
        if self._coup is not None:
            raise RuleError("the banker cannot leave in the middle of a coup")
        if not self._results:
            raise RuleError("the banker may leave only after at least one coup")
        self._ended = End.LEFT
        self._claims.clear()
        self._bets.clear()

    # -- inside ------------------------------------------------------------------------------
    def _finish(self) -> CoupResult:
        assert self._coup is not None
        coup, bets = self._coup, self._coup_bets
        outcomes = coup.outcomes()
        settlements = settle(bets, outcomes)
        for s in settlements:
            self._chips[s.player] += s.amount
            self._fund -= s.amount
        result = CoupResult(len(self._results) + 1, coup.hands, coup.totals, coup.natural, outcomes,
                            self._active.by_side(), bets, settlements, self._fund)
        self._results.append(result)
        self._active = self._active.after(outcomes)
        # Banco bets stand alone in their coup, so every lost stake then is a lost banco.
        lost_banco = bool(bets) and bets[0].banco
        self._suivi = frozenset(s.player for s in settlements if lost_banco and s.result is Outcome.LOSE)
        self._coup, self._coup_bets = None, ()
        self._claims.clear()
        self._bets.clear()
        if self._fund == 0:
            self._ended = End.RUINED
        elif self._shoe.remaining < MIN_CARDS_FOR_COUP:
            self._ended = End.SHOE
        return result

    def _check_open(self) -> None:
        if self._ended is not None:
            raise RuleError(f"the bank has ended ({self._ended.value}): no more coups")

    def _check_betting(self) -> None:
        self._check_open()
        if self._coup is not None:
            raise RuleError("bets are closed: the cards of this coup are out")

    def _known(self, player: str) -> None:
        if not isinstance(player, str):
            raise RuleError(f"a bet names a player by name, not {player!r}")
        if player == self.banker:
            raise RuleError(f"{player!r} holds the bank and does not bet against it")
        if player not in self._chips:
            raise RuleError(f"unknown player {player!r}: the players are {', '.join(self.players)}")
