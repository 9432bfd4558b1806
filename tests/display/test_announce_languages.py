"""Every sentence the box says, and every exhibition panel, in Russian and French as well as
English: a whole bundled deal and a whole bank narrated in the three languages side by side."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from faro_box.cards import FULL_DECK
from faro_box.display.narrator import Narrator
from faro_box.exhibit.panels import PANELS
from faro_box.exhibit.sources import bundled_script
from faro_box.table.baccarat import scripts as bank_scripts
from faro_box.table.faro import scripts as faro_scripts
from faro_box.table.journal import Journal
from faro_box.table.table import Table

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
# Words of the English sentences that are no French word ("soda", "coup" are both) (player names are lower-case ASCII).
ENGLISH = re.compile(r"\b(the|is|of|and|with|taken|back|begins|waiting|over|holds|best|wins?|loses|turn|deal|bank takes|pays|misdeal|splits?|copper(ed)?|"
                     r"right|left|banker|push|stands?|draws?|ends?|card|cards|candidates?)\b",
                     re.IGNORECASE)
BANK = {"game": "baccarat_banque", "players": ["ann", "bob", "cid"],
        "sides": {"ann": "right", "bob": "left", "cid": "right"}, "banker": "eve", "fund": 10,
        "shoe": [str(c) for c in FULL_DECK] * 2,
        "coups": [{"bets": [{"player": "ann", "stake": 5}, {"player": "bob", "stake": 3},
                            {"player": "cid", "stake": 4}], "right_draws_on_5": True},
                  {"bets": [{"player": "cid", "stake": 2, "cheval": True}], "banker_draws": True},
                  {"bets": [{"player": "bob", "banco": True}], "banker_leaves": True}]}


def narrated(tmp_path: Path, doc: dict[str, Any], game: str) -> dict[str, list[list[str]]]:
    """{lang: [the sentences of each event]} for the script ``doc`` played into a table."""
    narrators = {lang: Narrator(lang) for lang in ("en", "ru", "fr")}
    said: dict[str, list[list[str]]] = {lang: [] for lang in narrators}
    with Journal(tmp_path / f"{game}.sqlite") as journal:
        table = Table(journal)

        def hear(event: Any, state: dict[str, Any]) -> None:
            for lang, narrator in narrators.items():
                said[lang].append(narrator.hear(event, state))

        table.subscribe(hear)
        (bank_scripts if game == "bank" else faro_scripts).replay(table, doc)
    return said


def assert_spoken_in_every_language(said: dict[str, list[list[str]]]) -> None:
    assert sum(map(len, said["en"])) > 0
    for en, ru, fr in zip(said["en"], said["ru"], said["fr"], strict=True):
        assert len(ru) == len(en) == len(fr), (en, ru, fr)
        for sentence in ru:
            assert CYRILLIC.search(sentence) and not ENGLISH.search(sentence), (sentence, en)
        for sentence in fr:
            assert not ENGLISH.search(sentence), (sentence, en)


@pytest.mark.parametrize("name", ["triple", "cat_hop", "early_split", "ruined_by_coppers"])
def test_every_sentence_of_a_bundled_deal_is_said_in_russian_and_french(tmp_path: Path, name: str) -> None:
    assert_spoken_in_every_language(narrated(tmp_path, bundled_script(name), "faro"))


def test_every_sentence_of_a_bank_is_said_in_russian_and_french(tmp_path: Path) -> None:
    assert_spoken_in_every_language(narrated(tmp_path, BANK, "bank"))


def test_every_exhibition_panel_has_every_language_with_the_same_parts() -> None:
    for panel, texts in PANELS.items():
        assert set(texts) == {"en", "ru", "fr"}, panel
        for lang in ("ru", "fr"):
            assert set(texts[lang]) == set(texts["en"]), (panel, lang)
            for part, sentence in texts[lang].items():
                assert sentence and sentence != texts["en"][part], (panel, lang, part)
                if lang == "ru":
                    assert CYRILLIC.search(sentence), (panel, part, sentence)


def test_the_sentences_no_bundled_script_reaches_are_said_in_russian_and_french() -> None:
    from faro_box.display import announce, announce_baccarat

    settlement = [{"player": "ann", "bet_id": "a1", "result": "win", "amount": 2}]
    bets = {"a1": {"id": "a1", "player": "ann", "kind": "rank", "ranks": ["9"], "stake": 2}}
    said = {lang: [[announce.announce_pending(3, ["9H", "9D"], lang), announce.announce_pending(0, [], lang),
                    announce.announce_undo("QS", lang), announce.announce_misdeal(settlement, lang, bets),
                    announce_baccarat.announce_bank_pending(["KD"], lang), announce_baccarat.announce_taken_back(lang),
                    *(announce_baccarat.announce_bank_end(why, {"ann": 3, "bob": -3}, ["ann"], lang)
                      for why in ("left", "ruined", "shoe"))]]
            for lang in ("en", "ru", "fr")}
    assert_spoken_in_every_language(said)
