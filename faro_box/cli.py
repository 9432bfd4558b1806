"""The ``faro-box`` command: one subcommand per module in ``faro_box.commands``.

Each command module exposes ``register(subparsers)`` which adds its parser and sets
``func``; ``func(args)`` returns the exit code. Errors of our own become one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from faro_box import __version__
from faro_box.errors import FaroBoxError

COMMAND_MODULES = (
    "beads",
    "firmware",
    "settle",
    "replay",
    "export",
    "journal",
    "demo",
    "baccarat_demo",
    "exhibit",
    "run",
    "vision",
    "track",
    "calibrate",
    "pin",
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with a ``command``, only that command's (its module alone is imported:
    ``settle --lines`` in a loop should not pay for the camera's or the web's imports)."""
    parser = argparse.ArgumentParser(prog="faro-box", description="A dealing assistant for faro.")
    parser.add_argument("--version", action="version", version=f"faro-box {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if command is None else (command,):
        importlib.import_module(f"faro_box.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # The reader's small matrix products run several times slower when OpenBLAS spreads them
    # over threads that the camera, web and case-keeper threads already keep busy. Set before
    # numpy is first imported (the commands import it lazily); an explicit setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    words = sys.argv[1:] if argv is None else list(argv)
    command = words[0].replace("-", "_") if words else None
    parser = build_parser(command if command in COMMAND_MODULES else None)
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except FaroBoxError as exc:
        print(f"faro-box {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
