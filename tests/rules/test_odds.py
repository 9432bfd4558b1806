"""Live odds: exact fractions checked by enumeration, through the engine, and against the sources."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import comb

import pytest
from odds_check import chances_of, every_order, layout_specs, monte_carlo

from faro_box.cards import FULL_DECK, Card, Colour, Rank
from faro_box.errors import RuleError
from faro_box.rules.faro import BetKind, Deal, find_profile
from faro_box.rules.faro.odds import (
    BoxState,
    CallKind,
    deal_edges,
    first_show,
    fresh_state,
    live_odds,
    odds_against,
    odds_for_deal,
    odds_for_state,
)

FOSTER = find_profile("foster")


def cards(*texts: str) -> list[Card]:
    return [Card.parse(t) for t in texts]


# --- the combinatorial core against enumeration -------------------------------------------------


def _enumerated_first_show(marked: int, n: int, neutral: int) -> tuple[Fraction, ...]:
    counts = [0, 0, 0, 0]  # loser only, winner only, both, never
    for chosen in itertools.combinations(range(n), marked):
        where = set(chosen)
        for loser in range(neutral, n - 1, 2):
            hit = (loser in where, loser + 1 in where)
            if any(hit):
                counts[{(True, False): 0, (False, True): 1, (True, True): 2}[hit]] += 1
                break
        else:
            counts[3] += 1
    total = comb(n, marked)
    return tuple(Fraction(c, total) for c in counts)


@pytest.mark.parametrize("neutral", [0, 1])
def test_first_show_matches_every_placement_of_the_marked_cards(neutral: int) -> None:
    for n in range(1 + neutral, 12, 2):
        for marked in range(1, n + 1):
            show = first_show(marked, n, neutral)
            assert (show.loser_only, show.winner_only, show.both, show.never) == _enumerated_first_show(
                marked, n, neutral), (marked, n, neutral)


def _sequential_split(c: int, n: int, neutral: int) -> Fraction:
    """Independent check: deal turn by turn, drawing from what is left (a Markov chain)."""
    if neutral:  # the soda: one of ours with chance c/n
        return Fraction(c, n) * _sequential_split(c - 1, n - 1, 0) + Fraction(n - c, n) * _sequential_split(c, n - 1, 0)
    if c == 0 or n < 3:
        return Fraction(0)
    both = Fraction(c * (c - 1), n * (n - 1))
    neither = Fraction((n - c) * (n - c - 1), n * (n - 1))
    return both + neither * _sequential_split(c, n - 2, 0)


def test_a_rank_splits_before_it_shows_alone_as_often_as_a_turn_by_turn_deal_says() -> None:
    for c in range(1, 5):
        for n, neutral in ((52, 1), (51, 0), (25, 0), (9, 0)):
            assert first_show(c, n, neutral).both == _sequential_split(c, n, neutral)
    # A full rank before the soda: 33/833, so half a stake lost 33 times in 1666 (1.98 %).
    assert first_show(4, 52, 1).both == Fraction(33, 833)


# --- every order of a small remainder, settled by the engine ------------------------------------


@pytest.mark.parametrize(("profile", "remaining"), [
    ("foster", ("4S", "4H", "5D", "9C", "9S", "10H", "10D")),  # groups of the 4-5-9-10 block
    ("french", ("4S", "4H", "5D", "9C", "9S", "10H", "10D")),  # group_both = loser
    ("stuss", ("KS", "KH", "KD", "QC", "JH")),  # the whole stake lost on a split
    ("teaching", ("2S", "2H", "2D", "2C", "7H")),  # the hock voids
    ("foster", ("KS", "KH", "KD", "QC", "JH")),
    ("foster", ("AS", "6H", "JD")),  # calling the turn
    ("foster", ("8S", "8H", "3C")),  # a cat-hop
    ("foster", ("7S", "7H", "7D")),  # a triple: the colours
    ("french", ("7S", "7H", "7D")),  # a triple: no call
])
def test_every_order_of_the_remainder_settles_as_the_odds_say(profile: str, remaining: tuple[str, ...]) -> None:
    odds, tallies, pairs, orders = every_order(find_profile(profile), cards(*remaining))
    assert orders == len(list(itertools.permutations(remaining)))
    specs = layout_specs(odds)
    assert specs, "the odds list no bet"
    for bet_id, _, bet in specs:
        seen = {result: Fraction(n, orders) for result, n in tallies[bet_id].items()}
        assert seen == {result: p for result, p in chances_of(bet).items() if p}, (bet, seen)
        amount = sum(p * (bet.pays if r.value == "win" else -1 if r.value == "lose" else
                          -bet.chances.split_share if r.value == "split" else 0) for r, p in seen.items())
        assert amount == bet.ev
    for turn in odds.next_turn:
        r = turn.rank
        assert Fraction(sum(n for (lo, w), n in pairs.items() if lo == r and w != r), orders) == turn.loses
        assert Fraction(sum(n for (lo, w), n in pairs.items() if w == r and lo != r), orders) == turn.wins
        assert Fraction(pairs[(r, r)], orders) == turn.splits


# --- the figures of the sources -------------------------------------------------------------------


def test_calling_the_turn_pays_4_to_1_against_true_odds_of_5_to_1() -> None:
    odds = live_odds(cards("AS", "6H", "JD"), 49, FOSTER)
    call = odds.call
    assert call is not None and call.kind is CallKind.TURN
    assert len(call.orders) == 6 and {o.win for o in call.orders} == {Fraction(1, 6)}
    assert call.to_json()["pays"] == "4 to 1" and call.to_json()["true_odds"] == "5 to 1"
    assert call.ev == Fraction(-1, 6) and odds.edge(BetKind.CALL).low == Fraction(1, 6)  # type: ignore[union-attr]
    fair = live_odds(cards("AS", "6H", "JD"), 49, FOSTER.with_rules({"turn_pays": 5}))
    assert fair.call is not None and fair.call.ev == 0


def test_a_cat_hop_has_three_orders_and_a_triple_names_its_colours() -> None:
    cat = live_odds(cards("8S", "8H", "3C"), 49, FOSTER).call
    assert cat is not None and cat.kind is CallKind.CAT_HOP and cat.to_json()["true_odds"] == "2 to 1"
    assert [o.order for o in cat.orders] == [
        (Rank.THREE, Rank.EIGHT, Rank.EIGHT), (Rank.EIGHT, Rank.THREE, Rank.EIGHT), (Rank.EIGHT, Rank.EIGHT, Rank.THREE)]
    triple = live_odds(cards("7S", "7H", "7D"), 49, FOSTER).call
    assert triple is not None and triple.kind is CallKind.TRIPLE
    assert {o.order for o in triple.orders} == set(itertools.permutations((Colour.RED, Colour.RED, Colour.BLACK)))
    assert live_odds(cards("7S", "7H", "7D"), 49, find_profile("french")).call.pays is None  # type: ignore[union-attr]
    # From counts alone a triple's colours are unknown: the chance stands, the orders cannot be named.
    counted = live_odds({Rank.SEVEN: 3}, 49, FOSTER).call
    assert counted is not None and counted.orders == () and counted.chance == Fraction(1, 3)


def test_the_bank_earns_on_splits_half_a_stake_or_all_of_it_in_stuss() -> None:
    foster = {(e.kind, e.copper): e for e in deal_edges(FOSTER)}
    assert foster[(BetKind.RANK, False)].low == foster[(BetKind.RANK, True)].high == Fraction(33, 1666)
    stuss = {(e.kind, e.copper): e for e in deal_edges(find_profile("stuss"))}
    assert stuss[(BetKind.RANK, False)].low == Fraction(33, 833)
    # What is not a split is even money, so the bets without a split to lose have no edge.
    for kind in (BetKind.GROUP, BetKind.WIN_LOSE, BetKind.HIGH, BetKind.ODD, BetKind.EVEN):
        assert foster[(kind, False)].low == foster[(kind, False)].high == 0
    # Seed 003's groups: the loser decides when both cards fall in the group, for or against.
    french = {(e.kind, e.copper): e for e in deal_edges(find_profile("french"))}
    assert french[(BetKind.GROUP, False)].low > 0 > french[(BetKind.GROUP, True)].high
    # A call placed before the soda: 1/6 edge on three ranks, none on a cat-hop or triple.
    last = odds_for_state(fresh_state(), FOSTER).last_three
    assert last is not None and last.triple == Fraction(4 * 13, comb(52, 3))
    assert foster[(BetKind.CALL, False)].low == last.turn / 6


def test_plain_and_coppered_rank_bets_mirror_each_other() -> None:
    odds = live_odds({Rank.ACE: 4, Rank.KING: 1, Rank.TWO: 2}, 45, FOSTER)
    for plain in (b for b in odds.rank_bets if not b.copper):
        copper = odds.find(BetKind.RANK, plain.ranks, copper=True)
        assert copper is not None and (copper.win, copper.lose, copper.split) == (plain.lose, plain.win, plain.split)
    king = odds.find(BetKind.RANK, (Rank.KING,))
    assert king is not None and king.split == 0 and king.push == Fraction(1, 7)  # the king is the hock


# --- through a live deal -------------------------------------------------------------------------


def test_odds_for_a_deal_follow_its_case_and_value_its_open_bets() -> None:
    deal = Deal(FOSTER, ["ann", "bob"])
    deck = list(FULL_DECK)
    for card in deck[:9]:
        deal.expose(card)  # the soda and four turns
    bet = deal.place("ann", {"id": "a1", "kind": "rank", "ranks": ["K"], "stake": 5, "copper": True})
    deal.place("bob", {"id": "b1", "kind": "high", "stake": 2})
    odds = odds_for_deal(deal)
    assert odds.state.next_index == 9 and odds.state.next_turn == 5
    assert odds.state.counts == tuple(deal.case.get(r, 0) for r in Rank)
    assert [o.bet.id for o in odds.open_bets] == ["a1", "b1"]
    assert odds.open_bets[0].odds == odds.find(BetKind.RANK, (Rank.KING,), copper=True)
    assert odds.open_bets[0].expected == bet.stake * odds.open_bets[0].odds.ev
    text = json.dumps(odds.to_json())
    assert '"open_bets"' in text and '"turn": 5' in text
    deal.expose(deck[9])
    with pytest.raises(RuleError, match="between turns"):
        odds_for_deal(deal)


def test_the_engine_settles_random_deals_as_the_odds_expect() -> None:
    # The large run is benchmarks/bench_odds.py; the deck order is seeded, so this is repeatable.
    z = monte_carlo("foster", deals=150, seed=8)
    assert max(abs(v) for v in z.values()) < 3.5, sorted(z.items(), key=lambda kv: -abs(kv[1]))[:3]


# --- input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("remaining", "index", "message"), [
    ({Rank.ACE: 5}, 47, "13 counts of 0..4"),
    ({Rank.ACE: 3}, 47, "holds 3 cards but 5 remain"),
    ({Rank.ACE: 4, Rank.TWO: 1}, 46, "betting moment"),
    ({"A": 4}, 47, "'A' is not a Rank"),
    ([Rank.ACE, "2"], 47, "all Ranks or all Cards"),
])
def test_a_bad_state_is_refused_with_the_input_quoted(remaining: object, index: int, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        live_odds(remaining, index, FOSTER)  # type: ignore[arg-type]


def test_display_text() -> None:
    assert odds_against(Fraction(1, 6)) == "5 to 1"
    assert odds_against(Fraction(2, 9)) == "7 to 2"
    assert odds_against(Fraction(0)) is None
    odds = odds_for_state(BoxState.of(FULL_DECK[1:], 1), FOSTER)
    doc = json.loads(json.dumps(odds.to_json()))
    assert doc["turn"] == 1 and doc["turns_left"] == 25 and len(doc["next_turn"]) == 13
    assert doc["next_turn"][0]["rank"] == "A" and doc["next_turn"][0]["cards"] == 3  # the soda was an ace
