"""Live odds: refresh time over random betting moments, the Monte Carlo check, the house's edges.

    python benchmarks/bench_odds.py                 # timing, edges, Monte Carlo (a few minutes)
    python benchmarks/bench_odds.py --deals 0       # timing and edges only
    python benchmarks/bench_odds.py --states 5000 --deals 10000 --seed 3

Timing: one full refresh = ``odds_for_state(state, profile).to_json()`` (every rank's next
turn, every bet on the layout with its EV, the call, every kind's edge, the display document),
on one core, over random shuffled decks stopped at a random betting moment. "warm" is the
steady state of a deal (the small caches of combinatorial terms filled); "cold" clears them
before each refresh.

Monte Carlo: random deals settled by the engine (``settle_script``), every bet of the layout
placed before a random turn; for each statistic (a kind's count of each result, its amount),
the z-score of the observed total against the exact expectation.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "rules"))

from odds_check import monte_carlo  # noqa: E402

from faro_box.cards import FULL_DECK  # noqa: E402
from faro_box.rules.faro import PROFILES, find_profile  # noqa: E402
from faro_box.rules.faro import odds as odds_module  # noqa: E402
from faro_box.rules.faro.odds import BoxState, deal_edges, live_odds, odds_for_state  # noqa: E402

CACHES = (odds_module.first_show, odds_module._ranked_chances, odds_module._chances_json,
          odds_module.odds_against)


def random_states(count: int, rng: random.Random) -> list[BoxState]:
    moments = [0, *range(1, 50, 2)]
    states = []
    for _ in range(count):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        index = rng.choice(moments)
        states.append(BoxState.of(deck[index:], index))
    return states


def time_refreshes(states: list[BoxState], profile_name: str, cold: bool) -> tuple[list[float], list[float]]:
    """CPU time of this thread (what the refresh costs) and wall time (what other load adds)."""
    profile = find_profile(profile_name)
    cpu, wall = [], []
    for state in states:
        if cold:
            for cache in CACHES:
                cache.cache_clear()
        start_cpu, start_wall = time.thread_time_ns(), time.perf_counter_ns()
        odds_for_state(state, profile).to_json()
        cpu.append((time.thread_time_ns() - start_cpu) / 1e6)
        wall.append((time.perf_counter_ns() - start_wall) / 1e6)
    return cpu, wall


def _spread(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return f"median {statistics.median(times):6.2f}  p95 {p95:6.2f}  max {times[-1]:6.2f}"


def report_times(label: str, times: tuple[list[float], list[float]]) -> None:
    cpu, wall = times
    print(f"  {label:<12} n={len(cpu):<5} cpu ms: {_spread(cpu)}   | wall ms: {_spread(wall)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=3000, help="random betting moments to time")
    parser.add_argument("--deals", type=int, default=4000, help="Monte Carlo deals for foster (others: a quarter)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as on the brief
    rng = random.Random(args.seed)

    print("Full refresh (odds_for_state(...).to_json()), one core:")
    states = random_states(args.states, rng)
    for name in ("foster", "french", "stuss"):
        time_refreshes(states[:50], name, cold=False)  # fill the caches as a running deal does
        report_times(f"{name} warm", time_refreshes(states, name, cold=False))
    report_times("foster cold", time_refreshes(states[: max(1, args.states // 10)], "foster", cold=True))
    odds = odds_for_state(states[0], find_profile("foster"))
    print(f"  (one foster refresh lists {len(odds.bets)} bets; turn {odds.state.next_turn})")

    print("\nHouse's edge over a whole deal (bets placed before the soda), per unit staked:")
    for name in PROFILES:
        edges = ", ".join(
            f"{e.kind.value}{' coppered' if e.copper else ''} "
            + (f"{float(e.low):.4%}" if e.low == e.high else f"{float(e.low):.4%}..{float(e.high):.4%}")
            for e in deal_edges(find_profile(name)))
        print(f"  {name:<9} {edges}")
    call = live_odds([c for c in FULL_DECK if c.rank in (1, 6, 11)][:3], 49, find_profile("foster")).call
    assert call is not None
    print(f"  calling the turn (three ranks): each order {call.chance}, pays "
          f"{call.to_json()['pays']} against true odds {call.to_json()['true_odds']}: edge {float(-(call.ev or 0)):.4%}")

    if args.deals > 0:
        print("\nMonte Carlo through the engine (z = observed - exact, in standard errors):")
        for number, name in enumerate(PROFILES):
            deals = args.deals if name == "foster" else max(1, args.deals // 4)
            start = time.perf_counter()
            z = monte_carlo(name, deals, args.seed + number)
            elapsed = time.perf_counter() - start
            live = {k: v for k, v in z.items() if v != 0.0}
            worst = sorted(live.items(), key=lambda kv: -abs(kv[1]))[:3]
            within = sum(abs(v) < 3 for v in live.values())
            print(f"  {name:<9} {deals} deals in {elapsed:5.1f} s: {within}/{len(live)} statistics within 3 sigma; "
                  f"largest |z|: " + ", ".join(f"{k} {v:+.2f}" for k, v in worst))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
