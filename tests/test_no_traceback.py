"""Whatever a person types, a command answers with one line naming the input and what is wrong,
a non-zero exit, and never a traceback; the other inputs of the run are still processed."""

from __future__ import annotations

import json
import os
import pty
import select
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from table_scripts import sample_script

from faro_box.cards import Card
from faro_box.cli import COMMANDS
from faro_box.devices.image_files import MAX_PIXELS
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import FRENCH, render_card


def faro_box(*args: str, stdin: bytes | None = b"", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", *args], input=stdin, capture_output=True,
                          timeout=timeout)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def one_error_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode not in (0, None), done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_a_negative_demo_seed_is_one_line():
    one_error_line(faro_box("demo", "--seed", "-3", "--no-web", "--fast"), "--seed", "-3")


def test_a_negative_baccarat_demo_seed_is_one_line():
    one_error_line(faro_box("baccarat-demo", "--seed", "-1", "--no-web", "--fast"), "--seed", "-1")


def test_a_negative_simulated_camera_seed_is_one_line():
    one_error_line(faro_box("track", "sim:-1"), "'sim:-1'")


@pytest.mark.parametrize("args", [("vision", "read"), ("settle", "-")], ids=["vision read", "settle"])
def test_a_reader_gone_away_ends_a_command_quietly(card_photo, args):
    """`faro-box vision read *.jpg | head -1`: the pipe closed before the command writes."""
    argv = [*args, str(card_photo)] if args[0] == "vision" else list(args)
    proc = subprocess.Popen([sys.executable, "-m", "faro_box.cli", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()
    script = json.dumps(sample_script()).encode() if args[0] == "settle" else b""
    _, err = proc.communicate(script, timeout=120)
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text and "BrokenPipeError" not in text and "Exception ignored" not in text, text
    assert proc.returncode == 1


def test_pin_without_a_terminal_is_one_line():
    # A new session has no controlling terminal: getpass cannot turn the echo off.
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "pin"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, start_new_session=True)
    one_error_line(done, "--stdin")
    assert "pin_hash" not in done.stdout


def test_pin_ended_with_ctrl_d_is_one_line():
    pid, fd = pty.fork()
    if pid == 0:  # the child: its terminal is the pseudo-terminal
        os.execv(sys.executable, [sys.executable, "-m", "faro_box.cli", "pin"])
    seen = _read_until(fd, b"PIN: ")
    os.write(fd, b"\x04")  # Ctrl-D at the prompt
    seen += _read_until(fd, None)
    _, status = os.waitpid(pid, 0)
    text = seen.decode("utf-8", "replace")
    assert "Traceback" not in text and "EOFError" not in text, text
    assert os.waitstatus_to_exitcode(status) == 1
    assert "no PIN typed" in text and "pin_hash" not in text


def _read_until(fd: int, marker: bytes | None, timeout: float = 60) -> bytes:
    out, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            return out
        if not chunk:
            return out
        out += chunk
        if marker is not None and marker in out:
            return out
    raise AssertionError(f"no {marker!r} in {out!r}")


@pytest.fixture(scope="module")
def card_photo(tmp_path_factory) -> Path:
    rng = np.random.default_rng(3)
    quad = synth.card_quad(640, 480, 320, 0.0, (320, 240), 0.04, rng)
    frame = synth.place_card(synth.light_background(640, 480, rng), render_card(Card.parse("QH"), style=FRENCH), quad)
    path = tmp_path_factory.mktemp("photos") / "queen.png"
    cv2.imwrite(str(path), frame)
    return path


def _png_claiming(width: int, height: int, real: Path) -> bytes:
    """A real PNG whose header says width x height: a decoder would allocate that much."""
    data = bytearray(real.read_bytes())
    ihdr = bytearray(data[12:29])  # type, then 13 bytes of fields
    ihdr[4:12] = struct.pack(">II", width, height)
    data[12:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(ihdr)))
    return bytes(data)


def test_an_image_too_large_is_refused_from_its_header_and_the_others_are_read(tmp_path, card_photo):
    huge = tmp_path / "huge.png"
    huge.write_bytes(_png_claiming(60000, 60000, card_photo))
    big = tmp_path / "big.png"
    big.write_bytes(_png_claiming(20000, 20000, card_photo))
    done = faro_box("vision", "read", str(huge), str(card_photo), str(big))
    assert "Traceback" not in done.stderr and done.returncode == 1
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 2 and "'" + str(huge) + "'" in errors[0] and "too large" in errors[0]
    assert "'" + str(big) + "'" in errors[1] and "too large" in errors[1]
    assert 20000 * 20000 > MAX_PIXELS
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1 and str(card_photo) in lines[0] and '"card"' in lines[0]


def test_a_jpeg_cut_short_is_an_error_not_no_card(tmp_path, card_photo):
    ok, data = cv2.imencode(".jpg", cv2.imread(str(card_photo)))
    assert ok
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data.tobytes()[: len(data) // 2])
    one_error_line(faro_box("vision", "read", str(cut)), str(cut), "cut short")


def test_a_damaged_png_is_an_error(tmp_path, card_photo):
    data = bytearray(card_photo.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad.png"
    bad.write_bytes(bytes(data))
    one_error_line(faro_box("vision", "read", str(bad)), str(bad), "damaged")


def test_a_profile_holding_objects_names_no_numpy_internals(tmp_path, card_photo):
    bad = tmp_path / "objects.npz"
    np.savez(bad, meta=np.array([{"a": 1}], dtype=object))
    line = one_error_line(faro_box("vision", "read", "--profile", str(bad), str(card_photo)), str(bad),
                          "not a deck profile")
    assert "pickle" not in line


# Each command with a few hostile arguments: none may end in a traceback.
HOSTILE: dict[str, list[list[str]]] = {
    "demo": [["--seed", "-1", "--no-web"], ["--port", "70000"], ["--lang", "xx"], ["--journal", "{dir}", "--no-web",
                                                                                   "--fast"]],
    "baccarat-demo": [["--seed", "-7"], ["--coups", "0"], ["--port", "-2"], ["--journal", "{dir}", "--no-web",
                                                                                "--fast"]],
    "exhibit": [["{missing}"], ["{binary}"], ["--pace", "-1"], ["--config", "{binary}"]],
    "run": [["--config", "{missing}"], ["--config", "{binary}"], ["--config", "{dir}"]],
    "settle": [["{missing}"], ["{binary}"], ["-"], ["{dir}"]],
    "replay": [["{missing}"], ["{binary}"], ["-"]],
    "beads": [["{missing}"], ["{binary}"], ["-"]],
    "export": [["--journal", "{missing}"], ["--journal", "{binary}"], ["--journal", "{dir}"]],
    "journal": [["check", "--journal", "{missing}"], ["check", "--journal", "{binary}"], ["check", "--journal", "{dir}"],
                ["salvage", "--journal", "{binary}", "--to", "{dir}"], ["check", "--config", "{binary}"]],
    "vision": [["read", "{missing}"], ["read", "{binary}"], ["eval", "{binary}"], ["enroll", "{binary}"]],
    "track": [["{missing}"], ["{binary}"], ["sim:x"], ["usb:99"]],
    "calibrate": [["{missing}"], ["{binary}"], ["sim:-4"]],
    "firmware": [["check", "--port", "{missing}"], ["install", "--firmware", "{missing}", "--port", "{missing}"]],
    "pin": [["--stdin"]],
}


def test_every_command_is_swept():
    assert set(HOSTILE) == set(COMMANDS)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_command_answers_hostile_arguments_with_a_traceback(command, tmp_path):
    binary = tmp_path / "binary.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    places = {"missing": str(tmp_path / "nowhere"), "binary": str(binary), "dir": str(tmp_path)}
    for args in [["--bogus"], *HOSTILE[command]]:
        words = [a.format(**places) for a in args]
        done = faro_box(command, *words, stdin=binary.read_bytes(), timeout=120)
        assert "Traceback" not in done.stderr, (words, done.stderr)
        if command == "pin":  # a PIN of any bytes is a PIN: it is hashed
            continue
        assert done.returncode != 0, (words, done.stdout[-500:])


def test_a_folder_of_frames_with_an_image_too_large_is_one_line(tmp_path, card_photo):
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "0001.png").write_bytes(card_photo.read_bytes())
    (frames / "0002.png").write_bytes(_png_claiming(60000, 60000, card_photo))
    done = faro_box("track", str(frames), "--window", "100,60,540,60,540,420,100,420")
    assert "Traceback" not in done.stderr and done.returncode != 0, done.stderr
    assert "0002.png" in done.stderr and "too large" in done.stderr
