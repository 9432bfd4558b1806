"""The systemd units, checked with `systemd-analyze verify` by reading its output.

`systemd-analyze verify` exits 0 on many errors (an unknown key is only "ignored"), so every line
it prints about our unit files fails the test, except one harmless kind: the test machine has
no /opt/faro-box/venv/bin/faro-box (nor maybe chromium), so the check runs on temporary copies
whose ExecStart points at an executable that exists (/bin/true), arguments unchanged.
"""

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
UNITS = ("faro-box.service", "faro-box-kiosk.service")
INSTALLED_PATHS = ("/opt/faro-box/venv/bin/faro-box", "/usr/bin/chromium")


def _verify(folder, names):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    done = subprocess.run([analyze, "verify", *[str(folder / n) for n in names]],
                          capture_output=True, text=True, timeout=120)
    lines = (done.stdout + done.stderr).splitlines()
    return [line for line in lines if any(n.split(".")[0] in line for n in names)]


def _copies(tmp_path, edit=lambda text: text):
    runnable = shutil.which("true") or "/bin/true"
    for name in UNITS:
        text = (SYSTEMD / name).read_text()
        for path in INSTALLED_PATHS:
            text = text.replace(path, runnable)
        (tmp_path / name).write_text(edit(text))
    return tmp_path


def test_the_units_verify_without_a_word_about_them(tmp_path):
    assert _verify(_copies(tmp_path), UNITS) == []


def test_the_check_does_catch_a_mistake(tmp_path):
    # The same check on a misspelt key must complain, or the test above proves nothing.
    folder = _copies(tmp_path, lambda text: text.replace("WatchdogSec=", "WatchdgSec="))
    complaints = _verify(folder, UNITS)
    assert any("WatchdgSec" in line for line in complaints)


def _unit(name):
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string((SYSTEMD / name).read_text())
    return parser


def test_the_service_is_a_watched_notify_service_of_its_own_user():
    service = _unit("faro-box.service")["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert service["User"] == "faro-box"
    assert {"video", "gpio", "dialout"} <= set(service["SupplementaryGroups"].split())
    assert service["ExecStart"].endswith("faro-box run --config /etc/faro-box/config.toml")


def test_the_kiosk_shows_the_local_audience_page():
    kiosk = _unit("faro-box-kiosk.service")["Service"]["ExecStart"]
    assert "chromium --kiosk" in kiosk and kiosk.endswith("http://127.0.0.1:8000/")
    desktop = _unit("faro-box-kiosk.desktop")["Desktop Entry"]
    assert desktop["Type"] == "Application" and "chromium --kiosk" in desktop["Exec"]
    assert "http://127.0.0.1:8000/" in desktop["Exec"]
    validate = shutil.which("desktop-file-validate")
    if validate:
        done = subprocess.run([validate, str(SYSTEMD / "faro-box-kiosk.desktop")], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
