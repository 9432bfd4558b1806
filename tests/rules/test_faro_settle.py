"""docs/faro.md's settlement of one turn, rule by rule, for every profile where the rule differs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from faro_box.cards import Card, Rank
from faro_box.rules.faro import (
    Bet,
    BetKind,
    Result,
    find_profile,
    settle_at_hock,
    settle_call,
    settle_on_turn,
)

R = Rank.parse
PROFILE_NAMES = ["foster", "teaching", "french", "stuss"]


def bet(kind: str, ranks: str = "", stake: int = 4, copper: bool = False, order: tuple = ()) -> Bet:
    return Bet("b", "ann", BetKind(kind), tuple(R(r) for r in ranks.split()), stake, copper, order)


def turn(b: Bet, loser: str, winner: str, profile: str = "foster"):
    s = settle_on_turn(b, R(loser), R(winner), find_profile(profile))
    return None if s is None else (s.result, s.amount)


WIN, LOSE, SPLIT, PUSH, VOID = Result.WIN, Result.LOSE, Result.SPLIT, Result.PUSH, Result.VOID


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("copper, loser, winner, expected", [
    (False, "9", "3", (LOSE, -4)), (False, "3", "9", (WIN, 4)), (False, "3", "4", None),
    (True, "9", "3", (WIN, 4)), (True, "3", "9", (LOSE, -4)), (True, "3", "4", None),
])
def test_rank_bet_plain_and_coppered(profile, copper, loser, winner, expected):
    assert turn(bet("rank", "9", copper=copper), loser, winner, profile) == expected


@pytest.mark.parametrize("profile, lost", [("foster", -2), ("teaching", -2), ("french", -2), ("stuss", -4)])
@pytest.mark.parametrize("copper", [False, True])
def test_split_takes_the_profile_share_coppered_or_not(profile, lost, copper):
    assert turn(bet("rank", "9", copper=copper), "9", "9", profile) == (SPLIT, lost)


def test_a_half_split_of_an_odd_stake_is_a_half():
    assert turn(bet("rank", "9", stake=3), "9", "9", "foster") == (SPLIT, Fraction(-3, 2))


@pytest.mark.parametrize("profile", ["foster", "french"])
@pytest.mark.parametrize("copper, loser, winner, expected", [
    (False, "3", "K", (LOSE, -4)),  # only the loser in the group: as a rank bet on it
    (False, "K", "J", (WIN, 4)),  # only the winner
    (True, "3", "K", (WIN, 4)),
    (True, "K", "J", (LOSE, -4)),
    (False, "K", "Q", None),
])
def test_group_with_one_card_in_it_is_a_rank_bet_on_that_card(profile, copper, loser, winner, expected):
    assert turn(bet("group", "3 10 J", copper=copper), loser, winner, profile) == expected


@pytest.mark.parametrize("copper, loser, winner, foster, french", [
    (False, "3", "J", (PUSH, 0), (LOSE, -4)),  # seed 000 returns the stake; seed 003: the loser decides
    (True, "3", "J", (PUSH, 0), (WIN, 4)),
    (False, "J", "J", (PUSH, 0), (SPLIT, -2)),  # one rank twice: a split of that rank (seed 003)
    (True, "10", "10", (PUSH, 0), (SPLIT, -2)),
])
def test_group_with_both_cards_in_it_follows_group_both(copper, loser, winner, foster, french):
    b = bet("group", "3 10 J", copper=copper)
    assert turn(b, loser, winner, "foster") == foster
    assert turn(b, loser, winner, "french") == french


@pytest.mark.parametrize("loser, winner, expected", [
    ("6", "K", (WIN, 4)),  # the one to lose lost
    ("K", "7", (WIN, 4)),  # the one to win won
    ("6", "7", (WIN, 4)),  # both
    ("K", "6", (LOSE, -4)),  # the one to lose won
    ("7", "K", (LOSE, -4)),  # the one to win lost
    ("7", "6", (LOSE, -4)),
    ("6", "6", (PUSH, 0)),  # good and bad at once
    ("7", "7", (PUSH, 0)),
    ("K", "Q", None),
])
def test_win_lose(loser, winner, expected):
    assert turn(bet("win_lose", "6 7"), loser, winner) == expected


@pytest.mark.parametrize("copper, loser, winner, expected", [
    (False, "3", "9", (WIN, 4)), (False, "9", "3", (LOSE, -4)), (False, "K", "A", (LOSE, -4)),  # ace low
    (False, "5", "5", (PUSH, 0)),
    (True, "3", "9", (LOSE, -4)), (True, "K", "A", (WIN, 4)), (True, "5", "5", (PUSH, 0)),
])
def test_high_card(copper, loser, winner, expected):
    assert turn(bet("high", copper=copper), loser, winner) == expected


@pytest.mark.parametrize("kind, loser, winner, expected", [
    ("odd", "2", "3", (WIN, 4)), ("odd", "3", "2", (LOSE, -4)), ("odd", "3", "5", (PUSH, 0)),
    ("odd", "2", "Q", (PUSH, 0)), ("odd", "Q", "K", (WIN, 4)), ("odd", "J", "A", (PUSH, 0)),
    ("even", "J", "Q", (WIN, 4)), ("even", "Q", "J", (LOSE, -4)), ("even", "2", "10", (PUSH, 0)),
])
def test_odd_and_even_follow_the_winner(kind, loser, winner, expected):
    assert turn(bet(kind), loser, winner) == expected


def cards(*texts: str) -> list[Card]:
    return [Card.parse(t) for t in texts]


@pytest.mark.parametrize("profile, pays", [("foster", 4), ("teaching", 4), ("french", 4), ("stuss", 4)])
def test_calling_the_turn_pays_turn_pays(profile, pays):
    p = find_profile(profile)
    right = bet("call", order=(R("7"), R("J"), R("3")), stake=2)
    wrong = bet("call", order=(R("J"), R("7"), R("3")), stake=2)
    last = cards("7H", "JH", "3D")
    assert settle_call(right, *last, p).amount == 2 * pays
    assert settle_call(wrong, *last, p).amount == -2


def test_turn_pays_five_as_a_house_option():
    p = find_profile("french").with_rules({"turn_pays": 5})
    assert settle_call(bet("call", order=(R("7"), R("J"), R("3"))), *cards("7H", "JH", "3D"), p).amount == 20


@pytest.mark.parametrize("profile", PROFILE_NAMES)
def test_cat_hop_pays_two(profile):
    p = find_profile(profile)
    last = cards("10H", "6D", "10S")
    assert settle_call(bet("call", order=(R("10"), R("6"), R("10"))), *last, p).result is WIN
    assert settle_call(bet("call", order=(R("10"), R("6"), R("10"))), *last, p).amount == 8
    assert settle_call(bet("call", order=(R("6"), R("10"), R("10"))), *last, p).amount == -4


def test_triple_colour_call_pays_two():
    from faro_box.cards import Colour

    p = find_profile("foster")
    last = cards("8H", "8S", "8D")
    right = bet("call", order=(Colour.RED, Colour.BLACK, Colour.RED))
    wrong = bet("call", order=(Colour.BLACK, Colour.RED, Colour.RED))
    assert settle_call(right, *last, p).amount == 8
    assert settle_call(wrong, *last, p).amount == -4


@pytest.mark.parametrize("profile, result", [("foster", PUSH), ("teaching", VOID), ("french", PUSH), ("stuss", PUSH)])
def test_a_bet_left_on_the_hock(profile, result):
    s = settle_at_hock(bet("rank", "9"), find_profile(profile))
    assert (s.result, s.amount) == (result, 0)


def test_settlement_json_amounts_are_ints_when_whole():
    s = settle_on_turn(bet("rank", "9", stake=3), R("9"), R("9"), find_profile("foster"))
    assert s.to_json() == {"bet": "b", "player": "ann", "result": "split", "amount": -1.5}
    s = settle_on_turn(bet("rank", "9", stake=3), R("3"), R("9"), find_profile("foster"))
    assert s.to_json()["amount"] == 3 and isinstance(s.to_json()["amount"], int)
