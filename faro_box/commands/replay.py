"""``faro-box replay SCRIPT``: play a deal script (faro, or a bank of Baccarat Banque) through the
live table, saying what happens.

With ``--journal PATH`` the deal is journaled like a live one; run again after an interruption,
the replay carries on where it stopped (nothing is applied twice). ``--pace`` spaces the
commands out for an exhibition screen.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from faro_box.display.narrator import Narrator
from faro_box.errors import ScriptError
from faro_box.limits import loads, read_limited
from faro_box.table.games import replay_script
from faro_box.table.journal import Journal
from faro_box.table.table import Table
from faro_box.table.views import View


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", help="a deal script (JSON), or - for standard input")
    parser.add_argument("--journal", metavar="PATH", help="journal the replay in this SQLite file (resumes)")
    parser.add_argument("--lang", default="en", choices=("en", "ru", "fr"), help="language of the announcements")
    parser.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                        help="wait this long after each command (exhibitions)")
    parser.add_argument("--json", action="store_true", help="print the final table state as JSON instead")
    parser.set_defaults(func=run)


def read_script(source: str) -> Any:
    try:
        if source == "-":
            text = read_limited(sys.stdin, f"the deal script {source!r}")
        else:
            with open(source, encoding="utf-8") as stream:
                text = read_limited(stream, f"the deal script {source!r}")
    except OSError as exc:
        raise ScriptError(f"cannot read the deal script {source!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ScriptError(f"the deal script {source!r} is not UTF-8 text: {exc}") from None
    return loads(text, repr(source))


def run(args: argparse.Namespace) -> int:
    if args.pace < 0:
        raise ScriptError(f"--pace must be >= 0 seconds, not {args.pace!r}")
    doc = read_script(args.script)
    journal = Journal(args.journal) if args.journal else Journal()
    try:
        table = Table(journal)
        narrator = Narrator(args.lang)
        narrator.prime(table.view())
        quiet = args.json

        def say(event: Any, view: View) -> None:
            for text in narrator.hear(event, view):
                if not quiet:
                    print(text, flush=True)

        table.subscribe(say)
        replay = replay_script(table, doc, between=(lambda: time.sleep(args.pace)) if args.pace else None)
        state = table.state()
    finally:
        journal.close()
    if args.json:
        print(json.dumps(state, indent=2, ensure_ascii=False))
        return 0
    if replay.skipped:
        print(f"(resumed: {replay.skipped} command(s) were already in the journal)")
    for refused in replay.rejected:
        if "action" in refused:
            print(f"refused: action {refused['action']}: {refused['error']}")
        else:  # a bank script names the coup and the bet, as settle does
            bet = f" bet {refused['bet']}" if refused["bet"] is not None else ""
            print(f"refused: coup {refused['coup']}{bet}: {refused['error']}")
    balances = state["balances"]
    if state.get("game") == "baccarat_banque":  # a bank's balances are chips held, not winnings
        print("chips: " + ", ".join(f"{who} {amount}" for who, amount in balances.items()))
        return 0
    print("balances: " + ", ".join(f"{who} {amount:+g}" for who, amount in balances.items()))
    return 0
