"""The LED case-keeper: 13 rods of 8 LEDs behind a chain of 74HC595 shift registers.

Chain: Pi -> register 1 (rod A) -> register 2 (rod 2) ... -> register 13 (rod K), one register
per rod, fed by three GPIO lines (data, shift clock, latch) and an active-low output enable that
keeps the LEDs dark until the first whole state is latched (a 74HC595 powers up holding noise).

One rod's byte (hardware/README.md, "LED mapping"): outputs Q0..Q6 are seven 10 mm cells along
the rod counted from the outer frame; a cell is lit where a bead that left the box stands, and a
winner's bead leaves one cell dark before it (the 1 cm gap). Q7 is the rod's amber "case" LED,
lit while exactly one card of the rank is left. Beads still at the inner end are not lit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gpiozero import CompositeOutputDevice, DigitalOutputDevice, Factory
from gpiozero.exc import GPIOZeroError

from faro_box.errors import ConfigError, DeviceError
from faro_box.rules.faro.beads import BeadMark, CaseKeeperState, Rod

CELLS = 7
CASE_BIT = 7
DEFAULT_PINS = {"data": 17, "clock": 27, "latch": 22, "enable": 23}


def rod_byte(rod: Rod) -> int:
    """The 8 bits of one rod's register: bit n drives output Qn."""
    bits, cell = 0, 0
    for mark in rod.marks:
        if mark is BeadMark.HOME:
            break  # beads leave in order: the first bead at home ends the outer stack
        if mark is BeadMark.GAPPED:
            cell += 1
        if cell < CELLS:
            bits |= 1 << cell
        cell += 1
    if rod.in_case:
        bits |= 1 << CASE_BIT
    return bits


def chain_bits(state: CaseKeeperState) -> list[int]:
    """Every bit in the order it is shifted out: rod K's byte first (it travels to the last
    register), rod A's last; within a byte Q7 first, so each bit lands on its own output."""
    out: list[int] = []
    for rod in reversed(state.rods):
        byte = rod_byte(rod)
        out.extend((byte >> bit) & 1 for bit in range(7, -1, -1))
    return out


class LedCaseKeeper(CompositeOutputDevice):
    """The chain's three lines (and /OE) as one gpiozero composite device: ``pin_factory`` as for
    any gpiozero device (gpiozero's default when None), ``with`` closes it, close() is idempotent."""

    def __init__(self, data: int | str, clock: int | str, latch: int | str,
                 enable: int | str | None = None, *, pin_factory: Factory | None = None) -> None:
        pins = {"data": data, "clock": clock, "latch": latch, "enable": enable}
        lines: dict[str, DigitalOutputDevice] = {}
        try:
            for name, pin in pins.items():
                if pin is not None:
                    # Active-low OE: "on" drives the pin low and lets the outputs light.
                    lines[name] = DigitalOutputDevice(pin, initial_value=False, active_high=name != "enable",
                                                      pin_factory=pin_factory)
            super().__init__(_order=tuple(lines), pin_factory=pin_factory, **lines)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            for line in lines.values():
                line.close()
            raise DeviceError(f"cannot open the LED case-keeper on GPIO data={data!r} clock={clock!r} "
                              f"latch={latch!r} enable={enable!r}: {exc}") from None
        self._data, self._clock, self._latch = lines["data"], lines["clock"], lines["latch"]
        self._enable = lines.get("enable")

    @classmethod
    def from_config(cls, config: Mapping[str, object], *, pin_factory: Factory | None = None) -> LedCaseKeeper:
        unknown = set(config) - set(DEFAULT_PINS)
        if unknown:
            raise ConfigError(f"LED case_keeper key {sorted(unknown)[0]!r} is unknown: "
                              f"use {', '.join(DEFAULT_PINS)}")
        pins = {**DEFAULT_PINS, **config}
        return cls(**pins, pin_factory=pin_factory)  # type: ignore[arg-type]

    def show(self, state: CaseKeeperState) -> None:
        if self.closed:
            raise DeviceError("the LED case-keeper was closed; it cannot show a state")
        self._latch.off()
        for bit in chain_bits(state):
            self._data.value = bit
            self._clock.on()
            self._clock.off()
        self._latch.on()   # rising edge copies the shift registers to the outputs at once
        self._latch.off()
        if self._enable is not None:
            self._enable.on()

    # The Pi's GPIO lines have no link of their own that could fail between states.
    fault: str | None = None

    def watch(self, callback: Callable[[str | None], None]) -> None:
        """Nothing to hear: a fault shows as an error from show()."""
