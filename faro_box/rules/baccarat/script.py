"""``settle_document``: a whole Baccarat Banque script in, its result document out (docs/baccarat.md).

A document that cannot be played at all (bad shape, a bad shoe, a shoe that runs out inside a
coup) raises ScriptError; a bet the rules refuse is listed under ``rejected`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from faro_box.cards import Card
from faro_box.errors import RuleError, ScriptError
from faro_box.limits import MAX_BANK_PLAYERS, MAX_BANK_STAKE, check_player, check_players, check_stake
from faro_box.rules.baccarat.bank import Bank
from faro_box.rules.baccarat.hands import Seat, Side
from faro_box.rules.baccarat.shoe import parse_shoe

GAME = "baccarat_banque"
DOCUMENT_FIELDS = ("game", "players", "sides", "banker", "fund", "shoe", "coups")
COUP_FIELDS = ("bets", "right_draws_on_5", "left_draws_on_5", "banker_draws", "banker_leaves")
BET_FIELDS = ("player", "stake", "cheval", "banco", "left_on")
_FLAG_OF = {Seat.RIGHT: "right_draws_on_5", Seat.LEFT: "left_draws_on_5", Seat.BANKER: "banker_draws"}


def settle_document(doc: Mapping[str, Any]) -> dict[str, object]:
    if not isinstance(doc, Mapping):
        raise ScriptError(f"a baccarat script must be a JSON object, not {doc!r:.80}")
    _known_fields(doc, DOCUMENT_FIELDS, "the document")
    if doc.get("game") != GAME:
        raise ScriptError(f"'game' must be {GAME!r} for a Baccarat Banque script, not {doc.get('game')!r}")
    for field in ("players", "sides", "banker", "fund", "shoe"):
        if field not in doc:
            raise ScriptError(f"the document has no {field!r}")
    players = doc["players"]
    if not isinstance(players, list):
        raise ScriptError(f"'players' must be a list of names, not {players!r:.80}")
    # The live table's limits (faro_box.limits), in its words: what it refuses is not settled.
    players = list(check_players(players, MAX_BANK_PLAYERS, "a bank"))
    check_player(doc["banker"])
    bank = _open_bank(players, doc["sides"], doc["banker"], doc["fund"])
    cards = iter(parse_shoe(doc["shoe"]))
    coups = doc.get("coups", [])
    if not isinstance(coups, list):
        raise ScriptError(f"'coups' must be a list of coups, not {coups!r:.80}")

    rejected: list[dict[str, object]] = []
    for number, coup in enumerate(coups, start=1):
        _check_coup(coup, number)
        if bank.ended is not None:
            rejected.append({"coup": number, "bet": None,
                             "error": f"the bank has ended ({bank.ended.value}): coup {number} is not played"})
            continue
        rejected.extend({"coup": number, "bet": index, "error": error}
                        for index, error in _take_bets(bank, coup.get("bets", [])))
        _play(bank, coup, cards, number)
        if coup.get("banker_leaves", False):
            bank.leave()

    return {"coups": [result.to_json() for result in bank.coups],
            "ended": None if bank.ended is None else bank.ended.value,
            "fund": bank.fund,
            "balances": bank.balances,
            "rejected": rejected}


def _open_bank(players: list[Any], sides: object, banker: object, fund: object) -> Bank:
    if not isinstance(sides, Mapping):
        raise ScriptError(f"'sides' must map each player to \"right\" or \"left\", not {sides!r:.80}")
    parsed: dict[str, Side] = {}
    for player, side in sides.items():
        try:
            parsed[player] = Side(side)
        except (ValueError, TypeError):
            raise ScriptError(f"unknown side {side!r} for {player!r}: a side is \"right\" or \"left\"") from None
    try:
        return Bank(players, parsed, banker, fund)  # type: ignore[arg-type]
    except RuleError as exc:
        raise ScriptError(str(exc)) from None


def _known_fields(obj: Mapping[str, Any], fields: tuple[str, ...], where: str) -> None:
    for key in obj:
        if key not in fields:
            raise ScriptError(f"unknown field {key!r} in {where}: the fields are {', '.join(fields)}")


def _check_coup(coup: object, number: int) -> None:
    """The shape of a coup; anything wrong here is a bad document, not a refused bet."""
    if not isinstance(coup, Mapping):
        raise ScriptError(f"coup {number} must be a JSON object, not {coup!r:.80}")
    _known_fields(coup, COUP_FIELDS, f"coup {number}")
    for flag in COUP_FIELDS[1:]:
        if not isinstance(coup.get(flag, False), bool):
            raise ScriptError(f"coup {number}: {flag!r} must be true or false, not {coup[flag]!r}")
    bets = coup.get("bets", [])
    if not isinstance(bets, list):
        raise ScriptError(f"coup {number}: 'bets' must be a list, not {bets!r:.80}")
    for index, bet in enumerate(bets):
        where = f"coup {number} bet {index}"
        if not isinstance(bet, Mapping):
            raise ScriptError(f"{where} must be a JSON object, not {bet!r:.80}")
        _known_fields(bet, BET_FIELDS, where)
        for flag in ("cheval", "banco", "left_on"):
            if not isinstance(bet.get(flag, False), bool):
                raise ScriptError(f"{where}: {flag!r} must be true or false, not {bet[flag]!r}")


def _take_bets(bank: Bank, bets: list[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """Bancos first, then ordinary bets in order of play; (index, reason) for every refusal."""
    refused: list[tuple[int, str]] = []
    claimed: dict[str, int] = {}
    for index, bet in enumerate(bets):
        if not bet.get("banco", False):
            continue
        try:
            if bet.get("cheval", False) or bet.get("left_on", False):
                raise RuleError("a banco is the whole fund on the player's own side: not à cheval "
                                "and not winnings left on")
            if "stake" in bet and bet["stake"] != bank.fund:
                raise RuleError(f"a banco stakes the whole fund of {bank.fund}, not {bet['stake']!r}")
            bank.claim_banco(bet.get("player"))  # type: ignore[arg-type]
            claimed[bet["player"]] = index
        except RuleError as exc:
            refused.append((index, str(exc)))
    refused.extend((claimed[player], reason) for player, reason in bank.banco().beaten)

    def order_of_play(item: tuple[int, Mapping[str, Any]]) -> int:
        player = item[1].get("player")
        return bank.players.index(player) if player in bank.players else len(bank.players)

    ordinary = [(i, b) for i, b in enumerate(bets) if not b.get("banco", False)]
    for index, bet in sorted(ordinary, key=order_of_play):
        player, cheval = bet.get("player"), bet.get("cheval", False)
        try:
            if player is None:
                raise RuleError("the bet names no player")
            if bet.get("left_on", False):
                if "stake" in bet:
                    raise RuleError("winnings left on are their own stake: leave out 'stake'")
                bank.leave_on(player, cheval=cheval, cut=True)
            else:
                if "stake" not in bet:
                    raise RuleError("the bet has no 'stake'")
                check_stake(bet["stake"], MAX_BANK_STAKE, RuleError)
                bank.place(player, bet["stake"], cheval=cheval, cut=True)
        except RuleError as exc:
            refused.append((index, str(exc)))
    return sorted(refused)


def _play(bank: Bank, coup: Mapping[str, Any], cards: Iterator[Card], number: int) -> None:
    step = bank.next_step
    while step is not None:
        if step.is_card:
            card = next(cards, None)
            if card is None:
                raise ScriptError(f"the shoe runs out inside coup {number}: it needs {step.describe()}")
            bank.deal(card)
        else:
            # Where no choice exists the flag is not read: forced draws and stands deal themselves.
            bank.decide(step.seat, bool(coup.get(_FLAG_OF[step.seat], False)))
        step = bank.next_step if bank.coup is not None else None

