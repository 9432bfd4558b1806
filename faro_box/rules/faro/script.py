"""A deal script (docs/faro.md, "Deal scripts") in, the result document out: ``settle_script(doc)``, or
``settle_script_line(doc)`` for the same document as one line of JSON text.

A bad document raises ScriptError; a bad action is listed under ``rejected`` with its index
and reason, and changes nothing. Actions run in the order of their ``at`` (the order written
among equal ``at``): ``at: t`` is between turns, before turn t, after the soda for t = 1.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from faro_box.cards import DECK_SIZE, FULL_DECK, Card, parse_deck
from faro_box.errors import CardError, FaroBoxError, ProfileError, RuleError, ScriptError
from faro_box.limits import MAX_BET_ID, MAX_PLAYERS, MAX_STAKE, check_players, check_stake, check_text
from faro_box.rules.faro.deal import BANKER, LAST_TURN, Deal
from faro_box.rules.faro.profiles import Profile, house_profile
from faro_box.rules.faro.result_line import result_line
from faro_box.rules.faro.settle import json_amount

DOC_FIELDS = ("game", "profile", "house_rules", "players", "deck", "actions")
GAMES = ("faro", "baccarat_banque")
# Each action is "at" plus exactly one verb; all but misdeal name the player.
VERBS = ("place", "withdraw", "bar", "release", "misdeal")
_VERB_SET = frozenset(VERBS)
_AFTER_MISDEAL = "the deal was called a misdeal: nothing more is played"
# Decks written as str(card) ("QH", "10H") skip the general parser; anything else takes it.
_CARD_BY_TEXT = {str(c): c for c in FULL_DECK}


class Played(NamedTuple):
    """A faro deal script played through: what both forms of the result document are made of."""

    deal: Deal
    deck: tuple[Card, ...]
    rejected: list[dict[str, Any]]  # {"action": index, "error": reason}, by index
    misdeal: dict[str, Any] | None  # {"at": turn, "settlements": [...]} when one was called


def settle_script(doc: Mapping[str, Any]) -> dict[str, Any]:
    played = play_script(doc)
    if isinstance(played, dict):
        return played
    deal, deck, rejected, misdeal = played
    result: dict[str, Any] = {
        "turns": [t.to_json() for t in deal.turns],
        "hock": str(deck[-1]) if misdeal is None else None,
        "balances": {who: json_amount(h) for who, h in deal.balance_halves.items()},
        "rejected": rejected,
    }
    if misdeal is not None:
        result["misdeal"] = misdeal
    return result


def settle_script_line(doc: Mapping[str, Any]) -> str:
    """``settle_script(doc)`` as one line of JSON text, the very text ``json.dumps`` makes of it,
    written straight from the deal: ``settle --lines`` runs a season of deals through this."""
    played = play_script(doc)
    if isinstance(played, dict):
        return json.dumps(played)
    return result_line(*played)


def play_script(doc: Mapping[str, Any]) -> Played | dict[str, Any]:
    """Play a faro script through (a Baccarat Banque script is settled whole: its result)."""
    if not isinstance(doc, Mapping):
        raise ScriptError(f"a deal script must be a JSON object, not {doc!r:.80}")
    game = doc.get("game", "faro")
    if game == "baccarat_banque":
        return _baccarat(doc)
    if game != "faro":
        raise ScriptError(f"unknown game {game!r}: the games are {', '.join(map(repr, GAMES))}")
    unknown = [k for k in doc if k not in DOC_FIELDS]
    if unknown:
        raise ScriptError(f"unknown field {unknown[0]!r} in the deal script: the fields are {', '.join(DOC_FIELDS)}")
    deal, deck, actions = _read(doc)
    return _run(deal, deck, actions)


def _baccarat(doc: Mapping[str, Any]) -> dict[str, Any]:
    # Imported here: the baccarat engine is its own package and faro scripts never need it.
    try:
        settle_document = importlib.import_module("faro_box.rules.baccarat").settle_document
    except AttributeError:
        raise ScriptError("this faro-box cannot settle 'baccarat_banque' scripts yet") from None
    result: dict[str, Any] = settle_document(doc)
    return result


def _read(doc: Mapping[str, Any]) -> tuple[Deal, tuple[Card, ...], list[Any]]:
    for required in ("profile", "players", "deck"):
        if required not in doc:
            raise ScriptError(f"the deal script has no {required!r}")
    try:
        profile: Profile = house_profile(doc["profile"], doc["house_rules"] if "house_rules" in doc else None)
    except ProfileError as exc:
        raise ScriptError(str(exc)) from None
    players = doc["players"]
    if not isinstance(players, list):
        raise ScriptError(f"players must be a list of names, not {players!r:.80}")
    # The live table's limits (faro_box.limits), in its words: what it refuses is not settled.
    players = check_players(players, MAX_PLAYERS, "a deal", fewest=1)
    try:
        deal = Deal(profile, players)
    except RuleError as exc:
        raise ScriptError(str(exc)) from None
    deck = _deck(doc["deck"])
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise ScriptError(f"actions must be a list, not {actions!r:.80}")
    return deal, deck, actions


def _deck(written: object) -> tuple[Card, ...]:
    if isinstance(written, list) and len(written) == DECK_SIZE:
        try:
            cards = tuple(map(_CARD_BY_TEXT.__getitem__, written))
        except (KeyError, TypeError):
            cards = ()
        # Distinct texts are distinct cards here (each is str(card)), and strings hash in C.
        if cards and len(set(written)) == DECK_SIZE:
            return cards
    try:
        return parse_deck(written)  # type: ignore[arg-type]
    except CardError as exc:
        raise ScriptError(f"deck: {exc}") from None


def _run(deal: Deal, deck: tuple[Card, ...], actions: list[Any]) -> Played:
    rejected: list[dict[str, Any]] = []
    # by_turn[t]: the indices of the actions played before turn t, in their order.
    by_turn: dict[int, list[int]] = {}
    for index, action in enumerate(actions):
        # The turn an action goes before; 0 for a bad one (it is rejected with its reason).
        at = action.get("at") if action.__class__ is dict or isinstance(action, Mapping) else None
        by_turn.setdefault(at if at.__class__ is int and 1 <= at <= LAST_TURN else 0, []).append(index)
    if 0 in by_turn:  # a bad "at" goes first, to be rejected with its reason
        by_turn[1] = by_turn.pop(0) + by_turn.get(1, [])
    misdeal: dict[str, Any] | None = None
    deal.play(deck[0])
    played = 0  # turns played so far
    for turn in sorted(by_turn):
        if misdeal is not None:
            rejected += ({"action": index, "error": _AFTER_MISDEAL} for index in by_turn[turn])
            continue
        if turn > played + 1:  # the turns with no action before them go in one call
            deal.play_turns(deck[2 * played + 1:2 * turn - 1])
            played = turn - 1
        for index in by_turn[turn]:
            try:
                if misdeal is not None:
                    raise RuleError(_AFTER_MISDEAL)
                if _apply(deal, actions[index]):
                    misdeal = {"at": turn, "settlements": [s.to_json() for s in deal.misdeal_settlements or ()]}
            except FaroBoxError as exc:
                rejected.append({"action": index, "error": str(exc)})
    if misdeal is None:
        deal.play_turns(deck[2 * played + 1:2 * LAST_TURN + 1])
        deal.play(deck[-1])
    rejected.sort(key=lambda r: r["action"])
    return Played(deal, deck, rejected, misdeal)


def _apply(deal: Deal, action: object) -> bool:
    """Play one action on the deal; True when it called a misdeal."""
    if action.__class__ is not dict and not isinstance(action, Mapping):
        raise RuleError(f"an action must be an object like {{\"at\": 1, \"player\": ..., \"place\": ...}}, not {action!r:.80}")
    at = action.get("at")
    if at.__class__ is not int or not 1 <= at <= LAST_TURN:
        raise RuleError(f"\"at\" must be a turn from 1 to 25 (bets go on between turns), not {at!r}")
    # Most actions place a bet: that shape is told without making a set of the keys.
    verb = "place" if len(action) == 3 and "place" in action and "player" in action else _verb(action)
    if verb == "misdeal":
        if action["misdeal"] is not True or "player" in action:
            raise RuleError(f"a misdeal is called by the dealer as {{\"at\": t, \"misdeal\": true}}, not {dict(action)!r:.80}")
        deal.misdeal()
        return True
    player = action.get("player")
    if not isinstance(player, str):
        raise RuleError(f"action {verb!r} needs a \"player\" (a name), not {player!r}")
    if player == BANKER:
        raise RuleError(f"unknown player {player!r}: the bank takes no bets")
    if verb == "place":
        spec = action["place"]
        if isinstance(spec, Mapping):
            # The live table's limits, in its words and its order (table/commands.py's PlaceBet).
            if "id" in spec:
                check_text(spec["id"], "a bet id", MAX_BET_ID, RuleError)
            check_stake(spec.get("stake"), MAX_STAKE, RuleError)
        deal.place(player, spec)
        return False
    bet_id = check_text(action[verb], "a bet id", MAX_BET_ID, RuleError)
    if verb == "withdraw":
        deal.withdraw(player, bet_id)
    elif verb == "bar":
        deal.bar(player, bet_id)
    else:
        deal.release(player, bet_id)
    return False


def _verb(action: Mapping[str, Any]) -> str:
    """The one verb of an action with "at"; RuleError naming what is wrong with its fields."""
    found = action.keys() & _VERB_SET
    if len(found) + ("player" in action) + 1 != len(action):
        unknown = [k for k in action if k not in VERBS and k not in ("at", "player")]
        raise RuleError(f"unknown action field {unknown[0]!r}: an action has \"at\", \"player\" and one of {', '.join(VERBS)}")
    if len(found) != 1:
        verbs = [k for k in action if k in VERBS]
        raise RuleError(f"an action does exactly one of {', '.join(VERBS)}, not {verbs!r}")
    (verb,) = found
    return str(verb)
