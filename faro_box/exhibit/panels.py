"""The explanation panels, in English, Russian and French, and when the deal calls for each.

``cues(event, state, shown)`` is a pure function of one table event: it names the panels that
event makes timely (the split panel on a split, the call panel before the last turn, the
case-keeper panel when a rank is finished...). ``shown`` holds the panels already shown in this
deal: a lesson that has been given waits for the next deal, except the split, shown on every
split (each one costs the players).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from faro_box.rules.faro import LAST_TURN, Role
from faro_box.table.events import BetPlaced, CardTaken, TableEvent, TurnSettled
from faro_box.table.views import FaroView, View

PANELS: dict[str, dict[str, dict[str, str]]] = {
    "soda_hock": {
        "en": {"title": "Soda and hock",
               "body": "The first card face up in the box is the soda: it decides nothing. "
                       "Then come 25 turns of two cards: the first loses, the second wins. "
                       "The last card, the hock, is not played either."},
        "ru": {"title": "Сода и хок",
               "body": "Первая открытая карта в коробке — сода: она ничего не решает. "
                       "Затем 25 ходов по две карты: первая проигрывает, вторая выигрывает. "
                       "Последняя карта, хок, тоже не играет."},
        "fr": {"title": "Soda et hock",
               "body": "La première carte visible dans la boîte est la soda : elle ne décide rien. "
                       "Puis viennent 25 coups de deux cartes : la première perd, la seconde gagne. "
                       "La dernière carte, le hock, ne joue pas non plus."},
    },
    "layout": {
        "en": {"title": "The layout and its groups",
               "body": "Thirteen spades are painted on the cloth: K to 8 on top, A to 6 below, the 7 at "
                       "the side. A stake on a card backs that rank; a stake between cards backs the "
                       "group and plays on the first of its ranks to show."},
        "ru": {"title": "Раскладка и её группы",
               "body": "На сукне нарисованы тринадцать пик: от короля до восьмёрки сверху, от туза до "
                       "шестёрки снизу, семёрка сбоку. Ставка на карту — на это достоинство; ставка "
                       "между картами — на группу: играет первая вышедшая из них."},
        "fr": {"title": "Le tableau et ses groupes",
               "body": "Treize piques sont peints sur le tapis : du roi au 8 en haut, de l'as au 6 en "
                       "bas, le 7 sur le côté. Une mise sur une carte joue ce rang ; une mise entre les "
                       "cartes joue le groupe, sur le premier de ses rangs qui sort."},
    },
    "coppering": {
        "en": {"title": "Coppering a bet",
               "body": "A copper token on top of a stake turns the bet around: it now wins when the "
                       "rank loses, and loses when the rank wins. That is how a player bets against a card."},
        "ru": {"title": "Ставка с «медяком»",
               "body": "Медный жетон поверх ставки переворачивает её: теперь она выигрывает, когда "
                       "карта проигрывает, и проигрывает, когда карта выигрывает. Так ставят против карты."},
        "fr": {"title": "Le « copper »",
               "body": "Un jeton de cuivre posé sur la mise la retourne : elle gagne quand le rang perd, "
                       "et perd quand le rang gagne. C'est ainsi qu'on joue contre une carte."},
    },
    "split": {
        "en": {"title": "The split: where the bank earns",
               "body": "Both cards of the turn are of one rank: a split. The bank takes half of every "
                       "stake on that rank. Otherwise faro is an even game: a rank bet made before the "
                       "soda splits 33 times in 833, an edge of about 2 % for the bank."},
        "ru": {"title": "Сплит: здесь банк зарабатывает",
               "body": "Обе карты хода одного достоинства — это сплит. Банк забирает половину каждой "
                       "ставки на это достоинство. В остальном игра равная: ставка, сделанная до соды, "
                       "попадает на сплит 33 раза из 833 — преимущество банка около 2 %."},
        "fr": {"title": "Le doublet : là où gagne la banque",
               "body": "Les deux cartes du coup sont de même rang : un doublet. La banque prend la moitié "
                       "de chaque mise sur ce rang. Sinon, le jeu est égal : une mise faite avant la soda "
                       "tombe sur un doublet 33 fois sur 833, soit environ 2 % pour la banque."},
    },
    "stuss": {
        "en": {"title": "Stuss and its harsher split",
               "body": "Stuss, a faro of the early 1900s, was dealt by hand without a box. On a split "
                       "the bank took the whole stake, not half: the bank's edge on a rank bet doubles, "
                       "to about 4 %."},
        "ru": {"title": "Стусс и его жёсткий сплит",
               "body": "В «стуссе», фараоне начала XX века, сдавали из рук, без коробки. При сплите банк "
                       "забирал всю ставку, а не половину: его преимущество на ставку удваивается — "
                       "около 4 %."},
        "fr": {"title": "Le stuss et son doublet plus dur",
               "body": "Le stuss, pharaon du début du XXᵉ siècle, se donnait à la main, sans boîte. Sur "
                       "un doublet la banque prenait toute la mise, pas la moitié : son avantage double, "
                       "environ 4 %."},
    },
    "case_keeper": {
        "en": {"title": "The case-keeper",
               "body": "Beside the dealer, the case-keeper: one rod per rank, four beads each. Every card "
                       "out moves a bead, so all can see what is left. With the fourth card a rank is "
                       "dead; its last card is the case card."},
        "ru": {"title": "Счёты",
               "body": "Рядом с банкомётом — счёты: по стержню на достоинство, по четыре косточки. "
                       "Каждая вышедшая карта сдвигает косточку, и все видят, что осталось. После "
                       "четвёртой карты достоинство мертво."},
        "fr": {"title": "Le tableau des cartes",
               "body": "À côté du banquier, le boulier : une tringle par rang, quatre boules chacune. "
                       "Chaque carte sortie pousse une boule : chacun voit ce qui reste. À la quatrième "
                       "carte, le rang est mort."},
    },
    "call": {
        "en": {"title": "Calling the turn",
               "body": "Three cards are left, and the case-keeper shows which. A player may call the "
                       "turn: name the order of loser, winner and hock. Six orders are possible; the "
                       "bank pays 4 to 1 against true odds of 5 to 1.",
               "cat_hop": "Two of these three share a rank, a cat-hop: only three orders, paid 2 to 1.",
               "triple": "All three share a rank: the players call the order of the colours, paid 2 to 1."},
        "ru": {"title": "Заказ последнего хода",
               "body": "Осталось три карты, и счёты показывают какие. Игрок может заказать ход: назвать "
                       "порядок — проигрышная, выигрышная, хок. Порядков шесть; банк платит 4 к 1 "
                       "при истинных шансах 5 к 1.",
               "cat_hop": "Две из трёх одного достоинства («кошачий прыжок»): порядков три, выплата 2 к 1.",
               "triple": "Все три одного достоинства: заказывают порядок цветов, выплата 2 к 1."},
        "fr": {"title": "Annoncer le dernier coup",
               "body": "Il reste trois cartes, et le boulier montre lesquelles. Un joueur peut annoncer "
                       "le coup : l'ordre du perdant, du gagnant et du hock. Six ordres possibles ; la "
                       "banque paie 4 contre 1 pour une chance de 1 sur 6.",
               "cat_hop": "Deux des trois sont de même rang, un « cat-hop » : trois ordres, payé 2 contre 1.",
               "triple": "Les trois sont de même rang : on annonce l'ordre des couleurs, payé 2 contre 1."},
    },
    "history": {
        "en": {"title": "Faro, 1700–1900",
               "body": "Faro came from France, where it was called pharaon, and crossed to America. In "
                       "the 19th century it was the banking game of every saloon of the West, with its "
                       "dealing box, its case-keeper and its layout of spades."},
        "ru": {"title": "Фараон, 1700–1900",
               "body": "Фараон пришёл из Франции. В России в него играли в XVIII–XIX веках — это игра "
                       "Германна в «Пиковой даме» Пушкина. В Америке XIX века он был главной игрой "
                       "салунов Запада."},
        "fr": {"title": "Le pharaon, 1700–1900",
               "body": "Le pharaon, joué à la cour de Louis XIV, passa en Amérique sous le nom de faro. "
                       "Au XIXᵉ siècle il régnait dans les saloons de l'Ouest, avec sa boîte, son "
                       "boulier et son tableau de piques."},
    },
}
ORDER = ("history", "soda_hock", "layout", "coppering", "case_keeper", "split", "stuss", "call")
# Shown on every occurrence; the others once a deal.
REPEATED = frozenset({"split"})


@dataclass(frozen=True)
class Cue:
    panel: str
    variant: str | None = None   # "cat_hop" / "triple" for the call panel


def panel_json(panel: str, variant: str | None = None) -> dict[str, Any]:
    """The panel's texts in every language: {"id", "variant", "texts": {lang: {title, body}}}."""
    texts = {}
    for lang, text in PANELS[panel].items():
        body = text["body"] + (" " + text[variant] if variant and variant in text else "")
        texts[lang] = {"title": text["title"], "body": body}
    return {"id": panel, "variant": variant, "texts": texts}


def _last_three_kind(case: Mapping[str, int]) -> str | None:
    counts = sorted((n for n in case.values() if n), reverse=True)
    if sum(counts) != 3:
        return None
    return {3: "triple", 2: "cat_hop"}.get(counts[0])


def cues(event: TableEvent, state: View, shown: frozenset[str]) -> tuple[Cue, ...]:
    """The panels one table event makes timely (pure)."""
    found: list[Cue] = []
    case = state.case if isinstance(state, FaroView) else {}
    if isinstance(event, CardTaken) and event.role is Role.SODA:
        found.append(Cue("soda_hock"))
    elif isinstance(event, BetPlaced):
        found.append(Cue("layout"))
        if event.bet.get("copper"):
            found.append(Cue("coppering"))
    elif isinstance(event, TurnSettled):
        if event.loser.rank == event.winner.rank:
            found.append(Cue("split"))
        elif "split" in shown:
            found.append(Cue("stuss"))
        if event.turn == LAST_TURN - 1:
            found.append(Cue("call", _last_three_kind(case)))
    if isinstance(event, CardTaken) and event.role in (Role.LOSER, Role.WINNER):
        if case.get(event.card.rank.symbol) == 0:
            found.append(Cue("case_keeper"))
    return tuple(c for c in found if c.panel in REPEATED or c.panel not in shown)
