"""Announcements in English, Russian and French, for each case the table produces."""

from __future__ import annotations

import pytest

from faro_box.display.announce import (
    announce_deal_end,
    announce_deal_start,
    announce_event,
    announce_hock,
    announce_misdeal,
    announce_pending,
    announce_soda,
    announce_turn,
    describe_bet,
    format_amount,
)
from faro_box.errors import ScriptError

NB = "\u00a0"
TURN7 = {"turn": 7, "loser": "KD", "winner": "9C", "settlements": [
    {"bet": "a1", "player": "ann", "result": "win", "amount": 2},
    {"bet": "b1", "player": "bob", "result": "win", "amount": 2}]}
BETS = {"a1": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2},
        "b1": {"id": "b1", "kind": "rank", "ranks": ["K"], "stake": 2, "copper": True}}
SPLIT = {"turn": 3, "loser": "9C", "winner": "9H", "settlements": [
    {"bet": "a1", "player": "ann", "result": "split", "amount": -1.5}]}
SPLIT_BETS = {"a1": {"kind": "rank", "ranks": ["9"], "stake": 3}}


def test_turn_in_english_matches_the_contract() -> None:
    assert announce_turn(TURN7, "en", BETS) == (
        "Turn 7: K loses, 9 wins. Ann's 9 wins 2; Bob's coppered K wins 2; the bank pays 4.")


def test_turn_in_russian_declines_the_card_names() -> None:
    assert announce_turn(TURN7, "ru", BETS) == (
        "Ход 7: проигрывает король, выигрывает девятка. Ann: ставка на девятку выигрывает 2; "
        "Bob: ставка с медяком на проигрыш короля выигрывает 2; банк платит 4.")


def test_turn_in_french_with_articles_and_spacing() -> None:
    assert announce_turn(TURN7, "fr", BETS) == (
        f"Coup 7{NB}: le roi perd, le neuf gagne. Ann{NB}: mise sur le neuf, gagne 2{NB}; "
        f"Bob{NB}: mise cuivrée sur le roi, gagne 2{NB}; la banque paie 4.")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Turn 3: 9 loses, 9 wins, a split. Ann's 9 loses 1½ in the split; the bank takes 1½."),
    ("ru", "Ход 3: проигрывает девятка, выигрывает девятка — сплит. Ann: ставка на девятку "
           "проигрывает 1,5 (сплит); банк забирает 1,5."),
    ("fr", f"Coup 3{NB}: le neuf perd, le neuf gagne — doublet. Ann{NB}: mise sur le neuf, "
           f"perd 1,5 (doublet){NB}; la banque encaisse 1,5."),
])
def test_split_with_a_half_stake(lang: str, expected: str) -> None:
    assert announce_turn(SPLIT, lang, SPLIT_BETS) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Turn 2: A loses, 8 wins. No bets settle."),
    ("ru", "Ход 2: проигрывает туз, выигрывает восьмёрка. Ставок к расчёту нет."),
    ("fr", f"Coup 2{NB}: l'as perd, le huit gagne. Aucune mise à régler."),
])
def test_turn_without_bets_elides_articles(lang: str, expected: str) -> None:
    assert announce_turn({"turn": 2, "loser": "AS", "winner": "8H", "settlements": []}, lang) == expected


def test_push_void_and_a_bank_that_breaks_even() -> None:
    turn = {"turn": 25, "loser": "7S", "winner": "JD", "hock": "3C", "settlements": [
        {"bet": "c1", "player": "bob", "result": "win", "amount": 8},
        {"bet": "h1", "player": "ann", "result": "lose", "amount": -8},
        {"bet": "g1", "player": "cy", "result": "push", "amount": 0},
        {"bet": "v1", "player": "cy", "result": "void", "amount": 0}]}
    bets = {"c1": {"kind": "call", "order": ["7", "J", "3"], "stake": 2},
            "h1": {"kind": "high", "stake": 8, "copper": True},
            "g1": {"kind": "group", "ranks": ["4", "5", "9", "10"], "stake": 1},
            "v1": {"kind": "rank", "ranks": ["3"], "stake": 1}}
    assert announce_turn(turn, "en", bets) == (
        "Turn 25: 7 loses, J wins. Bob's call 7-J-3 wins 8; Ann's coppered high card loses 8; "
        "Cy's 4-5-9-10 is returned; Cy's 3 is void; the bank breaks even. The hock: 3♣.")
    ru = announce_turn(turn, "ru", bets)
    assert "Bob: заказ 7-J-3 выигрывает 8" in ru
    assert "Ann: ставка с медяком на старшую карту проигрывает 8" in ru
    assert "Cy: ставка на группу 4-5-9-10 возвращается" in ru
    assert "Cy: ставка на тройку снимается" in ru
    assert ru.endswith("банк при своих. Хок, последняя карта: тройка треф.")
    fr = announce_turn(turn, "fr", bets)
    assert f"Bob{NB}: annonce du tour 7-J-3, gagne 8" in fr
    assert f"Cy{NB}: mise sur le groupe 4-5-9-10, est rendue" in fr
    assert fr.endswith(f"Hock, la dernière carte{NB}: le trois de trèfle.")


@pytest.mark.parametrize(("bet", "en", "ru", "fr"), [
    ({"kind": "win_lose", "ranks": ["K", "A"]}, "K-to-lose-A-to-win",
     "ставка на проигрыш короля и выигрыш туза", "mise du roi perdant et de l'as gagnant"),
    ({"kind": "odd"}, "odd", "ставка на нечет", "mise sur l'impair"),
    ({"kind": "even"}, "even", "ставка на чёт", "mise sur le pair"),
    ({"kind": "rank", "ranks": ["Q"], "copper": True}, "coppered Q",
     "ставка с медяком на проигрыш дамы", "mise cuivrée sur la dame"),
    ({"kind": "call", "order": ["red", "black", "black"]}, "call red-black-black",
     "заказ красная-чёрная-чёрная", "annonce du tour rouge-noire-noire"),
])
def test_every_bet_kind_is_named(bet: dict, en: str, ru: str, fr: str) -> None:
    assert (describe_bet(bet, "en"), describe_bet(bet, "ru"), describe_bet(bet, "fr")) == (en, ru, fr)


def test_unknown_bet_still_names_player_and_amount() -> None:
    assert announce_turn(TURN7, "en") == (
        "Turn 7: K loses, 9 wins. Ann's bet wins 2; Bob's bet wins 2; the bank pays 4.")


@pytest.mark.parametrize(("lang", "soda", "hock"), [
    ("en", "Soda: 5♠.", "The hock: 10♥."),
    ("ru", "Сода: пятёрка пик.", "Хок, последняя карта: десятка червей."),
    ("fr", f"Soda{NB}: le cinq de pique.", f"Hock, la dernière carte{NB}: le dix de cœur."),
])
def test_soda_and_hock(lang: str, soda: str, hock: str) -> None:
    assert announce_soda("5S", lang) == soda
    assert announce_hock("10H", lang) == hock


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Deal 3 is over. Ann +6, Bob −2, Bank −4."),
    ("ru", "Талия 3 окончена. Ann +6, Bob −2, Банк −4."),
    ("fr", "La taille 3 est terminée. Ann +6, Bob −2, Banque −4."),
])
def test_deal_end(lang: str, expected: str) -> None:
    assert announce_deal_end(3, {"ann": 6, "bob": -2, "banker": -4}, lang) == expected


def test_deal_start_misdeal_and_pending() -> None:
    assert announce_deal_start(2, ["ann", "bob"], "en") == "Deal 2 begins: Ann, Bob."
    assert announce_misdeal([{"bet": "a1", "player": "ann", "result": "win", "amount": 2}], "en", BETS) == (
        "Misdeal: the bank pays every bet standing. Ann's 9 wins 2; the bank pays 2.")
    assert announce_misdeal([], "ru") == "Неправильная сдача: банк платит по всем ставкам на столе."
    assert announce_pending(16, ["QH", "QD"], "en") == "Card 17: waiting for the dealer to confirm (Q♥ or Q♦?)."
    assert announce_pending(0, [], "ru") == "Карта 1 ждёт подтверждения банкомёта."
    assert announce_pending(5, ["QH"], "fr") == (
        f"Carte 6{NB}: en attente de la confirmation du banquier (la dame de cœur{NB}?).")


def test_amounts() -> None:
    assert format_amount(2, "en") == "2"
    assert format_amount(-0.5, "en") == "½"
    assert format_amount(2.5, "fr") == "2,5"
    assert format_amount(0.25, "en") == "0.25"


def test_event_dispatch_says_a_turn_and_a_soda() -> None:
    assert announce_event({"type": "card", "role": "soda", "card": "5S"}, "en") == ["Soda: 5♠."]
    said = announce_event({"type": "card", "role": "winner", "card": "9C", "turn_result": TURN7}, "en", BETS)
    assert said == [announce_turn(TURN7, "en", BETS)]
    assert announce_event({"type": "place", "player": "ann"}, "en") == []


def test_bad_input_is_one_clear_error() -> None:
    with pytest.raises(ScriptError, match="'de'"):
        announce_turn(TURN7, "de")
    with pytest.raises(ScriptError, match="turn, loser and winner"):
        announce_turn({"turn": 1, "loser": "KD"}, "en")
    with pytest.raises(ScriptError, match="'lost'"):
        announce_turn({"turn": 1, "loser": "KD", "winner": "2C",
                       "settlements": [{"bet": "x", "player": "a", "result": "lost", "amount": 1}]}, "en")
