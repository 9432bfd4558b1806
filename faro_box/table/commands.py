"""The commands that enter the live table, and their one JSON codec.

Every command a dealer, a button or the tracker sends is a small frozen value of one game's
commands (table/faro/commands.py, table/baccarat/commands.py); the journal stores
``command_to_text`` and replays ``command_from_text``. Parsing is strict: a command from the web
or a journal row that does not fit is refused with one ScriptError quoting the bad value, so
nothing half-read ever reaches the table. The fields a command's JSON may hold are its
dataclass fields: those without a default are required.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping

from faro_box.errors import ScriptError
from faro_box.limits import MAX_PLAYERS
from faro_box.table.baccarat.commands import BANK_COMMANDS, BankCommand
from faro_box.table.faro.commands import (
    FARO_COMMANDS,
    BarBet,
    CardSeen,
    CardUnread,
    ConfirmCard,
    EndDeal,
    FaroCommand,
    Misdeal,
    NoCard,
    PlaceBet,
    ReleaseBet,
    StartDeal,
    UndoCard,
    WithdrawBet,
)

__all__ = ["COMMAND_TYPES", "MAX_PLAYERS", "BarBet", "CardSeen", "CardUnread", "Command", "ConfirmCard", "EndDeal", "Misdeal",
           "NoCard", "PlaceBet", "ReleaseBet", "StartDeal", "UndoCard", "WithdrawBet", "command_from_json",
           "command_from_text", "command_to_text"]

Command = FaroCommand | BankCommand

COMMAND_TYPES: dict[str, type[Command]] = {cls.TYPE: cls for cls in (*FARO_COMMANDS, *BANK_COMMANDS)}


def _fields(cls: type[Command]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(required, optional) JSON fields of a command type."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    required = tuple(f.name for f in fields if f.default is dataclasses.MISSING
                     and f.default_factory is dataclasses.MISSING)
    return required, tuple(f.name for f in fields if f.name not in required)


_FIELDS = {kind: _fields(cls) for kind, cls in COMMAND_TYPES.items()}


def command_from_json(doc: object) -> Command:
    """The command a JSON object describes; ScriptError quoting the object when it does not fit."""
    if not isinstance(doc, Mapping):
        raise ScriptError(f"a command must be a JSON object, not {doc!r:.80}")
    kind = doc.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise ScriptError(f"unknown command type {kind!r:.40}: expected one of {', '.join(COMMAND_TYPES)}")
    required, optional = _FIELDS[kind]
    missing = [name for name in required if name not in doc]
    if missing:
        raise ScriptError(f"the {kind!r} command lacks {', '.join(missing)}: {dict(doc)!r:.120}")
    unknown = sorted(set(doc) - set(required) - set(optional) - {"type"})
    if unknown:
        raise ScriptError(f"the {kind!r} command has unknown field(s) {', '.join(map(repr, unknown))}")
    fields = {name: doc[name] for name in required + optional if name in doc}
    command: Command = COMMAND_TYPES[kind](**fields)
    return command


def command_to_text(command: Command) -> str:
    """The canonical one-line JSON of a command (what the journal stores)."""
    return json.dumps(command.to_json(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def command_from_text(text: str) -> Command:
    try:
        doc = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ScriptError(f"a command must be JSON ({exc}): {text!r:.80}") from None
    return command_from_json(doc)
