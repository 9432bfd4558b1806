"""Sessions of several deals: running balances, the teaching rotation, the Stuss auction."""

from __future__ import annotations

import pytest
from faro_deals import deck_of

from faro_box.errors import RuleError
from faro_box.rules.faro import HOUSE, Session, find_profile

# Turn 1 is K–9: a plain 9 wins, a plain K loses.
DECK = deck_of(["5S", "KD", "9C"])


def play(session: Session, bets: dict[str, tuple[str, bool]]) -> dict:
    deal = session.new_deal()
    deal.expose(DECK[0])
    for n, (player, (rank, copper)) in enumerate(bets.items()):
        deal.place(player, {"id": f"b{n}", "kind": "rank", "ranks": [rank], "stake": 2, "copper": copper})
    for card in DECK[1:]:
        deal.expose(card)
    return dict(session.close_deal(deal))


def test_teaching_every_player_banks_once_and_the_bank_passes_left():
    session = Session(find_profile("teaching"), ["ann", "bob", "cid"], first_banker="bob")
    bankers = []
    while not session.finished:
        bankers.append(session.banker)
        punters = [p for p in session.participants if p != session.banker]
        play(session, {punters[0]: ("9", False)})
    assert bankers == ["bob", "cid", "ann"]
    # Each deal: the first punter wins 2 from the banker.
    # bob banks: ann +2, bob −2; cid banks: ann +2, cid −2; ann banks: bob +2, ann −2.
    assert session.balances == {"ann": 2, "bob": 0, "cid": -2}
    assert session.leaders() == ("ann",)
    with pytest.raises(RuleError, match="teaching session is over"):
        session.new_deal()


def test_teaching_equal_leaders_share():
    session = Session(find_profile("teaching"), ["ann", "bob"], first_banker="ann")
    play(session, {"bob": ("9", False)})
    play(session, {"ann": ("9", False)})
    assert session.balances == {"ann": 0, "bob": 0}
    assert session.leaders() == ("ann", "bob")


def test_teaching_needs_a_first_banker_from_the_table():
    with pytest.raises(RuleError, match="first banker must be one of ann, bob, not 'eve'"):
        Session(find_profile("teaching"), ["ann", "bob"], first_banker="eve")


def test_the_house_banks_in_foster_and_balances_run_on():
    session = Session(find_profile("foster"), ["ann", "bob"])
    assert session.banker == HOUSE
    first = play(session, {"ann": ("9", False), "bob": ("K", False)})
    assert first == {"ann": 2, "bob": -2, HOUSE: 0}
    play(session, {"ann": ("9", False)})
    assert session.balances == {"ann": 4, "bob": -2, HOUSE: -2}
    assert session.deals_played == 2 and not session.finished


def test_stuss_bank_goes_to_the_highest_bidder():
    session = Session(find_profile("stuss"), ["ann", "bob", "cid"])
    with pytest.raises(RuleError, match="hold the auction first"):
        session.new_deal()
    with pytest.raises(RuleError, match="'ann' and 'cid' bid the same 50"):
        session.auction({"ann": 50, "bob": 20, "cid": 50})
    assert session.auction({"ann": 50, "bob": 20, "cid": 60}) == "cid"
    assert (session.banker, session.bank) == ("cid", 60)
    changes = play(session, {"ann": ("9", False), "bob": ("K", True)})
    assert changes == {"ann": 2, "bob": 2, "cid": -4}
    assert session.banker is None  # a new auction before the next deal
    with pytest.raises(RuleError, match="bids 0"):
        session.auction({"ann": 0})


def test_a_deal_must_be_over_to_close():
    session = Session(find_profile("foster"), ["ann"])
    deal = session.new_deal()
    deal.expose(DECK[0])
    with pytest.raises(RuleError, match="1 of 52 cards are out"):
        session.close_deal(deal)
    deal.misdeal()
    assert session.close_deal(deal) == {"ann": 0, HOUSE: 0}
