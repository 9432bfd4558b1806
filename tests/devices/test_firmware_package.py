"""The firmware ships inside the wheel: `faro-box firmware install` works from an installed package."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ["PROTOCOL.md", "fbkeeper.py", "fblines.py", "fbproto.py", "fbservo.py", "fbstore.py", "main.py"]


def test_the_wheel_carries_the_firmware_and_firmware_files_finds_it_there(tmp_path):
    source = tmp_path / "source"            # a copy, so the build leaves nothing in the checkout
    shutil.copytree(ROOT / "faro_box", source / "faro_box", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "-q", "-w", str(tmp_path / "dist"), str(source)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("faro_box-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert {f"faro_box/firmware/{name}" for name in FIRMWARE} <= names
        archive.extractall(tmp_path / "site")           # what installing a pure wheel puts in place
    probe = ("import json, faro_box; from faro_box.commands.firmware import FIRMWARE_DIR, firmware_files;"
             "print(json.dumps([faro_box.__file__, [f.name for f in firmware_files(FIRMWARE_DIR)]]))")
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"}, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr[-2000:]
    package, found = json.loads(ran.stdout)
    assert Path(package).is_relative_to(tmp_path / "site")        # not this checkout
    assert found == sorted(name for name in FIRMWARE if name.endswith(".py"))
