"""``gin-bot`` is a program beside the SDK, not inside it: its own distribution (clients/bot), which depends
on the SDK alone, talks to the service only through it, and whose docstring examples run."""

from __future__ import annotations

import doctest
import importlib
import sys
import tomllib
from pathlib import Path

import gin_bot

from tests.sdk.imports import absolute_imports, loaded_by

PACKAGE = Path(gin_bot.__file__).parent
MODULES = sorted(path.stem for path in PACKAGE.glob("*.py"))


def test_the_distribution_depends_on_the_sdk_and_gives_the_gin_bot_command() -> None:
    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["project"]
    assert project["name"] == "ginrummy-bot" and project["version"] == gin_bot.__version__
    assert project["dependencies"] == ["ginrummy-client>=0.1"]
    assert project["scripts"] == {"gin-bot": "gin_bot.harness:main"}
    assert project["readme"] == "README.md" and (PACKAGE / "py.typed").exists()


def test_its_imports_are_the_standard_library_the_sdk_and_itself() -> None:
    for name in MODULES:
        for imported in absolute_imports(PACKAGE / f"{name}.py"):
            top = imported.split(".")[0]
            assert top in sys.stdlib_module_names or top == "ginrummy_client", f"{name}.py imports {imported}"


def test_it_loads_nothing_of_the_service() -> None:
    assert loaded_by("gin_bot.harness", ("ginrummy", "gin_cli")) == []


def test_the_docstring_examples_run() -> None:
    attempted = 0
    for name in set(MODULES) - {"__init__"}:
        result = doctest.testmod(importlib.import_module(f"gin_bot.{name}"))
        assert result.failed == 0, name
        attempted += result.attempted
    assert attempted >= 5
