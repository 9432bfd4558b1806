"""The dealer's GPIO buttons: undo the last card, confirm, new deal.

Each press calls ``on_press(action)`` once. Debouncing is two-fold: gpiozero's ``bounce_time``
(the pin library's glitch filter on a Pi) and a guard here that ignores any edge within
``bounce_time`` of the last accepted one, because not every pin backend filters. A button held
past ``stuck_after`` seconds (or already down when opened) is reported once to ``on_stuck`` and
fires nothing more until it is released, which ``on_unstuck`` hears.
"""

from __future__ import annotations

import enum
import threading
import time
from collections.abc import Callable, Mapping

from gpiozero import Button, Factory
from gpiozero.exc import GPIOZeroError

from faro_box.devices.closing import ClosedByWith
from faro_box.errors import ConfigError, DeviceError


class ButtonAction(enum.Enum):
    UNDO = "undo"
    CONFIRM = "confirm"
    NEW_DEAL = "new_deal"


DEFAULT_PINS = {ButtonAction.UNDO: 5, ButtonAction.CONFIRM: 6, ButtonAction.NEW_DEAL: 13}


class DealerButtons(ClosedByWith):
    def __init__(self, on_press: Callable[[ButtonAction], None],
                 pins: Mapping[ButtonAction, int | str] | None = None, *,
                 on_stuck: Callable[[ButtonAction], None] | None = None,
                 on_unstuck: Callable[[ButtonAction], None] | None = None,
                 bounce_time: float = 0.05, stuck_after: float = 5.0,
                 pin_factory: Factory | None = None) -> None:
        """``pin_factory``: gpiozero's pin factory for the buttons (gpiozero's default when None)."""
        if bounce_time < 0 or stuck_after <= 0:
            raise ConfigError(f"button timings bounce_time={bounce_time!r} stuck_after={stuck_after!r} "
                              "must be >= 0 and > 0 seconds")
        self._on_press = on_press
        self._on_stuck = on_stuck
        self._on_unstuck = on_unstuck
        self._bounce = bounce_time
        self._lock = threading.Lock()
        self._last_edge: dict[ButtonAction, float] = {}
        self._stuck: set[ButtonAction] = set()
        self._buttons: dict[ButtonAction, Button] = {}
        pins = dict(pins or DEFAULT_PINS)
        try:
            for action, pin in pins.items():
                # Buttons switch to ground against the Pi's internal pull-up.
                button = Button(pin, pull_up=True, bounce_time=bounce_time or None,
                                hold_time=stuck_after, hold_repeat=False, pin_factory=pin_factory)
                self._buttons[action] = button
                button.when_pressed = lambda _b, a=action: self._pressed(a)
                button.when_released = lambda _b, a=action: self._released(a)
                button.when_held = lambda _b, a=action: self._report_stuck(a)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self.close()
            raise DeviceError(f"cannot open the dealer buttons on GPIO {pins!r}: {exc}") from None
        for action, button in self._buttons.items():
            if button.is_pressed:
                self._report_stuck(action)

    @classmethod
    def from_config(cls, config: Mapping[str, object], on_press: Callable[[ButtonAction], None],
                    on_stuck: Callable[[ButtonAction], None] | None = None,
                    on_unstuck: Callable[[ButtonAction], None] | None = None, *,
                    pin_factory: Factory | None = None) -> DealerButtons:
        """``{"undo": 5, "confirm": 6, "new_deal": 13, "bounce_time": 0.05, "stuck_after": 5}``."""
        settings = dict(config)
        timings = {k: settings.pop(k) for k in ("bounce_time", "stuck_after") if k in settings}
        pins: dict[ButtonAction, int | str] = {}
        for key, pin in settings.items():
            try:
                pins[ButtonAction(key)] = pin  # type: ignore[assignment]
            except ValueError:
                raise ConfigError(f"button {key!r} is unknown: use undo, confirm, new_deal, "
                                  "bounce_time, stuck_after") from None
        return cls(on_press, pins or None, on_stuck=on_stuck, on_unstuck=on_unstuck,
                   pin_factory=pin_factory, **timings)  # type: ignore[arg-type]

    def _edge_accepted(self, action: ButtonAction) -> bool:
        now = time.monotonic()
        last = self._last_edge.get(action)
        if last is not None and now - last < self._bounce:
            return False
        self._last_edge[action] = now
        return True

    def _pressed(self, action: ButtonAction) -> None:
        with self._lock:
            if action in self._stuck or not self._edge_accepted(action):
                return
        self._on_press(action)

    def _released(self, action: ButtonAction) -> None:
        with self._lock:
            self._edge_accepted(action)
            was_stuck = action in self._stuck
            self._stuck.discard(action)
        if was_stuck and self._on_unstuck is not None:
            self._on_unstuck(action)

    def _report_stuck(self, action: ButtonAction) -> None:
        with self._lock:
            if action in self._stuck:
                return
            self._stuck.add(action)
        if self._on_stuck is not None:
            self._on_stuck(action)

    @property
    def stuck(self) -> frozenset[ButtonAction]:
        return frozenset(self._stuck)

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()
