"""The live odds panel: ``odds_for_deal`` on the table's deal, boiled down to what reads from 3 m.

The table hands its listeners a JSON state, not its ``Deal``; the deal the odds need is rebuilt
from that state (profile, cards out, bets standing), which is exact: the odds depend only on
the cards left, the betting moment and the open bets.
"""

from __future__ import annotations

from typing import Any

from faro_box.errors import FaroBoxError
from faro_box.rules.faro import Deal, house_profile
from faro_box.rules.faro.odds import odds_for_deal
from faro_box.table.views import FaroView, View

_BET_FIELDS = ("id", "kind", "ranks", "stake", "copper", "order", "marker")


def deal_of(state: View) -> Deal | None:
    """The table's deal between turns, rebuilt from its view; None when there is none to price."""
    if not isinstance(state, FaroView) or state.deal is None or state.profile is None or state.ended or state.next_turn is None:
        return None
    index = state.next_index
    if index != 0 and index % 2 == 0:
        return None   # inside a turn: the odds wait for its winner
    profile = house_profile(state.profile, state.house_rules)
    deal = Deal(profile, state.players)
    for card in state.exposed:
        deal.expose(card)
    for bet in state.open_bets:
        spec = {k: bet[k] for k in _BET_FIELDS if k in bet and bet[k] not in (None, False)}
        try:
            deal.place(bet["player"], spec)
            if bet.get("barred"):
                deal.bar(bet["player"], bet["id"])
        except FaroBoxError:
            continue   # a bet a house rule would refuse now (it went on earlier): priced without it
    return deal


def odds_panel(state: View) -> dict[str, Any] | None:
    """What the odds panel shows for this state, or None between the turn's two cards."""
    deal = deal_of(state)
    if deal is None:
        return None
    odds = odds_for_deal(deal)
    full: dict[str, Any] = odds.to_json()
    split_next = sum(t.splits for t in odds.next_turn)
    rank_edge = next((e for e in full["edges"] if e["kind"] == "rank" and not e["copper"]), None)
    call = full["call"]
    return {
        "turn": full["turn"],
        "cards_left": full["cards_left"],
        "split_next": float(split_next),
        "split_next_one_in": round(float(1 / split_next), 1) if split_next else None,
        "ranks": [{"rank": t["rank"], "cards": t["cards"], "splits": t["splits"]} for t in full["next_turn"]],
        "rank_edge": None if rank_edge is None else {"low": rank_edge["low"], "high": rank_edge["high"]},
        "call": None if call is None else {"kind": call["kind"], "pays": call["pays"],
                                           "true_odds": call["true_odds"], "edge": call["edge"]},
        "open_bets": [
            {"bet": o["bet"], "player": o["player"], "kind": o["odds"]["kind"],
             "ranks": o["odds"].get("ranks", []), "copper": bool(o["odds"].get("copper")),
             "win": o["odds"]["win"], "lose": o["odds"]["lose"], "split": o["odds"]["split"],
             "expected": o["expected"]}
            for o in full["open_bets"]
        ],
    }
