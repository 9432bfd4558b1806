"""A USB cable made of two pseudo-terminals and a relay that misbehaves on request.

The firmware (a separate process, ``pico_harness.py``) reads and writes one pty's slave; the
host opens the other pty's slave with pyserial through a stable symlink, like /dev/ttyACM0.
The relay between the two masters can unplug and replug the host's side, drop, duplicate or
corrupt whole frames, spray garbage, and feed the firmware slowly. ``ask`` talks to the
firmware directly, past the host, so a test sees where the firmware's beads really are.
"""

from __future__ import annotations

import os
import random
import select
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "faro_box" / "firmware"


class Cable:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = str(workdir / "ttyPICO")
        self._fw_master, self._fw_slave = os.openpty()
        tty.setraw(self._fw_slave)
        # A stalled firmware must fill a buffer here, never block the relay.
        os.set_blocking(self._fw_master, False)
        self.fw_tty = os.ttyname(self._fw_slave)
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


class Firmware:
    """The firmware as its own process on the cable's firmware end."""

    def __init__(self, cable: Cable, flash: Path) -> None:
        self.cable, self.flash = cable, flash
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "pico_harness.py"), str(FIRMWARE), self.cable.fw_tty, str(self.flash)],
            stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while True:   # booted once it answers PING; its READY still travels to the host
            try:
                self.cable.ask("PING", timeout=0.2)
                return
            except TimeoutError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    raise RuntimeError(self.process.stderr.read().decode()[-2000:]) from None

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=5)
            self.process = None
