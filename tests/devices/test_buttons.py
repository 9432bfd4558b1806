"""The dealer's buttons on gpiozero's MockFactory: presses, bounces, a button stuck down."""

from __future__ import annotations

import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from faro_box.devices.buttons import ButtonAction, DealerButtons
from faro_box.errors import ConfigError, DeviceError


@pytest.fixture
def factory():
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = None


def press(pin, hold=0.0):
    pin.drive_low()
    time.sleep(hold)
    pin.drive_high()


def test_each_button_calls_its_action_once_per_press(factory):
    pressed: list[ButtonAction] = []
    buttons = DealerButtons(pressed.append, bounce_time=0.01)
    press(factory.pin(5))
    time.sleep(0.02)
    press(factory.pin(6))
    time.sleep(0.02)
    press(factory.pin(13))
    assert pressed == [ButtonAction.UNDO, ButtonAction.CONFIRM, ButtonAction.NEW_DEAL]
    buttons.close()


def test_contact_bounce_within_bounce_time_is_one_press(factory):
    pressed: list[ButtonAction] = []
    DealerButtons(pressed.append, {ButtonAction.UNDO: 5}, bounce_time=0.2)
    pin = factory.pin(5)
    for _ in range(5):           # a bouncing contact: five closures in a few microseconds
        pin.drive_low()
        pin.drive_high()
    assert pressed == [ButtonAction.UNDO]
    time.sleep(0.25)
    press(pin)
    assert pressed == [ButtonAction.UNDO, ButtonAction.UNDO]


def test_a_button_stuck_down_is_reported_once_and_fires_nothing(factory):
    pressed: list[ButtonAction] = []
    stuck: list[ButtonAction] = []
    buttons = DealerButtons(pressed.append, {ButtonAction.CONFIRM: 6}, on_stuck=stuck.append,
                            bounce_time=0.0, stuck_after=0.1)
    pin = factory.pin(6)
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


def test_a_button_already_down_when_opened_is_stuck_not_pressed(factory):
    factory.pin(13, pin_class=WeldedPin)
    pressed: list[ButtonAction] = []
    stuck: list[ButtonAction] = []
    DealerButtons(pressed.append, {ButtonAction.NEW_DEAL: 13}, on_stuck=stuck.append)
    assert stuck == [ButtonAction.NEW_DEAL] and pressed == []


def test_configuration_names_buttons_and_refuses_unknown_ones(factory):
    pressed: list[ButtonAction] = []
    buttons = DealerButtons.from_config({"undo": 20, "bounce_time": 0}, pressed.append)
    press(factory.pin(20))
    assert pressed == [ButtonAction.UNDO]
    buttons.close()
    with pytest.raises(ConfigError, match="'redo'"):
        DealerButtons.from_config({"redo": 21}, pressed.append)
    with pytest.raises(DeviceError, match="cannot open the dealer buttons"):
        DealerButtons(pressed.append, {ButtonAction.UNDO: 99})
