"""The odds panel rebuilds the table's deal from its state: the same odds as the deal itself."""

from __future__ import annotations

from typing import Any

import pytest

from faro_box.exhibit.odds_view import deal_of, odds_panel
from faro_box.exhibit.sources import bundled_script
from faro_box.rules.faro.odds import odds_for_deal
from faro_box.table.games import replay_script
from faro_box.table.journal import Journal
from faro_box.table.table import Table


def test_the_panel_prices_every_betting_moment_as_the_live_deal_does(tmp_path: Any) -> None:
    checked = 0
    failures: list[str] = []
    with Journal(tmp_path / "odds.sqlite") as journal:
        table = Table(journal)

        def compare(event: dict[str, Any], state: dict[str, Any]) -> None:
            try:
                check(state)
            except AssertionError as exc:   # the table logs a listener's exception: keep it
                failures.append(f"{event['type']} at card {state['next_index']}: {exc}")

        def check(state: dict[str, Any]) -> None:
            nonlocal checked
            live = table._state.deal   # the table's own Deal: what the rebuild must match
            panel = odds_panel(state)
            if live is None or state["ended"] or not (live.between_turns or live.next_index >= 51):
                assert panel is None or state["next_index"] % 2 == 1 or state["next_index"] == 0
                return
            if state["next_turn"] is None:
                return
            truth = odds_for_deal(live).to_json()
            assert panel is not None
            assert panel["turn"] == truth["turn"] and panel["cards_left"] == truth["cards_left"]
            assert panel["split_next"] == pytest.approx(sum(t["splits"] for t in truth["next_turn"]))
            assert [(o["bet"], o["win"], o["lose"], o["split"], o["expected"]) for o in panel["open_bets"]] == [
                (o["bet"], o["odds"]["win"], o["odds"]["lose"], o["odds"]["split"], o["expected"])
                for o in truth["open_bets"]]
            checked += 1

        table.subscribe(compare)
        replay_script(table, bundled_script("ruined_by_coppers"))
    assert failures == []
    assert checked > 40


def test_no_odds_inside_a_turn_or_without_a_deal() -> None:
    assert deal_of({"deal": None}) is None
    state = {"deal": 1, "ended": False, "next_turn": 1, "next_index": 2, "profile": "foster", "players": ["a"],
             "exposed": ["5S", "KD"]}
    assert odds_panel(state) is None
    state.update(next_index=1, exposed=["5S"])
    panel = odds_panel(state)
    assert panel is not None and panel["cards_left"] == 51 and panel["open_bets"] == []
    # A rank bet made after the soda: the bank's edge is half the chance of a split.
    assert 0.015 < panel["rank_edge"]["low"] <= panel["rank_edge"]["high"] < 0.03
