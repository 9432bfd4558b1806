"""Helpers for the display tests: drive a real Table with commands."""

from __future__ import annotations

from typing import Any

from faro_box.table.commands import command_from_json
from faro_box.table.table import Table

PIN = "2468"
# A deck in dealing order: soda 5S, then turn 1 = KD loses, 9C wins, ...
DECK = ["5S", "KD", "9C", "AS", "8H", "2C", "3D", "4H", "6S", "7C", "10D", "JS", "QH",
        "5H", "KS", "9D", "AH", "8C", "2D", "3S", "4C", "6H", "7D", "10S", "JH", "QC",
        "5D", "KH", "9S", "AD", "8S", "2H", "3C", "4D", "6C", "7S", "10H", "JD", "QS",
        "5C", "KC", "9H", "AC", "8D", "2S", "3H", "4S", "6D", "7H", "10C", "JC", "QD"]


def send(table: Table, doc: dict[str, Any]) -> Any:
    return table.handle(command_from_json(doc))


def deal_cards(table: Table, cards: list[str]) -> None:
    start = table.state()["next_index"]
    for offset, card in enumerate(cards):
        send(table, {"type": "card", "card": card, "index": start + offset, "confidence": 0.99})


def start_two_players(table: Table) -> None:
    send(table, {"type": "start_deal", "profile": "foster", "players": ["ann", "bob"]})
    send(table, {"type": "place", "player": "ann", "spec": {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}})
    send(table, {"type": "place", "player": "bob",
                 "spec": {"id": "b1", "kind": "rank", "ranks": ["K"], "stake": 2, "copper": True}})
