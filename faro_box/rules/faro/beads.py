"""The case-keeper's beads: where every bead stands, computed from the cards shown so far.

One rod per rank, four beads each. Positions are millimetres from the outer frame to a bead's
outer edge, bead 0 the outermost (docs/design.md, "Bead positions"). The whole state is a function
of the cards exposed, so undo is the same function on one card fewer, and every device (LEDs,
servos, the drawing on the display) shows the same numbers.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from faro_box.cards import DECK_SIZE, Card, Rank
from faro_box.errors import CardError, ConfigError

BEADS_PER_ROD = 4
HOCK_INDEX = DECK_SIZE - 1


@dataclass(frozen=True, slots=True)
class BeadGeometry:
    """A rod's measurements in millimetres: its length, one bead's diameter, the winner's gap."""

    rod_length: float = 120
    bead: float = 10
    gap: float = 10

    def __post_init__(self) -> None:
        for name in ("rod_length", "bead", "gap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ConfigError(f"bead geometry {name}={value!r} must be a finite number of mm")
            if value < 0 or (value == 0 and name != "gap"):
                raise ConfigError(f"bead geometry {name}={value!r} must be positive")
        # Three winners in a row push bead 2's inner edge to 3d + 3g; bead 3 still stands at home.
        if self.rod_length < self.longest_stack:
            raise ConfigError(
                f"bead geometry rod_length={self.rod_length!r} is too short: four beads of "
                f"{self.bead!r} mm with three gaps of {self.gap!r} mm need {self.longest_stack!r} mm")

    @property
    def longest_stack(self) -> float:
        return BEADS_PER_ROD * self.bead + (BEADS_PER_ROD - 1) * self.gap

    def home(self, bead: int) -> float:
        """Bead ``bead``'s position at the inner end, where a deal starts.

        >>> geometry = BeadGeometry()
        >>> [geometry.home(i) for i in range(4)], geometry.longest_stack
        ([80, 90, 100, 110], 70)
        """
        return self.rod_length - (BEADS_PER_ROD - bead) * self.bead

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> BeadGeometry:
        """Build from configuration (``{"rod_length": 120, "bead": 10, "gap": 10}``), all optional."""
        unknown = set(values) - {"rod_length", "bead", "gap"}
        if unknown:
            raise ConfigError(f"unknown bead geometry key {sorted(unknown)[0]!r}: "
                              "use rod_length, bead, gap")
        return cls(**values)  # type: ignore[arg-type]


class BeadMark(enum.Enum):
    """What one bead shows: still at the inner end, out and touching, or out short of the gap."""

    HOME = "home"
    TOUCHING = "touching"
    GAPPED = "gapped"


@dataclass(frozen=True, slots=True)
class Rod:
    """One rank's rod as the case-keeper shows it."""

    rank: Rank
    positions: tuple[float, float, float, float]
    marks: tuple[BeadMark, BeadMark, BeadMark, BeadMark]

    @property
    def shown(self) -> int:
        """Beads moved out: cards of this rank that the case-keeper has counted."""
        return sum(mark is not BeadMark.HOME for mark in self.marks)

    @property
    def left(self) -> int:
        """Beads still at the inner end: cards of this rank not yet counted (the hock's stays)."""
        return BEADS_PER_ROD - self.shown

    @property
    def in_case(self) -> bool:
        """One card of the rank is left: a "case" card, a favourite bet."""
        return self.left == 1

    @property
    def finished(self) -> bool:
        return self.left == 0


@dataclass(frozen=True, slots=True)
class CaseKeeperState:
    """Every rod after ``cards_shown`` cards left the box: what a device must show, whole."""

    geometry: BeadGeometry
    cards_shown: int
    rods: tuple[Rod, ...]

    def rod(self, rank: Rank) -> Rod:
        return self.rods[int(rank) - 1]

    @property
    def positions(self) -> dict[Rank, tuple[float, float, float, float]]:
        return {rod.rank: rod.positions for rod in self.rods}

    def flat_positions(self) -> tuple[float, ...]:
        """52 numbers, rank A..K then bead 0..3: the order of a servo frame."""
        return tuple(p for rod in self.rods for p in rod.positions)

    def to_json(self) -> dict[str, dict[str, list[int | float]]]:
        """``{"beads": {"A": [p0, p1, p2, p3], …}}`` with whole numbers as ints."""
        return {"beads": {rod.rank.symbol: [_number(p) for p in rod.positions] for rod in self.rods}}

    def summary(self) -> dict[str, dict[str, int | bool]]:
        """Per rank: beads left at the inner end, in case (one left), finished."""
        return {rod.rank.symbol: {"left": rod.left, "in_case": rod.in_case, "finished": rod.finished}
                for rod in self.rods}


def case_keeper(cards: Sequence[Card], geometry: BeadGeometry | None = None) -> CaseKeeperState:
    """The case-keeper after ``cards`` left the box in this order (soda first).

    Card 0 (the soda) and the losers (odd indices) touch; winners (even indices 2..50) stop
    ``gap`` short; card 51 (the hock) moves nothing; a rank's fourth card closes its beads up.

    >>> soda, loser, winner = Card.parse("9C"), Card.parse("9H"), Card.parse("9D")
    >>> case_keeper([soda, loser, winner]).positions[Rank.NINE]   # touch, touch, a 10 mm gap
    (0, 10, 30, 110)
    """
    geometry = geometry or BeadGeometry()
    if isinstance(cards, (str, bytes)):
        raise CardError(f"the cards shown must be a sequence of cards, not {cards!r:.60}")
    if len(cards) > DECK_SIZE:
        raise CardError(f"at most {DECK_SIZE} cards leave the box, not {len(cards)}")
    positions = {rank: [geometry.home(i) for i in range(BEADS_PER_ROD)] for rank in Rank}
    marks = {rank: [BeadMark.HOME] * BEADS_PER_ROD for rank in Rank}
    counted = dict.fromkeys(Rank, 0)
    seen: set[Card] = set()
    for index, card in enumerate(cards):
        if not isinstance(card, Card):
            raise CardError(f"card {index} is {card!r}, not a Card")
        if card in seen:
            raise CardError(f"{str(card)!r} is shown twice (again as card {index})")
        seen.add(card)
        if index == HOCK_INDEX:
            continue
        rank, k = card.rank, counted[card.rank]
        counted[rank] = k + 1
        rod, rod_marks = positions[rank], marks[rank]
        if k == BEADS_PER_ROD - 1:
            rod[:] = [i * geometry.bead for i in range(BEADS_PER_ROD)]
            rod_marks[:] = [BeadMark.TOUCHING] * BEADS_PER_ROD
            continue
        winner = index % 2 == 0 and index > 0
        rod[k] = (0 if k == 0 else rod[k - 1] + geometry.bead) + (geometry.gap if winner else 0)
        rod_marks[k] = BeadMark.GAPPED if winner else BeadMark.TOUCHING
    rods = tuple(Rod(rank, tuple(positions[rank]), tuple(marks[rank]))  # type: ignore[arg-type]
                 for rank in Rank)
    return CaseKeeperState(geometry, len(cards), rods)


def bead_positions(cards: Sequence[Card],
                   geometry: BeadGeometry | None = None) -> dict[Rank, tuple[float, float, float, float]]:
    """Every bead's position (mm from the outer frame, bead 0 outermost) after ``cards``."""
    return case_keeper(cards, geometry).positions


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)
