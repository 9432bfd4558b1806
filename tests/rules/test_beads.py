"""The bead model: docs/design.md's "Bead positions", worked by hand and checked for every deal."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faro_box.cards import FULL_DECK, Card, Rank
from faro_box.cli import main
from faro_box.errors import CardError, ConfigError
from faro_box.rules.faro.beads import BeadGeometry, BeadMark, bead_positions, case_keeper

HOME = (80, 90, 100, 110)


def deck_starting(*texts: str) -> tuple[Card, ...]:
    head = [Card.parse(t) for t in texts]
    return tuple(head) + tuple(c for c in FULL_DECK if c not in head)


def test_a_new_deal_has_every_bead_at_the_inner_end():
    assert bead_positions(()) == {rank: HOME for rank in Rank}
    assert all(r.left == 4 and not r.in_case and not r.finished for r in case_keeper(()).rods)


def test_soda_and_losers_touch_winners_stop_a_gap_short_the_fourth_closes_up():
    deck = deck_starting("5S", "5H", "5D", "9C", "AS", "AH", "5C")
    steps = [bead_positions(deck[:n])[Rank.FIVE] for n in range(8)]
    assert steps[1] == (0, 90, 100, 110)          # soda touches the frame
    assert steps[2] == (0, 10, 100, 110)          # loser touches the bead before it
    assert steps[3] == (0, 10, 30, 110)           # winner: p[1] + d + g
    assert steps[7] == (0, 10, 20, 30)            # the fourth card closes all four up
    assert bead_positions(deck[:4])[Rank.NINE] == (0, 90, 100, 110)   # a loser's first bead
    assert bead_positions(deck[:5])[Rank.ACE] == (10, 90, 100, 110)   # a winner's first bead: g
    assert bead_positions(deck[:6])[Rank.ACE] == (10, 20, 100, 110)   # loser touches the winner's


def test_the_hock_moves_nothing_even_when_it_is_the_fourth_of_its_rank():
    deck = deck_starting("KS", "KH", "KD") + ()
    deck = tuple(c for c in deck if c != Card.parse("KC")) + (Card.parse("KC"),)
    state = case_keeper(deck)
    assert state.rod(Rank.KING).positions == (0, 10, 30, 110)
    assert state.rod(Rank.KING).left == 1 and state.rod(Rank.KING).in_case
    assert all(rod.finished for rod in state.rods if rod.rank != Rank.KING)


def test_marks_name_touching_and_gapped_beads():
    state = case_keeper(deck_starting("2S", "3S", "2H")[:3])
    assert state.rod(Rank.TWO).marks == (BeadMark.TOUCHING, BeadMark.GAPPED, BeadMark.HOME, BeadMark.HOME)
    assert state.summary()["2"] == {"left": 2, "in_case": False, "finished": False}


def test_geometry_is_configuration_and_refuses_nonsense():
    geometry = BeadGeometry(rod_length=100, bead=8.5, gap=5)
    deck = deck_starting("QS", "7H", "QD")
    assert bead_positions(deck[:3], geometry)[Rank.QUEEN] == (0, 13.5, 100 - 2 * 8.5, 100 - 8.5)
    with pytest.raises(ConfigError, match="'bead'|bead=-1"):
        BeadGeometry(bead=-1)
    with pytest.raises(ConfigError, match="too short"):
        BeadGeometry(rod_length=50)
    with pytest.raises(ConfigError, match="'colour'"):
        BeadGeometry.from_mapping({"colour": 3})


def test_bad_card_sequences_are_refused():
    with pytest.raises(CardError, match="'AS' is shown twice"):
        case_keeper([Card.parse("AS"), Card.parse("2S"), Card.parse("AS")])
    with pytest.raises(CardError, match="'AS'"):
        case_keeper(["AS"])  # type: ignore[list-item]


@given(st.randoms(use_true_random=False), st.integers(0, 52))
def test_any_deal_keeps_beads_in_order_on_the_rod_and_counts_right(rng: random.Random, n: int):
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    geometry = BeadGeometry()
    state = case_keeper(deck[:n])
    for rod in state.rods:
        p = rod.positions
        assert p[0] >= 0 and p[3] + geometry.bead <= geometry.rod_length
        assert all(p[i + 1] >= p[i] + geometry.bead for i in range(3))   # beads never overlap
        counted = sum(1 for i, c in enumerate(deck[:n]) if c.rank == rod.rank and i != 51)
        assert rod.shown == counted
        if rod.finished:
            assert p == (0, 10, 20, 30)
    if n:  # undo is the same model on one card fewer: only the last card's rod differs
        before = case_keeper(deck[: n - 1])
        changed = {r.rank for r, b in zip(state.rods, before.rods, strict=True) if r != b}
        assert changed <= {deck[n - 1].rank}


def test_beads_command_prints_json_after_n_cards(tmp_path, capsys):
    deck = deck_starting("5S", "5H", "5D")
    script = tmp_path / "deal.json"
    script.write_text(json.dumps({"game": "faro", "deck": [str(c) for c in deck]}))
    assert main(["beads", str(script), "--cards", "3"]) == 0
    beads = json.loads(capsys.readouterr().out)["beads"]
    assert list(beads) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert beads["5"] == [0, 10, 30, 110] and beads["K"] == list(HOME)
    assert all(isinstance(x, int) for x in beads["5"])
    assert main(["beads", str(script)]) == 0
    assert json.loads(capsys.readouterr().out)["beads"]["A"] == [0, 10, 20, 30]


@pytest.mark.parametrize("content, message", [
    ("not json", "is not JSON"),
    ('{"deck": ["AS"]}', "52 cards"),
    ('{"players": []}', 'no "deck"'),
])
def test_beads_command_refuses_a_bad_script_with_one_line(tmp_path, capsys, content, message):
    script = tmp_path / "bad.json"
    script.write_text(content)
    assert main(["beads", str(script)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
