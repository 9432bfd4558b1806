"""Bad input to the camera commands changes nothing: a damaged profile, a window off the picture,
a label that names another card, a configuration that is no configuration, a recording over the
video being tracked: one line naming the input, a non-zero exit, and every file as it was."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from faro_box.cards import Card
from faro_box.errors import VisionError
from faro_box.vision.index_patch import IndexWindow
from faro_box.vision.learned import EMBED
from faro_box.vision.learned_deck import LearnedDeck, Mode
from faro_box.vision.profile import DeckProfile, generic_profile
from faro_box.vision.sim import synth
from faro_box.vision.sim.render import render_card


def faro_box(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:  # noqa: ANN003
    return subprocess.run([sys.executable, "-m", "faro_box.cli", *args], capture_output=True, text=True,
                          timeout=300, **kwargs)


def one_error_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode not in (0, None), done
    lines = [line for line in done.stderr.strip().splitlines() if line.startswith("faro-box")]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def card_photo(tmp_path_factory) -> Path:
    rng = np.random.default_rng(3)
    frame = synth.place_card(synth.light_background(640, 480, rng), render_card(Card.parse("QH")),
                             synth.card_quad(640, 480, 300, 5, (320, 240), 0.02, rng))
    path = tmp_path_factory.mktemp("photo") / "qh.png"
    cv2.imwrite(str(path), frame)
    return path


def learned_profile(**window: float) -> DeckProfile:
    """The generic templates with an enrolled deck's learned part: ``window`` changes its index window."""
    rng = np.random.default_rng(0)
    protos = [rng.normal(size=(n, EMBED)).astype(np.float32) for n in (13, 4)]
    protos = [p / np.linalg.norm(p, axis=1, keepdims=True) for p in protos]
    deck = LearnedDeck(Mode.GENERIC_AND_OWN, dataclasses.replace(IndexWindow(), **window), protos[0], protos[1],
                       52, 52, 0.09, 52)
    return dataclasses.replace(generic_profile(), learned=deck)


def saved(profile: DeckProfile) -> bytes:
    """``profile`` as its file holds it (saving checks nothing; loading does)."""
    with tempfile.TemporaryDirectory() as tmp:
        profile.save(Path(tmp) / "deck.npz")
        return (Path(tmp) / "deck.npz").read_bytes()


def with_member(data: bytes, name: str, value: bytes) -> bytes:
    """The profile archive ``data`` with its member ``name`` (``name``.npy) holding ``value``."""
    src, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, value if item.filename == f"{name}.npy" else src.read(item))
    return out.getvalue()


def npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


@pytest.mark.parametrize(("damage", "named"), [
    (lambda d: with_member(d, "meta", b"garbage"), "'meta' is not a number array"),
    (lambda d: with_member(d, "rank_feats", npy(np.zeros((3, 5), np.float32))), "rank templates 5 wide"),
    (lambda d: with_member(d, "suit_whole", npy(np.zeros((41, 5), np.float32))), "suit templates 5 wide"),
    (lambda d: with_member(d, "suit_whole", npy(np.full((41, 401), np.nan, np.float32))), "non-finite"),
], ids=["member not an array", "rank width", "suit width", "suit NaN"])
def test_a_damaged_profile_is_refused_when_it_loads(damage, named):
    data = damage(saved(generic_profile()))
    with pytest.raises(VisionError, match="'damaged.npz'") as refused:
        DeckProfile.from_bytes(data, source="damaged.npz")
    assert named in str(refused.value)


@pytest.mark.parametrize(("change", "named"), [
    ({"x": float("nan")}, "learned index window"), ({"x": 5.0}, "learned index window"),
    ({"side": 0.0}, "learned index window"), ({"side": -0.5}, "learned index window"),
])
def test_a_learned_part_with_no_index_window_is_refused(change, named):
    with pytest.raises(VisionError, match=named):
        DeckProfile.from_bytes(saved(learned_profile(**change)), source="learned.npz")
    DeckProfile.from_bytes(saved(learned_profile()), source="learned.npz")  # the same, undamaged, loads


@pytest.mark.parametrize("temperature", [0.0, float("nan"), -1.0])
def test_a_learned_part_with_no_temperature_is_refused(temperature):
    profile = learned_profile()
    assert profile.learned is not None
    bad = dataclasses.replace(profile, learned=dataclasses.replace(profile.learned, temperature=temperature))
    with pytest.raises(VisionError, match="learned temperature"):
        DeckProfile.from_bytes(saved(bad), source="learned.npz")


def test_a_profile_that_cannot_be_written_whole_leaves_the_old_one(tmp_path):
    """A full disk (here a file-size limit) part-way through writing a profile: the profile that
    was there reads as before, and no part of the new one is left beside it."""
    target = tmp_path / "deck.npz"
    generic_profile().save(target)
    before = digest(target)
    script = ("import dataclasses, sys; from faro_box.vision.profile import generic_profile;"
              "from faro_box.errors import VisionError\n"
              "try:\n    generic_profile().save(sys.argv[1])\nexcept VisionError as e:\n    print(e); sys.exit(1)")

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))

    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True, text=True,
                          preexec_fn=small_files, timeout=120)
    assert done.returncode == 1 and "cannot write the deck profile" in done.stdout, done
    assert digest(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.npz"]
    DeckProfile.load(target)


@pytest.mark.parametrize("window", ["1000,1000,1300,1000,1300,1400,1000,1400",
                                    "1e30,1e30,2e30,1e30,2e30,2e30,1e30,2e30",
                                    "-5000,-5000,5000,-5000,5000,5000,-5000,5000"])
def test_a_window_off_the_picture_is_refused_naming_the_picture(card_photo, window):
    for action in ("read", "eval"):
        if action == "eval":
            labels = card_photo.with_name("labels.csv")
            labels.write_text(f"path,card\n{card_photo.name},QH\n")
            done = faro_box("vision", "eval", str(labels), f"--window={window}")
        else:
            done = faro_box("vision", "read", f"--window={window}", str(card_photo))
        one_error_line(done, str(card_photo), "reaches outside the 640x480 picture")
        assert "RuntimeWarning" not in done.stderr


def test_an_image_too_small_is_named(tmp_path, card_photo):
    small = tmp_path / "thin.png"
    cv2.imwrite(str(small), np.full((5000, 1, 3), 200, np.uint8))
    done = faro_box("vision", "read", str(card_photo), str(small))
    one_error_line(done, "thin.png", "at least 16 pixels")
    assert '"path"' in done.stdout  # the good picture is still read


def test_one_image_under_two_cards_is_refused_naming_the_line(tmp_path, card_photo):
    labels = tmp_path / "labels.csv"
    labels.write_text(f"path,card\n{card_photo},QH\n{card_photo},KS\n")
    out = tmp_path / "deck.npz"
    done = faro_box("vision", "enroll", str(labels), "--out", str(out))
    one_error_line(done, "line 3", "'KS'", "'QH' on line 2")
    assert not out.exists()
    labels.write_text(f"path,card\n{card_photo.name},QH\n./{card_photo.name},KS\n")  # the same file
    one_error_line(faro_box("vision", "eval", str(labels)), "line 3")


def test_one_image_named_twice_as_the_same_card_is_read(card_photo):
    labels = card_photo.with_name("twice.csv")
    labels.write_text(f"path,card\n{card_photo.name},10S\n{card_photo.name},TS\nblank.png,NONE\nblank.png,\n")
    cv2.imwrite(str(card_photo.with_name("blank.png")), np.full((480, 640, 3), 90, np.uint8))
    done = faro_box("vision", "eval", str(labels), "--json")
    assert done.returncode == 0, done.stderr


def test_labels_saved_by_a_spreadsheet_with_a_byte_order_mark_are_read(card_photo):
    labels = card_photo.with_name("bom.csv")
    labels.write_bytes(b"\xef\xbb\xbfpath,card\r\n" + f"{card_photo.name},QH\r\n".encode())
    done = faro_box("vision", "eval", str(labels), "--json")
    assert done.returncode == 0, done.stderr
    assert '"cards": 1' in done.stdout


def test_eval_of_a_file_that_names_no_image_is_an_error(card_photo):
    labels = card_photo.with_name("ranks.csv")
    labels.write_text(f"path,rank\n{card_photo.name},Q\n{card_photo.name},Q\n")  # two cards: none kept
    one_error_line(faro_box("vision", "eval", str(labels)), "names no image to evaluate")


def test_calibrate_with_a_configuration_that_is_no_configuration_writes_no_picture(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("this = not [valid toml\n")
    picture = tmp_path / "calibration.png"
    picture.write_bytes(b"the last evening's picture")
    before = digest(picture), digest(config)
    done = faro_box("calibrate", "sim:1", "--config", str(config), "--picture", str(picture))
    one_error_line(done, str(config), "not valid TOML")
    assert (digest(picture), digest(config)) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calibration.png", "config.toml"]


def test_calibrate_refuses_a_picture_it_cannot_write_before_it_starts(tmp_path):
    done = faro_box("calibrate", "sim:1", "--picture", str(tmp_path / "view.txt"))
    one_error_line(done, "--picture", "view.txt")
    assert not list(tmp_path.iterdir())


def test_calibrate_names_a_configuration_that_is_not_there(tmp_path):
    one_error_line(faro_box("calibrate", "--config", str(tmp_path / "nowhere.toml")), "nowhere.toml")


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> Path:
    """A few seconds of the simulated box as a video file."""
    from faro_box.vision.sim.simbox import SimBox

    path = tmp_path_factory.mktemp("video") / "deal.avi"
    box = SimBox(seed=2, cards=3)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (640, 480))
    for frame in box:
        writer.write(frame)
    writer.release()
    return path


def test_track_never_records_over_the_video_it_tracks(video):
    before = digest(video)
    done = faro_box("track", str(video), "--record", str(video))
    one_error_line(done, "--record", "the video being tracked")
    assert digest(video) == before


def test_a_tracking_run_that_fails_part_way_leaves_the_old_recording(tmp_path):
    old = tmp_path / "last.mp4"
    old.write_bytes(b"last night's recording")
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(6):
        cv2.imwrite(str(frames / f"{n}.png"), np.full((480, 640, 3), 90, np.uint8))
    cv2.imwrite(str(frames / "3.png"), np.full((8, 8, 3), 90, np.uint8))  # a frame no reader can take
    done = faro_box("track", str(frames), "--record", str(old))
    one_error_line(done, "frame 4", "at least 16 pixels")
    assert old.read_bytes() == b"last night's recording"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frames", "last.mp4"]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_recording_ended_by_ctrl_c_or_a_service_stop_is_kept(tmp_path, stop):
    """A live camera's run has no end but Ctrl-C, or systemd stopping the service (SIGTERM):
    what it recorded is the recording."""
    target = tmp_path / "evening.mp4"
    run = subprocess.Popen([sys.executable, "-m", "faro_box.cli", "track", "sim:1", "--realtime", "--record",
                            str(target)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    run.send_signal(stop)
    _, err = run.communicate(timeout=60)
    assert run.returncode != 0 and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evening.mp4"]
    capture = cv2.VideoCapture(str(target))
    frames = 0
    while capture.read()[0]:
        frames += 1
    capture.release()
    assert frames >= 10


def test_a_profile_written_through_a_link_keeps_the_link_and_the_mode(tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    real = decks / "french.npz"
    real.write_bytes(b"an older profile")
    real.chmod(0o640)
    link = tmp_path / "current.npz"
    link.symlink_to(real)
    generic_profile().save(link)
    assert link.is_symlink() and DeckProfile.load(real).name == generic_profile().name
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in decks.iterdir()) == ["french.npz"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root gives a file to another user")
def test_a_profile_written_by_root_keeps_its_owner(tmp_path):
    """`sudo faro-box vision enroll --out` over a dealer's profile: the profile stays the dealer's,
    who can then enrol again without sudo."""
    real = tmp_path / "french.npz"
    real.write_bytes(b"an older profile")
    os.chown(real, 4321, 4321)
    generic_profile().save(real)
    assert DeckProfile.load(real).name == generic_profile().name
    assert (real.stat().st_uid, real.stat().st_gid) == (4321, 4321)


@pytest.mark.parametrize("where", ["a file", "a folder that is a file", "a directory to record to"])
def test_track_refuses_output_paths_it_cannot_use_before_it_starts(tmp_path, video, where):
    taken = tmp_path / "taken.png"
    taken.write_bytes(b"a picture")
    if where == "a directory to record to":
        done = faro_box("track", str(video), "--record", str(tmp_path))
        one_error_line(done, "--record")
    else:
        folder = taken if where == "a file" else taken / "inside"
        done = faro_box("track", str(video), "--snapshots", str(folder))
        one_error_line(done, "--snapshots", str(folder))
    assert done.stdout == ""
    assert taken.read_bytes() == b"a picture"


def test_a_video_of_pictures_too_small_is_named(tmp_path):
    tiny = tmp_path / "tiny.avi"
    writer = cv2.VideoWriter(str(tiny), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (8, 8))
    for _ in range(5):
        writer.write(np.full((8, 8, 3), 120, np.uint8))
    writer.release()
    for command in ("track", "calibrate"):
        one_error_line(faro_box(command, str(tiny)), str(tiny), "at least 16 pixels")


def test_a_window_of_the_wrong_shape_is_one_error_for_many_images(card_photo):
    anticlockwise = "0,0,0,100,100,100,100,0"
    done = faro_box("vision", "read", f"--window={anticlockwise}", str(card_photo), str(card_photo))
    one_error_line(done, "anticlockwise")
    assert done.stdout == ""


@pytest.mark.parametrize("path", ["", ".", " "])
def test_a_label_row_without_an_image_path_is_named_by_its_line(tmp_path, card_photo, path):
    labels = tmp_path / "labels.csv"
    labels.write_text(f"path,card\n{card_photo},QH\n{path},KS\n")
    one_error_line(faro_box("vision", "eval", str(labels)), "line 3", "no image path")


def test_calibrate_says_when_the_card_is_too_small_to_read(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(4)
    quad = synth.card_quad(640, 480, 70, 0, (320, 240), 0.0, rng)
    cv2.imwrite(str(frames / "0.png"), synth.place_card(synth.light_background(640, 480, rng),
                                                         render_card(Card.parse("7H")), quad))
    corners = ",".join(f"{v:.1f}" for v in quad.ravel())
    done = faro_box("calibrate", str(frames), "--corners", corners, "--picture", str(tmp_path / "v.png"),
                    "--settle", "0")
    assert done.returncode == 2, done.stderr
    assert "card size: 70 PROBLEM: the card is too small in the picture to read" in done.stdout


def test_a_failed_tracking_run_leaves_no_snapshot_folder_behind(tmp_path, video):
    snaps = tmp_path / "snaps" / "tonight"
    done = faro_box("track", str(video), "--snapshots", str(snaps), "--window", "1000,1000,1300,1000,1300,1400,1000,1400")
    one_error_line(done, "reaches outside")
    assert list(tmp_path.iterdir()) == []
    one_error_line(faro_box("track", str(tmp_path / "missing.mp4"), "--snapshots", str(snaps)), "missing.mp4")
    assert list(tmp_path.iterdir()) == []


def test_a_rank_file_naming_one_image_twice_keeps_it_for_neither(tmp_path, card_photo):
    labels = card_photo.with_name("ranks2.csv")
    labels.write_text(f"path,rank\n./{card_photo.name},K\n{card_photo.name},Q\n")
    one_error_line(faro_box("vision", "eval", str(labels)), "names no image to evaluate")


def test_vision_read_says_why_it_names_no_card(tmp_path):
    rng = np.random.default_rng(5)
    quad = synth.card_quad(640, 480, 60, 0, (320, 240), 0.0, rng)
    small = tmp_path / "far.png"
    cv2.imwrite(str(small), synth.place_card(synth.light_background(640, 480, rng), render_card(Card.parse("7H")), quad))
    window = ",".join(f"{v:.1f}" for v in quad.ravel())
    done = faro_box("vision", "read", f"--window={window}", str(small))
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert line["card"] is None and "too small" in line["why"]


def test_calibrate_says_when_the_camera_gives_no_colour(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(4)
    quad = synth.card_quad(640, 480, 300, 0, (320, 240), 0.0, rng)
    frame = synth.place_card(synth.light_background(640, 480, rng), render_card(Card.parse("7H")), quad)
    cv2.imwrite(str(frames / "0.png"), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    corners = ",".join(f"{v:.1f}" for v in quad.ravel())
    done = faro_box("calibrate", str(frames), "--corners", corners, "--picture", str(tmp_path / "v.png"),
                    "--settle", "0")
    assert done.returncode == 2, done.stderr
    assert "colour: 0 PROBLEM: the camera gives a monochrome picture" in done.stdout, done.stdout
