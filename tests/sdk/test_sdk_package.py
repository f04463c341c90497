"""The SDK is its own distribution: it depends on requests alone, imports nothing of the service, ships
its type information, and its docstring examples run."""

from __future__ import annotations

import ast
import doctest
import importlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import ginrummy_client

PACKAGE = Path(ginrummy_client.__file__).parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__")


def test_it_imports_nothing_of_the_service() -> None:
    program = (
        "import json, sys, ginrummy_client\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('ginrummy', 'gin_cli'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert json.loads(loaded.stdout) == []


def test_its_imports_are_the_standard_library_requests_and_itself() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "requests", f"{path.name} imports {name}"


def test_the_distribution_depends_on_requests_only_and_is_typed() -> None:
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    assert project["name"] == "ginrummy-client" and project["version"] == ginrummy_client.__version__
    assert project["dependencies"] == ["requests>=2.32"]
    assert (PACKAGE / "py.typed").exists()
    assert project["scripts"] == {"gin-bot": "ginrummy_client.harness:main"}  # the bot harness only


def test_the_docstring_examples_run() -> None:
    attempted = 0
    for name in MODULES:
        result = doctest.testmod(importlib.import_module(f"ginrummy_client.{name}"))
        assert result.failed == 0, name
        attempted += result.attempted
    assert attempted >= 15


def test_the_public_names_are_exported() -> None:
    for name in ginrummy_client.__all__:
        assert hasattr(ginrummy_client, name), name
