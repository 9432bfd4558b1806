"""Size limits on what comes into the box from files and pipes, and JSON reading that keeps them.

A deal script or a configuration is a few kilobytes; a megabyte is far more than any real one
and still nothing to a Pi. Past the limit, or nested deeper than Python's JSON reader can
follow, a document is refused with one clear error instead of filling the memory or raising
RecursionError.
"""

from __future__ import annotations

import json
from typing import IO, Any

from faro_box.errors import FaroBoxError, ScriptError

MAX_SCRIPT_CHARS = 1 << 20       # one deal script, or one line of JSON Lines
MAX_CONFIG_CHARS = 1 << 20


def read_limited(stream: IO[str], what: str, limit: int = MAX_SCRIPT_CHARS,
                 error: type[FaroBoxError] = ScriptError) -> str:
    """The whole of ``stream``; ``error`` when it holds more than ``limit`` characters."""
    text = stream.read(limit + 1)
    if len(text) > limit:
        raise error(f"{what} is larger than {limit} characters: refused")
    return text


def read_line_limited(stream: IO[str], what: str, limit: int = MAX_SCRIPT_CHARS) -> str:
    """The next line ('' at the end); ScriptError when one line is longer than ``limit``."""
    line = stream.readline(limit + 1)
    if len(line) > limit:
        raise ScriptError(f"{what} is longer than {limit} characters: refused")
    return line


def loads(text: str | bytes, what: str, error: type[FaroBoxError] = ScriptError) -> Any:
    """``json.loads``; ``error`` quoting the reason for text that is not JSON or nests too deep."""
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{what} nests too deeply to be read") from None
    except ValueError as exc:
        raise error(f"{what} is not JSON: {exc}") from None
