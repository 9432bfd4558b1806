"""The odds panel rebuilds the table's deal from its state: the same odds as the deal itself."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from faro_box.cards import Card
from faro_box.exhibit.odds_view import deal_of, odds_panel
from faro_box.exhibit.sources import bundled_script
from faro_box.rules.faro.odds import odds_for_deal
from faro_box.table.faro.state import TableState
from faro_box.table.games import replay_script
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.table.views import view_to_json


def test_the_panel_prices_every_betting_moment_as_the_live_deal_does(tmp_path: Any) -> None:
    checked = 0
    failures: list[str] = []
    with Journal(tmp_path / "odds.sqlite") as journal:
        table = Table(journal)

        def compare(event: Any, view: Any) -> None:
            try:
                check(view)
            except AssertionError as exc:   # the table logs a listener's exception: keep it
                failures.append(f"{event.TYPE} at card {view.next_index}: {exc}")

        def check(view: Any) -> None:
            state = view_to_json(view)
            nonlocal checked
            live = table._state.deal   # the table's own Deal: what the rebuild must match
            panel = odds_panel(view)
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
    empty = TableState().view()
    assert deal_of(empty) is None
    state = dataclasses.replace(empty, deal=1, ended=False, next_turn=1, next_index=2, profile="foster",
                                players=("a",), exposed=(Card.parse("5S"), Card.parse("KD")))
    assert odds_panel(state) is None
    panel = odds_panel(dataclasses.replace(state, next_index=1, exposed=(Card.parse("5S"),)))
    assert panel is not None and panel["cards_left"] == 51 and panel["open_bets"] == []
    # A rank bet made after the soda: the bank's edge is half the chance of a split.
    assert 0.015 < panel["rank_edge"]["low"] <= panel["rank_edge"]["high"] < 0.03
