"""The servo case-keeper: the Pi sends whole states to the Pico firmware over USB serial.

``show(state)`` only records the newest state and wakes the link thread, so the table never
waits for a servo. The thread owns the port: it sends the newest state with a fresh sequence
number, resends the same frame until the firmware acknowledges it, asks PING when idle (a
firmware that restarted answers ``PONG 0`` or announces ``READY``), and when the port vanishes
it reopens it and resends the whole state. Nothing is queued: an older state is never sent
after a newer one exists, so the beads end where the deal says whatever was lost on the way.

``fault`` says what is wrong with the link (None when the firmware holds the newest state) and
``watch(callback)`` hears each change of it once, from the link thread: a lost port or a Pico
that restarted is a fault until the firmware acknowledges the whole state again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import serial

from faro_box.devices.closing import ClosedByWith
from faro_box.devices.servo_frames import (
    PROTOCOL,
    FirmwareState,
    FirmwareVersion,
    next_seq,
    parse_positions_line,
    state_frame,
    to_tenths,
    unseal,
)
from faro_box.errors import ConfigError, DeviceError, ProtocolError
from faro_box.rules.faro.beads import CaseKeeperState

log = logging.getLogger(__name__)

# A query is asked again once if no answer came (noise can damage the command itself), within
# the 2 s a caller waits by default.
QUERY_ATTEMPTS = 2

SETTINGS = ("port", "baudrate", "ack_timeout", "max_attempts", "reconnect_interval", "heartbeat")


@dataclass(slots=True)
class LinkStats:
    frames_sent: int = 0
    resends: int = 0
    acks: int = 0
    errors: int = 0
    reconnects: int = 0
    disconnects: int = 0
    firmware_restarts: int = 0
    last_error: str = ""
    show_to_wire_s: float = 0.0     # the newest state's show() -> its frame written to the port
    show_to_ack_s: float = 0.0      # the newest state's show() -> the firmware's OK


class _Port:
    """A serial port read line by line, tolerant of garbage between lines."""

    def __init__(self, path: str, baudrate: int) -> None:
        self.serial_errors = (serial.SerialException, OSError)
        try:
            self.serial = serial.Serial(path, baudrate, timeout=0.02, write_timeout=2.0)
        except self.serial_errors as exc:
            raise DeviceError(f"cannot open the servo case-keeper port {path!r}: {exc}") from None
        self.buffer = bytearray()

    def write(self, data: bytes) -> None:
        self.serial.write(data)
        self.serial.flush()

    def read_line(self, deadline: float) -> str | None:
        while True:
            cut = self.buffer.find(b"\n")
            if cut >= 0:
                line = bytes(self.buffer[:cut]).decode("ascii", "replace").strip("\r\x00 ")
                del self.buffer[: cut + 1]
                if line.startswith("FAULT "):   # the firmware's own report of an error it survived
                    log.warning("servo case-keeper firmware: %s", line[6:])
                    continue
                return line
            if time.monotonic() >= deadline:
                return None
            self.buffer.extend(self.serial.read(max(1, self.serial.in_waiting)))
            if len(self.buffer) > 4096:   # a firmware never sends this without a newline
                del self.buffer[:-1024]

    def pending_lines(self) -> list[str]:
        """Every whole line already received, read without waiting."""
        self.buffer.extend(self.serial.read(self.serial.in_waiting))
        lines = []
        while (line := self.read_line(0.0)) is not None:
            lines.append(line)
        return lines

    def close(self) -> None:
        try:
            self.serial.close()
        except self.serial_errors:
            pass


class ServoCaseKeeper(ClosedByWith):
    def __init__(self, port: str, *, baudrate: int = 115200, ack_timeout: float = 0.5,
                 max_attempts: int = 4, reconnect_interval: float = 0.25, heartbeat: float = 1.0) -> None:
        self.path = port
        self.baudrate = baudrate
        self.ack_timeout = ack_timeout
        self.max_attempts = max_attempts
        self.reconnect_interval = reconnect_interval
        self.heartbeat = heartbeat
        self.stats = LinkStats()
        self._cond = threading.Condition()
        self._desired: tuple[int, ...] | None = None
        self._desired_at = 0.0
        self._sent: tuple[int, ...] | None = None     # the values carried by sequence number _seq
        self._acked: tuple[int, ...] | None = None
        self._seq = 0
        self._closed = False
        self._queries: list[tuple[str, list[str | None], threading.Event]] = []
        self._port: _Port | None = None
        self._fault: str | None = None
        self._watchers: list[Callable[[str | None], None]] = []
        self.version = self._connect()   # DeviceError here: the configured hardware is not there
        self._thread = threading.Thread(target=self._run, name="servo-case-keeper", daemon=True)
        self._thread.start()

    @classmethod
    def from_config(cls, config: Mapping[str, object]) -> ServoCaseKeeper:
        unknown = set(config) - set(SETTINGS)
        if unknown:
            raise ConfigError(f"servo case_keeper key {sorted(unknown)[0]!r} is unknown: use {', '.join(SETTINGS)}")
        if not isinstance(config.get("port"), str):
            raise ConfigError(f"servo case_keeper needs \"port\" (like '/dev/ttyACM0'), got {config.get('port')!r}")
        return cls(**config)  # type: ignore[arg-type]

    # ---- the table's side --------------------------------------------------------------
    def show(self, state: CaseKeeperState) -> None:
        tenths = to_tenths(state.flat_positions())
        rod = self.version.rod_tenths
        if max(tenths) > rod:
            raise DeviceError(f"the firmware's rod is {rod / 10:g} mm but the state needs "
                              f"{max(tenths) / 10:g} mm: set the same rod_length on both")
        with self._cond:
            if self._closed:
                raise DeviceError("the servo case-keeper was closed; it cannot show a state")
            self._desired = tenths
            self._desired_at = time.perf_counter()
            self._cond.notify_all()

    def wait_synced(self, timeout: float) -> bool:
        """True once the firmware acknowledged the newest state shown."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._desired is None or self._acked != self._desired:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def query(self, command: str, timeout: float = 2.0) -> str:
        """One command's reply line (GET, WHERE, CAL n, VERSION …), asked through the link thread."""
        box: list[str | None] = [None]
        done = threading.Event()
        with self._cond:
            self._queries.append((command, box, done))
            self._cond.notify_all()
        if not done.wait(timeout) or box[0] is None:
            raise DeviceError(f"the firmware did not answer {command!r} within {timeout:g} s")
        return box[0]

    def firmware_state(self, timeout: float = 2.0) -> FirmwareState:
        seq, targets = parse_positions_line(self.query("GET", timeout), "STATE")
        return FirmwareState(seq, targets)

    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def fault(self) -> str | None:
        return self._fault

    def watch(self, callback: Callable[[str | None], None]) -> None:
        """``callback(message)`` on each new fault, ``callback(None)`` once it is repaired."""
        with self._cond:
            self._watchers.append(callback)

    def _set_fault(self, message: str | None) -> None:
        # Called from the link thread without holding _cond: a watcher may take other locks.
        # One incident is one report: a Pico that stops answering and then announces its
        # restart stays the first fault until the beads are set again.
        if message == self._fault or (message is not None and self._fault is not None):
            return
        self._fault = message
        with self._cond:
            watchers = list(self._watchers)
        for callback in watchers:
            try:
                callback(message)
            except Exception:  # a display that fails must not stop the link
                log.exception("a case-keeper fault watcher failed")

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout=5)
        if self._port is not None:
            self._port.close()
            self._port = None

    # ---- the link thread ---------------------------------------------------------------
    def _connect(self) -> FirmwareVersion:
        port = _Port(self.path, self.baudrate)
        try:
            # A newline first ends whatever half line noise left in the firmware's buffer.
            pong = None
            for _ in range(4):   # a Pico that just enumerated may still be booting
                port.write(b"\nPING\n")
                pong = self._await(port, lambda w: w[0] == "PONG" and len(w) == 2 and w[1].isdigit(), 0.5)
                if pong is not None:
                    break
            if pong is None:
                raise DeviceError(f"no faro-box firmware answers PING on {self.path!r}")
            port.write(b"VERSION\n")
            reply = self._await(port, lambda w: w[0] == "VERSION", 2.0)
            if reply is None:
                raise DeviceError(f"the firmware on {self.path!r} does not answer VERSION")
            version = FirmwareVersion.parse(reply)
            if version.protocol != PROTOCOL:
                raise DeviceError(f"the firmware on {self.path!r} speaks protocol {version.protocol}, "
                                  f"this host speaks {PROTOCOL}: run faro-box firmware install")
        except ProtocolError as exc:
            port.close()
            raise DeviceError(str(exc)) from None
        except port.serial_errors as exc:
            port.close()
            raise DeviceError(f"the servo case-keeper port {self.path!r} failed: {exc}") from None
        except DeviceError:
            port.close()
            raise
        with self._cond:
            # Continue after the firmware's own counter, and resend the whole state.
            shown = self._seq
            self._seq = int(pong.split()[1])
            self._sent = None
            self._acked = None
            self._cond.notify_all()
        if shown and self._seq == 0:
            # It had our state and now shows none: it restarted while the link was down
            # (a reboot can outlast the attempts before the port is reopened).
            self.stats.firmware_restarts += 1
            log.info("servo case-keeper firmware on %s restarted while the link was down", self.path)
        self._port = port
        return version

    @staticmethod
    def _await(port: _Port, wanted, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while (line := port.read_line(deadline)) is not None:
            words = line.split()
            if words and wanted(words):
                return line
        return None

    def _run(self) -> None:
        attempts = 0
        while True:
            with self._cond:
                if self._closed:
                    return
                pending = self._desired is not None and self._desired != self._acked
                if not pending and not self._queries and self._port is not None:
                    self._cond.wait(self.heartbeat)
                    pending = self._desired is not None and self._desired != self._acked
                    idle = not pending and not self._queries
                else:
                    idle = False
                if self._closed:
                    return
            try:
                if self._port is None:
                    self._reconnect()
                elif self._queries:
                    self._answer_query()
                elif pending:
                    attempts = 0 if self._send_state() else attempts + 1
                elif idle:
                    attempts = 0 if self._ping() else attempts + 1
                if attempts >= self.max_attempts:
                    self._drop(f"no answer after {attempts} attempts")
                    attempts = 0
            except (OSError, ProtocolError) as exc:  # serial.SerialException is an OSError
                self._drop(str(exc))
                attempts = 0
            except Exception as exc:  # noqa: BLE001  pyserial raises a few of its own types
                self._drop(f"{type(exc).__name__}: {exc}")
                attempts = 0

    def _reconnect(self) -> None:
        try:
            self.version = self._connect()
        except DeviceError as exc:
            self.stats.last_error = str(exc)
            with self._cond:
                self._cond.wait(self.reconnect_interval)
            return
        self.stats.reconnects += 1
        log.info("servo case-keeper reconnected on %s", self.path)

    def _drop(self, reason: str) -> None:
        self.stats.disconnects += 1
        self.stats.last_error = reason
        log.warning("servo case-keeper link lost: %s", reason)
        if self._port is not None:
            self._port.close()
            self._port = None
        with self._cond:
            self._acked = None
        self._set_fault(f"the servo case-keeper on {self.path} does not answer: reconnecting")

    def _send_state(self) -> bool:
        assert self._port is not None
        with self._cond:
            desired, shown_at = self._desired, self._desired_at
            if desired != self._sent:
                self._seq = next_seq(self._seq)
                self._sent = desired
            else:
                self.stats.resends += 1
            seq = self._seq
        assert desired is not None
        self._port.write(state_frame(seq, desired))
        self.stats.frames_sent += 1
        self.stats.show_to_wire_s = time.perf_counter() - shown_at
        deadline = time.monotonic() + self.ack_timeout
        while (line := self._port.read_line(deadline)) is not None:
            words = line.split()
            if not words:
                continue
            if words[0] == "OK" and len(words) >= 2 and words[1] == str(seq):
                with self._cond:
                    self._acked = desired
                    self._cond.notify_all()
                    newest = self._desired == desired
                if newest:
                    self._set_fault(None)
                self.stats.acks += 1
                self.stats.show_to_ack_s = time.perf_counter() - shown_at
                return True
            if words[0] == "ERR" and len(words) >= 3:
                if words[1] not in ("-", str(seq)):
                    continue      # a late reply about an older frame
                self.stats.errors += 1
                self.stats.last_error = line
                if words[2] == "stale":
                    self._resync(words)
                return False
            if words[0] == "READY":
                self._firmware_restarted()
                return False
        return False

    def _resync(self, words: list[str]) -> None:
        last = next((w.split("=", 1)[1] for w in words if w.startswith("last=")), "")
        with self._cond:
            self._seq = int(last) if last.isdigit() else self._seq
            self._sent = None

    def _firmware_restarted(self) -> None:
        self.stats.firmware_restarts += 1
        with self._cond:
            self._seq = 0
            self._sent = None
            self._acked = None
        self._set_fault("the case-keeper's Pico restarted: setting its beads again")

    def _ping(self) -> bool:
        assert self._port is not None
        self._port.write(b"PING\n")
        deadline = time.monotonic() + self.ack_timeout
        while (line := self._port.read_line(deadline)) is not None:
            words = line.split()
            if words[:1] == ["READY"]:
                self._firmware_restarted()
            elif words[:1] == ["PONG"] and len(words) == 2 and words[1].isdigit():
                with self._cond:
                    if int(words[1]) != self._seq:
                        # The firmware shows something else (restarted, parked): resend.
                        restarted = words[1] == "0"
                        if restarted:
                            self.stats.firmware_restarts += 1
                        self._seq = int(words[1])
                        self._sent = None
                        self._acked = None
                    else:
                        restarted = False
                    synced = self._desired is None or self._acked == self._desired
                if restarted:
                    self._set_fault("the case-keeper's Pico restarted: setting its beads again")
                elif synced:
                    self._set_fault(None)
                return True
        return False

    def _answer_query(self) -> None:
        assert self._port is not None
        with self._cond:
            command, box, done = self._queries.pop(0)
        try:
            box[0] = self._ask(command)
        finally:
            done.set()

    def _ask(self, command: str) -> str | None:
        """The reply to one command, never a stray line that was waiting or arrived beside it."""
        assert self._port is not None
        verb = command.split()[0]
        expected = {"GET": "STATE", "PING": "PONG"}.get(verb, verb)
        sealed = expected in ("STATE", "WHERE")
        for stray in self._port.pending_lines():     # replies nobody waited for, and noise
            if stray.split()[:1] == ["READY"]:
                self._firmware_restarted()
        for _ in range(QUERY_ATTEMPTS):
            self._port.write(b"\n" + command.encode("ascii") + b"\n")
            deadline = time.monotonic() + max(self.ack_timeout, 1.0)
            while (line := self._port.read_line(deadline)) is not None:
                words = line.split()
                if words[:1] == ["READY"]:
                    self._firmware_restarted()
                elif words[:1] == [expected] and (not sealed or _sealed(line)):
                    return line
                elif words[:2] == ["OK", verb]:
                    return line
                elif words[:2] == ["ERR", "-"] and verb not in ("GET", "WHERE", "PING", "VERSION"):
                    # The refusal of this command (CAL ...), unless it is about a damaged line,
                    # which may be noise before ours: the answer to ours may still come.
                    if words[2:3] not in (["bad-bytes"], ["too-long"], ["checksum"]):
                        return line
        return None


def _sealed(line: str) -> bool:
    try:
        unseal(line)
    except ProtocolError:
        return False
    return True
