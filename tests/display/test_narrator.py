"""What the display says for each table event, read off the real Table's states."""

from __future__ import annotations

from display_helpers import DECK, deal_cards, send, start_two_players

from faro_box.display.narrator import Narrator
from faro_box.table.table import Table


def listen(table: Table, lang: str = "en") -> list[str]:
    narrator = Narrator(lang)
    narrator.prime(table.view())
    said: list[str] = []
    table.subscribe(lambda event, state: said.extend(narrator.hear(event, state)))
    return said


def test_a_whole_deal_is_announced_once_each(table: Table) -> None:
    said = listen(table)
    start_two_players(table)
    deal_cards(table, DECK[:51])
    assert said[0] == "Deal 1 begins: Ann, Bob."
    assert said[1] == "Soda: 5♠."
    turns = [s for s in said if s.startswith("Turn ")]
    assert [int(t.split(":")[0].split()[1]) for t in turns] == list(range(1, 26))
    assert turns[-1].endswith("The hock: Q♦.")
    send(table, {"type": "end_deal"})
    assert said[-1] == "Deal 1 is over. Ann +2, Bob +2, Bank −4."


def test_undo_pending_and_misdeal(table: Table) -> None:
    said = listen(table, "fr")
    start_two_players(table)
    deal_cards(table, ["5S", "KD", "9C"])
    send(table, {"type": "undo"})
    assert said[-1] == "Carte reprise\u00a0: le neuf de trèfle."
    send(table, {"type": "unread", "index": 2, "candidates": ["9C", "9S"], "snapshot": None})
    assert said[-1] == ("Carte 3\u00a0: en attente de la confirmation du banquier "
                        "(le neuf de trèfle ou le neuf de pique\u00a0?).")
    send(table, {"type": "confirm", "index": 2, "card": "9S"})
    assert said[-1].startswith("Coup 1\u00a0: le roi perd, le neuf gagne.")
    send(table, {"type": "place", "player": "ann", "spec": {"id": "a9", "kind": "rank", "ranks": ["Q"], "stake": 5}})
    send(table, {"type": "misdeal"})
    assert said[-2] == ("Maldonne\u00a0: la banque paie toutes les mises en jeu. Ann\u00a0: mise sur la dame, "
                        "gagne 5\u00a0; la banque paie 5.")
    assert said[-1] == "La taille 1 est terminée. Ann +7, Bob +2, Banque −9."


def test_a_view_started_mid_deal_does_not_repeat_the_past(table: Table) -> None:
    start_two_players(table)
    deal_cards(table, ["5S", "KD", "9C"])
    said = listen(table, "ru")
    deal_cards(table, ["AS", "8H"])
    assert said == ["Ход 2: проигрывает туз, выигрывает восьмёрка. Ставок к расчёту нет."]
