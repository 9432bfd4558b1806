"""Seed 001 §08: fund 10; right 5, left 3; right wins 5, left pushes, the fund falls to 5."""

from __future__ import annotations

import json

from faro_box.cards import Card
from faro_box.rules.baccarat import Bank, Seat, Side, settle_document
from faro_box.rules.baccarat.coup import Step

SEED_EXAMPLE = {
    "game": "baccarat_banque",
    "players": ["ann", "bob", "cid"], "sides": {"ann": "right", "bob": "left", "cid": "right"},
    "banker": "eve", "fund": 10,
    "shoe": ["9C", "7H", "2S", "4C", "6D", "3C", "4D", "2H"],
    "coups": [{"bets": [{"player": "ann", "stake": 5}, {"player": "bob", "stake": 3}],
               "right_draws_on_5": True, "left_draws_on_5": False, "banker_draws": False,
               "banker_leaves": False}],
}

EXPECTED_COUP = {
    "coup": 1,
    "hands": {"right": ["9C", "4C", "4D"], "left": ["7H", "6D", "2H"], "banker": ["2S", "3C"]},
    "totals": {"right": 7, "left": 5, "banker": 5}, "natural": False,
    "results": {"right": "win", "left": "push"}, "active": {"right": "ann", "left": "bob"},
    "settlements": [{"player": "ann", "side": "right", "stake": 5, "result": "win", "amount": 5},
                    {"player": "bob", "side": "left", "stake": 3, "result": "push", "amount": 0}],
    "fund": 5,
}


def test_the_seed_example_settles_as_the_seed_says():
    result = settle_document(SEED_EXAMPLE)
    assert result == {"coups": [EXPECTED_COUP], "ended": None, "fund": 5,
                      "balances": {"ann": 105, "bob": 100, "cid": 100, "eve": 95}, "rejected": []}
    json.dumps(result)  # the result document is plain JSON


def test_the_seed_example_dealt_card_by_card_on_a_live_bank():
    bank = Bank(["ann", "bob", "cid"], {"ann": Side.RIGHT, "bob": Side.LEFT, "cid": Side.RIGHT}, "eve", 10)
    bank.place("ann", 5)
    bank.place("bob", 3)
    assert bank.cover_left == 2
    seats = [bank.deal(Card.parse(c)) for c in ["9C", "7H", "2S", "4C", "6D", "3C"]]
    assert seats == [Seat.RIGHT, Seat.LEFT, Seat.BANKER] * 2
    # Right has 3 and left 3: both must draw, so the next card goes to right without a decision.
    assert bank.next_step is Step.CARD_RIGHT
    assert bank.deal(Card.parse("4D")) is Seat.RIGHT
    assert bank.deal(Card.parse("2H")) is Seat.LEFT
    assert bank.next_step is Step.DECIDE_BANKER
    result = bank.decide(Seat.BANKER, False)
    assert result is not None and result.to_json() == EXPECTED_COUP
    assert bank.fund == 5 and bank.balances == {"ann": 105, "bob": 100, "cid": 100, "eve": 95}
    assert bank.shoe.remaining == 156 - 8
