"""``faro-box pin``: make the scrypt hash of the dealer's PIN for the configuration file.

The PIN is read without echo (twice, to catch a typo) or, with ``--stdin``, as one line from
standard input for scripted installs; only the hash is printed, as a TOML line.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from faro_box.display.pin import hash_pin
from faro_box.errors import ConfigError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdin", action="store_true", help="read the PIN as one line from standard input")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.stdin:
        pin = sys.stdin.readline().rstrip("\r\n")
    else:
        pin = getpass.getpass("Dealer's PIN: ")
        if getpass.getpass("The same PIN again: ") != pin:
            raise ConfigError("the two PINs differ: nothing was made")
    print(f'pin_hash = "{hash_pin(pin)}"')
    return 0
