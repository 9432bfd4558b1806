"""A sample deal script for the table's tests: coppering, a group, high card, a withdrawal,
a refused action and a correct call on the last turn, over a deck shuffled from a seed."""

import random

from faro_box.cards import FULL_DECK, Card


def _deck(seed):
    deck = [str(c) for c in FULL_DECK]
    random.Random(seed).shuffle(deck)
    return deck


def _rank(card):
    return Card.parse(card).rank.symbol


def sample_script(seed=11):
    deck = _deck(seed)
    last_three = deck[49:52]
    return {
        "game": "faro", "profile": "foster", "house_rules": {"turn_pays": 4},
        "players": ["ann", "bob", "cy"], "deck": deck,
        "actions": [
            {"at": 1, "player": "ann", "place": {"id": "a1", "kind": "rank", "ranks": [_rank(deck[6])], "stake": 2}},
            {"at": 1, "player": "bob", "place": {"id": "b1", "kind": "rank", "ranks": [_rank(deck[5])], "stake": 2,
                                                 "copper": True}},
            {"at": 2, "player": "cy", "place": {"id": "c1", "kind": "high", "stake": 1}},
            {"at": 2, "player": "cy", "place": {"id": "c2", "kind": "group", "ranks": ["4", "5", "9", "10"],
                                                "stake": 3}},
            {"at": 5, "player": "ann", "withdraw": "a1"},
            {"at": 6, "player": "zed", "place": {"id": "z1", "kind": "rank", "ranks": ["9"], "stake": 1}},
            {"at": 9, "player": "cy", "withdraw": "c1"},
            {"at": 25, "player": "bob", "place": {"id": "b9", "kind": "call",
                                                  "order": [_rank(c) for c in last_three], "stake": 2}},
        ],
    }


