"""The faro rules engine: profiles, the layout, bets, one deal, sessions, deal scripts.

Pure: no I/O, no clock, no global random. See docs/faro.md for the rules it follows.
"""

from faro_box.rules.faro.bets import Bet, parse_bet
from faro_box.rules.faro.deal import BANKER, LAST_TURN, Deal, Exposure, Role, TurnResult
from faro_box.rules.faro.layout import GROUPS, PAIRS, SHAPES, is_layout_group
from faro_box.rules.faro.profiles import (
    PROFILES,
    BetKind,
    GroupBoth,
    HockRule,
    Profile,
    SplitShare,
    Triple,
    find_profile,
    house_profile,
)
from faro_box.rules.faro.script import settle_script
from faro_box.rules.faro.session import HOUSE, Session
from faro_box.rules.faro.settle import (
    Result,
    Settlement,
    call_fits,
    call_pays,
    settle_at_hock,
    settle_call,
    settle_on_turn,
)

__all__ = [
    "BANKER", "GROUPS", "HOUSE", "Session", "LAST_TURN", "PAIRS", "PROFILES", "SHAPES", "Bet", "BetKind", "Deal", "Exposure",
    "GroupBoth", "HockRule", "Profile", "Result", "Role", "Settlement", "SplitShare", "Triple", "TurnResult",
    "call_fits", "call_pays", "find_profile", "house_profile", "is_layout_group", "parse_bet", "settle_at_hock", "settle_call",
    "settle_on_turn", "settle_script",
]
