import pytest

from faro_box.cards import Card
from faro_box.errors import ScriptError
from faro_box.table.commands import (
    BarBet,
    CardSeen,
    CardUnread,
    ConfirmCard,
    EndDeal,
    Misdeal,
    PlaceBet,
    ReleaseBet,
    StartDeal,
    UndoCard,
    WithdrawBet,
    command_from_json,
    command_from_text,
    command_to_text,
)

EVERY_COMMAND = [
    StartDeal("foster", ("ann", "bob"), {"turn_pays": 5}),
    PlaceBet("ann", {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2, "copper": True}),
    WithdrawBet("ann", "a1"),
    BarBet("ann", "a1"),
    ReleaseBet("ann", "a1"),
    CardSeen("10h", 3, 0.875, 120),
    CardSeen("QS", 0),
    CardUnread(7, ("KH", "KD"), "/snapshots/7.jpg"),
    ConfirmCard(7, "K♦"),
    UndoCard(),
    EndDeal(),
    Misdeal(),
]


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=lambda c: type(c).__name__)
def test_every_command_survives_the_json_round_trip(command):
    assert command_from_json(command.to_json()) == command
    assert command_from_text(command_to_text(command)) == command


def test_cards_are_card_values_written_in_canonical_form():
    assert CardSeen("10h", 3).card == Card.parse("10H") == CardSeen(Card.parse("10H"), 3).card
    assert CardUnread(7, ("KH", "kd")).candidates == (Card.parse("KH"), Card.parse("KD"))
    assert ConfirmCard(7, "K♦").to_json() == {"type": "confirm", "index": 7, "card": "KD"}


def test_a_command_keeps_its_own_copy_of_a_spec():
    spec = {"id": "a1", "kind": "rank", "ranks": ["9"], "stake": 2}
    bet = PlaceBet("ann", spec)
    spec["stake"] = 1000
    assert bet.spec["stake"] == 2


@pytest.mark.parametrize("doc, words", [
    ({"type": "card", "card": "ZZ", "index": 3}, "'ZZ'"),
    ({"type": "card", "card": "QH", "index": 52}, "52"),
    ({"type": "card", "card": "QH", "index": True}, "True"),
    ({"type": "card", "card": "QH", "index": 3, "confidence": 1.5}, "1.5"),
    ({"type": "card", "card": "QH", "index": 3, "confidence": float("nan")}, "nan"),
    ({"type": "card", "card": "QH", "index": 3, "frame": -1}, "-1"),
    ({"type": "card", "card": "QH"}, "lacks index"),
    ({"type": "card", "card": "QH", "index": 3, "colour": "red"}, "'colour'"),
    ({"type": "deal"}, "'deal'"),
    ({"card": "QH"}, "None"),
    (["card"], "['card']"),
    ({"type": "start_deal", "profile": "foster", "players": []}, "at least one player"),
    ({"type": "start_deal", "profile": "foster", "players": "ann"}, "'ann'"),
    ({"type": "start_deal", "profile": "foster", "players": ["ann", "ann"]}, "'ann' is listed twice"),
    ({"type": "start_deal", "profile": "foster", "players": ["x" * 41]}, "at most 40 characters"),
    ({"type": "start_deal", "profile": "foster", "players": [f"p{i}" for i in range(21)]}, "at most 20 players"),
    ({"type": "start_deal", "profile": "foster", "players": ["Banker"]}, "'Banker'"),
    ({"type": "start_deal", "profile": "foster", "players": ["a\nb"]}, "control characters"),
    ({"type": "start_deal", "profile": "", "players": ["ann"]}, "must not be empty"),
    ({"type": "start_deal", "profile": "foster", "players": ["ann"], "house_rules": [1]}, "JSON object"),
    ({"type": "place", "player": "ann", "spec": {"id": "a1", "note": "x" * 3000}}, "too large"),
    ({"type": "place", "player": "ann", "spec": {"id": 7}}, "a bet id must be text, not 7"),
    ({"type": "withdraw", "player": "ann", "bet_id": ""}, "must not be empty"),
    ({"type": "unread", "index": 4, "candidates": ["KH", "nope"]}, "'nope'"),
])
def test_bad_commands_are_refused_quoting_the_input(doc, words):
    with pytest.raises(ScriptError) as caught:
        command_from_json(doc)
    assert words in str(caught.value)


def test_text_that_is_not_json_is_refused():
    with pytest.raises(ScriptError, match="must be JSON"):
        command_from_text("{card: QH")
