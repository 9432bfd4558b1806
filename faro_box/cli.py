"""The ``faro-box`` command: one subcommand per module in ``faro_box.commands``.

``COMMANDS`` names each command and its one-line help, so ``faro-box --help`` lists them all
without importing any; a command line imports only its own command's module, whose
``configure(parser)`` adds its options and sets ``func``. ``func(args)`` returns the exit code.
Errors of our own become one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from faro_box import __version__
from faro_box.errors import FaroBoxError

COMMANDS = {
    "beads": "print every bead's position (mm) after the first N cards of a deal script",
    "firmware": "install or check the Pico case-keeper firmware",
    "settle": "settle a deal script and print the result document (JSON)",
    "replay": "replay a deal script through the table, printing the announcements",
    "export": "print a journaled deal as a deal script (JSON)",
    "journal": "check a journal, or salvage its intact entries into a new one",
    "demo": "deal a simulated faro deal through the whole box (no hardware)",
    "baccarat-demo": "play a simulated bank of Baccarat Banque (no hardware)",
    "exhibit": "exhibition mode: replay deals in a loop through the whole box",
    "run": "run the box: camera, case-keeper, displays (the systemd service)",
    "vision": "card recognition: enrol a deck, read images, measure",
    "track": "print one JSON line per card the dealer exposes (camera, video, folder or sim:SEED)",
    "calibrate": "find the box's window, check focus and exposure, write [camera] window",
    "pin": "print the hash of the dealer's PIN for the configuration",
}


def command_module(name: str) -> str:
    """The module of a command: ``baccarat-demo`` is ``faro_box.commands.baccarat_demo``."""
    return "faro_box.commands." + name.replace("-", "_")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every command listed; only ``command``'s options are built, and only its module imported
    (``settle --lines`` in a loop should not pay for the camera's or the web's imports)."""
    parser = argparse.ArgumentParser(prog="faro-box", description="A dealing assistant for faro.")
    parser.add_argument("--version", action="version", version=f"faro-box {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(command_module(name)).configure(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # The reader's small matrix products run several times slower when OpenBLAS spreads them
    # over threads that the camera, web and case-keeper threads already keep busy. Set before
    # numpy is first imported (only the command's own module imports it); an explicit setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    words = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in words if not word.startswith("-")), None)
    parser = build_parser(command)
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # here, where a reader gone away is answered as below, not at exit
        return code
    except FaroBoxError as exc:
        print(f"faro-box {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly like any Unix filter, and keep Python
        # from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
