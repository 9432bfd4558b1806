"""``faro-box baccarat-demo``: a bank of Baccarat Banque on any PC, no hardware (bank_demo.py):
rendered cards read by the real reader through the shown-card watcher, the live table, the
announcements, the web display. A command of its own rather than ``demo --game``: the faro demo is
built around the simulated dealing box, its tracker and the case-keeper, none of which a bank uses.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from faro_box.commands.demo import _start_web, hold_display, say
from faro_box.commands.options import check_port, check_seed
from faro_box.demo.baccarat import BankDemo
from faro_box.display.announce import player_name
from faro_box.errors import UsageError
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.vision.reader import Reader


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fast", action="store_true", help="do not wait for the camera's frame rate")
    parser.add_argument("--port", type=int, default=8000, help="web display port (0: any free port; default 8000)")
    parser.add_argument("--no-web", action="store_true", help="no web display, terminal only")
    parser.add_argument("--journal", metavar="PATH", help="journal the bank in this SQLite file (default: memory)")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle and the simulated camera (default 1)")
    parser.add_argument("--coups", type=int, default=3, help="coups before the banker leaves (default 3)")
    parser.add_argument("--lang", default="en", choices=("en", "ru", "fr"), help="language of the announcements")
    parser.add_argument("--no-hold", dest="hold", action="store_false",
                        help="end with the bank (by default the web display stays up until Ctrl-C)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_seed(args.seed)
    check_port(args.port)
    if not 1 <= args.coups <= 50:
        raise UsageError(f"--coups must be 1..50, not {args.coups!r}")
    out = sys.stdout
    journal = Journal(args.journal) if args.journal else Journal()
    server = None
    with tempfile.TemporaryDirectory(prefix="faro-box-bank-") as snapshots, journal:
        table = Table(journal)
        if not args.no_web:
            server = _start_web(table, args.port, Path(snapshots), args.lang, out)
        try:
            demo = BankDemo(table, Reader(), seed=args.seed, coups=args.coups, out=out, lang=args.lang,
                            pause=None if args.fast else (lambda: time.sleep(1 / 15)))
            result = demo.run()
            lang = args.lang
            print(say("coupsRead", lang, result.coups, read=result.read, confirmed=result.confirmed), file=out)
            if result.wrong:
                print(say("wrongShoe", lang, positions=result.wrong[:10]), file=out)
            if result.settled != result.balances:
                print(say("settledBankOther", lang, balances=result.settled), file=out)
            else:
                print(say("checkedBank", lang), file=out)
            chips = ", ".join(f"{player_name(p)} {c}" for p, c in result.balances.items())
            print(say("finalChips", lang, chips=chips), file=out, flush=True)
            if server is not None and args.hold:
                hold_display(server, out, lang)
        finally:
            if server is not None:
                server.stop()
    return 1 if result.wrong or result.settled != result.balances else 0
