"""The wheel states its licence as an SPDX expression, ships the LICENSE file, and builds without
setuptools' deprecation warning about the licence table."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_wheel_carries_the_licence(tmp_path):
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    source = tmp_path / "src"
    for name in files:
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
                           "-w", str(tmp_path / "dist"), str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "License classifiers are deprecated" not in done.stdout + done.stderr
    assert "project.license` as a TOML table is deprecated" not in done.stdout + done.stderr
    wheel = next((tmp_path / "dist").glob("faro_box-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        licence = next(n for n in names if n.endswith("licenses/LICENSE"))
        assert "MIT License" in archive.read(licence).decode()
    assert "License-Expression: MIT" in metadata.splitlines()
    assert any(n.startswith("faro_box/__main__.py") for n in names)
