"""The pure core (cards, rules, baccarat, vision) imports no device, web, clock or global random."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "faro_box"
PURE = [PACKAGE / "cards.py", *sorted((PACKAGE / "rules").rglob("*.py")),
        *sorted((PACKAGE / "vision").rglob("*.py"))]
FORBIDDEN = {
    "time", "random", "datetime", "serial", "gpiozero", "picamera2", "RPi", "lgpio", "RPLCD",
    "starlette", "uvicorn", "httpx", "httpx2", "sqlite3", "socket", "subprocess", "threading", "asyncio",
    "faro_box.devices", "faro_box.display", "faro_box.table", "faro_box.live", "faro_box.cli",
    "faro_box.commands", "faro_box.demo", "faro_box.exhibit",
}


def imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_core_imports_nothing_from_the_edges(path):
    bad = {n for n in imported_names(path) for f in FORBIDDEN if n == f or n.startswith(f + ".")}
    assert not bad, f"{path.name} imports {sorted(bad)}: the pure core must not"


def test_the_package_imports_without_device_libraries():
    import sys

    import faro_box.cli  # noqa: F401

    for lib in ("picamera2", "RPi", "lgpio"):
        assert lib not in sys.modules
