"""What the display and the speaker say, in English, Russian and French.

Pure functions of the table's JSON (a turn, a soda, a hock, a deal's end, a misdeal, a card
waiting for the dealer), so the web page, the terminal, the LCD and speech all say the same
words, and a replayed journal says them again identically.

A turn's settlements name only bet ids; what a bet *was* (a coppered K, a group, a call) comes
from ``bets``: the bet JSON keyed by id, as the table showed it in ``open_bets`` before the turn
took it off the layout. Without it the announcement still names player, result and amount.

Russian and French avoid declining player names ("Ann: …"), and decline only the card names,
whose cases are fixed by the sentence frames used here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from faro_box.cards import FULL_DECK, Card, Rank
from faro_box.display.catalogue import LANGUAGES, text
from faro_box.errors import ScriptError
from faro_box.table.events import MisdealCalled, TableEvent
from faro_box.table.views import FaroView, View

BANKER = "banker"

# Russian rank names: nominative (subject), accusative ("ставка на …"), genitive ("на проигрыш …").
_RU = {
    Rank.ACE: ("туз", "туза", "туза"),
    Rank.TWO: ("двойка", "двойку", "двойки"),
    Rank.THREE: ("тройка", "тройку", "тройки"),
    Rank.FOUR: ("четвёрка", "четвёрку", "четвёрки"),
    Rank.FIVE: ("пятёрка", "пятёрку", "пятёрки"),
    Rank.SIX: ("шестёрка", "шестёрку", "шестёрки"),
    Rank.SEVEN: ("семёрка", "семёрку", "семёрки"),
    Rank.EIGHT: ("восьмёрка", "восьмёрку", "восьмёрки"),
    Rank.NINE: ("девятка", "девятку", "девятки"),
    Rank.TEN: ("десятка", "десятку", "десятки"),
    Rank.JACK: ("валет", "валета", "валета"),
    Rank.QUEEN: ("дама", "даму", "дамы"),
    Rank.KING: ("король", "короля", "короля"),
}
# "пятёрка пик": the suit in the genitive plural.
_RU_SUIT = {"S": "пик", "H": "червей", "D": "бубен", "C": "треф"}

_FR = {
    Rank.ACE: "as", Rank.TWO: "deux", Rank.THREE: "trois", Rank.FOUR: "quatre", Rank.FIVE: "cinq",
    Rank.SIX: "six", Rank.SEVEN: "sept", Rank.EIGHT: "huit", Rank.NINE: "neuf", Rank.TEN: "dix",
    Rank.JACK: "valet", Rank.QUEEN: "dame", Rank.KING: "roi",
}
_FR_SUIT = {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"}
_FR_FEMININE = {Rank.QUEEN}
# French typography: a no-break space before ":" and ";".
_NB = "\u00a0"

_EN_SUIT_GLYPH = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ScriptError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return lang


def _rank_of(text: object) -> Rank:
    """A rank from a card ("KD") or a rank ("K", "10")."""
    if isinstance(text, str) and len(text.strip()) >= 2 and text.strip()[-1].upper() in "SHDC♠♥♦♣":
        try:
            return Card.parse(text).rank
        except Exception:  # noqa: BLE001 - "10" also ends in a digit; fall through to a rank
            pass
    return Rank.parse(text)  # type: ignore[arg-type]


def _fr_article(rank: Rank) -> str:
    if rank is Rank.ACE:  # "huit" has an aspirated h: "le huit"
        return "l'"
    return "la " if rank in _FR_FEMININE else "le "


def rank_name(rank: Rank | str, lang: str, case: str = "nom") -> str:
    """A rank as the announcer says it: "K" (en), "король"/"короля" (ru), "le roi" (fr)."""
    rank = _rank_of(rank)
    if lang == "ru":
        return _RU[rank][("nom", "acc", "gen").index(case)]
    if lang == "fr":
        return _fr_article(rank) + _FR[rank]
    return rank.symbol


def card_name(card: Card | str, lang: str) -> str:
    """A whole card: "5♠", "пятёрка пик", "le cinq de pique"."""
    parsed = card if isinstance(card, Card) else Card.parse(card)
    suit = parsed.suit.value
    if lang == "ru":
        return f"{_RU[parsed.rank][0]} {_RU_SUIT[suit]}"
    if lang == "fr":
        return f"{rank_name(parsed.rank, 'fr')} de {_FR_SUIT[suit]}"
    return f"{parsed.rank.symbol}{_EN_SUIT_GLYPH[suit]}"


def player_name(name: str) -> str:
    """Players are keyed in lower case ("ann"); the room hears "Ann"."""
    return name[:1].upper() + name[1:] if name == name.lower() else name


def format_amount(value: object, lang: str) -> str:
    """2 -> "2"; 1.5 -> "1½" (en) or "1,5" (ru, fr). Sign is the caller's business."""
    amount = abs(Fraction(str(value)))
    if amount.denominator == 1:
        return str(amount.numerator)
    whole, part = divmod(amount, 1)
    if lang == "en" and part == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    text = f"{float(amount):.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if lang != "en" else text


def signed_amount(value: object, lang: str) -> str:
    """+2, −1½ (a true minus sign), 0."""
    amount = Fraction(str(value))
    sign = "+" if amount > 0 else ("−" if amount < 0 else "")
    return sign + format_amount(amount, lang)


def party_name(who: str, lang: str) -> str:
    """A player as the room hears them, and the banker as "Bank" in ``lang``."""
    return text("common", "bank", lang) if who == BANKER else player_name(who)


def balance_text(who: str, value: object, lang: str) -> str:
    """The one way a balance is written, everywhere: "Ann +2", "Bank −5"."""
    return f"{party_name(who, lang)} {signed_amount(value, lang)}"


def balances_text(balances: Mapping[str, object], lang: str) -> str:
    """Every balance, the players first and the bank last: "Ann +2, Bob −1, Bank −1"."""
    order = [p for p in balances if p != BANKER] + ([BANKER] if BANKER in balances else [])
    return ", ".join(balance_text(p, balances[p], lang) for p in order)


def _ranks_text(ranks: Sequence[object]) -> str:
    return "-".join(_rank_of(r).symbol for r in ranks)


def _order_text(order: Sequence[object], lang: str) -> str:
    colours = {"red": {"en": "red", "ru": "красная", "fr": "rouge"},
               "black": {"en": "black", "ru": "чёрная", "fr": "noire"}}
    words = []
    for item in order:
        key = str(item).lower()
        words.append(colours[key][lang] if key in colours else _rank_of(item).symbol)
    return "-".join(words)


def describe_bet(bet: Mapping[str, Any] | None, lang: str) -> str:
    """What a bet is, as the announcer names it after the player ("coppered K", "call 7-J-3")."""
    if not bet:
        return {"en": "bet", "ru": "ставка", "fr": "mise"}[lang]
    kind = bet.get("kind", "rank")
    copper = bool(bet.get("copper"))
    ranks = list(bet.get("ranks") or [])
    order = list(bet.get("order") or [])
    if lang == "en":
        pre = "coppered " if copper else ""
        if kind == "rank" and ranks:
            return pre + rank_name(ranks[0], "en")
        if kind == "group":
            return pre + _ranks_text(ranks)
        if kind == "win_lose" and len(ranks) == 2:
            return f"{_rank_of(ranks[0]).symbol}-to-lose-{_rank_of(ranks[1]).symbol}-to-win"
        if kind == "high":
            return pre + "high card"
        if kind in ("odd", "even"):
            return kind
        if kind == "call":
            return "call " + _order_text(order, "en")
        return "bet"
    if lang == "ru":
        if kind == "rank" and ranks:
            if copper:
                return f"ставка с медяком на проигрыш {rank_name(ranks[0], 'ru', 'gen')}"
            return f"ставка на {rank_name(ranks[0], 'ru', 'acc')}"
        if kind == "group":
            return ("ставка с медяком на группу " if copper else "ставка на группу ") + _ranks_text(ranks)
        if kind == "win_lose" and len(ranks) == 2:
            return (f"ставка на проигрыш {rank_name(ranks[0], 'ru', 'gen')} "
                    f"и выигрыш {rank_name(ranks[1], 'ru', 'gen')}")
        if kind == "high":
            return "ставка с медяком на старшую карту" if copper else "ставка на старшую карту"
        if kind == "odd":
            return "ставка на нечет"
        if kind == "even":
            return "ставка на чёт"
        if kind == "call":
            return "заказ " + _order_text(order, "ru")
        return "ставка"
    # French: "mise (cuivrée) sur le roi"; "encuivrage" is the seed's word for coppering.
    cuivre = " cuivrée" if copper else ""
    if kind == "rank" and ranks:
        return f"mise{cuivre} sur {rank_name(ranks[0], 'fr')}"
    if kind == "group":
        return f"mise{cuivre} sur le groupe {_ranks_text(ranks)}"
    if kind == "win_lose" and len(ranks) == 2:
        return (f"mise {_fr_de(rank_name(ranks[0], 'fr'))} perdant et "
                f"{_fr_de(rank_name(ranks[1], 'fr'))} gagnant")
    if kind == "high":
        return f"mise{cuivre} sur la carte haute"
    if kind == "odd":
        return "mise sur l'impair"
    if kind == "even":
        return "mise sur le pair"
    if kind == "call":
        return "annonce du tour " + _order_text(order, "fr")
    return "mise"


def _fr_de(noun_phrase: str) -> str:
    """"de" + article: "le roi" -> "du roi", "l'as" -> "de l'as", "la dame" -> "de la dame"."""
    if noun_phrase.startswith("le "):
        return "du " + noun_phrase[3:]
    return "de " + noun_phrase


def _result_text(result: str, amount: object, lang: str) -> str:
    value = format_amount(amount, lang)
    texts = {
        "en": {"win": f"wins {value}", "lose": f"loses {value}", "split": f"loses {value} in the split",
               "push": "is returned", "void": "is void"},
        "ru": {"win": f"выигрывает {value}", "lose": f"проигрывает {value}",
               "split": f"проигрывает {value} (сплит)", "push": "возвращается", "void": "снимается"},
        "fr": {"win": f"gagne {value}", "lose": f"perd {value}", "split": f"perd {value} (doublet)",
               "push": "est rendue", "void": "est annulée"},
    }[lang]
    if result not in texts:
        raise ScriptError(f"unknown settlement result {result!r}: use win, lose, split, push, void")
    return texts[result]


def _settlement_text(settlement: Mapping[str, Any], bets: Mapping[str, Mapping[str, Any]], lang: str) -> str:
    bet = bets.get(str(settlement.get("bet"))) or _bet_fields(settlement)
    who = player_name(str(settlement.get("player", "?")))
    what = describe_bet(bet, lang)
    result = _result_text(str(settlement.get("result")), settlement.get("amount", 0), lang)
    if lang == "en":
        return f"{who}'s {what} {result}"
    if lang == "fr":
        return f"{who}{_NB}: {what}, {result}"
    return f"{who}: {what} {result}"


def _bet_fields(settlement: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """A settlement that already carries the bet's kind/ranks/copper describes itself."""
    return settlement if "kind" in settlement else None


def _bank_text(settlements: Iterable[Mapping[str, Any]], lang: str) -> str:
    players = sum((Fraction(str(s.get("amount", 0))) for s in settlements), Fraction(0))
    value = format_amount(players, lang)
    if players > 0:
        return {"en": f"the bank pays {value}", "ru": f"банк платит {value}",
                "fr": f"la banque paie {value}"}[lang]
    if players < 0:
        return {"en": f"the bank takes {value}", "ru": f"банк забирает {value}",
                "fr": f"la banque encaisse {value}"}[lang]
    return {"en": "the bank breaks even", "ru": "банк при своих", "fr": "la banque ne gagne ni ne perd"}[lang]


def _settlements_sentence(settlements: Sequence[Mapping[str, Any]],
                          bets: Mapping[str, Mapping[str, Any]], lang: str) -> str:
    if not settlements:
        return {"en": "No bets settle.", "ru": "Ставок к расчёту нет.", "fr": "Aucune mise à régler."}[lang]
    sep = f"{_NB}; " if lang == "fr" else "; "
    parts = [_settlement_text(s, bets, lang) for s in settlements]
    parts.append(_bank_text(settlements, lang))
    sentence = sep.join(parts)
    return sentence[:1].upper() + sentence[1:] + "."


def announce_turn(turn_json: Mapping[str, Any], lang: str = "en",
                  bets: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """"Turn 7: K loses, 9 wins. Ann's 9 wins 2; Bob's coppered K wins 2; the bank pays 4."

    ``turn_json`` is a TurnResult's JSON ({"turn", "loser", "winner", "settlements"}); a "hock"
    key (the last turn) adds the hock to the sentence.
    """
    check_lang(lang)
    try:
        number = int(turn_json["turn"])
        loser, winner = _rank_of(turn_json["loser"]), _rank_of(turn_json["winner"])
        settlements = list(turn_json.get("settlements") or [])
    except (KeyError, TypeError, ValueError) as exc:
        raise ScriptError(f"a turn needs turn, loser and winner cards, not {dict(turn_json)!r}") from exc
    split = loser == winner
    if lang == "en":
        head = f"Turn {number}: {loser.symbol} loses, {winner.symbol} wins"
        head += ", a split." if split else "."
    elif lang == "ru":
        head = (f"Ход {number}: проигрывает {rank_name(loser, 'ru')}, "
                f"выигрывает {rank_name(winner, 'ru')}")
        head += " — сплит." if split else "."
    else:
        head = f"Coup {number}{_NB}: {rank_name(loser, 'fr')} perd, {rank_name(winner, 'fr')} gagne"
        head += " — doublet." if split else "."
    text = f"{head} {_settlements_sentence(settlements, bets or {}, lang)}"
    if turn_json.get("hock"):
        text += " " + announce_hock(str(turn_json["hock"]), lang)
    return text


def announce_soda(card: Card | str, lang: str = "en") -> str:
    """The first card: it neither wins nor loses."""
    check_lang(lang)
    return {"en": f"Soda: {card_name(card, 'en')}.", "ru": f"Сода: {card_name(card, 'ru')}.",
            "fr": f"Soda{_NB}: {card_name(card, 'fr')}."}[lang]


def announce_hock(card: Card | str, lang: str = "en") -> str:
    """The last card in the box: it decides nothing."""
    check_lang(lang)
    return {"en": f"The hock: {card_name(card, 'en')}.", "ru": f"Хок, последняя карта: {card_name(card, 'ru')}.",
            "fr": f"Hock, la dernière carte{_NB}: {card_name(card, 'fr')}."}[lang]


def announce_undo(card: Card | str, lang: str = "en") -> str:
    """The dealer took back the last card: everything it settled is reverted."""
    check_lang(lang)
    return {"en": f"Taken back: {card_name(card, 'en')}.", "ru": f"Карта возвращена: {card_name(card, 'ru')}.",
            "fr": f"Carte reprise{_NB}: {card_name(card, 'fr')}."}[lang]


def announce_deal_start(deal: object, players: Sequence[str], lang: str = "en") -> str:
    check_lang(lang)
    names = ", ".join(player_name(p) for p in players)
    return {"en": f"Deal {deal} begins: {names}.", "ru": f"Талия {deal} начинается: {names}.",
            "fr": f"La taille {deal} commence{_NB}: {names}."}[lang]


def announce_deal_end(deal: object, balances: Mapping[str, object], lang: str = "en") -> str:
    """"Deal 3 is over. Ann +6, Bob −2, Bank −4." (the deal's balances)."""
    check_lang(lang)
    head = {"en": f"Deal {deal} is over.", "ru": f"Талия {deal} окончена.",
            "fr": f"La taille {deal} est terminée."}[lang]
    return f"{head} {balances_text(balances, lang)}." if balances else head


def announce_misdeal(settlements: Sequence[Mapping[str, Any]], lang: str = "en",
                     bets: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """Old Hoyle: on a misdeal the bank pays every bet standing."""
    check_lang(lang)
    head = {"en": "Misdeal: the bank pays every bet standing.",
            "ru": "Неправильная сдача: банк платит по всем ставкам на столе.",
            "fr": f"Maldonne{_NB}: la banque paie toutes les mises en jeu."}[lang]
    if not settlements:
        return head
    return f"{head} {_settlements_sentence(settlements, bets or {}, lang)}"


def announce_pending(index: int, candidates: Sequence[str], lang: str = "en") -> str:
    """A card the reader could not be sure of waits for the dealer (index 0 = the soda)."""
    check_lang(lang)
    number = int(index) + 1
    names = [card_name(c, lang) for c in candidates]
    joiner = {"en": " or ", "ru": " или ", "fr": " ou "}[lang]
    guess = joiner.join(names)
    if lang == "en":
        text = f"Card {number}: waiting for the dealer to confirm"
        return text + (f" ({guess}?)." if guess else ".")
    if lang == "ru":
        text = f"Карта {number} ждёт подтверждения банкомёта"
        return text + (f" ({guess}?)." if guess else ".")
    text = f"Carte {number}{_NB}: en attente de la confirmation du banquier"
    return text + (f" ({guess}{_NB}?)." if guess else ".")


def announce_event(event: Mapping[str, Any], lang: str = "en",
                   bets: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """Everything one table event says, in order (often nothing: a bet placed is shown, not said)."""
    check_lang(lang)
    kind = event.get("type")
    said: list[str] = []
    if kind in ("card", "confirm"):
        if event.get("role") == "soda" and event.get("card"):
            said.append(announce_soda(str(event["card"]), lang))
        turn = event.get("turn_result") or event.get("turn")
        if isinstance(turn, Mapping):
            said.append(announce_turn(turn, lang, bets))
        if event.get("role") == "hock" and event.get("card") and not (
                isinstance(turn, Mapping) and turn.get("hock")):
            said.append(announce_hock(str(event["card"]), lang))
    elif kind == "turn" and isinstance(event.get("turn"), Mapping):
        said.append(announce_turn(event["turn"], lang, bets))
    elif kind == "pending" and event.get("pending"):
        pending = event["pending"]
        said.append(announce_pending(pending.get("index", 0), pending.get("candidates") or [], lang))
    elif kind == "start_deal":
        said.append(announce_deal_start(event.get("deal", "?"), event.get("players") or [], lang))
    elif kind == "end_deal":
        said.append(announce_deal_end(event.get("deal", "?"), event.get("balances") or {}, lang))
    elif kind == "misdeal":
        said.append(announce_misdeal(event.get("settlements") or [], lang, bets))
    return said


def narrate(event: TableEvent, prev: View | None, state: FaroView, lang: str = "en",
            bets: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """The announcements of one change of a faro deal's state (``prev``: the state before, of
    either game); ``bets`` are the bets as they stood on the layout (a turn's settlements name
    only bet ids)."""
    bets = bets or {}
    before = prev if isinstance(prev, FaroView) else None
    said: list[str] = []
    if isinstance(event, MisdealCalled):
        said.append(announce_misdeal(list(event.settlements), lang, bets))
    history, prev_history = list(state.history), list(prev.history or []) if prev is not None else []
    if len(history) > len(prev_history):
        past = history[-1]
        said.append(announce_deal_end(past.get("number", past.get("deal", "?")),
                                      past.get("balances") or {}, lang))
    prev_deal = prev.deal if prev is not None else None
    if state.deal is not None and state.deal != prev_deal and not state.finished:
        said.append(announce_deal_start(state.deal, state.players, lang))
    exposed = list(state.exposed)
    prev_exposed = list(before.exposed or []) if before is not None else []
    same_deal = state.deal == prev_deal
    if not same_deal:
        prev_exposed = []
    if len(exposed) < len(prev_exposed):
        said.append(announce_undo(prev_exposed[-1], lang))
    elif exposed and len(prev_exposed) == 0:
        said.append(announce_soda(exposed[0], lang))
    turns = list(state.turns)
    prev_turns = list(before.turns or []) if same_deal and before is not None else []
    for turn in turns[len(prev_turns):] if len(turns) > len(prev_turns) else ():
        said.append(announce_turn(_with_hock(turn, exposed), lang, bets))
    pending, prev_pending = state.pending, prev.pending if prev is not None else None
    if pending and (not prev_pending or prev_pending.get("index") != pending.get("index")):
        said.append(announce_pending(pending.get("index", 0), pending.get("candidates") or [], lang))
    return said


def _with_hock(turn: Mapping[str, Any], exposed: Sequence[Card]) -> Mapping[str, Any]:
    """The last turn names the hock: the one card of the deck not yet exposed."""
    if turn.get("turn") != 25 or turn.get("hock"):
        return turn
    shown = set(exposed)
    left = [str(card) for card in FULL_DECK if card not in shown]
    if len(exposed) == 52:
        return {**turn, "hock": str(exposed[-1])}
    return {**turn, "hock": left[0]} if len(left) == 1 else turn

