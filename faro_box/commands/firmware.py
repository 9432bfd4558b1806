"""``faro-box firmware install|check``: put the case-keeper firmware on a Pico, or talk to one."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from importlib.resources import files
from pathlib import Path

import serial

from faro_box.devices.servo_case_keeper import ServoCaseKeeper
from faro_box.devices.servo_frames import parse_positions_line
from faro_box.errors import ConfigError, DeviceError

DEFAULT_PORT = "/dev/ttyACM0"
# Package data: installed beside the code from the wheel, so `firmware install` needs no clone.
FIRMWARE_DIR = Path(str(files("faro_box") / "firmware"))
MPREMOTE_HINT = "mpremote is not installed: pip install 'faro-box[firmware]'"
REBOOT_WAIT_S = 10.0      # a Pico released to its prompt reboots and enumerates again


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser("install", help="copy firmware/ to a Pico with mpremote and reset it")
    install.add_argument("--port", default=DEFAULT_PORT, help=f"the Pico's serial port (default {DEFAULT_PORT})")
    install.add_argument("--firmware", type=Path, default=FIRMWARE_DIR, help="the firmware directory")
    install.add_argument("--config", type=Path, help="a config.json to copy beside the firmware")
    install.set_defaults(func=run_install)
    check = actions.add_parser("check", help="ask a connected Pico for VERSION, PING and its state")
    check.add_argument("--port", default=DEFAULT_PORT, help=f"the Pico's serial port (default {DEFAULT_PORT})")
    check.set_defaults(func=run_check)


def firmware_files(directory: Path) -> list[Path]:
    found = sorted(directory.glob("*.py"))
    if not any(f.name == "main.py" for f in found):
        raise DeviceError(f"no firmware in {str(directory)!r}: expected main.py and its modules")
    return found


def release_to_repl(port: str) -> bool:
    """Ask a running firmware to hand the line back to MicroPython's REPL (it ignores Ctrl-C).

    The firmware answers, then reboots into the prompt without its watchdog (which cannot be
    stopped and would reboot the Pico in the middle of the copy); this waits until the port is
    back.
    """
    released = False
    try:
        with serial.Serial(port, 115200, timeout=0.5) as line:
            line.write(b"\nREPL\n")
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                if line.readline().strip() == b"OK REPL":
                    released = True
                    break
    except (serial.SerialException, OSError):
        pass
    if released:
        time.sleep(0.5)       # the reboot takes the USB port away for a moment
        deadline = time.monotonic() + REBOOT_WAIT_S
        while not os.path.exists(port) and time.monotonic() < deadline:
            time.sleep(0.1)
    return released   # False: no firmware running (a fresh Pico): mpremote can interrupt it itself


def run_install(args: argparse.Namespace) -> int:
    firmware = firmware_files(args.firmware)
    if args.config is not None:
        if not args.config.is_file():
            raise DeviceError(f"--config {str(args.config)!r} is not a file")
        if args.config.name != "config.json":
            raise DeviceError(f"--config must be named config.json on the Pico, not {args.config.name!r}")
        try:   # refuse a broken file before touching the Pico
            json.loads(args.config.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"--config {str(args.config)!r} is not a JSON file: {exc}") from None
        firmware.append(args.config)
    if importlib.util.find_spec("mpremote") is None:
        raise DeviceError(MPREMOTE_HINT)
    released = release_to_repl(args.port)
    command = [sys.executable, "-m", "mpremote", "connect", args.port,
               "cp", *[str(f) for f in firmware], ":", "+", "reset"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise DeviceError(f"mpremote failed on {args.port!r}: {exc}") from None
    if done.returncode != 0:
        reason = (done.stderr or done.stdout).strip().splitlines()
        raise DeviceError(f"mpremote could not copy the firmware to {args.port!r}: "
                          f"{reason[-1] if reason else 'exit ' + str(done.returncode)}")
    print(json.dumps({"port": args.port, "copied": [f.name for f in firmware], "released_running_firmware": released}))
    return 0


def run_check(args: argparse.Namespace) -> int:
    keeper = ServoCaseKeeper(args.port)
    try:
        started = time.perf_counter()
        pong = keeper.query("PING")
        ping_ms = (time.perf_counter() - started) * 1000
        seq, targets = parse_positions_line(keeper.query("GET"), "STATE")
        moving, _ = parse_positions_line(keeper.query("WHERE"), "WHERE")
        version = keeper.version
        report = {"port": args.port, "firmware": version.firmware, "protocol": version.protocol,
                  "servos": version.servos, "mode": version.mode, "rod_mm": version.rod_tenths / 10,
                  "bead_mm": version.bead_tenths / 10, "ping": pong, "ping_ms": round(ping_ms, 2),
                  "seq": seq, "moving": bool(moving), "targets_mm": [t / 10 for t in targets]}
    finally:
        keeper.close()
    print(json.dumps(report))
    return 0
