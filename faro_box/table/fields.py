"""The strict checks every table command's fields pass, shared by each game's commands.

A field from the web or a journal row that does not fit is refused with one ScriptError quoting
the bad value, so nothing half-read ever reaches the table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from faro_box.cards import DECK_SIZE, Card
from faro_box.errors import CardError, ScriptError
from faro_box.limits import check_text

MAX_PROFILE_NAME = 40
MAX_CANDIDATES = 10
MAX_SNAPSHOT = 500
# A bet spec or a house-rules table is a handful of keys; anything bigger is not a bet.
MAX_OBJECT_JSON = 2000


def check_index(value: object, what: str = "a card index") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < DECK_SIZE:
        raise ScriptError(f"{what} must be a whole number 0..{DECK_SIZE - 1}, not {value!r:.40}")
    return value


def check_card(value: object) -> Card:
    """A card, from a Card or its text (a command from the web or a journal row)."""
    try:
        return value if isinstance(value, Card) else Card.parse(value)  # type: ignore[arg-type]
    except CardError as exc:
        raise ScriptError(str(exc)) from None


def check_confidence(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0.0 <= value <= 1.0:
        raise ScriptError(f"a confidence must be a number 0..1, not {value!r:.40}")
    return float(value)


def check_frame(value: object) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ScriptError(f"a frame number must be a whole number >= 0 or null, not {value!r:.40}")
    return value


def check_candidates(value: object) -> tuple[Card, ...]:
    """The reader's guesses for a card it could not read, best first."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise ScriptError(f"candidates must be a list of cards, not {value!r:.80}")
    if len(value) > MAX_CANDIDATES:
        raise ScriptError(f"at most {MAX_CANDIDATES} candidates, got {len(value)}")
    return tuple(check_card(c) for c in value)


def check_snapshot(value: object) -> None:
    if value is not None:
        check_text(value, "a snapshot URL", MAX_SNAPSHOT)


def check_json_object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ScriptError(f"{what} must be a JSON object, not {value!r:.80}")
    if not all(isinstance(k, str) for k in value):
        raise ScriptError(f"{what} must have text keys: {dict(value)!r:.80}")
    try:
        text = json.dumps(value, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ScriptError(f"{what} is not plain JSON ({exc}): {dict(value)!r:.80}") from None
    if len(text) > MAX_OBJECT_JSON:
        raise ScriptError(f"{what} is too large ({len(text)} characters, at most {MAX_OBJECT_JSON})")
    # A private copy: the caller's dict can change afterwards without changing the command.
    return dict(json.loads(text))



@dataclass(frozen=True)
class BareCommand:
    """A command that is its type alone (undo, end of deal, misdeal, the banker leaving)."""

    TYPE: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE}
