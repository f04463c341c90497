"""The engine is pure: standard library only, no I/O, no clock, no global random generator."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import ginrummy.engine

ENGINE = Path(ginrummy.engine.__file__).parent
FORBIDDEN_CALLS = {"open", "print", "input"}
FORBIDDEN_MODULES = {"time", "datetime", "os", "socket", "subprocess", "secrets", "pathlib", "io"}


def engine_modules() -> list[Path]:
    return sorted(ENGINE.glob("*.py"))


def test_the_engine_imports_only_the_standard_library_and_itself():
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: the engine itself
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                assert top not in FORBIDDEN_MODULES, (
                    f"{path.name} imports {name}: no I/O or clock in the engine"
                )


def test_the_engine_does_no_io_and_uses_no_global_random_generator():
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}()"
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                # random.Random (a type, injected by callers) is fine; random.shuffle() etc. are not.
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
