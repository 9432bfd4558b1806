"""Checking live odds against the rules engine: every order of a small remainder, and random deals.

Shared by tests/rules/test_odds.py (small runs) and benchmarks/bench_odds.py (the large run).
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from fractions import Fraction

from faro_box.cards import FULL_DECK, Card, Rank
from faro_box.rules.faro import Deal, Profile, Result, Settlement, find_profile, settle_script
from faro_box.rules.faro.odds import BetOdds, BoxState, LiveOdds, odds_for_state

PLAYER = "ann"
STAKE = 2  # even: the teaching profile takes even stakes only


def layout_specs(odds: LiveOdds) -> list[tuple[str, dict[str, object], BetOdds]]:
    """A place spec for every bet the odds list (calls included), with its odds."""
    specs = []
    for number, bet in enumerate(odds.bets):
        spec: dict[str, object] = {"id": f"b{number}", "kind": bet.kind.value, "stake": STAKE}
        if bet.ranks:
            spec["ranks"] = [r.symbol for r in bet.ranks]
        if bet.copper:
            spec["copper"] = True
        if bet.order:
            spec["order"] = [o.symbol if isinstance(o, Rank) else o.value for o in bet.order]
        specs.append((f"b{number}", spec, bet))
    return specs


def every_order(profile: Profile, remaining: Sequence[Card]) -> tuple[LiveOdds, dict[str, Counter[Result]],
                                                                        Counter[tuple[Rank, Rank]], int]:
    """Deal the rest of the deck first, then place every bet and play every order of ``remaining``.

    Returns the odds, each bet's results (for a per-turn bet: in the next turn only), the next
    turn's (loser rank, winner rank) counts, and the number of orders played.
    """
    rest = set(remaining)
    deal = Deal(profile, [PLAYER])
    for card in FULL_DECK:
        if card not in rest:
            deal.expose(card)
    state = BoxState.of(tuple(remaining), deal.next_index)
    odds = odds_for_state(state, profile)
    specs = layout_specs(odds)
    for _, spec, _ in specs:
        deal.place(PLAYER, spec)
    per_turn = {bet_id for bet_id, _, bet in specs if bet.per_turn}
    first_turn = deal.next_turn
    tallies: dict[str, Counter[Result]] = defaultdict(Counter)
    pairs: Counter[tuple[Rank, Rank]] = Counter()
    orders = 0

    def walk(settled: dict[str, Settlement]) -> None:
        nonlocal orders
        if deal.next_index == len(FULL_DECK):
            orders += 1
            for bet_id, _, _ in specs:
                tallies[bet_id][settled[bet_id].result] += 1
            first = deal.turns[first_turn - 1] if first_turn else None
            if first is not None:
                pairs[(first.loser.rank, first.winner.rank)] += 1
            return
        for card in sorted(deal.remaining, key=FULL_DECK.index):
            exposure = deal.expose(card)
            now = dict(settled)
            if exposure.turn_result is not None:
                for s in exposure.turn_result.settlements:
                    if s.bet_id not in now and (s.bet_id not in per_turn or exposure.turn == first_turn):
                        now[s.bet_id] = s
            walk(now)
            deal.undo()

    walk({})
    return odds, {bet_id: tallies[bet_id] for bet_id, _, _ in specs}, pairs, orders


def chances_of(bet: BetOdds) -> dict[Result, Fraction]:
    return {Result.WIN: bet.win, Result.LOSE: bet.lose, Result.SPLIT: bet.split,
            Result.PUSH: bet.push, Result.VOID: bet.void}


def random_deal_doc(profile: str, rng: random.Random) -> tuple[dict[str, object], list[tuple[str, BetOdds]], int]:
    """A shuffled deck with every bet of the layout placed before a random turn t.

    Returns the script, (bet id, exact odds seen from before turn t) for each bet, and t.
    """
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    turn = rng.randint(1, 25)
    index = 2 * turn - 1
    odds = odds_for_state(BoxState.of(deck[index:], index), find_profile(profile))
    specs = layout_specs(odds)
    doc = {
        "game": "faro", "profile": profile, "players": [PLAYER], "deck": [str(c) for c in deck],
        "actions": [{"at": turn, "player": PLAYER, "place": spec} for _, spec, _ in specs],
    }
    return doc, [(bet_id, bet) for bet_id, _, bet in specs], turn


def monte_carlo(profile: str, deals: int, seed: int) -> dict[str, float]:
    """Settle random deals through the engine; z-score of observed minus exact, per statistic.

    Statistics: each (kind, copper, result) count and each (kind, copper) amount. A deal's bets
    are correlated, so each z uses the deals' own spread: sum(D) / sqrt(sum(D^2)), D being one
    deal's observed minus expected (a self-normalised sum of independent deals).
    """
    rng = random.Random(seed)
    sums: dict[str, float] = defaultdict(float)
    squares: dict[str, float] = defaultdict(float)
    for _ in range(deals):
        doc, bets, turn = random_deal_doc(profile, rng)
        result = settle_script(doc)
        if result["rejected"]:
            raise AssertionError(f"the engine refused bets the odds list: {result['rejected'][:3]}")
        per_turn = {bet_id for bet_id, bet in bets if bet.per_turn}
        settled: dict[str, dict[str, object]] = {}
        for t in result["turns"]:
            for s in t["settlements"]:
                # A per-turn bet counts in the turn it was placed before; the others at their end.
                if s["bet"] not in settled and (s["bet"] not in per_turn or t["turn"] == turn):
                    settled[s["bet"]] = s
        diffs: dict[str, float] = defaultdict(float)
        for bet_id, bet in bets:
            s = settled[bet_id]
            key = f"{bet.kind.value}{' coppered' if bet.copper else ''}"
            for outcome, p in chances_of(bet).items():
                diffs[f"{key} {outcome.value}"] += (s["result"] == outcome.value) - float(p)
            amount = s["amount"]
            assert isinstance(amount, (int, float))
            diffs[f"{key} amount"] += amount - float(bet.ev) * STAKE
        for key, d in diffs.items():
            sums[key] += d
            squares[key] += d * d
    return {key: (sums[key] / math.sqrt(squares[key]) if squares[key] > 1e-18 else 0.0) for key in sums}

