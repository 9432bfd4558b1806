"""How the bundled instructive deals (``deals/*.json``) were built: ``python -m faro_box.exhibit.make_deals``.

Each deck is a seeded shuffle, then stacked so the lesson really happens (a split on turn 2, a
cat-hop or a triple as the last three cards, a run of coppered bets that all lose); the bets of
the demonstration (``demo.plan_bets``) make the rest of the layout lively. The claims written in
``deals/catalogue.json`` are checked against ``settle_script`` by the tests, not trusted.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from faro_box.cards import FULL_DECK, Card
from faro_box.demo.faro import PLAYERS, plan_bets
from faro_box.rules.faro import LAST_TURN, settle_script
from faro_box.table.commands import PlaceBet, WithdrawBet

DEALS = Path(__file__).with_name("deals")
PROFILE = "foster"


def _shuffled(seed: int) -> list[Card]:
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    return deck


def _swap_in(deck: list[Card], index: int, card: Card) -> None:
    where = deck.index(card)
    deck[index], deck[where] = deck[where], deck[index]


def _actions(deck: list[Card], *, skip_ranks: set[str] = frozenset()) -> list[dict[str, Any]]:  # type: ignore[assignment]
    actions = []
    for planned in plan_bets(deck):
        command = planned.command
        if isinstance(command, PlaceBet):
            if set(command.spec.get("ranks", ())) & skip_ranks:
                continue
            actions.append({"at": planned.at, "player": command.player, "place": dict(command.spec)})
        elif isinstance(command, WithdrawBet):
            actions.append({"at": planned.at, "player": command.player, "withdraw": command.bet_id})
    return actions


def _script(deck: list[Card], actions: list[dict[str, Any]], players: tuple[str, ...] = PLAYERS) -> dict[str, Any]:
    actions = sorted(actions, key=lambda a: a["at"])
    return {"game": "faro", "profile": PROFILE, "house_rules": {}, "players": list(players),
            "deck": [str(c) for c in deck], "actions": actions}


def early_split() -> dict[str, Any]:
    deck = _shuffled(1880)
    shown = {c.rank for c in deck[:3]}
    rank = next(c.rank for c in deck[5:] if c.rank not in shown)
    pair = [c for c in deck[3:] if c.rank == rank][:2]
    _swap_in(deck, 3, pair[0])
    _swap_in(deck, 4, pair[1])
    actions = _actions(deck, skip_ranks={rank.symbol})
    actions.insert(0, {"at": 1, "player": "cy", "place": {"id": "cy-split", "kind": "rank",
                                                          "ranks": [rank.symbol], "stake": 4}})
    return _script(deck, actions)


def _last_three(seed: int, pattern: str) -> list[Card]:
    """A shuffle whose last three cards (loser, winner, hock) follow ``pattern``: "XYX" is a
    cat-hop (two of one rank), "XXX" a triple."""
    deck = _shuffled(seed)
    x = deck[10].rank
    y = next(c.rank for c in deck[11:] if c.rank != x)
    pool = {"X": [c for c in FULL_DECK if c.rank == x], "Y": [c for c in FULL_DECK if c.rank == y]}
    for slot, letter in zip((49, 50, 51), pattern, strict=True):
        _swap_in(deck, slot, pool[letter].pop(0))
    return deck


def cat_hop() -> dict[str, Any]:
    deck = _last_three(1849, "XYX")
    return _script(deck, _actions(deck))


def triple() -> dict[str, Any]:
    deck = _last_three(1835, "XXX")
    return _script(deck, _actions(deck))


def ruined_by_coppers() -> tuple[dict[str, Any], dict[str, Any]]:
    """Ned brings a purse of 10 and coppers, doubling after each loss, until it is gone."""
    deck = _shuffled(1876)
    players = (*PLAYERS, "ned")
    actions = _actions(deck)
    stakes = [1, 2, 4, 3]   # doubling up until only 3 chips are left, then the rest
    taken = {r for a in actions for r in a.get("place", {}).get("ranks", ())}
    at = 2
    ned: list[str] = []
    for number, stake in enumerate(stakes, 1):
        while True:
            rank, role = _first_after(deck, at, taken)
            if role == "winner":
                break
            at += 1
        taken.add(rank)
        bet_id = f"ned-{number}"
        ned.append(bet_id)
        actions.append({"at": at, "player": "ned", "place": {"id": bet_id, "kind": "rank", "ranks": [rank],
                                                             "stake": stake, "copper": True}})
        at = _settles_at(deck, rank, at) + 1
    script = _script(deck, actions, players)
    return script, {"player": "ned", "purse": sum(stakes), "bets": ned}


def _first_after(deck: list[Card], at: int, taken: set[str]) -> tuple[str, str]:
    """The rank (not on the layout) whose first turn from ``at`` on comes soonest, and its role then."""
    seen: set[str] = set()
    for turn in range(at, LAST_TURN):
        loser, winner = deck[2 * turn - 1].rank.symbol, deck[2 * turn].rank.symbol
        for rank, role in ((loser, "loser"), (winner, "winner")):
            if rank in taken or rank in seen:
                continue
            if loser == winner:
                seen.add(rank)
                continue
            if not any(c.rank.symbol == rank for c in deck[2 * at - 1:2 * turn - 1]):
                return rank, role
            seen.add(rank)
    raise ValueError("no rank left to copper")


def _settles_at(deck: list[Card], rank: str, at: int) -> int:
    for turn in range(at, LAST_TURN + 1):
        if rank in (deck[2 * turn - 1].rank.symbol, deck[2 * turn].rank.symbol):
            return turn
    raise ValueError(rank)


def main() -> None:
    ruined, claim = ruined_by_coppers()
    built = {"early_split.json": early_split(), "cat_hop.json": cat_hop(), "triple.json": triple(),
             "ruined_by_coppers.json": ruined}
    DEALS.mkdir(exist_ok=True)
    for name, script in built.items():
        settle_script(script)  # refuses a broken script before it is written
        (DEALS / name).write_text(json.dumps(script, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(claim))


if __name__ == "__main__":
    main()
