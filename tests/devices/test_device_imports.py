"""faro_box/devices/ imports one way down: no module-level import cycle among its modules, and
no import inside a function but the Pi-only libraries."""

from __future__ import annotations

import ast
from pathlib import Path

DEVICES = Path(__file__).resolve().parents[2] / "faro_box" / "devices"
LAZY_ALLOWED = {"picamera2"}       # Pi-only: the `pi` extra


def imports(path: Path) -> tuple[set[str], set[str]]:
    """(sibling device modules imported at module level, modules imported inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    inner: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        if node in tree.body:
            top |= {n.rsplit(".", 1)[-1] for n in names if n.startswith("faro_box.devices.")}
        else:
            inner |= set(names)
    return top, inner


def test_the_device_modules_import_one_way_down() -> None:
    graph = {p.stem: imports(p)[0] for p in DEVICES.glob("*.py")}
    seen: dict[str, str] = {}

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if seen.get(module) == "done":
            return
        for nxt in sorted(graph.get(module, ())):
            visit(nxt, (*path, module))
        seen[module] = "done"

    for module in sorted(graph):
        visit(module, ())
    assert "camera" not in set().union(*(graph[m] for m in graph if m.startswith("camera_")))


def test_only_pi_only_libraries_are_imported_inside_functions() -> None:
    for path in sorted(DEVICES.glob("*.py")):
        _, inner = imports(path)
        assert inner <= LAZY_ALLOWED, (path.name, inner - LAZY_ALLOWED)
