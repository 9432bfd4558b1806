"""The command line imports only the command asked for, and the package's own imports sit at the
top of its modules (a command module is imported only for its own command, so it need not defer
them): ``faro-box settle`` in a loop pays for nothing the camera or the web need."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import faro_box
from faro_box.cli import COMMANDS

PACKAGE = Path(faro_box.__file__).parent
MAX_IMPORTS_IN_FUNCTIONS = 25


def _own_imports_in_functions() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "firmware" in path.relative_to(PACKAGE).parts:  # MicroPython for the Pico, its own world
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                own = (isinstance(inner, ast.ImportFrom) and (inner.level > 0 or (inner.module or "").startswith(
                    "faro_box"))) or (isinstance(inner, ast.Import) and any(
                        alias.name.startswith("faro_box") for alias in inner.names))
                if own:
                    found.append(f"{path.relative_to(PACKAGE)}:{inner.lineno}")
    return sorted(set(found))


def test_few_imports_of_the_package_hide_inside_functions():
    found = _own_imports_in_functions()
    assert len(found) <= MAX_IMPORTS_IN_FUNCTIONS, found


PROBE = """
import sys
from faro_box.cli import main
sys.stdin = open(sys.argv[1])
code = main(["settle", "-"])
heavy = sorted(m for m in ("cv2", "numpy", "starlette", "uvicorn", "gpiozero", "serial") if m in sys.modules)
others = sorted(m for m in sys.modules if m.startswith("faro_box.commands.") and m != "faro_box.commands.settle")
print(code, heavy, others, file=sys.stderr)
"""


def test_settle_imports_its_own_command_and_no_heavy_library(tmp_path):
    script = tmp_path / "deal.json"
    script.write_text('{"profile": "foster", "players": ["ann"], "cards": [], "events": []}')
    done = subprocess.run([sys.executable, "-c", PROBE, str(script)], capture_output=True, text=True, timeout=120)
    assert done.stderr.strip().splitlines()[-1].endswith("[] []"), done.stderr


def test_help_lists_every_command_and_each_command_builds_its_own_options():
    done = subprocess.run([sys.executable, "-m", "faro_box", "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for name, help_text in COMMANDS.items():
        assert name in done.stdout
        assert help_text.split()[0] in done.stdout
    for name in COMMANDS:
        one = subprocess.run([sys.executable, "-m", "faro_box", name, "--help"], capture_output=True, text=True,
                             timeout=120)
        assert one.returncode == 0 and f"usage: faro-box {name}" in one.stdout, (name, one.stderr)
        assert "Traceback" not in one.stderr


def test_python_dash_m_faro_box_is_the_command():
    done = subprocess.run([sys.executable, "-m", "faro_box", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"faro-box {faro_box.__version__}"
