"""engine/ishtar/ imports nothing outside the standard library and itself, and does no I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "ishtar"
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}
FORBIDDEN_MODULES = {
    "os",
    "io",
    "time",
    "datetime",
    "socket",
    "subprocess",
    "pathlib",
    "secrets",
}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files
    for path in files:
        for name in _imports(ast.parse(path.read_text())):
            assert name == "engine" or name in sys.stdlib_module_names, (
                f"{path}: {name}"
            )
            assert name not in FORBIDDEN_MODULES, (
                f"{path} imports {name} (I/O or clock)"
            )


def test_engine_calls_no_io_builtins() -> None:
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path}: {node.func.id}()"


def test_randomness_only_in_setup_and_sampling() -> None:
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name in ("setup.py", "layout.py", "sampling.py"):
            continue
        assert "random" not in _imports(ast.parse(path.read_text())), path
