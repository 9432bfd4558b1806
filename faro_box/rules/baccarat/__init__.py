"""Baccarat Banque (baccarat à deux tableaux), seed 001: a pure engine.

``settle_document(doc)`` settles a whole script (the format is in the README); ``Bank`` is the
live, card-by-card form the table drives.
"""

from faro_box.rules.baccarat.banco import BancoStanding
from faro_box.rules.baccarat.bank import STARTING_CHIPS, Bank, CoupResult, End, Session, award_bank
from faro_box.rules.baccarat.bets import Bet, Settlement
from faro_box.rules.baccarat.coup import Coup, Step
from faro_box.rules.baccarat.hands import DEAL_ORDER, Outcome, Seat, Side, is_natural, point, total
from faro_box.rules.baccarat.players import Active
from faro_box.rules.baccarat.script import GAME, settle_document
from faro_box.rules.baccarat.shoe import DECKS, MIN_CARDS_FOR_COUP, SHOE_SIZE, Shoe, parse_shoe

__all__ = [
    "DEAL_ORDER", "DECKS", "GAME", "MIN_CARDS_FOR_COUP", "SHOE_SIZE", "STARTING_CHIPS",
    "Active", "Bank", "BancoStanding", "Bet", "Coup", "CoupResult", "End", "Outcome", "Seat", "Session",
    "Settlement", "Shoe", "Side", "Step", "award_bank", "is_natural", "parse_shoe", "point",
    "settle_document", "total",
]
