from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

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


# Chromium as root on a closed network: without these it tries to reach Google's hosts at start.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def browser(chromium_path: str):
    """Debian's headless Chromium driven by Playwright, one per test module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if os.environ.get("FARO_BOX_REQUIRE_BROWSER"):
            pytest.fail("Playwright is required (FARO_BOX_REQUIRE_BROWSER) but not installed")
        pytest.skip("Playwright is not installed: browser tests skipped")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class _WiredPin(MockPin):
    """A MockPin that also writes each change of level, in order, to its factory's ``wire``."""

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed:
            self._factory.wire.append((self.info.name, value))
        return changed


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    """gpiozero's MockFactory, handed to each device as ``pin_factory=`` (the global default stays
    untouched). ``mock_pins.pin(17)`` is a pin to drive or read; ``mock_pins.wire`` lists every
    change of every output as (name, level), in order."""
    factory = MockFactory(pin_class=_WiredPin)
    factory.wire = []
    yield factory
    factory.reset()
