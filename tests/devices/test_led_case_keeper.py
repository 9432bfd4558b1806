"""The LED case-keeper against gpiozero's MockFactory, with a simulated 74HC595 chain on the pins."""

from __future__ import annotations

import pytest
from gpiozero import CompositeOutputDevice, Device

from faro_box.cards import FULL_DECK, Card, Rank
from faro_box.devices.case_keeper import open_case_keeper
from faro_box.devices.led_case_keeper import LedCaseKeeper, chain_bits, rod_byte
from faro_box.errors import ConfigError, DeviceError
from faro_box.rules.faro.beads import case_keeper


def simulate_595_chain(log, data="GPIO17", clock="GPIO27", latch="GPIO22", registers=13):
    """Replay the wire: a rising shift clock shifts data into the chain, a rising latch copies it."""
    shift = [0] * (8 * registers)
    latched = None
    level = {data: False, clock: False, latch: False}
    for pin, value in log:
        rising = value and not level.get(pin, False)
        level[pin] = value
        if pin == clock and rising:
            shift = [int(level[data])] + shift[:-1]
        elif pin == latch and rising:
            latched = list(shift)
    assert latched is not None, "the latch never rose"
    # Output Qn of register r (r=0 nearest the Pi) is chain cell 8*r + n.
    return [sum(latched[8 * r + n] << n for n in range(8)) for r in range(registers)]


def deck_starting(*texts):
    head = [Card.parse(t) for t in texts]
    return tuple(head) + tuple(c for c in FULL_DECK if c not in head)


def test_rod_bytes_show_touching_and_gapped_beads_and_the_case_led():
    deck = deck_starting("5S", "9H", "5D", "5H", "AS", "AH")
    state = case_keeper(deck[:6])
    assert rod_byte(state.rod(Rank.FIVE)) == 0b0000_1101 | 0x80   # soda, gap, winner, loser touching it; one left
    assert rod_byte(state.rod(Rank.NINE)) == 0b1
    assert rod_byte(state.rod(Rank.ACE)) == 0b110                  # a winner's bead leaves cell 0 dark
    assert rod_byte(state.rod(Rank.KING)) == 0
    finished = case_keeper(deck_starting("7S", "7H", "7D", "7C")[:4])
    assert rod_byte(finished.rod(Rank.SEVEN)) == 0b1111


def test_the_chain_receives_every_rod_on_its_own_register(mock_pins):
    factory = mock_pins
    keeper = LedCaseKeeper(data=17, clock=27, latch=22, enable=23, pin_factory=factory)
    enable = factory.pin(23)
    assert enable.state is True            # active-low OE held high: dark until the first state
    deck = deck_starting("5S", "9H", "5D", "5H", "AS", "AH", "KS")
    state = case_keeper(deck[:7])
    factory.wire.clear()
    keeper.show(state)
    outputs = simulate_595_chain(factory.wire)
    assert outputs == [rod_byte(rod) for rod in state.rods]
    assert outputs[Rank.FIVE - 1] == 0x8D and outputs[Rank.KING - 1] == 0b10   # KS is a winner
    assert len(chain_bits(state)) == 104
    clock_rises = sum(1 for pin, v in factory.wire if pin == "GPIO27" and v)
    assert clock_rises == 104
    assert enable.state is False           # OE low: outputs on
    assert factory.pin(22).state is False and factory.pin(27).state is False


def test_undo_is_shown_as_the_whole_earlier_state(mock_pins):
    keeper = LedCaseKeeper(data=17, clock=27, latch=22, pin_factory=mock_pins)
    deck = deck_starting("QS", "QH")
    keeper.show(case_keeper(deck[:2]))
    mock_pins.wire.clear()
    keeper.show(case_keeper(deck[:1]))
    assert simulate_595_chain(mock_pins.wire)[Rank.QUEEN - 1] == 0b1


def test_factory_opens_led_from_configuration_and_refuses_bad_keys(mock_pins):
    keeper = open_case_keeper({"kind": "led", "data": 17, "clock": 27, "latch": 22}, pin_factory=mock_pins)
    assert isinstance(keeper, LedCaseKeeper)
    keeper.close()
    with pytest.raises(ConfigError, match="'dta'"):
        open_case_keeper({"kind": "led", "dta": 4}, pin_factory=mock_pins)
    with pytest.raises(ConfigError, match="'lcd'"):
        open_case_keeper({"kind": "lcd"})


def test_pins_that_cannot_be_opened_raise_device_error_not_a_fake(mock_pins):
    with pytest.raises(DeviceError, match="cannot open the LED case-keeper"):
        LedCaseKeeper(data=17, clock=17, latch=22, pin_factory=mock_pins)       # one pin twice
    with pytest.raises(DeviceError):
        open_case_keeper({"kind": "led", "data": 99}, pin_factory=mock_pins)


def test_the_led_case_keeper_is_one_gpiozero_composite_device_on_the_factory_it_was_given(mock_pins):
    with LedCaseKeeper(data=17, clock=27, latch=22, enable=23, pin_factory=mock_pins) as keeper:
        assert isinstance(keeper, CompositeOutputDevice) and keeper.closed is False
        assert [line.pin.info.name for line in keeper] == ["GPIO17", "GPIO27", "GPIO22", "GPIO23"]
        assert all(line.pin_factory is mock_pins for line in keeper)
        keeper.show(case_keeper(FULL_DECK[:3]))
    assert keeper.closed
    keeper.close()                                          # again: nothing happens
    assert Device.pin_factory is None                       # the global default was never needed
    with pytest.raises(DeviceError, match="closed"):
        keeper.show(case_keeper(FULL_DECK[:3]))
    again = LedCaseKeeper(data=17, clock=27, latch=22, pin_factory=mock_pins)   # the pins were freed
    again.close()
