"""`faro-box calibrate --config` writes the window into the person's TOML and keeps the rest of
the file as they wrote it: comments, order, other tables."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

CONFIG = """\
# The dealing room's box. Ask Ann before changing the PIN.
game = "faro"   # the game dealt

[camera]  # the camera over the box
source = "sim:4"
# found by calibrate on the first evening; it will be replaced
window = [
  [1.0, 2.0],  # top left
  [3.0, 4.0],
  [5.0, 6.0],
  [7.0, 8.0],
]
fps = 15  # what the Pi camera keeps up with

[display]
# the kiosk only
web = false
"""


@pytest.mark.slow
def test_calibrate_keeps_the_comments_of_the_configuration(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "calibrate", "--config", str(config),
                           "--picture", str(tmp_path / "view.png")], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 2), done.stderr
    text = config.read_text()
    for comment in ("# The dealing room's box. Ask Ann before changing the PIN.", "# the game dealt",
                    "# the camera over the box", "# what the Pi camera keeps up with", "# the kiosk only"):
        assert comment in text, text
    doc = tomllib.loads(text)
    window = doc["camera"]["window"]
    assert len(window) == 4 and window != [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
    assert doc["camera"]["fps"] == 15 and doc["camera"]["source"] == "sim:4"
    assert doc["game"] == "faro" and doc["display"] == {"web": False}
    # Nothing moved: the lines other than the window's are the file's own, in its order.
    kept = [line for line in CONFIG.splitlines() if "[" not in line[:3] or line.startswith("[")]
    kept = [line for line in kept if not line.startswith("  [") and line != "]" and not line.startswith("window")]
    assert [line for line in text.splitlines() if line in kept] == kept


@pytest.mark.slow
def test_calibrate_writes_into_a_camera_table_of_dotted_keys(tmp_path):
    # `camera.source = ...` is the [camera] table too: the window joins it, nothing else moves.
    config = tmp_path / "config.toml"
    config.write_text('# the box\ncamera.source = "sim:4"  # the simulated box\n\n[display]\nweb = false\n')
    done = subprocess.run([sys.executable, "-m", "faro_box.cli", "calibrate", "--config", str(config),
                           "--picture", str(tmp_path / "view.png")], capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 2), done.stderr
    text = config.read_text()
    assert text.startswith('# the box\ncamera.source = "sim:4"  # the simulated box\ncamera.window = [[')
    doc = tomllib.loads(text)
    assert len(doc["camera"]["window"]) == 4 and doc["display"] == {"web": False}
