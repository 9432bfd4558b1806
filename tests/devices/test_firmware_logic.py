"""The firmware's own modules, imported unchanged into CPython, and compiled by mpy-cross."""

from __future__ import annotations

import binascii
import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "faro_box" / "firmware"
sys.path.insert(0, str(FIRMWARE))

import fbkeeper  # noqa: E402
import fblines  # noqa: E402
import fbproto  # noqa: E402
import fbservo  # noqa: E402
import fbstore  # noqa: E402

from faro_box.cards import FULL_DECK  # noqa: E402
from faro_box.devices.servo_frames import state_frame, to_tenths  # noqa: E402
from faro_box.rules.faro.beads import case_keeper  # noqa: E402


class Servos:
    def __init__(self, count=52):
        self.count = count
        self.pulses: dict[int, int] = {}
        self.writes = 0

    def write(self, index, us):
        self.pulses[index] = us
        self.writes += 1


def keeper(tmp_path, count=52, **config):
    return fbkeeper.Keeper(Servos(count), {"speed": 100, **config}, fbstore.Storage(str(tmp_path) + "/"))


def frame(seq, cards):
    return state_frame(seq, to_tenths(case_keeper(FULL_DECK[:cards]).flat_positions())).decode().strip()


@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_every_firmware_file_compiles_with_mpy_cross(path, tmp_path):
    done = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "out.mpy"), str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.mpy").stat().st_size > 0


def test_the_firmware_checksum_is_the_hosts():
    for data in (b"", b"STATE 1 0,0", bytes(range(256))):
        assert fbproto.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_power_up_drives_every_servo_to_the_safe_position_at_once(tmp_path):
    k = keeper(tmp_path)
    assert k.servos.writes == 52
    # Home of bead 0 is 80 mm of 120: 1000 + 1000 * 80/120 us.
    assert k.servos.pulses[0] == 1667 and k.servos.pulses[3] == 1917


def test_beads_glide_within_the_speed_limit(tmp_path):
    k = keeper(tmp_path, speed=100)          # 100 mm/s = 1 tenth of a mm per ms
    assert k.handle(frame(1, 1)).startswith("OK 1")
    k.step(100)
    assert k.current[0] == 800 - 100 and k.moving
    k.step(10_000)
    assert k.current[0] == 0 and not k.moving
    assert k.handle("WHERE").startswith("WHERE 0 0,900,")


def test_frames_are_checked_and_sequenced(tmp_path):
    k = keeper(tmp_path)
    good = frame(5, 3)
    assert k.handle(good) == "OK 5"
    assert k.handle(good) == "OK 5 DUP"
    assert k.handle(good[:-1] + ("0" if good[-1] != "0" else "1")) == "ERR - checksum"
    assert k.handle(frame(4, 4)) == "ERR 4 stale last=5"
    assert k.handle(frame(6, 2)) == "OK 6" and k.handle("PING") == "PONG 6"
    too_far = fbproto.seal("STATE 7 " + ",".join(["1201"] * 52))
    assert k.handle(too_far).startswith("ERR 7 range position 1201 is beyond the rod")
    short = fbproto.seal("STATE 8 1,2,3")
    assert k.handle(short) == "ERR 8 range need 52 positions, got 3"
    assert k.handle("JUMP") == "ERR - unknown 'JUMP'"
    assert fbproto.is_newer(2, 65535) and not fbproto.is_newer(65535, 2)   # wraps


def test_calibration_is_set_saved_and_reloaded_after_power_returns(tmp_path):
    k = keeper(tmp_path)
    assert k.handle("CAL 3") == "CAL 3 1000 2000 1"
    assert k.handle("CAL 3 600 2400 -1") == "OK CAL 3"
    assert k.servos.pulses[3] == 750      # reversed: 110 mm of 120 is 1/12 from the max end
    assert k.handle("CAL 3 2400 600 1").startswith("ERR - range")
    assert k.handle("CAL 60").startswith("ERR - servo 60")
    assert k.handle("CAL SAVE") == "OK CAL SAVE"
    again = keeper(tmp_path)
    assert again.handle("CAL 3") == "CAL 3 600 2400 -1"
    assert again.servos.pulses[3] == k.servos.pulses[3]


def test_a_thirteen_servo_build_moves_one_carriage_per_rod_to_its_newest_bead(tmp_path):
    k = keeper(tmp_path, count=13)
    assert "mode carriage" in k.handle("VERSION")
    deck = FULL_DECK  # AS is the soda, 2S a loser, 3S a winner
    k.handle(state_frame(1, to_tenths(case_keeper(deck[:3]).flat_positions())).decode().strip())
    k.step(100_000)
    assert k.servo_positions(k.current)[:4] == [0, 0, 100, 800]


def test_lines_with_control_bytes_or_no_end_are_dropped_whole():
    reader = fblines.LineReader(limit=20)
    events = reader.feed(b"PI\x03NG\nPING\r\n" + b"X" * 50 + b"\nVERSION\n\n")
    assert events == [(None, "bad-bytes"), ("PING", None), (None, "too-long"), ("VERSION", None)]


def test_the_pca9685_boards_run_at_50_hz_and_get_each_servos_pulse():
    class I2C:
        def __init__(self):
            self.writes = []

        def writeto_mem(self, address, register, data):
            self.writes.append((address, register, bytes(data)))

    bus = I2C()
    servos = fbservo.Pca9685Servos(bus, [0x40, 0x41, 0x42, 0x43], 52, lambda ms: None)
    assert (0x40, 0xFE, bytes([121])) in bus.writes and (0x43, 0xFE, bytes([121])) in bus.writes
    servos.write(17, 1500)        # board 2, channel 1: 1500 us of 20 ms = 307 ticks
    assert bus.writes[-1] == (0x41, 0x06 + 4, bytes([0, 0, 307 & 0xFF, 307 >> 8]))
    with pytest.raises(ValueError, match="52 servos need 4"):
        fbservo.Pca9685Servos(bus, [0x40], 52, lambda ms: None)


def test_calibration_numbers_with_a_doubled_minus_are_refused_not_fatal(tmp_path):
    k = keeper(tmp_path)
    for line in ("CAL --5", "CAL 0 1000 2000 --1", "CAL -", "CAL 0 1000", "CAL 0 ١٠٠٠ 2000 1"):
        assert k.handle(line).startswith("ERR - format"), line
    assert k.handle("CAL 0") == "CAL 0 1000 2000 1"


def test_a_checksum_is_four_upper_case_hex_digits_only():
    body = "STATE 1 " + ",".join(["0"] * 52)
    crc = fbproto.crc16(body.encode())
    assert fbproto.unseal(f"{body} {crc:04X}") == body
    for given in (f"{crc:04x}", f"0x{crc & 0xFF:02X}", f"+{crc & 0xFFF:03X}", f"{crc >> 12:X}_{crc & 0xFF:02X}"):
        assert fbproto.unseal(f"{body} {given}") is None, given
    # Bodies whose checksum each non-digit spelling would otherwise match.
    for spell, fits in ((lambda c: f"0x{c:02X}", lambda c: c < 0x100),
                        (lambda c: f"+{c:03X}", lambda c: c < 0x1000),
                        (lambda c: f"{c >> 8:X}_{c & 0xFF:02X}", lambda c: 0x100 <= c < 0x1000)):
        seq = next(s for s in range(1, 65536) if fits(fbproto.crc16(f"STATE {s} 0".encode())))
        line = f"STATE {seq} 0"
        assert fbproto.unseal(f"{line} {spell(fbproto.crc16(line.encode()))}") is None


def test_a_carriage_never_jumps_when_its_rods_newest_bead_changes(tmp_path):
    k = keeper(tmp_path, count=13, speed=80)
    limit_us = 80 * 10 / 1000 * 20 * 1000 / 1200 + 1      # 20 ms at 80 mm/s, in microseconds, + rounding
    seen = dict(k.servos.pulses)
    for cards in range(1, 53):
        k.handle(frame(cards, cards))
        for _ in range(3):                                  # the next card comes mid-glide
            k.step(20)
            for servo, us in k.servos.pulses.items():
                assert abs(us - seen[servo]) <= limit_us, (cards, servo, us, seen[servo])
            seen = dict(k.servos.pulses)
    for _ in range(200):
        k.step(20)
    want = to_tenths(case_keeper(FULL_DECK[:52]).flat_positions())
    assert k.standing == [float(p) for p in k.servo_positions(list(want))] and not k.moving


def test_pca9685_ticks_are_the_nearest_to_the_pulse():
    class I2C:
        def __init__(self):
            self.writes = []

        def writeto_mem(self, address, register, data):
            self.writes.append(bytes(data))

    bus = I2C()
    servos = fbservo.Pca9685Servos(bus, [0x40], 16, lambda ms: None)
    for us in (1000, 1502, 1999, 2000, 2499):
        servos.write(0, us)
        ticks = bus.writes[-1][2] | bus.writes[-1][3] << 8
        assert abs(ticks * 20000 / 4096 - us) <= 20000 / 4096 / 2, us


def test_the_host_reads_a_checksum_exactly_as_the_firmware_writes_it():
    from faro_box.devices.servo_frames import unseal
    from faro_box.errors import ProtocolError

    sealed = fbproto.seal("STATE 4 " + ",".join(["0"] * 52))
    body, crc = sealed.rsplit(" ", 1)
    assert unseal(sealed) == body
    assert crc != crc.lower()                      # this body's checksum has hex letters
    with pytest.raises(ProtocolError, match="no valid checksum"):
        unseal(f"{body} {crc.lower()}")
    with pytest.raises(ProtocolError):
        unseal(f"{body} {crc}0")
