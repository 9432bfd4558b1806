"""``faro-box pin``: make the scrypt hash of the dealer's PIN for the configuration file.

The PIN is read without echo (twice, to catch a typo) or, with ``--stdin``, as one line from
standard input for scripted installs; only the hash is printed, as a TOML line.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import warnings

from faro_box.display.pin import hash_pin
from faro_box.errors import ConfigError, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdin", action="store_true", help="read the PIN as one line from standard input")
    parser.set_defaults(func=run)


def _typed(prompt: str) -> str:
    """One PIN typed without echo; getpass would otherwise echo it (no terminal) or raise (Ctrl-D)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", getpass.GetPassWarning)
        try:
            return getpass.getpass(prompt)
        except getpass.GetPassWarning:
            raise UsageError("no terminal to type the PIN on without echo: give it with --stdin") from None
        except EOFError:
            print(file=sys.stderr)
            raise UsageError("no PIN typed (the input ended): nothing was made") from None


def run(args: argparse.Namespace) -> int:
    if args.stdin:
        pin = sys.stdin.readline().rstrip("\r\n")
    else:
        pin = _typed("Dealer's PIN: ")
        if _typed("The same PIN again: ") != pin:
            raise ConfigError("the two PINs differ: nothing was made")
    print(f'pin_hash = "{hash_pin(pin)}"')
    return 0
