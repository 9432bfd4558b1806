"""The bundled instructive deals do what the catalogue says, checked by the rules engine; the
panels come at the moments the deal calls for them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from faro_box.cards import Card
from faro_box.exhibit.panels import PANELS, cues, panel_json
from faro_box.exhibit.show import Show
from faro_box.exhibit.sources import bundled_deals, bundled_script, deal_from_script, load_sources
from faro_box.rules.faro import settle_script
from faro_box.table.events import event_to_json
from faro_box.table.games import replay_script
from faro_box.table.journal import Journal
from faro_box.table.table import Table

NAMES = ("early_split", "cat_hop", "triple", "ruined_by_coppers")


def _settled(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    script = bundled_script(name)
    result = settle_script(script)
    assert result["rejected"] == []
    return script, result


def _bet_results(result: dict[str, Any], bet: str) -> list[dict[str, Any]]:
    return [s for t in result["turns"] for s in t["settlements"] if s["bet"] == bet]


def test_the_catalogue_lists_the_four_lessons_in_three_languages() -> None:
    deals = bundled_deals()
    assert [d.name for d in deals] == list(NAMES)
    for deal in deals:
        assert set(deal.title) == set(deal.blurb) == {"en", "ru", "fr"}
        assert deal.cards == 52 and len(set(deal.deck)) == 52
        assert deal.claims


def test_early_split_splits_the_backed_rank_on_turn_two() -> None:
    script, result = _settled("early_split")
    claim = bundled_deals()[0].claims["split"]
    turn = result["turns"][claim["turn"] - 1]
    assert Card.parse(turn["loser"]).rank == Card.parse(turn["winner"]).rank
    # Nothing split before: the first split of the deal.
    assert all(Card.parse(t["loser"]).rank != Card.parse(t["winner"]).rank for t in result["turns"][:claim["turn"] - 1])
    assert _bet_results(result, claim["bet"]) == [
        {"bet": claim["bet"], "player": claim["player"], "result": "split", "amount": -claim["stake"] / 2}]
    backed = next(a["place"] for a in script["actions"] if a.get("place", {}).get("id") == claim["bet"])
    assert backed["ranks"] == [Card.parse(turn["loser"]).rank.symbol] and backed["stake"] == claim["stake"]


@pytest.mark.parametrize("name,kind", [("cat_hop", "cat_hop"), ("triple", "triple")])
def test_the_last_three_cards_make_the_claimed_call(name: str, kind: str) -> None:
    script, result = _settled(name)
    deal = next(d for d in bundled_deals() if d.name == name)
    assert deal.claims["last_three"] == kind
    last = [Card.parse(c) for c in script["deck"][-3:]]
    ranks = {c.rank for c in last}
    assert len(ranks) == (2 if kind == "cat_hop" else 1)
    # The other cards of those ranks were all shown before the last turn.
    for rank in ranks:
        earlier = [c for c in map(Card.parse, script["deck"][:49]) if c.rank == rank]
        assert len(earlier) == 4 - sum(c.rank == rank for c in last)
    claim = deal.claims["call_wins"]
    wins = _bet_results(result, claim["bet"])
    stake = next(a["place"]["stake"] for a in script["actions"] if a.get("place", {}).get("id") == claim["bet"])
    assert wins == [{"bet": claim["bet"], "player": claim["player"], "result": "win", "amount": claim["pays"] * stake}]
    assert result["turns"][-1]["turn"] == 25


def test_ned_is_ruined_by_his_coppers() -> None:
    script, result = _settled("ruined_by_coppers")
    claim = bundled_deals()[3].claims["ruined"]
    ned = claim["player"]
    bets = [a for a in script["actions"] if a.get("player") == ned]
    assert [b["place"]["id"] for b in bets] == claim["bets"]
    assert all(b["place"]["copper"] is True and b["place"]["kind"] == "rank" for b in bets)
    assert sum(b["place"]["stake"] for b in bets) == claim["purse"]
    # Every one of his bets lost its whole stake: each rank he coppered came out a winner.
    for bet in bets:
        assert _bet_results(result, bet["place"]["id"]) == [
            {"bet": bet["place"]["id"], "player": ned, "result": "lose", "amount": -bet["place"]["stake"]}]
    assert result["balances"][ned] == -claim["purse"]
    # He bets only what he still has: each stake fits what is left of his purse.
    left = claim["purse"]
    for bet in sorted(bets, key=lambda b: b["at"]):
        assert bet["place"]["stake"] <= left
        left -= bet["place"]["stake"]
    assert left == 0


def _panels_through_the_table(name: str, tmp_path: Any) -> list[str]:
    show = Show(hold_s=0)
    with Journal(tmp_path / f"{name}.sqlite") as journal:
        table = Table(journal)
        table.subscribe(show.on_event)
        replay_script(table, bundled_script(name))
    return list(show.cued)


def test_the_split_panel_comes_with_the_split_and_stuss_after_it(tmp_path: Any) -> None:
    events: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with Journal(tmp_path / "split.sqlite") as journal:
        table = Table(journal)
        table.subscribe(lambda e, s: events.append((e, s)))
        replay_script(table, bundled_script("early_split"))
    shown: set[str] = set()
    timeline = []
    for event, state in events:
        for cue in cues(event, state, frozenset(shown)):
            shown.add(cue.panel)
            doc = event_to_json(event)
            timeline.append((cue.panel, doc["type"], doc.get("turn"), doc.get("role")))
    split = next(t for t in timeline if t[0] == "split")
    assert split[1:3] == ("turn", 2)
    stuss = next(t for t in timeline if t[0] == "stuss")
    assert stuss[1:3] == ("turn", 3)
    assert timeline[0][0] in ("layout", "soda_hock")
    assert next(t for t in timeline if t[0] == "soda_hock")[3] == "soda"
    call = [t for t in timeline if t[0] == "call"]
    assert [c[2] for c in call] == [24]


@pytest.mark.parametrize("name,variant", [("cat_hop", "cat_hop"), ("triple", "triple"), ("ruined_by_coppers", None)])
def test_the_call_panel_names_a_cat_hop_or_a_triple_before_the_last_turn(name: str, variant: Any,
                                                                       tmp_path: Any) -> None:
    show = Show(hold_s=0)
    seen: list[dict[str, Any] | None] = []
    with Journal(tmp_path / "call.sqlite") as journal:
        table = Table(journal)
        table.subscribe(show.on_event)

        def after_turn_24(event: dict[str, Any], state: dict[str, Any]) -> None:
            if event.TYPE == "turn" and event_to_json(event)["turn"] == 24:
                seen.append(show.to_json())
        table.subscribe(after_turn_24)
        replay_script(table, bundled_script(name))
    queued = [p for p, _ in show._queue]
    call = next(p for p in queued if p["id"] == "call")
    assert call["variant"] == variant
    for lang in ("en", "ru", "fr"):
        extra = PANELS["call"][lang].get(variant or "", "")
        assert call["texts"][lang]["body"].endswith(extra)
    # Before the last turn the odds panel prices the call: 4 to 1 for three ranks, 2 to 1 otherwise.
    odds = seen[0]["odds"]
    assert odds["call"]["pays"] == ("4 to 1" if variant is None else "2 to 1")


def test_the_case_keeper_panel_comes_when_a_rank_is_finished(tmp_path: Any) -> None:
    events: list[tuple[dict[str, Any], dict[str, Any]]] = []
    with Journal(tmp_path / "case.sqlite") as journal:
        table = Table(journal)
        table.subscribe(lambda e, s: events.append((e, s)))
        replay_script(table, bundled_script("cat_hop"))
    shown: set[str] = set()
    for event, state in events:
        found = [c.panel for c in cues(event, state, frozenset(shown))]
        shown |= set(found)
        if "case_keeper" in found:
            rank = event_to_json(event)["card"][:-1]
            assert state.case[rank] == 0
            assert sum(1 for c in state.exposed if c.rank.symbol == rank) == 4
            return
    pytest.fail("no rank was finished in a whole deal")


def test_every_panel_has_a_title_and_body_in_three_languages() -> None:
    for panel, texts in PANELS.items():
        assert set(texts) == {"en", "ru", "fr"}, panel
        doc = panel_json(panel)
        for lang in ("en", "ru", "fr"):
            assert doc["texts"][lang]["title"] and len(doc["texts"][lang]["body"]) > 60
            # Short enough to read from 3 m in large type.
            assert len(doc["texts"][lang]["body"].split()) <= 60, (panel, lang)


def test_a_script_source_and_a_bad_one(tmp_path: Any) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(bundled_script("triple")), encoding="utf-8")
    [deal] = load_sources([str(path)])
    assert deal.name == "mine" and deal.cards == 52
    # Bets of "at": 1 go on after the soda, as settle plays them.
    assert {p.cards for p in deal.plan if p.at == 1} == {1}
    bad = dict(bundled_script("triple"), deck=bundled_script("triple")["deck"][:51] + ["5S"])
    with pytest.raises(Exception) as refused:
        deal_from_script(bad, "bad")
    assert "bad" in str(refused.value) and "twice" in str(refused.value)
