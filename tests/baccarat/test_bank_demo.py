"""The Baccarat Banque demo: rendered cards, the real reader, the watcher, the table, a restart."""

from __future__ import annotations

from pathlib import Path

from faro_box.demo.baccarat import BankDemo, shuffled_shoe
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.reader import Reader


def test_a_demo_bank_settles_as_its_export_and_replays_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "bank.sqlite"
    table = Table(Journal(path))
    result = BankDemo(table, Reader(), seed=4, coups=1, frames_per_card=3).run()
    assert result.wrong == [] and result.coups == 1
    assert result.read + result.confirmed == 156 - table.state()["shoe"]["remaining"]
    assert result.read >= 1  # the camera, not the dealer, named cards
    assert result.settled == result.balances and sum(result.balances.values()) == 400
    state = table.state()
    assert state["ended"] == "left"
    table.journal.close()
    again = Table(Journal(path)).state()
    assert {k: v for k, v in again.items() if k != "faults"} == {k: v for k, v in state.items() if k != "faults"}


def test_the_demo_shoe_holds_three_decks() -> None:
    shoe = shuffled_shoe(7)
    assert len(shoe) == 156 and all(shoe.count(card) == 3 for card in set(shoe))
    assert shoe != shuffled_shoe(8)
