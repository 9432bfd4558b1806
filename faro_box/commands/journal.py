"""``faro-box journal check`` and ``faro-box journal salvage --to NEW``: look at a journal the
table refuses, and copy what is intact out of it.

``check`` says whether the journal is sound (exit 0) or what is wrong (exit 1), reading it
without writing a byte. ``salvage`` copies the entries from the first up to the first damaged
one into a new journal (the damaged file is left as it was); point ``journal`` in the
configuration at the new file, or move it into place, and the table resumes from it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from faro_box.config import load_config
from faro_box.errors import JournalError
from faro_box.table.journal import check_file, salvage

DEFAULT_CONFIG = "/etc/faro-box/config.toml"


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="say whether the journal is sound, without writing to it")
    salvage = actions.add_parser("salvage", help="copy the intact entries into a new journal")
    salvage.add_argument("--to", required=True, metavar="NEW", help="the new journal file (must not exist)")
    for sub in (check, salvage):
        sub.add_argument("--journal", metavar="PATH",
                         help=f"the journal file (default: the one named in {DEFAULT_CONFIG}, or --config)")
        sub.add_argument("--config", metavar="FILE", help="read the journal's path from this configuration")
    check.set_defaults(func=run_check)
    salvage.set_defaults(func=run_salvage)


def _path(args: argparse.Namespace) -> str:
    path = str(args.journal or load_config(args.config or DEFAULT_CONFIG).journal)
    if not Path(path).is_file():
        # An absent journal is no sound one: the path is wrong, or the box never dealt.
        raise JournalError(f"there is no journal file at {path!r}")
    return path


def run_check(args: argparse.Namespace) -> int:
    try:
        path = _path(args)
        found = check_file(Path(path))
    except JournalError as exc:
        print(f"faro-box journal check: {exc}", file=sys.stderr)
        return 1
    print(f"the journal {path!r} is sound: {found.head.count} entries")
    return 0


def run_salvage(args: argparse.Namespace) -> int:
    path = _path(args)
    copied, problem = salvage(path, args.to)
    print(f"copied entries 1..{copied} of {path!r} to {args.to!r}" if copied else
          f"no entry of {path!r} is intact: {args.to!r} is an empty journal")
    if problem is not None:
        print(f"the rest was left out: {problem}")
    return 0
