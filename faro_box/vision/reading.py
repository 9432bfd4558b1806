"""What a reader makes of one card: the card it names, or why it names none."""

from __future__ import annotations

from dataclasses import dataclass

from faro_box.cards import Card, Rank, Suit


@dataclass(frozen=True, slots=True)
class Reading:
    card: Card | None  # None: no card, or not sure enough to name one
    confidence: float  # 0..1: how sure the reader is of ``card`` (of the best candidate if it abstained)
    candidates: tuple[Card, ...] = ()  # best first, for a "confirm that card" prompt
    present: bool = False  # a card is there at all
    rank: Rank | None = None  # partial reads: a rank or suit the reader is sure of alone
    suit: Suit | None = None
    why: str = ""  # why it abstained, for logs and the dealer page
    # The suit the index pip's shape named clearly where the ink's colour forbade it (the
    # classical templates'): a blue diamond of a four-colour deck, or a red pip gone dark.
    shape_against_ink: Suit | None = None
