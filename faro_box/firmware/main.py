# faro-box case-keeper firmware for a Raspberry Pi Pico (MicroPython).
# Reads command lines on USB serial, moves the bead servos, answers per firmware/PROTOCOL.md.
#
# Nothing may leave a Pico stuck at the MicroPython prompt, where it no longer answers: an error
# while handling a line or moving the servos is answered and reported, never fatal, and the
# hardware watchdog reboots the Pico if the loop hangs or an error escapes anyway. After a reboot
# it announces READY and the host sends the whole state again.

import os
import select
import sys
import time

import machine
import micropython

from fblines import LineReader
from fbkeeper import Keeper
from fbproto import PROTOCOL, VERSION
from fbservo import make_servos
from fbstore import Storage

CONFIG_FILE = "config.json"
# Left by REPL: the next boot stays at the prompt for mpremote, without the watchdog, which
# cannot be stopped once started and would reboot the Pico in the middle of a copy.
REPL_FLAG = "repl.flag"
WATCHDOG_MS = 5000          # config "watchdog_ms"; the RP2040's watchdog counts to at most 8388
READ_BOUND = 1024           # bytes read before the servos get their turn
FAULT_EVERY_MS = 1000       # a fault that persists is reported at most this often


def say(text):
    sys.stdout.write(text + "\n")


def describe(exc):
    return ("%s %s" % (type(exc).__name__, exc))[:120].replace("\n", " ")


class Faults:
    # Reports a failure on the line as FAULT <what> <error>, at most once a second per kind.
    def __init__(self):
        self.last = {}

    def report(self, what, exc):
        now = time.ticks_ms()
        then = self.last.get(what)
        if then is None or time.ticks_diff(now, then) >= FAULT_EVERY_MS:
            self.last[what] = now
            say("FAULT %s %s" % (what, describe(exc)))


def released_to_repl():
    try:
        os.remove(REPL_FLAG)
    except OSError:
        return False
    return True


def answer(keeper, faults, line):
    try:
        return keeper.handle(line)
    except Exception as exc:    # a command that breaks the firmware is refused, never fatal
        faults.report("command", exc)
        return "ERR - internal " + describe(exc)


def read_waiting(poll, stdin, tick_ms, started):
    # The Pico's stdin blocks until it has every byte asked for, so it is read one byte at a
    # time while poll says more is waiting, bounded in bytes and by the next servo tick.
    chunk = bytearray()
    while len(chunk) < READ_BOUND and poll.poll(0):
        byte = stdin.read(1)
        if not byte:
            break
        chunk.extend(byte)
        if time.ticks_diff(time.ticks_ms(), started) >= tick_ms:
            break
    return chunk


def serve(wdt):
    storage = Storage()
    config = storage.load(CONFIG_FILE) or {}
    servos = make_servos(machine, config, time.sleep_ms)
    keeper = Keeper(servos, config, storage)
    tick_ms = config.get("tick_ms", 20)
    faults = Faults()
    reader = LineReader()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    say("READY faro-box-firmware %s protocol %d" % (VERSION, PROTOCOL))
    last = time.ticks_ms()
    while not keeper.exit_requested:
        wdt.feed()
        if poll.poll(tick_ms):
            for line, problem in reader.feed(read_waiting(poll, stdin, tick_ms, time.ticks_ms())):
                say(answer(keeper, faults, line) if problem is None else "ERR - " + problem)
        now = time.ticks_ms()
        try:
            keeper.step(time.ticks_diff(now, last))
        except Exception as exc:    # a servo board that fails a write: try again next tick
            faults.report("servos", exc)
        last = now


def watchdog_ms():
    try:
        return max(100, min(8000, int(Storage().load(CONFIG_FILE).get("watchdog_ms", WATCHDOG_MS))))
    except Exception:   # no config, or a broken one: serve() reports it under the watchdog
        return WATCHDOG_MS


def main():
    if released_to_repl():
        return      # the prompt, with Ctrl-C, for mpremote; the next reset runs the firmware
    # First, so that a hang or an escaped error anywhere below ends in a reboot.
    wdt = machine.WDT(timeout=watchdog_ms())
    # Ctrl-C (0x03) is data on this line, not an interrupt: noise must never stop the firmware.
    micropython.kbd_intr(-1)
    try:
        serve(wdt)
    except Exception as exc:
        say("FAULT firmware %s" % describe(exc))
        raise       # to the prompt; the watchdog, no longer fed, reboots the Pico
    finally:
        micropython.kbd_intr(3)
    # REPL: reboot into the prompt, once, without the watchdog.
    with open(REPL_FLAG, "w") as flag:
        flag.write("1")
    time.sleep_ms(100)      # let "OK REPL" leave the USB buffer
    machine.reset()


main()
