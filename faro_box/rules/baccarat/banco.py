"""Banco: a claim to cover the whole fund, before every ordinary bet (seed 001 §03).

The first claim in priority order wins; the first claim from the other side, if any, shares it
half and half. Priority: whoever holds banco suivi (lost a banco last coup), then order of play.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from faro_box.rules.baccarat.bets import Bet
from faro_box.rules.baccarat.hands import Side


@dataclass(frozen=True, slots=True)
class BancoStanding:
    bets: tuple[Bet, ...]
    # (player, reason) for every claim that priority beat.
    beaten: tuple[tuple[str, str], ...]


def priority(claims: Collection[str], order: Sequence[str], suivi: Collection[str]) -> list[str]:
    return sorted(claims, key=lambda player: (player not in suivi, order.index(player)))


def resolve(claims: Collection[str], fund: int, order: Sequence[str], sides: Mapping[str, Side],
            suivi: Collection[str]) -> BancoStanding:
    ranked = priority(claims, order, suivi)
    if not ranked:
        return BancoStanding((), ())
    first = ranked[0]
    partner = next((p for p in ranked if sides[p] is not sides[first]), None)
    # An odd fund cannot be halved in whole chips: the first claim covers the larger half.
    bets: tuple[Bet, ...]
    if partner is not None and fund >= 2:
        half = fund // 2
        bets = (Bet(first, sides[first], fund - half, fund, banco=True),
                Bet(partner, sides[partner], half, fund, banco=True))
    else:
        partner = None
        bets = (Bet(first, sides[first], fund, fund, banco=True),)
    winners = first if partner is None else f"{first} and {partner}"
    beaten = tuple((p, f"banco went to {winners}, who came first "
                       f"({'banco suivi' if first in suivi else 'order of play'})")
                   for p in ranked if p not in (first, partner))
    return BancoStanding(bets, beaten)
