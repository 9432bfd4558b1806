"""Run the Pico firmware unchanged under CPython, on a pseudo-terminal, with its hardware faked.

    python pico_harness.py FIRMWARE_DIR TTY_PATH WORK_DIR

WORK_DIR plays the Pico's flash (config.json, calibration.json). The fake ``machine`` keeps
every servo pulse; the firmware's own protocol (GET, WHERE) is how tests see the beads.
"""

from __future__ import annotations

import io
import os
import runpy
import sys
import time
import tty
import types


def fake_hardware() -> None:
    machine = types.ModuleType("machine")

    class Pin:
        def __init__(self, ident, *args, **kwargs):
            self.id = ident

    class PWM:
        def __init__(self, pin):
            self.pin, self.hz, self.ns = pin, 0, 0

        def freq(self, hz):
            self.hz = hz

        def duty_ns(self, ns):
            self.ns = ns

    class I2C:
        def __init__(self, ident, sda=None, scl=None, freq=400000):
            self.memory: dict[tuple[int, int], bytes] = {}

        def writeto_mem(self, address, register, data):
            self.memory[(address, register)] = bytes(data)

    machine.Pin, machine.PWM, machine.I2C = Pin, PWM, I2C
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = lambda char: None
    micropython.const = lambda value: value
    sys.modules["machine"] = machine
    sys.modules["micropython"] = micropython
    # MicroPython's time module has millisecond ticks; CPython's gains them here.
    time.ticks_ms = lambda: int(time.monotonic() * 1000)
    time.ticks_diff = lambda later, earlier: later - earlier
    time.sleep_ms = lambda ms: time.sleep(ms / 1000)


class _Stdin:
    """MicroPython's sys.stdin: pollable, with an unbuffered byte stream as .buffer."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = io.FileIO(fd, "rb", closefd=False)

    def fileno(self) -> int:
        return self.fd


def main() -> None:
    firmware, tty_path, work = sys.argv[1:4]
    fd = os.open(tty_path, os.O_RDWR | os.O_NOCTTY)
    tty.setraw(fd)
    fake_hardware()
    sys.stdin = _Stdin(fd)  # type: ignore[assignment]
    sys.stdout = io.TextIOWrapper(io.FileIO(fd, "wb", closefd=False), encoding="ascii",
                                  newline="\n", write_through=True)
    os.chdir(work)
    sys.path.insert(0, firmware)
    runpy.run_path(os.path.join(firmware, "main.py"), run_name="__main__")


if __name__ == "__main__":
    main()
