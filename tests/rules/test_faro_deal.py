"""Deals and deal scripts: the seeds' worked examples, every refusal, undo, misdeal, house options."""

from __future__ import annotations

from fractions import Fraction

import pytest
from faro_deals import deck_of, place, script, settlements_of, snapshot

from faro_box.cards import Card, Rank
from faro_box.errors import RuleError, ScriptError
from faro_box.rules.faro import Deal, Role, find_profile, settle_script

# ----- seed 002 §09, the worked example ---------------------------------------------------------


def test_seed_002_the_9_and_the_coppered_king():
    doc = script("teaching", deck_of(["5S", "KD", "9C"]), [
        place(1, "ann", "a1", "rank", ranks=["9"]),
        place(1, "bob", "b1", "rank", ranks=["K"], copper=True)])
    result = settle_script(doc)
    assert result["turns"][0] == {"turn": 1, "loser": "KD", "winner": "9C", "settlements": [
        {"bet": "a1", "player": "ann", "result": "win", "amount": 2},
        {"bet": "b1", "player": "bob", "result": "win", "amount": 2}]}
    assert result["balances"] == {"ann": 2, "bob": 2, "banker": -4}


def test_seed_002_the_9_9_split_loses_half_and_leaves_the_king_alone():
    doc = script("teaching", deck_of(["5S", "9C", "9H"]), [
        place(1, "ann", "a1", "rank", ranks=["9"]),
        place(1, "bob", "b1", "rank", ranks=["K"], copper=True)])
    result = settle_script(doc)
    assert result["turns"][0]["settlements"] == [{"bet": "a1", "player": "ann", "result": "split", "amount": -1}]
    assert settlements_of(result, "b1")[0][0] > 1  # the king's bet stood until a king showed


def test_seed_002_the_call_7_J_3_at_two_pays_eight():
    doc = script("teaching", deck_of(["5S"], ["7H", "JH", "3D"]), [
        place(25, "bob", "c1", "call", order=["7", "J", "3"])])
    result = settle_script(doc)
    assert result["turns"][24] == {"turn": 25, "loser": "7H", "winner": "JH", "settlements": [
        {"bet": "c1", "player": "bob", "result": "win", "amount": 8}]}
    assert result["hock"] == "3D"
    assert result["balances"] == {"ann": 0, "bob": 8, "banker": -8}


# ----- the deal's shape -------------------------------------------------------------------------


def test_soda_turns_and_hock_follow_the_deck():
    deck = deck_of(["5S", "KD", "9C"], ["7H", "JH", "3D"])
    result = settle_script(script("foster", deck, []))
    assert [(t["loser"], t["winner"]) for t in result["turns"]] == list(zip(deck[1:51:2], deck[2:51:2], strict=True))
    assert result["hock"] == deck[51]
    assert result == {"turns": result["turns"], "hock": "3D", "balances": {"ann": 0, "bob": 0, "banker": 0},
                      "rejected": []}


def test_deal_knows_roles_case_and_the_end():
    deal = Deal(find_profile("foster"), ["ann"])
    cards = [Card.parse(c) for c in deck_of(["5S", "KD", "9C"])]
    assert (deal.next_role, deal.next_turn, deal.between_turns) == (Role.SODA, 1, True)
    soda = deal.expose(cards[0])
    assert (soda.role, soda.turn, deal.case[Rank.FIVE]) == (Role.SODA, None, 3)
    loser = deal.expose(cards[1])
    assert (loser.role, loser.turn, deal.between_turns) == (Role.LOSER, 1, False)
    winner = deal.expose(cards[2])
    assert (winner.role, winner.turn, winner.turn_result.turn) == (Role.WINNER, 1, 1)
    for card in cards[3:51]:
        deal.expose(card)
    assert deal.hock == cards[51] and deal.next_role is Role.HOCK and not deal.finished
    assert deal.in_case == {cards[51].rank}
    hock = deal.expose(cards[51])
    assert (hock.role, hock.turn, hock.index) == (Role.HOCK, None, 51)
    assert deal.finished and deal.finished_ranks == set(Rank) and not any(deal.case.values())
    with pytest.raises(RuleError, match="all 52 cards are out"):
        deal.expose(Card.parse("AS"))


# ----- refusals (docs/faro.md), per profile where they differ ----------------------------------------

LAST = ["7H", "JH", "3D"]


@pytest.mark.parametrize("profile, action, error", [
    ("foster", {"at": 1, "player": "eve", "place": {"id": "x", "kind": "rank", "ranks": ["9"], "stake": 2}},
     "unknown player 'eve'"),
    ("foster", {"at": 1, "player": "banker", "place": {"id": "x", "kind": "rank", "ranks": ["9"], "stake": 2}},
     "unknown player 'banker'"),
    ("foster", place(1, "ann", "a1", "rank", ranks=["9"]), "'a1' is already used"),
    ("foster", {"at": 2, "player": "ann", "withdraw": "zz"}, "'zz': it is not an open bet of 'ann'"),
    ("foster", {"at": 2, "player": "bob", "withdraw": "a1"}, "'a1': it is not an open bet of 'bob'"),
    ("teaching", place(1, "ann", "x", "high"), "'teaching' profile has no 'high' bets"),
    ("teaching", place(1, "ann", "x", "group", ranks=["2", "3"]), "no 'group' bets"),
    ("stuss", place(1, "ann", "x", "group", ranks=["2", "3"]), "no 'group' bets"),
    ("stuss", place(1, "ann", "x", "odd"), "no 'odd' bets"),
    ("french", place(1, "ann", "x", "win_lose", ranks=["2", "3"]), "no 'win_lose' bets"),
    ("french", place(1, "ann", "x", "even"), "no 'even' bets"),
    ("foster", place(1, "ann", "x", "rank", stake=0, ranks=["9"]), "positive whole number of chips, not 0"),
    ("foster", place(1, "ann", "x", "rank", stake=-2, ranks=["9"]), "not -2"),
    ("foster", place(1, "ann", "x", "rank", stake=1.5, ranks=["9"]), "not 1.5"),
    ("foster", place(1, "ann", "x", "rank", stake="2", ranks=["9"]), "not '2'"),
    ("foster", place(1, "ann", "x", "rank", stake=True, ranks=["9"]), "not True"),
    ("teaching", place(1, "ann", "x", "rank", stake=3, ranks=["9"]), "even stakes only, not 3"),
    ("foster", place(1, "ann", "x", "group", ranks=["A", "6"]), "['A', '6'] are not a group"),
    ("french", place(1, "ann", "x", "group", ranks=["5", "7"]), "['5', '7'] are not a group"),
    ("foster", place(1, "ann", "x", "group", ranks=["9"]), "['9'] are not a group"),
    ("foster", place(1, "ann", "x", "win_lose", ranks=["A", "6"]), "two neighbouring ranks"),
    ("foster", place(1, "ann", "x", "rank", ranks=["2", "3"]), "exactly one rank"),
    ("foster", place(1, "ann", "x", "rank", ranks=["X"]), "'X' is not a rank"),
    ("foster", place(3, "ann", "x", "rank", ranks=["5"]), "no cards of rank '5' are left"),
    ("foster", place(3, "ann", "x", "group", ranks=["4", "5"]), "no cards of rank '5' are left"),
    ("foster", place(25, "ann", "x", "call", copper=True, order=LAST), "'call' bet cannot be coppered"),
    ("foster", place(1, "ann", "x", "win_lose", copper=True, ranks=["2", "3"]), "cannot be coppered"),
    ("foster", place(1, "ann", "x", "odd", copper=True), "'odd' bet cannot be coppered"),
    ("foster", place(1, "ann", "x", "even", copper=True), "'even' bet cannot be coppered"),
    ("teaching", place(24, "ann", "x", "call", order=["7", "J", "3"]), "not before turn 24"),
    ("teaching", place(25, "ann", "x", "call", order=["7", "3", "3"]), "does not fit the three cards"),
    ("foster", place(25, "ann", "x", "call", order=["red", "red", "black"]), "names ranks unless"),
    ("foster", {"at": 0, "player": "ann", "withdraw": "a1"}, "a turn from 1 to 25"),
    ("foster", {"at": 26, "player": "ann", "withdraw": "a1"}, "not 26"),
    ("foster", {"at": "3", "player": "ann", "withdraw": "a1"}, "not '3'"),
    ("foster", {"player": "ann", "withdraw": "a1"}, "not None"),
    ("foster", {"at": 2, "player": "ann", "withdraw": "a1", "bar": "a1"}, "exactly one of"),
    ("foster", {"at": 2, "player": "ann", "shout": "a1"}, "unknown action field 'shout'"),
    ("foster", place(1, "ann", "x", "rank", ranks=["9"], colour="red"), "unknown bet field 'colour'"),
    ("foster", place(1, "ann", "x", "fan"), "unknown kind 'fan'"),
    ("foster", place(1, "ann", "x", "rank", marker=True, ranks=["9"]), "takes no betting markers"),
    ("foster", [1, 2], "an action must be an object"),
])
def test_refusals_are_listed_and_change_nothing(profile, action, error):
    # 5S soda, 5H–5D turn 1, 5C turn 2: no five is left before turn 3.
    deck = deck_of(["5S", "5H", "5D", "5C", "KD"], LAST)
    base = [place(1, "ann", "a1", "rank", ranks=["9"])]
    clean = settle_script(script(profile, deck, base))
    result = settle_script(script(profile, deck, [*base, action]))
    assert [r["action"] for r in result["rejected"]] == [1]
    assert error in result["rejected"][0]["error"]
    assert {k: v for k, v in result.items() if k != "rejected"} == {k: v for k, v in clean.items() if k != "rejected"}


@pytest.mark.parametrize("profile, allowed", [("foster", True), ("teaching", True), ("french", False), ("stuss", False)])
def test_a_triple_colour_call_where_the_profile_allows_it(profile, allowed):
    doc = script(profile, deck_of(["5S"], ["8H", "8S", "8D"]), [
        place(25, "ann", "c", "call", order=["red", "black", "red"])])
    result = settle_script(doc)
    if allowed:
        assert settlements_of(result, "c") == [(25, "win", 4)]
    else:
        assert "allows no call on them" in result["rejected"][0]["error"]


def test_a_triple_called_by_ranks_is_refused():
    doc = script("foster", deck_of(["5S"], ["8H", "8S", "8D"]), [place(25, "ann", "c", "call", order=["8", "8", "8"])])
    assert "call the order of their colours" in settle_script(doc)["rejected"][0]["error"]


def test_a_colour_call_must_fit_the_colours_left():
    doc = script("foster", deck_of(["5S"], ["8H", "8S", "8D"]), [
        place(25, "ann", "c", "call", order=["black", "black", "red"])])
    assert "does not fit the colours" in settle_script(doc)["rejected"][0]["error"]


def test_cat_hop_in_a_script():
    doc = script("stuss", deck_of(["5S"], ["10H", "6D", "10S"]), [
        place(25, "ann", "c", "call", order=["10", "6", "10"]),
        place(25, "bob", "d", "call", order=["6", "10", "10"])])
    result = settle_script(doc)
    assert settlements_of(result, "c") == [(25, "win", 4)] and settlements_of(result, "d") == [(25, "lose", -2)]


def test_turn_pays_override_in_a_script():
    doc = script("french", deck_of(["5S"], ["7H", "JH", "3D"]), [place(25, "ann", "c", "call", order=["7", "J", "3"])],
                 turn_pays=5)
    assert settle_script(doc)["balances"]["ann"] == 10


def test_bets_change_only_between_turns():
    deal = Deal(find_profile("foster"), ["ann"])
    deal.expose("5S")
    deal.place("ann", {"id": "h", "kind": "high", "stake": 2})
    deal.expose("KD")
    before = snapshot(deal)
    for attempt in (lambda: deal.place("ann", {"id": "x", "kind": "rank", "ranks": ["9"], "stake": 2}),
                    lambda: deal.withdraw("ann", "h"), lambda: deal.bar("ann", "h")):
        with pytest.raises(RuleError, match="during turn 1: bets change only between turns"):
            attempt()
    assert snapshot(deal) == before


def test_a_card_shown_twice_is_refused():
    deal = Deal(find_profile("foster"), ["ann"])
    deal.expose("5S")
    with pytest.raises(RuleError, match="'5S' was already shown"):
        deal.expose(Card.parse("5S"))
    with pytest.raises(RuleError, match="'ZZ' is not a card"):
        deal.expose("ZZ")


def test_play_turn_is_the_loser_then_the_winner():
    deck = [Card.parse(c) for c in deck_of(["5S", "9C", "KD", "9H", "2S", "KH", "KS"], ["7H", "JH", "3D"])]
    by_card, by_turn = Deal(find_profile("foster"), ["ann"]), Deal(find_profile("foster"), ["ann"])
    for deal in (by_card, by_turn):
        deal.play(deck[0])
        deal.place("ann", {"id": "a", "kind": "rank", "ranks": ["9"], "stake": 2})
        deal.place("ann", {"id": "k", "kind": "rank", "ranks": ["K"], "stake": 3, "copper": True})
        deal.place("ann", {"id": "h", "kind": "high", "stake": 1})
    for turn in range(1, 26):
        by_card.play(deck[2 * turn - 1])
        played = by_card.play(deck[2 * turn])
        assert by_turn.play_turn(deck[2 * turn - 1], deck[2 * turn]) == played
        assert snapshot(by_turn) == snapshot(by_card)
    assert by_turn.undo() == by_card.undo()
    assert by_turn.undo() == by_card.undo()
    assert snapshot(by_turn) == snapshot(by_card)


def test_play_turns_plays_a_stretch_of_turns_or_nothing():
    deck = [Card.parse(c) for c in deck_of(["5S", "9C", "KD", "3H", "9H"])]
    one_by_one, stretch = Deal(find_profile("foster"), ["ann"]), Deal(find_profile("foster"), ["ann"])
    for deal in (one_by_one, stretch):
        deal.play(deck[0])
        deal.place("ann", {"id": "a", "kind": "rank", "ranks": ["9"], "stake": 2})
        deal.place("ann", {"id": "h", "kind": "high", "stake": 1})
    for card in deck[1:11]:
        one_by_one.play(card)
    assert stretch.play_turns(deck[1:11]) == list(one_by_one.turns)
    assert snapshot(stretch) == snapshot(one_by_one)
    with pytest.raises(RuleError, match=r"'9H' was already shown \(card 5 of this deal\)"):
        stretch.play_turns(deck[11:13] + [deck[13], deck[4]])
    with pytest.raises(RuleError, match=rf"'{deck[13]}' was already shown \(card 14 of this deal\)"):
        stretch.play_turns(deck[11:14] + [deck[13]])
    with pytest.raises(RuleError, match="are not whole turns from card 12 to turn 25's winner"):
        stretch.play_turns(deck[11:14])
    assert snapshot(stretch) == snapshot(one_by_one)
    assert len(stretch.play_turns(deck[11:51])) == 20
    with pytest.raises(RuleError, match="the next card out of the box is the hock"):
        stretch.play_turns(deck[51:52] + deck[:1])


def test_play_turn_refuses_the_whole_turn():
    deal = Deal(find_profile("foster"), ["ann"])
    five, king, nine = Card.parse("5S"), Card.parse("KD"), Card.parse("9C")
    with pytest.raises(RuleError, match="the next card out of the box is the soda, not a turn's loser"):
        deal.play_turn(five, king)
    deal.play(five)
    before = snapshot(deal)
    with pytest.raises(RuleError, match="'5S' was already shown"):
        deal.play_turn(king, five)
    with pytest.raises(RuleError, match="'KD' was already shown"):
        deal.play_turn(king, king)
    assert snapshot(deal) == before
    deal.play(king)
    with pytest.raises(RuleError, match="the next card out of the box is the winner"):
        deal.play_turn(nine, Card.parse("9H"))
    deal.play(nine)
    deal.misdeal()
    with pytest.raises(RuleError, match="misdeal"):
        deal.play_turn(Card.parse("2S"), Card.parse("3S"))


# ----- the hock -----------------------------------------------------------------------------------


@pytest.mark.parametrize("profile, result", [("foster", "push"), ("teaching", "void"), ("french", "push"),
                                             ("stuss", "push")])
def test_bets_left_on_the_hock_rank(profile, result):
    # The last three are 7, J, 3: a bet on 3 placed before the last turn can only meet the hock.
    deck = deck_of(["5S", "3S", "3H", "3C"], ["7H", "JH", "3D"])
    doc = script(profile, deck, [place(25, "ann", "a", "rank", ranks=["3"])])
    assert settlements_of(settle_script(doc), "a") == [(25, result, 0)]


def test_high_and_odd_bets_play_every_turn_until_withdrawn():
    deck = deck_of(["5S", "2D", "3C", "4D", "9C", "KD", "QC", "6H", "6S"])
    doc = script("foster", deck, [place(1, "ann", "h", "high", stake=1), place(1, "bob", "o", "odd", stake=1),
                                  {"at": 5, "player": "ann", "withdraw": "h"}])
    result = settle_script(doc)
    assert settlements_of(result, "h") == [(1, "win", 1), (2, "win", 1), (3, "lose", -1), (4, "push", 0)]
    assert settlements_of(result, "o")[:4] == [(1, "win", 1), (2, "win", 1), (3, "lose", -1), (4, "push", 0)]


# ----- undo --------------------------------------------------------------------------------------


def test_undo_reverts_a_turn_exactly():
    deal = Deal(find_profile("foster"), ["ann", "bob"])
    deal.expose("5S")
    deal.place("ann", {"id": "a", "kind": "rank", "ranks": ["9"], "stake": 2})
    deal.place("bob", {"id": "b", "kind": "rank", "ranks": ["K"], "stake": 3, "copper": True})
    deal.place("bob", {"id": "h", "kind": "high", "stake": 1})
    deal.expose("KD")
    before = snapshot(deal)
    exposure = deal.expose("9C")
    assert [s.bet_id for s in exposure.turn_result.settlements] == ["a", "b", "h"]
    deal.place("ann", {"id": "late", "kind": "odd", "stake": 2})
    deal.withdraw("bob", "h")
    taken = deal.undo()
    assert taken == exposure
    assert snapshot(deal) == before
    assert [b.id for b in deal.open_bets] == ["a", "b", "h"]
    deal.expose("9C")  # the same card again settles the same way
    assert deal.turns[-1] == exposure.turn_result


def test_undo_all_the_way_and_nothing_left_to_undo():
    deal = Deal(find_profile("teaching"), ["ann"])
    start = snapshot(deal)
    for card in deck_of(["5S"])[:11]:
        deal.expose(card)
    for _ in range(11):
        deal.undo()
    assert snapshot(deal) == start
    with pytest.raises(RuleError, match="nothing to take back"):
        deal.undo()


def test_undo_of_the_last_turn_takes_back_calls_and_hock_results():
    deck = deck_of(["5S", "3S", "3H", "3C"], ["7H", "JH", "3D"])
    deal = Deal(find_profile("foster"), ["ann"])
    for card in deck[:49]:
        deal.expose(card)
    deal.place("ann", {"id": "c", "kind": "call", "order": ["7", "J", "3"], "stake": 2})
    deal.place("ann", {"id": "r", "kind": "rank", "ranks": ["3"], "stake": 2})
    deal.expose(deck[49])
    before = snapshot(deal)
    deal.expose(deck[50])
    assert deal.balances["ann"] == 8 and deal.hock == Card.parse("3D")
    deal.undo()
    assert snapshot(deal) == before and deal.hock is None


# ----- misdeal (old Hoyle) ------------------------------------------------------------------------


def test_misdeal_pays_every_bet_standing_and_ends_the_deal():
    deal = Deal(find_profile("foster"), ["ann", "bob"])
    deal.expose("5S")
    deal.place("ann", {"id": "a", "kind": "rank", "ranks": ["9"], "stake": 2})
    deal.place("bob", {"id": "b", "kind": "rank", "ranks": ["K"], "stake": 3, "copper": True})
    deal.place("bob", {"id": "h", "kind": "high", "stake": 1})
    deal.place("ann", {"id": "x", "kind": "rank", "ranks": ["Q"], "stake": 5})
    deal.bar("ann", "x")
    settled = deal.misdeal()
    assert [(s.bet_id, s.result.value, s.amount) for s in settled] == [
        ("a", "win", 2), ("b", "win", 3), ("h", "win", 1), ("x", "void", 0)]
    assert deal.balances == {"ann": 2, "bob": 4, "banker": -6}
    assert deal.misdealt and deal.open_bets == () and not deal.between_turns
    for attempt in (lambda: deal.expose("KD"), deal.misdeal, deal.undo,
                    lambda: deal.place("ann", {"id": "y", "kind": "high", "stake": 1})):
        with pytest.raises(RuleError, match="misdeal"):
            attempt()


def test_misdeal_in_a_script():
    doc = script("foster", deck_of(["5S", "KD", "9C"]), [
        place(1, "ann", "a", "rank", ranks=["9"]), place(2, "bob", "b", "rank", ranks=["Q"], stake=4),
        {"at": 2, "misdeal": True}, place(2, "ann", "late", "high"), place(7, "ann", "later", "high")])
    result = settle_script(doc)
    assert len(result["turns"]) == 1 and result["hock"] is None
    assert result["misdeal"] == {"at": 2, "settlements": [{"bet": "b", "player": "bob", "result": "win", "amount": 4}]}
    assert result["balances"] == {"ann": 2, "bob": 4, "banker": -6}
    assert [r["action"] for r in result["rejected"]] == [3, 4]


# ----- barring ------------------------------------------------------------------------------------


def test_a_barred_bet_neither_wins_nor_loses_until_it_goes():
    # Turn 1 K–9, turn 2 9–K, turn 3 K–9: the 9 bet is barred through turn 1 only.
    deal = Deal(find_profile("foster"), ["ann"])
    deal.expose("5S")
    deal.place("ann", {"id": "h", "kind": "high", "stake": 1})
    deal.place("ann", {"id": "n", "kind": "rank", "ranks": ["9"], "stake": 2})
    deal.bar("ann", "h")
    deal.bar("ann", "n")
    with pytest.raises(RuleError, match="already barred"):
        deal.bar("ann", "n")
    deal.expose("KD")
    assert deal.expose("9C").turn_result.settlements == ()
    assert deal.balances["ann"] == 0 and [b.barred for b in deal.open_bets] == [True, True]
    deal.release("ann", "n")
    with pytest.raises(RuleError, match="not barred"):
        deal.release("ann", "n")
    deal.expose("9D")
    result = deal.expose("KC").turn_result
    assert [(s.bet_id, s.result.value) for s in result.settlements] == [("n", "lose")]


def test_barring_in_a_script_and_a_barred_bet_at_the_end():
    deck = deck_of(["5S", "KD", "9C"], ["7H", "JH", "3D"])
    doc = script("foster", deck, [
        place(1, "ann", "n", "rank", ranks=["9"], barred=True),
        place(1, "bob", "m", "rank", ranks=["K"]), {"at": 1, "player": "bob", "bar": "m"},
        {"at": 2, "player": "bob", "release": "m"}])
    result = settle_script(doc)
    assert result["turns"][0]["settlements"] == []
    # m goes again from turn 2: the next turn that shows a king settles it.
    kings = [t for t in result["turns"][1:] if "K" in (t["loser"][0], t["winner"][0])]
    first = kings[0]
    expected = "lose" if first["loser"][0] == "K" else "win"
    assert settlements_of(result, "m") == [(first["turn"], expected, 2 if expected == "win" else -2)]
    assert settlements_of(result, "n") == [(25, "void", 0)]  # never released: it ends without a result


# ----- foster house options: markers and the case-rank ban ----------------------------------------


def markers_deal() -> Deal:
    deal = Deal(find_profile("foster").with_rules({"markers": True}), ["ann", "bob"])
    deal.expose("5S")
    return deal


def test_markers_must_be_covered_by_chips_on_the_layout():
    deal = markers_deal()
    bet = {"id": "m", "kind": "rank", "ranks": ["Q"], "stake": 4, "marker": True}
    with pytest.raises(RuleError, match="has 0 in chips there and would have 4 in markers"):
        deal.place("ann", bet)
    deal.place("ann", {"id": "c", "kind": "rank", "ranks": ["9"], "stake": 4})
    deal.place("ann", bet)
    with pytest.raises(RuleError, match="its chips cover 'ann'"):
        deal.withdraw("ann", "c")
    deal.withdraw("ann", "m")
    deal.withdraw("ann", "c")


def test_a_loss_that_uncovers_markers_forces_them_off():
    deal = markers_deal()
    deal.place("ann", {"id": "c", "kind": "rank", "ranks": ["K"], "stake": 4})
    deal.place("ann", {"id": "m", "kind": "rank", "ranks": ["Q"], "stake": 4, "marker": True})
    deal.expose("KD")
    result = deal.expose("9C").turn_result
    assert [(s.bet_id, s.result.value, s.amount) for s in result.settlements] == [
        ("c", "lose", -4), ("m", "void", 0)]
    assert deal.open_bets == ()
    deal.undo()
    assert [b.id for b in deal.open_bets] == ["c", "m"]


def test_a_loss_that_leaves_markers_covered_keeps_them():
    deal = markers_deal()
    deal.place("ann", {"id": "c", "kind": "rank", "ranks": ["K"], "stake": 2})
    deal.place("ann", {"id": "d", "kind": "rank", "ranks": ["2"], "stake": 4})
    deal.place("ann", {"id": "m", "kind": "rank", "ranks": ["Q"], "stake": 4, "marker": True})
    deal.expose("KD")
    result = deal.expose("9C").turn_result
    assert [s.bet_id for s in result.settlements] == ["c"]
    assert [b.id for b in deal.open_bets] == ["d", "m"]


def test_markers_in_a_script():
    doc = script("foster", deck_of(["5S", "KD", "9C"]), [
        place(1, "ann", "c", "rank", ranks=["K"], stake=4), place(1, "ann", "m", "rank", ranks=["Q"], stake=4, marker=True)],
        markers=True)
    assert settle_script(doc)["turns"][0]["settlements"][1] == {"bet": "m", "player": "ann", "result": "void", "amount": 0}


def case_deal(case_ban: bool) -> Deal:
    # 5S soda, K–K turn 1, K–9 turn 2: one king left (a case), every 9 but... three 9s left.
    deal = Deal(find_profile("foster").with_rules({"case_ban": case_ban}), ["ann"])
    for card in ["5S", "KD", "KC", "KH", "9C"]:
        deal.expose(card)
    return deal


def test_the_case_rank_ban_is_off_by_default():
    deal = case_deal(False)
    assert deal.in_case == {Rank.KING}
    deal.place("ann", {"id": "k", "kind": "rank", "ranks": ["K"], "stake": 2})


def test_no_case_bet_before_backing_a_rank_that_can_split():
    deal = case_deal(True)
    before = snapshot(deal)
    with pytest.raises(RuleError, match="no bet on the case 'K'"):
        deal.place("ann", {"id": "k", "kind": "rank", "ranks": ["K"], "stake": 2})
    with pytest.raises(RuleError, match="no bet on the case 'K'"):
        deal.place("ann", {"id": "g", "kind": "group", "ranks": ["Q", "K"], "stake": 2})
    assert snapshot(deal) == before
    deal.place("ann", {"id": "n", "kind": "rank", "ranks": ["9"], "stake": 2})  # three 9s left: can split
    deal.place("ann", {"id": "k", "kind": "rank", "ranks": ["K"], "stake": 2})


def test_the_case_ban_stops_before_the_last_turn():
    deck = deck_of(["5S"], ["7H", "JH", "3D"])
    deal = Deal(find_profile("foster").with_rules({"case_ban": True}), ["ann"])
    for card in deck[:49]:
        deal.expose(card)
    deal.place("ann", {"id": "s", "kind": "rank", "ranks": ["7"], "stake": 2})


# ----- profiles -----------------------------------------------------------------------------------


def test_unknown_profile_and_house_rules_are_clear_document_errors():
    deck = deck_of(["5S"])
    with pytest.raises(ScriptError, match="unknown profile 'vegas'.*foster, teaching, french, stuss"):
        settle_script(script("vegas", deck, []))
    with pytest.raises(ScriptError, match="unknown house rule 'max_bet'"):
        settle_script(script("foster", deck, [], max_bet=5))
    with pytest.raises(ScriptError, match="'split' cannot be 'most'"):
        settle_script(script("foster", deck, [], split="most"))
    with pytest.raises(ScriptError, match="'turn_pays' must be a whole number"):
        settle_script(script("foster", deck, [], turn_pays=0))
    with pytest.raises(ScriptError, match="allows group bets but has no group_both"):
        settle_script(script("teaching", deck, [], kinds=["rank", "group"]))


def test_house_rules_change_the_profile_for_one_deal():
    doc = script("teaching", deck_of(["5S", "9C", "9H"]), [place(1, "ann", "a", "rank", ranks=["9"], stake=3)],
                 split="all", even_stakes=False)
    assert settle_script(doc)["balances"]["ann"] == -3
    assert find_profile("teaching").split.value == "half"  # the registry is untouched


def test_half_amounts_in_balances():
    doc = script("foster", deck_of(["5S", "9C", "9H"]), [place(1, "ann", "a", "rank", ranks=["9"], stake=3)])
    result = settle_script(doc)
    assert result["balances"] == {"ann": -1.5, "bob": 0, "banker": 1.5}
    deal = Deal(find_profile("foster"), ["ann"])
    deal.expose("5S")
    deal.place("ann", {"id": "a", "kind": "rank", "ranks": ["9"], "stake": 3})
    deal.expose("9C")
    deal.expose("9H")
    assert deal.balances["ann"] == Fraction(-3, 2)


def test_bet_to_json_round_trips_through_place():
    deal = Deal(find_profile("foster"), ["ann"])
    deal.expose("5S")
    for spec in ({"id": "a", "kind": "rank", "ranks": ["10"], "stake": 2, "copper": True},
                 {"id": "b", "kind": "group", "ranks": ["4", "5", "9", "10"], "stake": 3},
                 {"id": "c", "kind": "win_lose", "ranks": ["J", "K"], "stake": 1},
                 {"id": "d", "kind": "high", "stake": 1, "barred": True}):
        assert deal.place("ann", spec).to_json() == spec
