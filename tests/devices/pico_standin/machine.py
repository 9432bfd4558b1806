# A stand-in for the Pico's machine module, for the firmware running under the unix port of
# MicroPython. It drives nothing: it writes one line per thing the firmware sets to standin.log
# in the working directory (the Pico's flash), which the tests read back:
#   <ms> PWM <pin> <freq hz>          a PWM output set up
#   <ms> DUTY <pin> <ns>              a PWM pulse width
#   <ms> I2C <addr> <reg> <hex data>  one I2C register write
#   <ms> WDT <timeout ms> / <ms> FEED  the watchdog started / fed
#   <ms> RESET                        machine.reset()
# The watchdog itself is hardware outside the program: tests/devices/pty_cable.py plays it,
# rebooting the process when the feeds stop. STANDIN_FAULT injects a servo bus fault:
# "fail:N:K" makes writes N+1..N+K raise OSError(EIO), "hang:N" makes write N+1 never return.

import os
import time

_log = open("standin.log", "a")
_writes = 0
_fault = (os.getenv("STANDIN_FAULT") or "").split(":")


def _note(text):
    _log.write("%d %s\n" % (time.ticks_ms(), text))
    _log.flush()


def _servo_write():
    global _writes
    _writes += 1
    if _fault[0] == "fail" and int(_fault[1]) < _writes <= int(_fault[1]) + int(_fault[2]):
        raise OSError(5)
    if _fault[0] == "hang" and _writes > int(_fault[1]):
        _note("HANG")
        while True:
            time.sleep_ms(1000)


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, ident, *args, **kwargs):
        self.id = ident


class PWM:
    def __init__(self, pin):
        self.pin = pin.id

    def freq(self, hz):
        _note("PWM %d %d" % (self.pin, hz))

    def duty_ns(self, ns):
        _servo_write()
        _note("DUTY %d %d" % (self.pin, ns))


class I2C:
    def __init__(self, ident, sda=None, scl=None, freq=400000):
        self.id = ident

    def writeto_mem(self, address, register, data):
        if 0x06 <= register < 0xFA:     # LEDn registers: a servo pulse, not set-up
            _servo_write()
        _note("I2C %d %d %s" % (address, register, bytes(data).hex()))


class WDT:
    def __init__(self, id=0, timeout=5000):
        _note("WDT %d" % timeout)

    def feed(self):
        _note("FEED")


def reset():
    _note("RESET")
    raise SystemExit(0)
