"""What the display and the speaker say at a Baccarat Banque bank, in English, Russian and French.

Pure functions of the table's view (table/views.py): each coup's result side by side ("Right 7
against the bank's 5: right wins. Ann wins 5."), a bank opening and ending, a card taken back,
a card waiting for the dealer. ``narrate(prev, state, lang)`` reads them off the change of state,
as the faro narrator does, so a restart says nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from faro_box.display.announce import balances_text, card_name, check_lang, player_name
from faro_box.table.views import BankView, View

_NB = "\u00a0"
_SIDE = {"en": {"right": "Right", "left": "Left"}, "ru": {"right": "Правая", "left": "Левая"},
         "fr": {"right": "La droite", "left": "La gauche"}}
_RESULT = {
    "en": {"win": "{side} {total} against the bank's {bank}: {lower} wins.",
           "lose": "{side} {total} against the bank's {bank}: the bank wins.",
           "push": "{side} {total} against the bank's {bank}: a tie, stakes back."},
    "ru": {"win": "{side} сторона {total} против {bank} у банка: выигрывает {lower}.",
           "lose": "{side} сторона {total} против {bank} у банка: выигрывает банк.",
           "push": "{side} сторона {total} против {bank} у банка: ничья, ставки возвращаются."},
    "fr": {"win": "{side} {total} contre {bank} pour la banque{nb}: {lower} gagne.",
           "lose": "{side} {total} contre {bank} pour la banque{nb}: la banque gagne.",
           "push": "{side} {total} contre {bank} pour la banque{nb}: égalité, mises rendues."},
}
_LOWER = {"en": {"right": "right", "left": "left"}, "ru": {"right": "правая", "left": "левая"},
          "fr": {"right": "la droite", "left": "la gauche"}}


def _colon(lang: str) -> str:
    return f"{_NB}:" if lang == "fr" else ":"


def announce_side(side: str, coup: Mapping[str, Any], lang: str = "en") -> str:
    """One side's result against the bank, and what each stake on it did."""
    check_lang(lang)
    totals, results = coup.get("totals") or {}, coup.get("results") or {}
    result = str(results.get(side, "push"))
    text = _RESULT[lang][result].format(side=_SIDE[lang][side], lower=_LOWER[lang][side], nb=_NB,
                                        total=totals.get(side, "?"), bank=totals.get("banker", "?"))
    stakes = [s for s in coup.get("settlements") or () if s.get("side") == side]
    parts = [_stake_text(s, lang) for s in stakes]
    return text + (" " + " ".join(parts) if parts else "")


def _stake_text(settlement: Mapping[str, Any], lang: str) -> str:
    who, stake, amount = player_name(str(settlement.get("player"))), settlement.get("stake"), settlement.get("amount")
    result = settlement.get("result")
    if lang == "ru":
        return {"win": f"{who} выигрывает {amount}.", "lose": f"{who} проигрывает {stake}.",
                "push": f"{who}{_colon(lang)} ставка {stake} возвращается."}[str(result)]
    if lang == "fr":
        return {"win": f"{who} gagne {amount}.", "lose": f"{who} perd {stake}.",
                "push": f"{who} reprend sa mise de {stake}."}[str(result)]
    return {"win": f"{who} wins {amount}.", "lose": f"{who} loses {stake}.",
            "push": f"{who} takes back {stake}."}[str(result)]


def announce_coup(coup: Mapping[str, Any], lang: str = "en") -> list[str]:
    """A finished coup: the head (a natural named as such), each side, then the fund."""
    check_lang(lang)
    number, fund = coup.get("coup", "?"), coup.get("fund", "?")
    natural = bool(coup.get("natural"))
    head = {"en": f"Coup {number}" + (": a natural." if natural else "."),
            "ru": f"Кон {number}" + (": натуральная." if natural else "."),
            "fr": f"Coup {number}" + (f"{_NB}: une naturelle." if natural else ".")}[lang]
    tail = {"en": f"The bank's fund: {fund}.", "ru": f"Фонд банка: {fund}.",
            "fr": f"Fonds de la banque{_NB}: {fund}."}[lang]
    return [head, announce_side("right", coup, lang), announce_side("left", coup, lang), tail]


def announce_bank_start(bank: object, banker: str, fund: object, lang: str = "en") -> str:
    check_lang(lang)
    who = player_name(banker)
    return {"en": f"Bank {bank}: {who} holds the bank with a fund of {fund}.",
            "ru": f"Банк {bank}: банкир {who}, фонд {fund}.",
            "fr": f"Banque {bank}{_NB}: {who} tient la banque avec un fonds de {fund}."}[lang]


_ENDED = {
    "left": {"en": "the banker leaves", "ru": "банкир уходит", "fr": "le banquier se retire"},
    "ruined": {"en": "the fund is exhausted", "ru": "фонд исчерпан", "fr": "le fonds est épuisé"},
    "shoe": {"en": "fewer than 9 cards are left in the shoe", "ru": "в башмаке меньше 9 карт",
             "fr": "il reste moins de 9 cartes dans le sabot"},
}


def announce_bank_end(ended: str, net: Mapping[str, object], winners: Sequence[str], lang: str = "en") -> str:
    """The bank is over: why, and everyone's result against the 100 chips each started with."""
    check_lang(lang)
    why = _ENDED.get(ended, {"en": ended, "ru": ended, "fr": ended})[lang]
    results = balances_text(net, lang)
    best = ", ".join(player_name(w) for w in winners)
    return {"en": f"The bank is over: {why}. {results}. Best: {best}.",
            "ru": f"Банк окончен: {why}. {results}. Лучший результат: {best}.",
            "fr": f"La banque est terminée{_NB}: {why}. {results}. Meilleur{_NB}: {best}."}[lang]


def announce_taken_back(lang: str = "en") -> str:
    check_lang(lang)
    return {"en": "The last card is taken back.", "ru": "Последняя карта возвращена.",
            "fr": "La dernière carte est reprise."}[lang]


def announce_bank_pending(candidates: Sequence[str], lang: str = "en") -> str:
    check_lang(lang)
    guess = {"en": " or ", "ru": " или ", "fr": " ou "}[lang].join(card_name(c, lang) for c in candidates)
    text = {"en": "A card waits for the dealer's confirmation", "ru": "Карта ждёт подтверждения банкомёта",
            "fr": "Une carte attend la confirmation du croupier"}[lang]
    return text + (f" ({guess}?)." if guess else ".")


def narrate(prev: View | None, state: BankView, lang: str = "en") -> list[str]:
    """The announcements of one change of a bank's state (``prev``: the state before, of either game)."""
    said: list[str] = []
    before_bank = prev if isinstance(prev, BankView) else None
    same_bank = before_bank is not None and before_bank.bank == state.bank
    if not same_bank and state.bank is not None and state.banker:
        said.append(announce_bank_start(state.bank, str(state.banker), state.fund, lang))
    results = list(state.results)
    before = list(before_bank.results or []) if same_bank and before_bank is not None else []
    shoe = state.shoe or {}
    prev_shoe = (before_bank.shoe or {}) if same_bank and before_bank is not None else {}
    if same_bank and (len(results) < len(before) or (shoe.get("remaining") or 0) > (prev_shoe.get("remaining") or 0)):
        said.append(announce_taken_back(lang))
    for coup in results[len(before):]:
        said.extend(announce_coup(coup, lang))
    pending = state.pending
    prev_pending = before_bank.pending if same_bank and before_bank is not None else None
    if pending and not prev_pending:
        said.append(announce_bank_pending(pending.get("candidates") or [], lang))
    ended_before = same_bank and before_bank is not None and before_bank.ended
    if state.ended and not ended_before and state.session:
        session = state.session
        said.append(announce_bank_end(str(state.ended), session.get("net") or {}, session.get("winners") or [],
                                      lang))
    return said
