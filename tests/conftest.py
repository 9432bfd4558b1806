from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """../shared/data: real photographs; a user's fresh clone has none, so tests skip."""
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip("../shared/data is absent (a fresh clone): real-photo tests skipped")
    return data


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium; CI sets FARO_BOX_REQUIRE_BROWSER=1 so its absence fails there."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("FARO_BOX_REQUIRE_BROWSER"):
            pytest.fail("Chromium is required (FARO_BOX_REQUIRE_BROWSER) but not installed")
        pytest.skip("Chromium is not installed: browser tests skipped")
    return path
