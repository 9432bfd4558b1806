"""`faro-box vision enroll --video`: a deck dealt in new-deck order, filmed by the simulated box."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import pytest
from vision_frames import scene

from faro_box.cards import FULL_DECK
from faro_box.vision.profile import DeckProfile
from faro_box.vision.reader import Reader
from faro_box.vision.sim.render import RUSSIAN
from faro_box.vision.sim.simbox import FPS, HEIGHT, WIDTH, SimBox

pytestmark = pytest.mark.slow  # about 20 s: 1,200 rendered frames written and decoded


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "faro_box.cli", "vision", "enroll", *args],
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def filmed(tmp_path_factory):
    """An MP4 of a Russian-index deck dealt in new-deck order (hands, hovers, shake, noise)."""
    root = tmp_path_factory.mktemp("video")
    box = SimBox(FULL_DECK, seed=3, nuisance=0.3, still=(3, 5), style=RUSSIAN)
    writer = cv2.VideoWriter(str(root / "deck.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (WIDTH, HEIGHT))
    for frame in box:
        writer.write(frame)
    writer.release()
    return root, ",".join(f"{v:.2f}" for v in box.window.ravel())


def test_a_profile_enrolled_from_video_reads_held_out_cards_of_that_deck(filmed):
    root, window = filmed
    out = root / "russian.npz"
    done = run("--video", str(root / "deck.mp4"), "--order", "new-deck", "--window", window, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["face_templates"] == 52
    reader = Reader(DeckProfile.load(out))
    wrong, named = [], 0
    for i, card in enumerate(FULL_DECK):  # other frames, other placement, other tilt: window mode
        frame, quad = scene(card, seed=900 + i, style=RUSSIAN, height=330, angle=5.0 * (i % 3 - 1))
        got = reader.read(frame, window=quad.tolist()).card
        named += got is not None
        if got is not None and got != card:
            wrong.append((card, got))
    assert wrong == []
    assert named >= 51


def test_an_order_that_names_another_number_of_cards_is_refused(filmed):
    root, window = filmed
    order = root / "order.csv"
    order.write_text("card\n" + "\n".join(str(c) for c in FULL_DECK[:51]) + "\n")
    out = root / "short.npz"
    done = run("--video", str(root / "deck.mp4"), "--order", str(order), "--window", window, "--out", str(out))
    assert done.returncode == 1
    assert "shows 52 card(s) at rest, but the order names 51" in done.stderr
    assert not out.exists()


def test_an_unreadable_video_is_refused(tmp_path):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all")
    done = run("--video", str(junk), "--order", "new-deck", "--out", str(tmp_path / "p.npz"))
    assert done.returncode == 1
    assert f"{str(junk)!r} is not a video OpenCV can read" in done.stderr
    assert not (tmp_path / "p.npz").exists()
