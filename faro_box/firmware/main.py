# faro-box case-keeper firmware for a Raspberry Pi Pico (MicroPython).
# Reads command lines on USB serial, moves the bead servos, answers per firmware/PROTOCOL.md.

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


def say(text):
    sys.stdout.write(text + "\n")


def run():
    storage = Storage()
    config = storage.load(CONFIG_FILE) or {}
    servos = make_servos(machine, config, time.sleep_ms)
    keeper = Keeper(servos, config, storage)
    tick_ms = config.get("tick_ms", 20)
    # Ctrl-C (0x03) is data on this line, not an interrupt: noise must never stop the firmware.
    micropython.kbd_intr(-1)
    reader = LineReader()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    stdin = sys.stdin.buffer
    say("READY faro-box-firmware %s protocol %d" % (VERSION, PROTOCOL))
    last = time.ticks_ms()
    try:
        while not keeper.exit_requested:
            if poll.poll(tick_ms):
                chunk = bytearray()
                while len(chunk) < 256 and poll.poll(0):
                    byte = stdin.read(1)
                    if not byte:
                        break
                    chunk.extend(byte)
                for line, problem in reader.feed(chunk):
                    say(keeper.handle(line) if problem is None else "ERR - " + problem)
            now = time.ticks_ms()
            keeper.step(time.ticks_diff(now, last))
            last = now
    finally:
        micropython.kbd_intr(3)


run()
