"""The case-keeper devices: one narrow protocol, chosen by configuration, a fake beside each.

Every device is shown the whole state every time (``show(state)``), never a change, so a lost
update, a reconnect or an undo can never leave a bead wrong: the next state repairs everything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from gpiozero import Factory

from faro_box.devices.closing import ClosedByWith
from faro_box.devices.led_case_keeper import LedCaseKeeper
from faro_box.devices.servo_case_keeper import ServoCaseKeeper
from faro_box.errors import ConfigError, DeviceError
from faro_box.rules.faro.beads import CaseKeeperState

KINDS = ("led", "servo", "fake", "screen")


@runtime_checkable
class CaseKeeper(Protocol):
    def show(self, state: CaseKeeperState) -> None:
        """Show this whole state (the beads after some cards); returns without waiting for motion."""

    def close(self) -> None:
        """Release the hardware (again: nothing happens); showing after close is an error."""

    @property
    def fault(self) -> str | None:
        """What is wrong with the device between states (a lost link), None when nothing is."""

    def watch(self, callback: Callable[[str | None], None]) -> None:
        """``callback(message)`` on each new fault, ``callback(None)`` once it is repaired; a
        device without a link of its own never calls it."""

    def __enter__(self) -> Self:
        """``with open_case_keeper(...) as keeper:`` closes it at the end."""

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


class RecordingCaseKeeper(ClosedByWith):
    """The fake (and the "screen" kind, where only the display draws the beads): keeps every state."""

    fault: str | None = None

    def __init__(self) -> None:
        self.states: list[CaseKeeperState] = []
        self.closed = False

    def show(self, state: CaseKeeperState) -> None:
        if self.closed:
            raise DeviceError("the case-keeper was closed; it cannot show a state")
        self.states.append(state)

    @property
    def last(self) -> CaseKeeperState | None:
        return self.states[-1] if self.states else None

    def watch(self, callback: Callable[[str | None], None]) -> None:
        """Nothing to hear: the fake has no link."""

    def close(self) -> None:
        self.closed = True


def open_case_keeper(config: Mapping[str, object] | None = None, *,
                     pin_factory: Factory | None = None) -> CaseKeeper:
    """The case-keeper the configuration asks for.

    ``{"kind": "led", "data": 17, "clock": 27, "latch": 22, "enable": 23}``,
    ``{"kind": "servo", "port": "/dev/ttyACM0"}``, ``{"kind": "fake"}`` or ``{"kind": "screen"}``
    (the default). Hardware that cannot be opened raises DeviceError: a fake is never chosen
    in its place, so a Pi never deals silently without its case-keeper. ``pin_factory``: the
    gpiozero pin factory for the LED build (gpiozero's default when None).
    """
    config = dict(config or {})
    kind = config.pop("kind", "screen")
    if kind not in KINDS:
        raise ConfigError(f"case_keeper kind {kind!r} is unknown: use one of {', '.join(KINDS)}")
    if kind in ("fake", "screen"):
        if config:
            raise ConfigError(f"case_keeper kind {kind!r} takes no settings, got {sorted(config)[0]!r}")
        return RecordingCaseKeeper()
    if kind == "led":
        return LedCaseKeeper.from_config(config, pin_factory=pin_factory)
    return ServoCaseKeeper.from_config(config)
