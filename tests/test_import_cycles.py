"""No module of the package imports, at module level, a module that imports it back (directly or
round a longer loop): such a cycle makes the import order matter and hides which layer is on top.

Imports inside functions and under ``if TYPE_CHECKING:`` are not followed: neither runs when the
module is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "faro_box"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py") if "firmware" not in p.parts}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported (not in functions or classes'
    methods, not under TYPE_CHECKING)."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node):
                pending += node.body
            pending += node.orelse
        elif isinstance(node, (ast.Try, ast.With)):
            pending += node.body
            pending += [s for h in getattr(node, "handlers", []) for s in h.body]
            pending += getattr(node, "orelse", []) + getattr(node, "finalbody", [])
        elif isinstance(node, ast.ClassDef):
            pending += [s for s in node.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return found


def _targets(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's own modules an import statement in module ``name`` loads by name."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in MODULES}
    base = node.module or ""
    if node.level:
        package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    found = {base} if base in MODULES else set()
    # ``from package import module`` loads the submodule itself.
    found |= {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES}
    return found


def import_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        for node in _module_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            graph.add_edges_from((name, target) for target in _targets(name, node) if target != name)
    return graph


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()
    assert "faro_box.table.table" in graph
    assert graph.has_edge("faro_box.table.table", "faro_box.table.journal")
    # ``from faro_box.table.baccarat import scripts`` is an import of the submodule.
    assert graph.has_edge("faro_box.table.games", "faro_box.table.baccarat.scripts")


def test_no_import_cycle_at_module_level() -> None:
    graph = import_graph()
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, "module-level import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("source", [
    "from faro_box.table import commands\n",
    "if TYPE_CHECKING:\n    from faro_box.table.table import Table\n",
    "def f():\n    import faro_box.table.table\n",
])
def test_what_counts_as_a_module_level_import(source: str) -> None:
    tree = ast.parse(source)
    found = {t for node in _module_level_imports(tree) for t in _targets("faro_box.table.games", node)}
    assert found == ({"faro_box.table", "faro_box.table.commands"} if source.startswith("from") else set())
