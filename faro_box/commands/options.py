"""Checks of the values shared by several commands' options (not a command itself).

argparse reads the types; what a type cannot say (a seed's sign, a port's range) is checked here,
so the message is faro-box's one line naming the option and the value.
"""

from __future__ import annotations

from faro_box.errors import UsageError


def check_seed(value: int, option: str = "--seed") -> int:
    """A shuffle's seed: NumPy's generators take any whole number from 0 up."""
    if value < 0:
        raise UsageError(f"{option} must be a whole number from 0 up, not {value!r}")
    return value


def check_port(value: int, option: str = "--port") -> int:
    if not 0 <= value <= 65535:
        raise UsageError(f"{option} must be 0..65535, not {value!r}")
    return value
