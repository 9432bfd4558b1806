"""The dealer's buttons on gpiozero's MockFactory: presses, bounces, a button stuck down."""

from __future__ import annotations

import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockPin

from faro_box.devices.buttons import ButtonAction, DealerButtons
from faro_box.errors import ConfigError, DeviceError


def press(pin, hold=0.0):
    pin.drive_low()
    time.sleep(hold)
    pin.drive_high()


def test_each_button_calls_its_action_once_per_press(mock_pins):
    pressed: list[ButtonAction] = []
    buttons = DealerButtons(pressed.append, bounce_time=0.01, pin_factory=mock_pins)
    press(mock_pins.pin(5))
    time.sleep(0.02)
    press(mock_pins.pin(6))
    time.sleep(0.02)
    press(mock_pins.pin(13))
    assert pressed == [ButtonAction.UNDO, ButtonAction.CONFIRM, ButtonAction.NEW_DEAL]
    buttons.close()


def test_contact_bounce_within_bounce_time_is_one_press(mock_pins):
    pressed: list[ButtonAction] = []
    DealerButtons(pressed.append, {ButtonAction.UNDO: 5}, bounce_time=0.2, pin_factory=mock_pins)
    pin = mock_pins.pin(5)
    for _ in range(5):           # a bouncing contact: five closures in a few microseconds
        pin.drive_low()
        pin.drive_high()
    assert pressed == [ButtonAction.UNDO]
    time.sleep(0.25)
    press(pin)
    assert pressed == [ButtonAction.UNDO, ButtonAction.UNDO]


def test_a_button_stuck_down_is_reported_once_and_fires_nothing(mock_pins):
    pressed: list[ButtonAction] = []
    stuck: list[ButtonAction] = []
    buttons = DealerButtons(pressed.append, {ButtonAction.CONFIRM: 6}, on_stuck=stuck.append,
                            bounce_time=0.0, stuck_after=0.1, pin_factory=mock_pins)
    pin = mock_pins.pin(6)
    pin.drive_low()
    time.sleep(0.5)              # several hold periods: still one report
    assert stuck == [ButtonAction.CONFIRM] and buttons.stuck == {ButtonAction.CONFIRM}
    assert pressed == [ButtonAction.CONFIRM]    # the press itself, before it stuck
    pin.drive_high()
    assert buttons.stuck == frozenset()
    press(pin)
    assert pressed == [ButtonAction.CONFIRM, ButtonAction.CONFIRM] and len(stuck) == 1


class WeldedPin(MockPin):
    """A contact welded shut: the pull-up cannot lift it."""

    def _set_pull(self, value):
        super()._set_pull(value)
        self.drive_low()


def test_a_button_already_down_when_opened_is_stuck_not_pressed(mock_pins):
    mock_pins.pin(13, pin_class=WeldedPin)
    pressed: list[ButtonAction] = []
    stuck: list[ButtonAction] = []
    DealerButtons(pressed.append, {ButtonAction.NEW_DEAL: 13}, on_stuck=stuck.append, pin_factory=mock_pins)
    assert stuck == [ButtonAction.NEW_DEAL] and pressed == []


def test_configuration_names_buttons_and_refuses_unknown_ones(mock_pins):
    pressed: list[ButtonAction] = []
    buttons = DealerButtons.from_config({"undo": 20, "bounce_time": 0}, pressed.append, pin_factory=mock_pins)
    press(mock_pins.pin(20))
    assert pressed == [ButtonAction.UNDO]
    buttons.close()
    with pytest.raises(ConfigError, match="'redo'"):
        DealerButtons.from_config({"redo": 21}, pressed.append, pin_factory=mock_pins)
    with pytest.raises(DeviceError, match="cannot open the dealer buttons"):
        DealerButtons(pressed.append, {ButtonAction.UNDO: 99}, pin_factory=mock_pins)


def test_the_buttons_close_once_or_twice_and_with_a_with(mock_pins):
    pressed: list[ButtonAction] = []
    with DealerButtons(pressed.append, {ButtonAction.UNDO: 5}, bounce_time=0, pin_factory=mock_pins) as buttons:
        press(mock_pins.pin(5))
    buttons.close()                                     # again: nothing happens
    press(mock_pins.pin(5))                             # closed: nothing fires
    assert pressed == [ButtonAction.UNDO] and Device.pin_factory is None
    DealerButtons(pressed.append, {ButtonAction.UNDO: 5}, pin_factory=mock_pins).close()   # the pin was freed
