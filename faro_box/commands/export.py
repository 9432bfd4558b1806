"""``faro-box export [--deal N]``: one journaled deal as a deal script (``faro-box settle`` reads it);
a bank of Baccarat Banque as a bank script (its finished coups; the shoe as far as it was dealt).

A deal in progress is exported with the cards shown so far (fewer than 52): ``faro-box replay``
plays it back to the same point, ``faro-box settle`` refuses it for want of a whole deck. The
journal is opened read-only, so exporting while ``faro-box run`` deals is safe. A damaged
journal is refused as the table refuses it; ``faro-box journal salvage`` copies its intact
entries to a new journal, which exports as any other.
"""

from __future__ import annotations

import argparse
import json

from faro_box.config import load_config
from faro_box.table.games import export_deal
from faro_box.table.journal import Journal

DEFAULT_CONFIG = "/etc/faro-box/config.toml"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", type=int, metavar="N", help="the deal number (default: the last deal)")
    parser.add_argument("--journal", metavar="PATH",
                        help=f"the journal file (default: the one named in {DEFAULT_CONFIG}, or --config)")
    parser.add_argument("--config", metavar="FILE", help="read the journal's path from this configuration")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = args.journal or load_config(args.config or DEFAULT_CONFIG).journal
    with Journal(path, readonly=True) as journal:
        script = export_deal(journal, args.deal)
    print(json.dumps(script, indent=2, ensure_ascii=False))
    return 0
