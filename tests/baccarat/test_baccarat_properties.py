"""Property tests: the bank never pays more than its fund, chips are conserved, the shoe deals each
physical card once and no card more than three times, the same script gives the same result, and
arbitrary JSON raises only our own errors."""

from __future__ import annotations

import copy
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from faro_box.cards import Card, Rank, Suit
from faro_box.errors import FaroBoxError, RuleError, ScriptError
from faro_box.rules.baccarat import Bank, Seat, Side, settle_document
from faro_box.rules.baccarat.hands import MUST_DRAW, point

FULL_SHOE = [f"{r}{s}" for r in ["A", *"23456789", "10", *"JQK"] for s in "SHDC"] * 3
NAMES = ["ann", "bob", "cid", "dan", "fay", "gus"]


@st.composite
def scripts(draw: st.DrawFn) -> dict:
    n = draw(st.integers(2, 6))
    players = NAMES[:n]
    sides = {"ann": "right", "bob": "left"} | {p: draw(st.sampled_from(["right", "left"])) for p in players[2:]}
    bet = st.fixed_dictionaries(
        {"player": st.sampled_from([*players, "eve", "zed"])},
        optional={"stake": st.integers(-2, 120), "cheval": st.booleans(),
                  "banco": st.booleans().filter(lambda b: b) | st.just(False), "left_on": st.booleans()})
    coup = st.fixed_dictionaries({}, optional={
        "bets": st.lists(bet, max_size=6), "right_draws_on_5": st.booleans(), "left_draws_on_5": st.booleans(),
        "banker_draws": st.booleans(), "banker_leaves": st.booleans().filter(lambda b: b)})
    return {"game": "baccarat_banque", "players": players, "sides": sides, "banker": "eve",
            "fund": draw(st.integers(1, 100)),
            "shoe": draw(st.randoms(use_true_random=False)).sample(FULL_SHOE, len(FULL_SHOE)),
            "coups": draw(st.lists(coup, max_size=14))}


def _dealt_in_order(coup: dict) -> list[str]:
    hands = coup["hands"]
    order = [hands[s][i] for i in range(2) for s in ("right", "left", "banker")]
    return order + [hands[s][2] for s in ("right", "left", "banker") if len(hands[s]) == 3]


def _total(cards: list[str]) -> int:
    return sum(point(Card.parse(c)) for c in cards) % 10


@settings(max_examples=80, deadline=None)
@given(scripts())
def test_a_script_obeys_every_invariant(script):
    result = settle_document(script)
    players = script["players"]
    balances = result["balances"]
    # Chips are conserved: everyone started with 100.
    assert sum(balances.values()) == 100 * (len(players) + 1)
    assert balances["eve"] == 100 - script["fund"] + result["fund"]
    fund = script["fund"]
    dealt: list[str] = []
    for coup in result["coups"]:
        amounts = [s["amount"] for s in coup["settlements"]]
        # Accepted stakes fit the cover, so the bank can never pay more than its fund.
        assert sum(s["stake"] for s in coup["settlements"]) <= fund
        assert sum(a for a in amounts if a > 0) <= fund
        assert coup["fund"] == fund - sum(amounts) >= 0
        fund = coup["fund"]
        hands, totals = coup["hands"], coup["totals"]
        assert all(2 <= len(h) <= 3 for h in hands.values())
        assert totals == {seat: _total(cards) for seat, cards in hands.items()}
        if coup["natural"]:
            assert all(len(h) == 2 for h in hands.values())
            assert any(_total(h[:2]) >= 8 for h in hands.values())
        else:
            for side in ("right", "left"):
                two = _total(hands[side][:2])
                if two in MUST_DRAW:
                    assert len(hands[side]) == 3
                elif two != 5:
                    assert len(hands[side]) == 2
        for side in ("right", "left"):
            expected = "win" if totals[side] > totals["banker"] else "lose" if totals[side] < totals["banker"] else "push"
            assert coup["results"][side] == expected
        dealt += _dealt_in_order(coup)
    # The shoe deals its cards in order, each physical card once.
    assert dealt == script["shoe"][: len(dealt)]
    assert max(Counter(dealt).values(), default=0) <= 3
    assert result["fund"] == fund
    if result["ended"] is None:
        assert 156 - len(dealt) >= 9 and fund > 0


@settings(max_examples=25, deadline=None)
@given(scripts())
def test_the_same_script_always_gives_the_same_result(script):
    kept = copy.deepcopy(script)
    assert settle_document(script) == settle_document(kept)
    assert script == kept


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 200) | st.floats(allow_nan=False)
                    | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_arbitrary_json_raises_only_our_own_errors(value):
    try:
        settle_document(value)
    except ScriptError:
        pass


@settings(max_examples=60, deadline=None)
@given(scripts(), st.sampled_from(["doc", "coup", "bet"]), st.text(max_size=10)
       | st.sampled_from(["players", "sides", "banker", "fund", "shoe", "coups", "bets", "stake", "player",
                          "cheval", "banco", "left_on", "banker_draws", "right_draws_on_5"]), JSON)
def test_a_damaged_script_settles_or_raises_only_our_own_errors(script, where, key, value):
    target = script
    if where != "doc" and script["coups"]:
        target = script["coups"][0]
        if where == "bet" and target.get("bets"):
            target = target["bets"][0]
    target[key] = value
    try:
        settle_document(script)
    except FaroBoxError:
        pass


CARDS = [Card(r, s) for r in Rank for s in Suit]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["deal", "decide", "place", "banco", "leave"]),
                          st.sampled_from(CARDS), st.sampled_from(list(Seat)), st.booleans(),
                          st.sampled_from(["ann", "bob", "cid", "zed"]), st.integers(-1, 30)),
                max_size=400))
def test_a_live_bank_refuses_only_with_rule_errors_and_keeps_its_books(actions):
    bank = Bank(["ann", "bob", "cid"], {"ann": Side.RIGHT, "bob": Side.LEFT, "cid": Side.LEFT}, "eve", 30)
    for kind, card, seat, flag, player, stake in actions:
        before = (bank.fund, bank.balances, bank.shoe.dealt, bank.bets, bank.next_step)
        try:
            if kind == "deal":
                bank.deal(card)
            elif kind == "decide":
                bank.decide(seat, flag)
            elif kind == "place":
                bank.place(player, stake, cheval=flag, cut=stake % 3 == 0)
            elif kind == "banco":
                bank.claim_banco(player)
            else:
                bank.leave()
        except RuleError:
            assert (bank.fund, bank.balances, bank.shoe.dealt, bank.bets, bank.next_step) == before
        assert sum(bank.balances.values()) == 400 and bank.fund >= 0
        assert bank.cover_left >= 0
        copies = Counter(bank.shoe.dealt)
        assert max(copies.values(), default=0) <= 3
        assert sum(bank.shoe_remaining_by_rank().values()) == bank.shoe.remaining == 156 - len(bank.shoe.dealt)
        if bank.coup is not None:
            assert all(len(h) <= 3 for h in bank.coup.hands.values())
