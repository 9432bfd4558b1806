"""The games registry: each game found by name, bringing its commands, state machine and scripts."""

from __future__ import annotations

import pytest

from faro_box.errors import ScriptError
from faro_box.table.baccarat.commands import BankCard, StartBank
from faro_box.table.commands import COMMAND_TYPES, CardSeen, StartDeal, command_from_json
from faro_box.table.games import GAMES, find_game, game_of


def test_each_game_is_found_by_its_name() -> None:
    assert [g.name for g in GAMES] == ["faro", "baccarat_banque"]
    assert find_game("faro").start is StartDeal and find_game("baccarat_banque").start is StartBank
    with pytest.raises(ScriptError, match=r"unknown game 'poker': expected one of faro, baccarat_banque"):
        find_game("poker")


def test_the_codec_reads_every_games_commands_and_each_belongs_to_one_game() -> None:
    owned = [cls for game in GAMES for cls in game.commands]
    assert len(owned) == len(set(owned)) and set(owned) == set(COMMAND_TYPES.values())
    assert game_of(command_from_json({"type": "bank_card", "card": "9C"})).name == "baccarat_banque"
    assert game_of(CardSeen("9C", 0)).name == "faro" and game_of(BankCard("9C")).name == "baccarat_banque"
    for game in GAMES:
        assert game.dealer_commands <= {cls.TYPE for cls in game.commands}


def test_each_game_brings_a_fresh_state_machine() -> None:
    bank = find_game("baccarat_banque").state()
    events = bank.apply(StartBank(("ann", "bob"), {"ann": "right", "bob": "left"}, "eve", 10), 1)
    assert events[0].TYPE == "start_bank"
    deal = find_game("faro").state()
    assert deal.apply(StartDeal("foster", ("ann",)))[0].TYPE == "start_deal"
    for game in GAMES:
        machine = game.state()
        assert isinstance(machine.view(), game.view) and game.view.GAME == game.name
