"""The bank: cover, à cheval, banco, active players, winnings left on, the end of a bank."""

from __future__ import annotations

import itertools

import pytest

from faro_box.cards import Card, Rank, Suit
from faro_box.errors import RuleError
from faro_box.rules.baccarat import Bank, End, Seat, Shoe, Side, award_bank
from faro_box.rules.baccarat.hands import Outcome

ZEROS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


class Pool:
    """Fresh cards for test coups so no card leaves the shoe a fourth time."""

    def __init__(self) -> None:
        self._next = {rank: itertools.cycle([Card(rank, s) for s in Suit for _ in range(3)]) for rank in Rank}
        self._zeros = itertools.cycle(ZEROS)

    def card(self, rank: Rank) -> Card:
        return next(self._next[rank])

    def zero(self) -> Card:
        return self.card(next(self._zeros))


# A natural coup: the banker shows 8; a winning side 9, a pushing side 8, a losing side 0.
_PAIR = {"win": Rank.NINE, "push": Rank.EIGHT, "lose": None}


def natural(bank: Bank, pool: Pool, right: str, left: str) -> None:
    def pair(result: str | None) -> list[Card]:
        rank = _PAIR[result] if result else Rank.EIGHT
        return [pool.card(rank) if rank else pool.zero(), pool.zero()]

    r, lf, b = pair(right), pair(left), pair(None)
    for card in [r[0], lf[0], b[0], r[1], lf[1], b[1]]:
        bank.deal(card)


@pytest.fixture
def pool() -> Pool:
    return Pool()


def test_bets_fit_the_cover_and_the_bank_covers_both_sides(bank, pool):
    bank.place("ann", 6)
    with pytest.raises(RuleError, match="a stake of 5 is beyond the bank's cover: 4 left"):
        bank.place("bob", 5)
    cut = bank.place("bob", 5, cut=True)
    assert (cut.stake, cut.asked, cut.cut) == (4, 5, True)
    with pytest.raises(RuleError, match="the bank's cover is used up"):
        bank.place("cid", 1, cut=True)
    assert [b.stake for b in bank.bets] == [6, 4] and bank.cover_left == 0
    natural(bank, pool, "win", "win")  # the worst case for the bank: it pays everything it covers
    assert bank.fund == 0 and bank.ended is End.RUINED
    assert bank.balances == {"ann": 106, "bob": 104, "cid": 100, "dan": 100, "eve": 90}


@pytest.mark.parametrize(("player", "stake", "message"), [
    ("zed", 2, "unknown player 'zed'"),
    ("eve", 2, "'eve' holds the bank and does not bet against it"),
    ("ann", 0, "a stake must be a positive whole number of chips, not 0"),
    ("ann", -3, "not -3"),
    ("ann", 2.5, "not 2.5"),
    ("ann", True, "not True"),
    ("ann", "5", "not '5'"),
    ("ann", 101, "'ann' stakes 101 but has 100 chips free"),
])
def test_refused_bets_change_nothing(bank, player, stake, message):
    bank.place("cid", 2)
    with pytest.raises(RuleError, match=message):
        bank.place(player, stake)
    assert [(b.player, b.stake) for b in bank.bets] == [("cid", 2)] and bank.cover_left == 8


def test_a_stake_counts_against_the_chips_already_staked_this_coup():
    bank = Bank(["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 100)
    bank.place("ann", 60)
    with pytest.raises(RuleError, match="stakes 41 but has 40 chips free"):
        bank.place("ann", 41)
    bank.place("ann", 40)


def test_a_cheval_bet_splits_equally_and_its_halves_settle_separately(bank, pool):
    bet = bank.place("ann", 6, cheval=True)
    assert bet.parts() == ((Side.RIGHT, 3), (Side.LEFT, 3))
    natural(bank, pool, "win", "lose")
    result = bank.coups[-1]
    assert [(s.side, s.stake, s.result, s.amount) for s in result.settlements] == [
        (Side.RIGHT, 3, Outcome.WIN, 3), (Side.LEFT, 3, Outcome.LOSE, -3)]
    assert bank.balances["ann"] == 100 and bank.fund == 10


def test_a_cheval_stake_must_split_in_whole_chips_and_is_cut_to_an_even_stake(bank):
    with pytest.raises(RuleError, match="à cheval.*3 is odd"):
        bank.place("ann", 3, cheval=True)
    bank.place("bob", 7)
    assert bank.place("ann", 6, cheval=True, cut=True).stake == 2  # 3 left: cut to 2
    with pytest.raises(RuleError, match=r"cover left \(1\) cannot take an à cheval bet"):
        bank.place("cid", 2, cheval=True, cut=True)


def test_bets_close_with_the_first_card(bank, pool):
    bank.place("ann", 2)
    bank.deal(pool.zero())
    with pytest.raises(RuleError, match="bets are closed"):
        bank.place("bob", 2)
    with pytest.raises(RuleError, match="bets are closed"):
        bank.claim_banco("bob")


def test_a_refused_first_card_does_not_open_the_coup(bank):
    for _ in range(3):
        bank.shoe.draw(Card.parse("KS"))  # three KS already out (e.g. burnt): a fourth is impossible
    bank.place("ann", 2)
    with pytest.raises(RuleError, match="fourth"):
        bank.deal(Card.parse("KS"))
    assert bank.coup is None and bank.betting_open
    bank.place("bob", 2)


# -- banco ---------------------------------------------------------------------------------
def test_banco_claims_the_whole_fund_and_comes_before_ordinary_bets(bank, pool):
    bank.place("ann", 4)
    standing = bank.claim_banco("dan")
    assert [(b.player, b.side, b.stake, b.banco) for b in standing.bets] == [("dan", Side.LEFT, 10, True)]
    assert [b.player for b in bank.bets] == ["dan"]  # ann's ordinary bet gave way
    with pytest.raises(RuleError, match="'dan' called banco: no ordinary bet"):
        bank.place("cid", 2)
    natural(bank, pool, "lose", "win")
    assert bank.fund == 0 and bank.ended is End.RUINED and bank.balances["dan"] == 110


def test_the_first_claim_in_order_wins_and_the_first_on_the_other_side_shares_it(bank):
    bank.claim_banco("cid")  # right
    bank.claim_banco("ann")  # right, but first in order of play
    bank.claim_banco("dan")  # left
    bank.claim_banco("bob")  # left, first of the left in order
    standing = bank.banco()
    assert [(b.player, b.stake) for b in standing.bets] == [("ann", 5), ("bob", 5)]
    assert [p for p, _ in standing.beaten] == ["cid", "dan"]
    assert "banco went to ann and bob" in standing.beaten[0][1]


def test_claims_on_one_side_only_go_to_the_first(bank):
    bank.claim_banco("cid")
    bank.claim_banco("ann")
    standing = bank.banco()
    assert [(b.player, b.stake) for b in standing.bets] == [("ann", 10)]
    assert standing.beaten[0][0] == "cid"


def test_an_odd_fund_shared_gives_the_first_claim_the_larger_half():
    bank = Bank(["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 7)
    bank.claim_banco("bob")
    bank.claim_banco("ann")
    assert [(b.player, b.stake) for b in bank.bets] == [("ann", 4), ("bob", 3)]


def test_a_lost_banco_holds_banco_suivi_for_the_next_coup_only(bank, pool):
    bank.claim_banco("cid")
    natural(bank, pool, "lose", "win")  # cid's banco lost: the fund doubles
    assert bank.fund == 20 and bank.banco_suivi == {"cid"}
    bank.claim_banco("ann")
    bank.claim_banco("cid")
    assert [b.player for b in bank.bets] == ["cid"]  # suivi beats the order of play
    assert "banco suivi" in bank.banco().beaten[0][1]
    bank.claim_banco("bob")  # a left claim shares with cid
    assert [(b.player, b.stake) for b in bank.bets] == [("cid", 10), ("bob", 10)]
    natural(bank, pool, "win", "push")
    assert bank.banco_suivi == frozenset()  # nobody lost a banco this time
    bank.claim_banco("cid")
    bank.claim_banco("ann")
    assert [b.player for b in bank.bets] == ["ann"]


@pytest.mark.parametrize(("setup", "player", "message"), [
    (lambda b: b.claim_banco("ann"), "ann", "already called banco"),
    (lambda b: None, "eve", "holds the bank"),
])
def test_refused_banco_claims(bank, setup, player, message):
    setup(bank)
    with pytest.raises(RuleError, match=message):
        bank.claim_banco(player)


def test_a_banco_needs_chips_for_the_whole_fund():
    bank = Bank(["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 100)
    bank.place("ann", 1)
    bank.deal(Card.parse("KS")), bank.deal(Card.parse("KH")), bank.deal(Card.parse("9S"))
    bank.deal(Card.parse("KD")), bank.deal(Card.parse("KC")), bank.deal(Card.parse("QS"))
    assert bank.balances["ann"] == 99
    with pytest.raises(RuleError, match="'ann' holds 99 chips: a banco covers the whole fund of 101"):
        bank.claim_banco("ann")
    assert bank.banco().bets == ()


# -- active players ------------------------------------------------------------------------
def test_the_active_player_stays_after_a_win_or_tie_and_passes_after_a_loss(bank, pool):
    seen = []
    for right, left in [("win", "push"), ("lose", "lose"), ("push", "lose"), ("lose", "win"), ("win", "lose")]:
        seen.append(bank.active)
        natural(bank, pool, right, left)
        assert bank.coups[-1].active == seen[-1]
    assert [(a[Side.RIGHT], a[Side.LEFT]) for a in seen] == [
        ("ann", "bob"), ("ann", "bob"), ("cid", "dan"), ("cid", "bob"), ("ann", "bob")]
    assert bank.active == {Side.RIGHT: "ann", Side.LEFT: "dan"}


def test_the_active_player_takes_the_side_decision_on_5():
    bank = Bank(["ann", "bob", "cid"], {"ann": Side.LEFT, "bob": Side.RIGHT, "cid": Side.LEFT}, "eve", 10)
    assert bank.active == {Side.RIGHT: "bob", Side.LEFT: "ann"}


# -- winnings left on ------------------------------------------------------------------------
def test_winnings_left_on_are_a_new_bet_that_must_fit_the_cover_again(bank, pool):
    bank.place("ann", 4)
    bank.place("bob", 3)
    natural(bank, pool, "win", "push")  # fund 10 -> 6
    assert bank.winnings_left("ann") == 8 and bank.winnings_left("bob") == 3
    with pytest.raises(RuleError, match="a stake of 8 is beyond the bank's cover: 6 left"):
        bank.leave_on("ann")
    bet = bank.leave_on("ann", cut=True)
    assert (bet.stake, bet.asked, bet.left_on) == (6, 8, True)
    with pytest.raises(RuleError, match="'cid' has nothing to leave on: no bet of his won or tied in coup 1"):
        bank.leave_on("cid")


def test_nothing_is_left_on_before_the_first_coup(bank):
    with pytest.raises(RuleError, match="no coup has been played"):
        bank.leave_on("ann")


# -- the end of a bank -----------------------------------------------------------------------
def test_the_banker_leaves_only_between_coups_after_at_least_one(bank, pool):
    with pytest.raises(RuleError, match="only after at least one coup"):
        bank.leave()
    natural(bank, pool, "win", "lose")
    bank.place("ann", 3)
    bank.deal(pool.zero())
    with pytest.raises(RuleError, match="middle of a coup"):
        bank.leave()
    for _ in range(5):
        bank.deal(pool.zero())  # all zeros: no natural, everyone draws
    bank.deal(pool.zero()), bank.deal(pool.zero())
    bank.decide(Seat.BANKER, False)
    bank.leave()
    assert bank.ended is End.LEFT and bank.next_step is None
    with pytest.raises(RuleError, match=r"the bank has ended \(left\)"):
        bank.place("ann", 1)
    with pytest.raises(RuleError, match="already left"):
        bank.leave()


@pytest.mark.parametrize(("left_before", "ended"), [(15, None), (14, End.SHOE)])
def test_the_bank_ends_when_fewer_than_nine_cards_remain_for_a_new_coup(left_before, ended):
    last = [Card.parse(t) for t in ["9S", "KS", "KH", "KD", "KC", "QS"]]
    full = [Card(r, s) for s in Suit for r in Rank for _ in range(3)]
    for card in last:
        full.remove(card)
    shoe = Shoe()
    for card in full[: 156 - left_before]:
        shoe.draw(card)
    bank = Bank(["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 10, shoe=shoe)
    for card in last:  # right shows a natural 9: six cards and the coup is over
        bank.deal(card)
    assert bank.shoe.remaining == left_before - 6 and bank.ended is ended
    if ended:
        with pytest.raises(RuleError, match=r"ended \(shoe\)"):
            bank.place("ann", 1)


def test_a_bank_cannot_open_on_a_shoe_short_of_nine_cards():
    shoe = Shoe()
    for card in [Card(r, s) for s in Suit for r in Rank for _ in range(3)][:148]:
        shoe.draw(card)
    with pytest.raises(RuleError, match="the shoe holds 8 cards: a bank needs 9"):
        Bank(["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 10, shoe=shoe)


# -- choosing the banker, the session ------------------------------------------------------------
def test_the_largest_declared_fund_takes_the_bank_and_ties_draw_lots():
    order = ["ann", "bob", "cid"]
    assert award_bank({"ann": 20, "bob": 35, "cid": 10}, order) == ("bob", 35)
    with pytest.raises(RuleError, match="'ann', 'cid' all declare 30: draw lots"):
        award_bank({"ann": 30, "bob": 5, "cid": 30}, order)
    assert award_bank({"ann": 30, "cid": 30}, order, lot=lambda tied: tied[-1]) == ("cid", 30)
    with pytest.raises(RuleError, match="from 1 to the banker's 100, not 101"):
        award_bank({"ann": 101}, order)


def test_the_session_compares_everyone_with_100_chips(bank, pool):
    bank.place("ann", 4)
    bank.place("bob", 4)
    natural(bank, pool, "win", "win")
    session = bank.session()
    assert session.net == {"ann": 4, "bob": 4, "cid": 0, "dan": 0, "eve": -8}
    assert session.winners == ("ann", "bob")


@pytest.mark.parametrize(("players", "sides", "banker", "fund", "message"), [
    (["ann"], {"ann": Side.RIGHT}, "eve", 10, "needs 2 to 10 players"),
    ([f"p{i}" for i in range(11)], {f"p{i}": Side.RIGHT for i in range(11)}, "eve", 10, "not 11"),
    (["ann", "ann"], {"ann": Side.RIGHT}, "eve", 10, "'ann' is listed twice"),
    (["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.RIGHT}, "eve", 10, "nobody plays the left side"),
    (["ann", "bob"], {"ann": Side.RIGHT}, "eve", 10, "'bob' has no side"),
    (["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT, "zed": Side.LEFT}, "eve", 10, "'zed' has a side"),
    (["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "ann", 10, "banker 'ann' cannot also play"),
    (["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 0, "not 0"),
    (["ann", "bob"], {"ann": Side.RIGHT, "bob": Side.LEFT}, "eve", 150, "not 150"),
    (["ann", ""], {"ann": Side.RIGHT, "": Side.LEFT}, "eve", 10, "non-empty text, not ''"),
])
def test_a_bank_that_cannot_open(players, sides, banker, fund, message):
    with pytest.raises(RuleError, match=message):
        Bank(players, sides, banker, fund)
