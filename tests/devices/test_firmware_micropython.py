"""The shipped firmware under real MicroPython (the unix port), across a real pseudo-terminal, against
the real host driver; the Pico's ``machine`` is tests/devices/pico_standin, which records every
pulse the firmware sets, and pty_cable.Firmware plays the Pico's power and hardware watchdog.

What a dealer depends on: after any deal, reboot, hang or noise, every servo stands at the pulse
for the bead position the host asked for, and no servo ever moved faster than the speed limit.
"""

from __future__ import annotations

import json
import logging
import time

import pytest
import serial
from pty_cable import Cable, Firmware, settled

from faro_box.cards import FULL_DECK
from faro_box.devices.servo_case_keeper import ServoCaseKeeper
from faro_box.devices.servo_frames import parse_positions_line, seal, state_frame, to_tenths
from faro_box.rules.faro.beads import case_keeper

DECK = FULL_DECK[::-1]
ROD, BEAD = 1200, 100                        # tenths of a millimetre, the firmware's defaults
HOME = [ROD - (4 - i) * BEAD for _ in range(13) for i in range(4)]
BUILDS: dict[str, dict[str, object]] = {"beads": {"driver": "pca9685"},
          "carriage": {"driver": "pwm", "pins": list(range(2, 15))}}


def tenths(cards: int) -> tuple[int, ...]:
    return to_tenths(case_keeper(DECK[:cards]).flat_positions())


def servo_targets(beads: tuple[int, ...], build: str) -> list[int]:
    """PROTOCOL.md, Motion: each bead, or each rod's carriage at its newest bead out of the box."""
    if build == "beads":
        return list(beads)
    out = []
    for rod in range(13):
        front = HOME[rod * 4]
        for i in range(4):
            if beads[rod * 4 + i] < HOME[rod * 4 + i]:
                front = beads[rod * 4 + i]
        out.append(front)
    return out


def pulse_us(position: float) -> int:
    return int(1000 + 1000 * position / ROD + 0.5)


def recorded_value(build: str, us: int) -> int:
    # The PWM build records microseconds; PCA9685 boards get the nearest of 4096 ticks in 20 ms.
    return us if build == "carriage" else (us * 4096 + 10000) // 20000


def as_us(build: str, value: int) -> float:
    return value if build == "carriage" else value * 20000 / 4096


def start_rig(tmp_path, build: str, **config):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "config.json").write_text(json.dumps({**BUILDS[build], **config}))
    cable = Cable(tmp_path)
    firmware = Firmware(cable, flash)
    return cable, firmware


@pytest.fixture
def rigs(tmp_path):
    made = []

    def make(build="beads", keeper=True, fault=None, **config):
        cable, firmware = start_rig(tmp_path, build, **config)
        made.append((cable, firmware, None))
        firmware.start(fault=fault)
        host = None
        if keeper:
            host = ServoCaseKeeper(cable.port, ack_timeout=0.3, heartbeat=0.2, reconnect_interval=0.05)
            made[-1] = (cable, firmware, host)
        return cable, firmware, host

    yield make
    for cable, firmware, host in made:
        if host is not None:
            host.close()
        firmware.stop()
        cable.close()



def check_pulses(firmware: Firmware, build: str, want: tuple[int, ...], speed_mm_s: float,
                 timeout: float = 3.0) -> None:
    """Every servo's last pulse (within ``timeout``) is the one for where the host asked, and no
    write broke the speed limit."""
    servos = 52 if build == "beads" else 13
    expected = [recorded_value(build, pulse_us(p)) for p in servo_targets(want, build)]
    us_per_ms = 1000 / ROD * speed_mm_s / 100      # 1000 us over the rod; tenths per ms = mm/s / 100
    deadline = time.monotonic() + timeout
    while True:
        last: dict[int, tuple[int, int]] = {}
        writes, loops = firmware.servo_writes()
        for _, servo, value, loop in writes:
            assert 0 <= servo < servos
            if servo in last:
                then, before = last[servo]
                jump = abs(as_us(build, value) - as_us(build, before))
                # The firmware read its clock for each step after the pass's feed and before the
                # next: the pass of the earlier write began no earlier than loops[then], the
                # later one's step read the clock no later than loops[loop + 1]. One step of
                # rounding on each side.
                ran = loops[loop + 1] - loops[then]
                allowed = us_per_ms * ran + 2 * as_us(build, 1)
                assert jump <= allowed, f"servo {servo} jumped {jump:.0f} us in {ran} ms"
            last[servo] = (loop, value)
        standing = [last[s][1] for s in range(servos)]
        if standing == expected:
            return
        assert time.monotonic() < deadline, f"servos stand at {standing}, the host asked for {expected}"
        time.sleep(0.05)


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_a_whole_deal_lands_every_servo_at_the_hosts_positions_within_the_speed_limit(rigs, build):
    cable, firmware, keeper = rigs(build, speed=80, tick_ms=20)      # the shipped motion settings
    assert keeper.version.servos == (52 if build == "beads" else 13) and keeper.version.mode == build
    for n in range(0, 53):
        keeper.show(case_keeper(DECK[:n]))
        time.sleep(0.03)          # cards come faster than the beads glide: carriages change beads mid-glide
    assert keeper.wait_synced(5)
    settled(cable, tenths(52))
    check_pulses(firmware, build, tenths(52), speed_mm_s=80)
    assert firmware.reboots == []


@pytest.mark.parametrize("port", ["kept", "gone"])
def test_a_reboot_mid_deal_ends_with_the_whole_state_resent(rigs, port):
    cable, firmware, keeper = rigs("beads", speed=4000, tick_ms=5)
    for n in range(0, 20):
        keeper.show(case_keeper(DECK[:n]))
    assert keeper.wait_synced(5)
    firmware.stop()
    if port == "gone":
        cable.unplug()                    # a Pico's USB port vanishes while it reboots
    for n in range(20, 30):               # cards keep coming while it is down
        keeper.show(case_keeper(DECK[:n]))
    time.sleep(2.0)                       # longer than the host's four attempts
    if port == "gone":
        cable.plug()
    firmware.start()
    assert keeper.wait_synced(8)
    settled(cable, tenths(29))
    check_pulses(firmware, "beads", tenths(29), speed_mm_s=4000)
    assert keeper.stats.firmware_restarts >= 1         # counted even though the link was dropped first


def test_a_hung_servo_bus_is_rebooted_by_the_watchdog_and_the_state_resent(rigs):
    # The I2C bus stops answering after the power-up writes and a few moves: the loop hangs.
    cable, firmware, keeper = rigs("beads", fault="hang:60", speed=4000, tick_ms=5, watchdog_ms=500)
    assert firmware.records[0][0][1:] == ["WDT", "500"]      # started before anything can hang
    for n in range(0, 10):
        keeper.show(case_keeper(DECK[:n]))
        time.sleep(0.02)
    deadline = time.monotonic() + 10
    while firmware.reboots != ["watchdog"]:
        assert time.monotonic() < deadline, "the hung firmware was never rebooted"
        time.sleep(0.05)
    assert keeper.wait_synced(8)
    settled(cable, tenths(9))
    check_pulses(firmware, "beads", tenths(9), speed_mm_s=4000)


def test_a_failing_servo_write_is_reported_and_survived_without_a_reboot(rigs, caplog):
    caplog.set_level(logging.WARNING, logger="faro_box.devices.servo_case_keeper")
    cable, firmware, keeper = rigs("beads", fault="fail:60:10", speed=4000, tick_ms=5)
    for n in range(0, 12):
        keeper.show(case_keeper(DECK[:n]))
        time.sleep(0.02)
    assert keeper.wait_synced(5)
    settled(cable, tenths(11))
    check_pulses(firmware, "beads", tenths(11), speed_mm_s=4000)
    assert firmware.reboots == [] and firmware.process.poll() is None
    assert any("servos OSError" in r.getMessage() for r in caplog.records)


def test_an_escaped_crash_ends_in_a_watchdog_reboot(rigs, tmp_path):
    # A config the firmware cannot use breaks its set-up, outside the guarded loop: it must not
    # stay at the prompt for ever, and it says why on the line.
    cable, firmware = start_rig(tmp_path, "beads", watchdog_ms=300, driver="stepper")
    try:
        with serial.Serial(cable.port, 115200, timeout=0.2) as port:
            firmware.start(wait=False)
            heard = []
            deadline = time.monotonic() + 10
            while len(firmware.reboots) < 2:
                assert time.monotonic() < deadline, "a crashed firmware stayed down"
                heard.append(port.readline().decode("ascii", "replace").strip())
        assert set(firmware.reboots) == {"watchdog"}
        assert "FAULT firmware ValueError driver 'stepper' is not pwm or pca9685" in heard
    finally:
        firmware.stop()
        cable.close()


# ---- the firmware's own answers, straight over the line -------------------------------------

@pytest.fixture
def line(rigs):
    cable, firmware, _ = rigs("beads", keeper=False, speed=4000, tick_ms=5)
    with serial.Serial(cable.port, 115200, timeout=2) as port:
        # Replies come in order: once VERSION is answered, no PONG of the boot's probes is left.
        port.write(b"\nVERSION\n")
        while not port.readline().startswith(b"VERSION"):
            pass
        yield firmware, port


def exchange(port: serial.Serial, data: bytes, replies: int) -> list[str]:
    port.reset_input_buffer()
    port.write(data)
    port.flush()
    got = []
    for _ in range(replies):
        text = port.readline().decode("ascii", "replace").strip()
        while text.startswith("READY"):
            text = port.readline().decode("ascii", "replace").strip()
        got.append(text)
    return got


def crc_form(seq_from: int, form, fits) -> str:
    """A STATE line whose checksum written in ``form`` still parses as a number in base 16."""
    body = f"STATE {seq_from} " + ",".join(map(str, tenths(3)))
    for seq in range(seq_from, seq_from + 60000):
        body = f"STATE {seq} " + ",".join(map(str, tenths(3)))
        crc = int(seal(body).rsplit(" ", 1)[1], 16)
        if fits(crc):
            return f"{body} {form(crc)}"
    raise AssertionError("no such checksum")


MALFORMED = [
    (b"CAL --5\n", "ERR - format"),
    (b"CAL 0 1000 2000 --1\n", "ERR - format"),
    (b"CAL 0 1000\n", "ERR - format"),
    (b"CAL -\n", "ERR - format"),
    (b"CAL 99\n", "ERR - servo 99"),
    (b"CAL 0 2000 1000 1\n", "ERR - range"),
    (b"JUMP 3\n", "ERR - unknown 'JUMP'"),
    (b"PING 3\n", "ERR - unknown 'PING'"),
    (b"STATE\n", "ERR - checksum"),
    (b"STATE 1 1,2,3 FFFF\n", "ERR - checksum"),
    ((seal("STATE 1 1,2,3") + "\n").encode(), "ERR 1 range need 52 positions, got 3"),
    ((seal("STATE 0 " + ",".join(["0"] * 52)) + "\n").encode(), "ERR 0 range seq must be 1..65535"),
    ((seal("STATE 70000 " + ",".join(["0"] * 52)) + "\n").encode(), "ERR 70000 range seq must be 1..65535"),
    ((seal("STATE -1 " + ",".join(["0"] * 52)) + "\n").encode(), "ERR - format"),
    ((seal("STATE 2 " + ",".join(["1201"] * 52)) + "\n").encode(), "ERR 2 range position 1201 is beyond"),
    ((seal("STATE 2 " + ",".join(["-1"] * 52)) + "\n").encode(), "ERR 2 range position '-1'"),
    (b"PI\x03NG\n", "ERR - bad-bytes"),
    (b"\x00\xff\x04\n", "ERR - bad-bytes"),
    (b"X" * 641 + b"\n", "ERR - too-long"),
    (b"STATE 1 " + b"9," * 2000 + b"\n", "ERR - too-long"),
]


def test_malformed_and_over_long_lines_get_the_answers_protocol_md_names(line):
    firmware, port = line
    for data, want in MALFORMED:
        (reply,) = exchange(port, data, 1)
        assert reply.startswith(want), (data[:60], reply)
    # Checksums are four upper-case hex digits; Python's int(x, 16) would take all of these.
    for form, fits in ((lambda c: f"0x{c:02X}", lambda c: c < 0x100),
                       (lambda c: f"{c:04x}", lambda c: any(ch in "abcdef" for ch in f"{c:04x}")),
                       (lambda c: f"+{c:03X}", lambda c: c < 0x1000),
                       (lambda c: f"{c:04X}"[:1] + "_" + f"{c:04X}"[2:], lambda c: 0x100 <= c < 0x1000)):
        sealed = crc_form(3, form, fits)
        assert exchange(port, sealed.encode() + b"\n", 1) == ["ERR - checksum"], sealed
    assert exchange(port, b"PING\n", 1) == ["PONG 0"]          # still running, nothing shown
    assert firmware.reboots == [] and firmware.process.poll() is None


def test_a_burst_of_frames_is_answered_in_order_and_the_newest_wins(line):
    firmware, port = line
    frames = b"".join(state_frame(seq, tenths(seq % 53)) for seq in range(1, 1001))
    garbage = b"\x03\x00\xffnoise\n"
    burst = b"".join(garbage + state_frame(seq, tenths(seq % 53)) for seq in range(1001, 1101))
    replies = exchange(port, b"\n" + frames + burst, 1000 + 200)
    oks = [r for r in replies if r.startswith("OK")]
    assert oks == [f"OK {seq}" for seq in range(1, 1101)]
    assert replies.count("ERR - bad-bytes") == 100
    (state,) = exchange(port, b"GET\n", 1)
    assert parse_positions_line(state, "STATE") == (1100, tenths(1100 % 53))
    # The flood never kept the loop from its servos and its watchdog: it kept passing, feeding.
    _, loops = firmware.servo_writes()
    assert firmware.reboots == [] and max(b - a for a, b in zip(loops, loops[1:], strict=False)) < 1000
