"""The SDK is its own distribution, a library only: it depends on requests alone, imports nothing of the
service nor of the programs built on it, ships its type information, and its docstring examples run."""

from __future__ import annotations

import doctest
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import ginrummy_client

from .imports import absolute_imports, loaded_by

PACKAGE = Path(ginrummy_client.__file__).parent
SHIM = "harness"
"""The old path of gin-bot's harness, for one release: importing it warns."""
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py") if path.stem not in ("__init__", SHIM))


def test_it_imports_nothing_of_the_service() -> None:
    assert loaded_by("ginrummy_client", ("ginrummy", "gin_cli", "gin_bot")) == []


def test_its_imports_are_the_standard_library_requests_and_itself() -> None:
    for path in PACKAGE.glob("*.py"):
        for name in absolute_imports(path):
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "requests", f"{path.name} imports {name}"


def test_the_distribution_depends_on_requests_only_and_is_typed() -> None:
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    assert project["name"] == "ginrummy-client" and project["version"] == ginrummy_client.__version__
    assert project["dependencies"] == ["requests>=2.32"]
    assert (PACKAGE / "py.typed").exists()
    assert "scripts" not in project  # gin-bot is a distribution of its own: clients/bot


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


def test_the_old_path_of_the_harness_warns_and_gives_gin_bots() -> None:
    program = (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "try:\n"
        "    import ginrummy_client.harness\n"
        "except DeprecationWarning as warning:\n"
        "    print(warning)\n"
        "warnings.simplefilter('ignore')\n"
        "import gin_bot.harness, ginrummy_client.harness as old\n"
        "from ginrummy_client.harness import main\n"
        "print(main is old.main is gin_bot.harness.main and old.load_bot is gin_bot.harness.load_bot)\n"
    )
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    warned, same = ran.stdout.splitlines()
    assert "ginrummy_client.harness is deprecated" in warned and "gin_bot.harness" in warned
    assert same == "True"
