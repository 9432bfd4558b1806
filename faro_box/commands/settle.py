"""``faro-box settle FILE|-`` (one deal script) and ``--lines`` (one script per line, JSON Lines)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from faro_box.errors import ScriptError
from faro_box.limits import loads as limited_loads
from faro_box.limits import read_limited, read_line_limited
from faro_box.rules.faro.script import settle_script, settle_script_line


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", help="a deal script (JSON), or - for standard input")
    parser.add_argument("--lines", action="store_true",
                        help="read one deal script per line (JSON Lines) and print one result per line")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    source: str = args.script
    if args.lines:
        stream = _open(source)
        try:
            _settle_lines(stream, source, settle_script_line)
        except UnicodeDecodeError as exc:
            raise ScriptError(f"{source!r} is not UTF-8 text: {exc}") from None
        finally:
            if stream is not sys.stdin:
                stream.close()
        return 0
    text = _read(source)
    print(json.dumps(settle_script(_parse(text, source)), indent=2))
    return 0


def _settle_lines(stream: IO[str], source: str, settle_script_line: Any) -> None:
    out = sys.stdout
    loads = json.loads
    number = 0
    while line := read_line_limited(stream, f"{source!r} line {number + 1}"):
        number += 1
        if not line.strip():
            continue
        try:
            doc = loads(line)
        except (ValueError, RecursionError) as exc:
            out.flush()
            reason = "it nests too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise ScriptError(f"{source!r} line {number} is not JSON: {reason}") from None
        try:
            result = settle_script_line(doc)
        except ScriptError as exc:
            out.flush()
            raise ScriptError(f"{source!r} line {number}: {exc}") from None
        out.write(result)
        out.write("\n")


def _open(source: str) -> IO[str]:
    if source == "-":
        return sys.stdin
    try:
        return Path(source).open(encoding="utf-8")
    except OSError as exc:
        raise ScriptError(f"cannot read deal script {source!r}: {exc.strerror}") from None


def _read(source: str) -> str:
    try:
        if source == "-":
            return read_limited(sys.stdin, f"deal script {source!r}")
        with Path(source).open(encoding="utf-8") as stream:
            return read_limited(stream, f"deal script {source!r}")
    except OSError as exc:
        raise ScriptError(f"cannot read deal script {source!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ScriptError(f"deal script {source!r} is not UTF-8 text: {exc}") from None


def _parse(text: str, source: str) -> Any:
    return limited_loads(text, f"deal script {source!r}")
