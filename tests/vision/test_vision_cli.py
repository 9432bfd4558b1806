"""`faro-box vision enroll|read|eval` as a user runs them (subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import pytest
from vision_frames import scene

from faro_box.cards import FULL_DECK, Card
from faro_box.vision.deck_bar import BARS
from faro_box.vision.sim.render import FRENCH


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "faro_box.cli", "vision", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def deck_dir(tmp_path_factory):
    """One French-index frame per card for enrolment (labels.csv) and a second set for testing."""
    root = tmp_path_factory.mktemp("deck")
    (root / "img").mkdir()
    lines, test_lines = ["path,card"], ["path,card"]
    for i, card in enumerate(FULL_DECK):
        frame, _ = scene(card, seed=i, style=FRENCH, height=320, angle=8.0 * (i % 5))
        cv2.imwrite(str(root / "img" / f"e{i}.png"), frame)
        lines.append(f"img/e{i}.png,{card}")
        frame, _ = scene(card, seed=500 + i, style=FRENCH, height=300, angle=-6.0 * (i % 4))
        cv2.imwrite(str(root / "img" / f"t{i}.png"), frame)
        test_lines.append(f"img/t{i}.png,{card}")
    cv2.imwrite(str(root / "img" / "empty.png"), scene(Card.parse("AS"), seed=1)[0][:40, :40])
    test_lines.append("img/empty.png,NONE")
    (root / "labels.csv").write_text("\n".join(lines) + "\n")
    (root / "test.csv").write_text("\n".join(test_lines) + "\n")
    return root


@pytest.fixture(scope="module")
def profile(deck_dir):
    out = deck_dir / "french.npz"
    done = run("enroll", str(deck_dir / "labels.csv"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["view"] == "face"
    # The bar enrolment found for this deck, said where the profile keeps it (vision.deck_bar).
    assert said["bar"] in BARS and f"at a bar of {said['bar']:.3f}" in said["learned"], said
    return out


def test_read_prints_one_json_line_per_image_and_goes_on_after_a_bad_one(deck_dir, profile):
    (deck_dir / "junk.png").write_text("not an image")
    images = [str(deck_dir / "img" / "t3.png"), str(deck_dir / "missing.png"), str(deck_dir / "junk.png"),
              str(deck_dir / "img" / "t40.png")]
    done = run("read", "--profile", str(profile), *images)
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["path"] for line in lines] == [images[0], images[3]]
    assert lines[0]["card"] == str(FULL_DECK[3]) and lines[1]["card"] == str(FULL_DECK[40])
    assert all(0.5 <= line["confidence"] <= 1 and line["ms"] > 0 for line in lines)
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 2 and "missing.png" in errors[0] and "junk.png" in errors[1]


def test_read_with_a_window(deck_dir, profile):
    frame, quad = scene(Card.parse("QD"), seed=9, style=FRENCH)
    path = deck_dir / "window.png"
    cv2.imwrite(str(path), frame)
    window = ",".join(f"{v:.1f}" for v in quad.ravel())
    done = run("read", "--profile", str(profile), "--window", window, str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["card"] == "QD"
    bad = run("read", "--window", "1,2,3", str(path))
    assert bad.returncode == 1 and "'1,2,3'" in bad.stderr


def test_eval_reports_accuracy_wrong_abstained_and_timing(deck_dir, profile):
    done = run("eval", str(deck_dir / "test.csv"), "--profile", str(profile), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["cards"] == 52 and result["n_wrong"] == 0
    assert result["accuracy"] >= 0.9
    assert result["empty"] == 1 and result["empty_read_as_empty"] == 1.0
    assert result["ms_median"] > 0 and result["ms_p95"] >= result["ms_median"]
    text = run("eval", str(deck_dir / "test.csv"), "--profile", str(profile))
    assert "accuracy:" in text.stdout and "confusions:" in text.stdout


def test_a_corrupt_profile_is_one_clear_error(deck_dir):
    bad = deck_dir / "bad.npz"
    bad.write_bytes(b"garbage")
    done = run("read", "--profile", str(bad), str(deck_dir / "img" / "t1.png"))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "not a deck profile" in done.stderr


def test_enrol_refuses_a_bad_label(tmp_path):
    (tmp_path / "labels.csv").write_text("path,card\nx.png,ZZ\n")
    done = run("enroll", str(tmp_path / "labels.csv"), "--out", str(tmp_path / "p.npz"))
    assert done.returncode == 1 and "'ZZ'" in done.stderr and not (tmp_path / "p.npz").exists()


def test_read_by_each_method_and_a_contradicting_choice_is_one_clear_error(deck_dir):
    image = str(deck_dir / "img" / "t3.png")
    for method in ("joint", "classical", "learned"):
        done = run("read", "--method", method, image)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["card"] == str(FULL_DECK[3]), method
    done = run("read", "--learned", "--method", "classical", image)
    assert done.returncode != 0 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "--method 'classical'" in done.stderr
    assert "Traceback" not in done.stderr


def test_enrol_refuses_a_picture_whose_index_reads_another_card_than_its_label(deck_dir):
    """Two labels swapped by hand: the deck's templates would learn the 4 of spades as the 2 of
    clubs and read it so for good; enrolment names the picture and writes nothing."""
    rows = (deck_dir / "labels.csv").read_text().splitlines()
    rows[1 + 3], rows[1 + 40] = rows[1 + 3].replace(str(FULL_DECK[3]), str(FULL_DECK[40])), \
        rows[1 + 40].replace(str(FULL_DECK[40]), str(FULL_DECK[3]))
    swapped = deck_dir / "swapped.csv"
    swapped.write_text("\n".join(rows) + "\n")
    out = deck_dir / "swapped.npz"
    done = run("enroll", str(swapped), "--out", str(out))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "check that label" in done.stderr
    assert "e3.png" in done.stderr or "e40.png" in done.stderr
    assert "--labels-checked" in done.stderr
    assert not out.exists()
    # The dealer who checked the labels by eye (the generic reading wrong, not the label) enrols as labelled.
    done = run("enroll", str(swapped), "--out", str(out), "--labels-checked")
    assert done.returncode == 0, done.stderr
    assert out.exists()


def test_enrol_refuses_a_monochrome_cameras_picture(deck_dir, tmp_path):
    """A grey camera's pictures: every card it shows is refused when read (red ink is not told
    from black), so a deck enrolled from them would read nothing; enrolment names the picture,
    says why, and writes nothing."""
    grey = cv2.cvtColor(cv2.imread(str(deck_dir / "img" / "e7.png")), cv2.COLOR_BGR2GRAY)
    cv2.imwrite(str(tmp_path / "grey.png"), cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))
    rows = (deck_dir / "labels.csv").read_text().splitlines()
    rows[1 + 7] = f"{tmp_path / 'grey.png'},{FULL_DECK[7]}"
    (tmp_path / "labels.csv").write_text("\n".join(rows).replace("img/", f"{deck_dir / 'img'}/") + "\n")
    done = run("enroll", str(tmp_path / "labels.csv"), "--out", str(tmp_path / "p.npz"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "grey.png" in done.stderr and "monochrome" in done.stderr
    assert not (tmp_path / "p.npz").exists()
