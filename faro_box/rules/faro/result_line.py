"""A played deal's result document as one line of JSON text, written without building it.

``json.dumps(settle_script(doc))`` makes a dict per turn and per settlement and then walks
them all again to encode them; for a season of simulated deals (``settle --lines``) that
is most of the cost of a deal. This writes the same text, byte for byte (``json.dumps``'s
separators, ASCII escapes), straight from the deal's turns. The tests hold the two to each
other on every script they have.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii as quote  # what json.dumps uses for text
from typing import Any

from faro_box.cards import Card
from faro_box.rules.faro.deal import LAST_TURN, Deal
from faro_box.rules.faro.settle import json_amount

_encode = json.JSONEncoder(check_circular=False).encode
_TURN_HEADS = tuple(f'{{"turn": {turn}, "loser": "' for turn in range(LAST_TURN + 1))


def result_line(deal: Deal, deck: Sequence[Card], rejected: list[dict[str, Any]],
                misdeal: dict[str, Any] | None) -> str:
    heads: dict[str, str] = {}  # a bet's id -> its settlements' text up to the result
    turns = []
    for turn, loser, winner, settlements, _ in deal.turns:
        settled = ""
        if settlements:
            texts = []
            for bet_id, player, _, result, halves in settlements:
                head = heads.get(bet_id)
                if head is None:
                    head = heads[bet_id] = f'{{"bet": {quote(bet_id)}, "player": {quote(player)}, "result": "'
                amount = halves >> 1 if not halves & 1 else halves / 2  # json_amount, inlined: hot path
                texts.append(f'{head}{result._value_}", "amount": {amount}}}')
            settled = ", ".join(texts)
        turns.append(f'{_TURN_HEADS[turn]}{loser.text}", "winner": "{winner.text}", "settlements": [{settled}]}}')
    hock = f'"{deck[-1].text}"' if misdeal is None else "null"
    balances = ", ".join([f"{quote(who)}: {json_amount(halves)}" for who, halves in deal.balance_halves.items()])
    tail = f', "misdeal": {_encode(misdeal)}}}' if misdeal is not None else "}"
    return (f'{{"turns": [{", ".join(turns)}], "hock": {hock}, "balances": {{{balances}}}, '
            f'"rejected": {_encode(rejected) if rejected else "[]"}{tail}')
