"""Properties of the engine over random decks and random bets (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

from faro_deals import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faro_box.cards import FULL_DECK
from faro_box.errors import FaroBoxError
from faro_box.rules.faro import GROUPS, PAIRS, PROFILES, Deal, find_profile, settle_script
from faro_box.rules.faro.script import settle_script_line

PLAYERS = ["ann", "bob", "cid"]
SYMBOLS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
GROUP_LIST = sorted(sorted(r.symbol for r in g) for g in GROUPS)
PAIR_LIST = sorted(sorted(r.symbol for r in g) for g in PAIRS)

decks = st.permutations([str(c) for c in FULL_DECK])


@st.composite
def bet_actions(draw: st.DrawFn, deck: list[str]) -> list[dict[str, Any]]:
    actions = []
    for n in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["rank", "rank", "group", "win_lose", "high", "odd", "even", "call"]))
        spec: dict[str, Any] = {"id": f"b{n}", "kind": kind, "stake": draw(st.sampled_from([1, 2, 3, 4, 10]))}
        at = draw(st.integers(1, 25))
        if kind == "rank":
            spec["ranks"] = [draw(st.sampled_from(SYMBOLS))]
            spec["copper"] = draw(st.booleans())
        elif kind == "group":
            spec["ranks"] = draw(st.sampled_from(GROUP_LIST))
            spec["copper"] = draw(st.booleans())
        elif kind == "win_lose":
            spec["ranks"] = draw(st.permutations(draw(st.sampled_from(PAIR_LIST))))
        elif kind == "high":
            spec["copper"] = draw(st.booleans())
        elif kind == "call":
            at = 25
            spec["order"] = draw(st.permutations([c[:-1] for c in deck[-3:]]))
        actions.append({"at": at, "player": draw(st.sampled_from(PLAYERS)), "place": spec})
        if draw(st.booleans()) and at < 25:
            actions.append({"at": draw(st.integers(at, 25)), "player": actions[-1]["player"], "withdraw": f"b{n}"})
    return actions


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    deck = draw(decks)
    return {"game": "faro", "profile": draw(st.sampled_from(sorted(PROFILES))), "players": PLAYERS,
            "deck": deck, "actions": draw(bet_actions(deck))}


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(documents())
def test_the_bankers_change_is_minus_the_players(doc):
    result = settle_script(doc)
    balances = result["balances"]
    assert balances["banker"] == -sum(v for k, v in balances.items() if k != "banker")
    per_player = {p: 0.0 for p in PLAYERS}
    for turn in result["turns"]:
        for s in turn["settlements"]:
            per_player[s["player"]] += s["amount"]
    assert per_player == {p: balances[p] for p in PLAYERS}


@SETTINGS
@given(documents())
def test_every_card_is_shown_once_and_the_case_ends_at_zero(doc):
    result = settle_script(doc)
    shown = [c for t in result["turns"] for c in (t["loser"], t["winner"])]
    assert [t["turn"] for t in result["turns"]] == list(range(1, 26))
    assert shown == doc["deck"][1:51] and result["hock"] == doc["deck"][51]
    deal = Deal(find_profile(doc["profile"]), PLAYERS)
    for card in doc["deck"]:
        deal.expose(card)
    assert deal.finished and set(deal.case.values()) == {0} and len(set(deal.exposed)) == 52


@SETTINGS
@given(documents())
def test_a_bets_result_does_not_depend_on_the_other_bets(doc):
    together = settle_script(doc)
    places = [a for a in doc["actions"] if "place" in a]
    for action in places[:4]:
        bet_id = action["place"]["id"]
        own = [a for a in doc["actions"] if a.get("place", {}).get("id") == bet_id or a.get("withdraw") == bet_id]
        alone = settle_script({**doc, "actions": own})

        def of(result, bet_id=bet_id):
            return [(t["turn"], s) for t in result["turns"] for s in t["settlements"] if s["bet"] == bet_id]

        assert of(alone) == of(together)
        refused_alone = [r["error"] for r in alone["rejected"]]
        refused_together = [r["error"] for r in together["rejected"] if doc["actions"][r["action"]] in own]
        assert refused_alone == refused_together


@SETTINGS
@given(documents())
def test_the_same_script_always_gives_the_same_result(doc):
    first = json.dumps(settle_script(doc))
    assert json.dumps(settle_script(json.loads(json.dumps(doc)))) == first


@SETTINGS
@given(documents(), st.integers(1, 52))
def test_undo_returns_the_deal_to_any_earlier_card(doc, back):
    deal = Deal(find_profile(doc["profile"]), PLAYERS)
    by_turn: dict[int, list[dict[str, Any]]] = {}
    for action in doc["actions"]:
        by_turn.setdefault(action["at"], []).append(action)
    states = []
    for index, card in enumerate(doc["deck"]):
        if index % 2 == 1 and index < 50:
            for action in by_turn.get((index + 1) // 2, []):
                try:
                    if "place" in action:
                        deal.place(action["player"], action["place"])
                    else:
                        deal.withdraw(action["player"], action["withdraw"])
                except FaroBoxError:
                    pass
        states.append(snapshot(deal))
        deal.expose(card)
    for _ in range(back):
        deal.undo()
    assert snapshot(deal) == states[52 - back]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_arbitrary_json_raises_only_our_own_errors(value):
    try:
        settle_script(value)
    except FaroBoxError:
        pass


FIELDS = ["game", "profile", "house_rules", "players", "deck", "actions"]
BET_FIELDS = ["id", "kind", "ranks", "stake", "copper", "order", "marker", "barred"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.sampled_from(FIELDS + ["actions"] * 4), JSON, st.integers(0, 30))
def test_a_document_with_any_part_replaced_raises_only_our_own_errors(doc, field, value, position):
    if field == "actions" and doc["actions"] and not isinstance(value, list):
        # Corrupt one action, or one field of one bet, rather than the whole list.
        actions = list(doc["actions"])
        target = actions[position % len(actions)]
        if "place" in target and position % 2:
            target = {**target, "place": {**target["place"], BET_FIELDS[position % len(BET_FIELDS)]: value}}
        else:
            target = value
        actions[position % len(actions)] = target
        doc = {**doc, "actions": actions}
    else:
        doc = {**doc, field: value}
    try:
        result = settle_script(doc)
    except FaroBoxError:
        return
    assert settle_script_line(doc) == json.dumps(result)


# Names and ids with quotes, backslashes, control and non-ASCII characters: the line writer
# must escape them exactly as json.dumps does.
names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=6).filter(lambda n: n != "banker")
# Players' names keep the table's limits (faro_box.limits: no control characters, not blank, not
# the bank's); quotes, backslashes and non-ASCII stay in them, and the ids keep the rest.
player_names = names.filter(lambda n: n.strip() and n.strip().lower() != "banker"
                            and not any(ord(c) < 32 or ord(c) == 127 for c in n))


@st.composite
def wild_documents(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.lists(player_names, min_size=1, max_size=3, unique=True))
    doc = draw(documents())
    renamed = dict(zip(PLAYERS, players * 3, strict=False))
    ids = draw(st.lists(names, min_size=13, max_size=13, unique=True))
    actions = []
    for action in doc["actions"]:
        action = {**action, "player": renamed[action["player"]]}
        if "place" in action:
            action["place"] = {**action["place"], "id": ids[int(action["place"]["id"][1:])],
                               "stake": draw(st.integers(1, 10**20))}
        else:
            action["withdraw"] = ids[int(action["withdraw"][1:])]
        actions.append(action)
    if draw(st.booleans()):
        actions.insert(draw(st.integers(0, len(actions))), {"at": draw(st.integers(1, 25)), "misdeal": True})
    if draw(st.booleans()):
        actions.append({"at": 3, "player": draw(names), "place": {"id": draw(names), "kind": "rank"}})
    return {**doc, "players": players, "actions": actions}


@SETTINGS
@given(wild_documents())
def test_the_result_line_is_the_result_document_as_json_writes_it(doc):
    assert settle_script_line(doc) == json.dumps(settle_script(doc))
