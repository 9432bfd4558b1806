"""settle_document: the script and result document of docs/baccarat.md, bad documents and refusals."""

from __future__ import annotations

import copy
import re

import pytest
from baccarat_deals import shoe_order

from faro_box.errors import ScriptError
from faro_box.rules.baccarat import settle_document

# Naturals keep coups to six cards: banker 8; a side 9 wins, 8 pushes, 0 loses.
WIN, PUSH, LOSE, BANK8 = ("9{}", "K{}"), ("8{}", "Q{}"), ("J{}", "10{}"), ("8{}", "J{}")


def natural(right: tuple[str, str], left: tuple[str, str], suit: str) -> list[str]:
    return shoe_order([c.format(suit) for c in right], [c.format(suit) for c in left],
                      [c.format(suit) for c in BANK8])


def doc(*coups: dict, shoe: list[str] | None = None, fund: int = 10) -> dict:
    return {"game": "baccarat_banque", "players": ["ann", "bob", "cid", "dan"],
            "sides": {"ann": "right", "bob": "left", "cid": "right", "dan": "left"},
            "banker": "eve", "fund": fund,
            "shoe": shoe if shoe is not None else natural(WIN, LOSE, "S") + natural(LOSE, WIN, "H")
            + natural(PUSH, PUSH, "D"),
            "coups": list(coups)}


def test_bets_are_taken_in_order_of_play_whatever_their_order_in_the_list():
    result = settle_document(doc({"bets": [{"player": "cid", "stake": 8}, {"player": "ann", "stake": 5}]}))
    assert [(s["player"], s["stake"]) for s in result["coups"][0]["settlements"]] == [("ann", 5), ("cid", 5)]
    assert result["rejected"] == []
    assert result["fund"] == 0 and result["ended"] == "ruined"


@pytest.mark.parametrize(("bets", "index", "reason"), [
    ([{"player": "zed", "stake": 2}], 0, "unknown player 'zed'"),
    ([{"player": "eve", "stake": 2}], 0, "holds the bank"),
    ([{"stake": 2}], 0, "the bet names no player"),
    ([{"player": ["ann"], "stake": 2}], 0, "names a player by name, not \\['ann'\\]"),
    ([{"player": "ann"}], 0, "the bet has no 'stake'"),
    ([{"player": "ann", "stake": 0}], 0, "positive whole number of chips, not 0"),
    ([{"player": "ann", "stake": "5"}], 0, "not '5'"),
    ([{"player": "ann", "stake": 1.5}], 0, "not 1.5"),
    ([{"player": "ann", "stake": 101}], 0, "'ann' stakes 101 but has 100 chips free"),
    ([{"player": "ann", "stake": 10}, {"player": "bob", "stake": 1}], 1, "the bank's cover is used up"),
    ([{"player": "ann", "stake": 3, "cheval": True}], 0, "3 is odd"),
    ([{"player": "bob", "banco": True}, {"player": "ann", "stake": 2}], 1, "'bob' called banco: no ordinary bet"),
    ([{"player": "cid", "banco": True}, {"player": "ann", "banco": True}], 0, "banco went to ann"),
    ([{"player": "ann", "banco": True, "stake": 4}], 0, "a banco stakes the whole fund of 10, not 4"),
    ([{"player": "ann", "banco": True, "cheval": True}], 0, "not à cheval"),
    ([{"player": "ann", "left_on": True}], 0, "no coup has been played"),
    ([{"player": "ann", "left_on": True, "stake": 3}], 0, "leave out 'stake'"),
])
def test_refused_bets_are_listed_and_change_nothing(bets, index, reason):
    result = settle_document(doc({"bets": bets}))
    assert len(result["rejected"]) == 1
    entry = result["rejected"][0]
    assert (entry["coup"], entry["bet"]) == (1, index)
    assert re.search(reason, entry["error"]), entry["error"]
    kept = [b for i, b in enumerate(bets) if i != index]
    assert result == {**settle_document(doc({"bets": kept})), "rejected": result["rejected"]}


def test_a_cut_bet_settles_on_the_stake_accepted():
    result = settle_document(doc({"bets": [{"player": "ann", "stake": 7}, {"player": "bob", "stake": 6}]}))
    assert [(s["player"], s["stake"], s["amount"]) for s in result["coups"][0]["settlements"]] == [
        ("ann", 7, 7), ("bob", 3, -3)]
    assert result["fund"] == 6 and result["balances"] == {"ann": 107, "bob": 97, "cid": 100, "dan": 100, "eve": 96}


def test_an_opposite_banco_shares_the_fund_and_the_loser_holds_banco_suivi():
    result = settle_document(doc(
        {"bets": [{"player": "bob", "banco": True}, {"player": "ann", "banco": True}]},   # ann wins, bob loses
        {"bets": [{"player": "cid", "banco": True}, {"player": "bob", "banco": True}]}))  # bob's suivi first
    first, second = result["coups"]
    assert [(s["player"], s["stake"], s["result"]) for s in first["settlements"]] == [
        ("ann", 5, "win"), ("bob", 5, "lose")]
    assert first["fund"] == 10
    assert [(s["player"], s["stake"]) for s in second["settlements"]] == [("bob", 5), ("cid", 5)]
    assert result["rejected"] == []


def test_a_third_banco_claim_loses_to_priority():
    result = settle_document(doc({"bets": [{"player": "ann", "banco": True}, {"player": "cid", "banco": True},
                                            {"player": "bob", "banco": True}]}))
    assert [(r["bet"], r["error"][:25]) for r in result["rejected"]] == [(1, "banco went to ann and bob")]


def test_winnings_left_on_must_fit_the_cover_again():
    result = settle_document(doc({"bets": [{"player": "ann", "stake": 4}]},          # ann wins 4: fund 6
                                 {"bets": [{"player": "ann", "left_on": True}]}))   # 8 left on, cut to 6
    assert result["coups"][1]["settlements"] == [
        {"player": "ann", "side": "right", "stake": 6, "result": "lose", "amount": -6}]
    assert result["balances"]["ann"] == 98 and result["fund"] == 12


def test_coups_after_the_end_are_rejected_whole():
    result = settle_document(doc({"bets": [{"player": "ann", "banco": True}]}, {"bets": [{"player": "bob", "stake": 1}]}))
    assert result["ended"] == "ruined" and len(result["coups"]) == 1
    assert result["rejected"] == [{"coup": 2, "bet": None, "error": "the bank has ended (ruined): coup 2 is not played"}]


def test_the_banker_leaving_ends_the_bank_and_is_honoured_even_when_it_could_not_go_on():
    left = settle_document(doc({"banker_leaves": True}, {}))
    assert left["ended"] == "left" and len(left["coups"]) == 1 and left["rejected"][0]["bet"] is None
    ruined = settle_document(doc({"bets": [{"player": "ann", "banco": True}], "banker_leaves": True}))
    assert ruined["ended"] == "left" and ruined["balances"]["eve"] == 90


def test_the_bank_ends_on_the_shoe_when_fewer_than_nine_cards_are_left_for_a_new_coup():
    full = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"] * 3
    shoe = [full[(i * 7) % 156] for i in range(156)]  # a fixed shuffle of the three decks
    result = settle_document(doc(*[{"banker_draws": True}] * 40, shoe=shoe))
    used = [sum(len(h) for h in coup["hands"].values()) for coup in result["coups"]]
    assert result["ended"] == "shoe"
    assert sum(used[:-1]) <= 156 - 9 < sum(used)  # every coup started with 9 or more cards left
    assert [r["coup"] for r in result["rejected"]] == list(range(len(used) + 1, 41))


def test_flags_are_read_only_where_a_choice_exists_and_a_missing_flag_stands():
    # right 6 (stands whatever the flag says), left 5 (no flag: stands), banker 5 draws a 4.
    shoe = shoe_order(["KS", "6S"], ["2H", "3H"], ["AD", "4D"], ["4C"])
    result = settle_document(doc({"bets": [{"player": "ann", "stake": 2}, {"player": "bob", "stake": 2}],
                                  "right_draws_on_5": True, "banker_draws": True}, shoe=shoe))
    coup = result["coups"][0]
    assert coup["hands"] == {"right": ["KS", "6S"], "left": ["2H", "3H"], "banker": ["AD", "4D", "4C"]}
    assert coup["totals"] == {"right": 6, "left": 5, "banker": 9} and coup["natural"] is False
    assert coup["results"] == {"right": "lose", "left": "lose"} and result["fund"] == 14


def test_a_natural_stops_the_drawing_and_ignores_every_flag():
    shoe = shoe_order(["2S", "3S"], ["4H", "4D"], ["2D", "3D"])
    coup = settle_document(doc({"right_draws_on_5": True, "banker_draws": True}, shoe=shoe))["coups"][0]
    assert coup["natural"] is True and coup["hands"]["right"] == ["2S", "3S"]
    assert coup["results"] == {"right": "push", "left": "win"}


def test_the_same_script_gives_the_same_result():
    script = doc({"bets": [{"player": "ann", "stake": 2, "cheval": True}, {"player": "dan", "stake": 3}]},
                 {"bets": [{"player": "cid", "banco": True}]})
    before = copy.deepcopy(script)
    assert settle_document(script) == settle_document(script)
    assert script == before  # the document is not modified


def _with(**changes: object) -> dict:
    base = doc({"bets": [{"player": "ann", "stake": 2}]})
    base.update(changes)
    return {k: v for k, v in base.items() if v is not _DROP}


_DROP = object()


@pytest.mark.parametrize(("document", "message"), [
    (["not", "a", "mapping"], "must be a JSON object"),
    (_with(profile="foster"), "unknown field 'profile' in the document"),
    (_with(game="faro"), "'game' must be 'baccarat_banque'"),
    (_with(players=_DROP), "has no 'players'"),
    (_with(banker=_DROP), "has no 'banker'"),
    (_with(shoe=_DROP), "has no 'shoe'"),
    (_with(players="ann"), "'players' must be a list"),
    (_with(sides={"ann": "centre", "bob": "left", "cid": "right", "dan": "left"}), "unknown side 'centre' for 'ann'"),
    (_with(sides=["right"]), "'sides' must map"),
    (_with(sides={"ann": "right", "bob": "left", "cid": "right"}), "'dan' has no side"),
    (_with(fund=0), "a fund must be a whole number of chips from 1 to the banker's 100, not 0"),
    (_with(fund="10"), "not '10'"),
    (_with(fund=True), "not True"),
    (_with(banker="ann"), "cannot also play"),
    (_with(shoe=["9C", "ZZ"]), "shoe card 1: 'ZZ' is not a card"),
    (_with(shoe=["AS"] * 4), "shoe card 3: 'AS' appears a fourth time"),
    (_with(shoe=["9C", "7H", "2S", "4C", "6D"]), "the shoe runs out inside coup 1: it needs a card for the banker"),
    (_with(coups={"bets": []}), "'coups' must be a list"),
    (_with(coups=[[]]), "coup 1 must be a JSON object"),
    (_with(coups=[{"bet": []}]), "unknown field 'bet' in coup 1"),
    (_with(coups=[{"banker_draws": "yes"}]), "coup 1: 'banker_draws' must be true or false, not 'yes'"),
    (_with(coups=[{"bets": {}}]), "coup 1: 'bets' must be a list"),
    (_with(coups=[{"bets": [5]}]), "coup 1 bet 0 must be a JSON object, not 5"),
    (_with(coups=[{"bets": [{"player": "ann", "stake": 2, "side": "left"}]}]), "unknown field 'side' in coup 1 bet 0"),
    (_with(coups=[{"bets": [{"player": "ann", "stake": 2, "cheval": 1}]}]), "'cheval' must be true or false, not 1"),
])
def test_a_bad_document_raises_one_clear_script_error(document, message):
    with pytest.raises(ScriptError, match=re.escape(message)):
        settle_document(document)


def test_a_shoe_that_runs_out_inside_a_later_coup_is_a_bad_document():
    script = doc({}, {}, shoe=natural(WIN, LOSE, "S") + ["2H", "3H"])
    with pytest.raises(ScriptError, match="the shoe runs out inside coup 2: it needs a card for the banker"):
        settle_document(script)
