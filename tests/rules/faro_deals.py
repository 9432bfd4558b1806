"""Deal-script builders shared by the faro rules tests."""

from __future__ import annotations

from typing import Any

from faro_box.cards import FULL_DECK
from faro_box.rules.faro import Deal

PLAYERS = ["ann", "bob"]


def deck_of(first: list[str], last: list[str] | None = None) -> list[str]:
    """A 52-card deck: ``first`` leaves the box first (soda first), ``last`` ends it (hock last),
    every other card in between in FULL_DECK order."""
    last = last or []
    given = first + last
    assert len(set(given)) == len(given)
    middle = [str(c) for c in FULL_DECK if str(c) not in given]
    return first + middle + last


def place(at: int, player: str, bet_id: str, kind: str, stake: int = 2, **fields: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"id": bet_id, "kind": kind, "stake": stake}
    spec.update(fields)
    return {"at": at, "player": player, "place": spec}


def script(profile: str, deck: list[str], actions: list[dict[str, Any]], players: list[str] | None = None,
           **house_rules: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"game": "faro", "profile": profile, "players": players or PLAYERS,
                           "deck": deck, "actions": actions}
    if house_rules:
        doc["house_rules"] = house_rules
    return doc


def settlements_of(result: dict[str, Any], bet_id: str) -> list[tuple[int, str, int | float]]:
    return [(t["turn"], s["result"], s["amount"]) for t in result["turns"] for s in t["settlements"]
            if s["bet"] == bet_id]


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything a caller can see of a deal, to check that a refusal or an undo changed nothing."""
    return (deal.open_bets, dict(deal.balances), deal.exposed, deal.turns, dict(deal.case), deal.next_index,
            deal.next_role, deal.next_turn, deal.between_turns, deal.finished, deal.misdealt, deal.exposures)
