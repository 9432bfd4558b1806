"""``faro-box track`` and ``faro-box calibrate`` as a person runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import cv2
from track_helpers import still_frames, thumbed

from faro_box.vision.sim.simbox import SimBox

FARO_BOX = [sys.executable, "-m", "faro_box.cli"]


def faro_box(*args, cwd=None):
    return subprocess.run([*FARO_BOX, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_track_prints_one_json_line_per_card_of_the_simulated_box():
    done = faro_box("track", "sim:6:0.3", "--frames", "200")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    box = SimBox(seed=6, nuisance=0.3)
    assert events and events[0]["index"] == 0 and events[0]["frame"] <= 3
    shown = [e for e in box.expected() if e.frame < 197]
    assert [e["index"] for e in events] == [e.index for e in shown]
    for event in events:
        assert event["event"] in ("card", "confirm")
        if event["event"] == "card":
            assert event["card"] == str(box.deck[event["index"]]) and 0 < event["confidence"] <= 1
    assert "camera: sim:6, 640x480 at 30 fps" in done.stderr


def test_track_reads_a_folder_of_frames_with_the_window_given(tmp_path):
    box = SimBox(seed=9, nuisance=0.2, cards=3)
    for n in range(len(box)):
        cv2.imwrite(str(tmp_path / f"f{n:05d}.png"), box.frame(n))
    corners = ",".join(f"{v:.2f}" for v in box.window.ravel())
    snaps = tmp_path / "snaps"
    done = faro_box("track", str(tmp_path), "--window", corners, "--snapshots", str(snaps))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["index"] for e in events] == [0, 1, 2]
    for e in events:
        if e["event"] == "card":
            assert e["card"] == str(box.deck[e["index"]])
        else:
            assert cv2.imread(e["snapshot"]) is not None


def test_track_records_what_it_saw_as_a_video_to_watch(tmp_path):
    video = tmp_path / "deal.mp4"
    done = faro_box("track", "sim:2", "--frames", "40", "--record", str(video))
    assert done.returncode == 0, done.stderr
    capture = cv2.VideoCapture(str(video))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == 40
    ok, frame = capture.read()
    capture.release()
    assert ok and frame.shape == (480, 640, 3)


def test_track_refuses_a_bad_window_and_a_missing_source_in_one_line():
    done = faro_box("track", "sim:1", "--window", "1,2,3")
    assert done.returncode == 1 and done.stderr.strip().splitlines()[-1] == (
        "faro-box track: a window is 8 numbers x1,y1,...,x4,y4, not '1,2,3' (3 numbers)")
    done = faro_box("track", "no-such-video.mp4")
    assert done.returncode == 1 and "no video file 'no-such-video.mp4'" in done.stderr
    assert done.stdout == ""


def test_calibrate_finds_the_window_writes_the_config_and_draws_the_view(tmp_path):
    config = tmp_path / "faro-box.toml"
    config.write_text('players = ["ann"]\n\n[camera]\nsource = "sim:4"\nfps = 30\n\n[display]\nweb = false\n')
    picture = tmp_path / "view.png"
    done = faro_box("calibrate", "--config", str(config), "--picture", str(picture))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "focus:" in done.stdout and "PROBLEM" not in done.stdout
    doc = tomllib.loads(config.read_text())
    assert doc["players"] == ["ann"] and doc["camera"]["fps"] == 30 and doc["display"] == {"web": False}
    window = SimBox(seed=4).window
    for (x, y), (tx, ty) in zip(doc["camera"]["window"], window.tolist(), strict=True):
        assert abs(x - tx) < 3 and abs(y - ty) < 3
    from faro_box.config import load_config

    assert load_config(config).camera.window is not None
    view = cv2.imread(str(picture))
    assert view.shape == (480, 640, 3)
    # Run again with corners that stray off the card: the check fails, the window is replaced.
    done = faro_box("calibrate", "sim:4", "--config", str(config), "--picture", str(picture),
                    "--corners", "150,80,450,80,450,400,150,400")
    assert done.returncode == 2
    assert "card fills the window: 0 PROBLEM" in done.stdout
    text = config.read_text()
    assert text.count("window =") == 1 and "[[150.0, 80.0], [450.0, 80.0]" in text


def test_calibrate_without_a_card_in_view_says_so(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), SimBox(seed=1, cards=52).frame(0)[:, :100])  # a strip of felt
    done = faro_box("calibrate", str(folder), "--picture", str(tmp_path / "v.png"), "--settle", "0")
    assert done.returncode == 1
    assert "no card found in the picture" in done.stderr


def test_track_without_a_window_refuses_a_recording_where_no_card_lies_still(tmp_path):
    import numpy as np

    for n in range(12):  # the empty table: nothing to take the window from
        cv2.imwrite(str(tmp_path / f"f{n:05d}.png"), np.full((480, 640, 3), (35, 85, 30), np.uint8))
    done = faro_box("track", str(tmp_path))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines()[-1] == (
        f"faro-box track: no window for {str(tmp_path)!r}: in 12 frame(s) no card lay still with nothing "
        "over its edge, so nothing was read; give --window x1,y1,...,x4,y4 or run faro-box calibrate")


def test_track_without_a_window_finds_it_on_a_recording(tmp_path):
    box = SimBox(seed=9, nuisance=0.2, cards=3)
    for n in range(len(box)):
        cv2.imwrite(str(tmp_path / f"f{n:05d}.png"), box.frame(n))
    done = faro_box("track", str(tmp_path))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(e["index"], e.get("card")) for e in events if e["event"] == "card"] == \
        [(i, str(box.deck[i])) for i in range(3)]
    assert "window found in the picture: " in done.stderr


def test_track_asks_about_the_card_a_recording_ends_on_under_the_thumb(tmp_path):
    box = SimBox(seed=22, nuisance=0.0, cards=3, still=(30, 40))
    still = still_frames(box)
    frames = [still[0]] * 8 + [still[1]] * 8 + [thumbed(box, still[2])] * 8
    for n, frame in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"f{n:05d}.png"), frame)
    corners = ",".join(f"{v:.2f}" for v in box.window.ravel())
    done = faro_box("track", str(tmp_path), "--window", corners)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(e["event"], e["index"]) for e in events] == [("card", 0), ("card", 1), ("confirm", 2)]
    assert "stream ended" in events[-1]["reason"]
