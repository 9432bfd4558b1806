"""``faro-box beads SCRIPT [--cards N]``: the case-keeper's bead positions for a deal script."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from faro_box.cards import DECK_SIZE, parse_deck
from faro_box.errors import CardError, ScriptError
from faro_box.rules.faro.beads import case_keeper


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", help="a deal script (JSON), or - for standard input")
    parser.add_argument("--cards", type=int, default=DECK_SIZE, metavar="N",
                        help=f"cards exposed so far, 0..{DECK_SIZE} (default {DECK_SIZE})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.cards <= DECK_SIZE:
        raise ScriptError(f"--cards {args.cards!r} is out of range: give 0..{DECK_SIZE}")
    deck = read_deck(args.script)
    print(json.dumps(case_keeper(deck[: args.cards]).to_json()))
    return 0


def read_deck(source: str) -> tuple:
    """The deck of a deal script file (or ``-``); ScriptError naming what is wrong."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScriptError(f"cannot read deal script {source!r}: {exc}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"deal script {source!r} is not JSON: {exc}") from None
    if not isinstance(doc, dict) or "deck" not in doc:
        raise ScriptError(f"deal script {source!r} has no \"deck\" (a list of 52 cards)")
    try:
        return parse_deck(doc["deck"])
    except CardError as exc:
        raise ScriptError(f"deal script {source!r}: {exc}") from None
