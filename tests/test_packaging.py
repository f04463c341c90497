"""Every distribution of the repository declares its metadata in the form current setuptools expects,
so that building it (``make``, ``pip install ./clients/…``) prints no deprecation warning."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECTS = sorted(
    path
    for path in ROOT.rglob("pyproject.toml")
    if not any(
        part.startswith(".") or part in ("node_modules", "build") for part in path.relative_to(ROOT).parts
    )
)


def test_the_four_distributions_are_found() -> None:
    found = {path.relative_to(ROOT).as_posix() for path in PYPROJECTS}
    wanted = {
        "pyproject.toml",
        "clients/python/pyproject.toml",
        "clients/cli/pyproject.toml",
        "clients/bot/pyproject.toml",
    }
    assert wanted <= found


@pytest.mark.parametrize("path", PYPROJECTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_the_license_is_an_spdx_expression_built_by_a_setuptools_that_reads_it(path: Path) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    # A TOML table (`license = { text = "MIT" }`) is deprecated from setuptools 77 on: it warns at every
    # build. The SPDX string needs setuptools 77 or newer in the build requirements.
    assert data["project"]["license"] == "MIT"
    requires = data["build-system"]["requires"]
    setuptools = [r for r in requires if re.match(r"setuptools\b", r)]
    assert setuptools, requires
    match = re.fullmatch(r"setuptools\s*>=\s*(\d+)(\.\d+)*", setuptools[0])
    assert match is not None and int(match[1]) >= 77, setuptools
    assert not any("License ::" in c for c in data["project"].get("classifiers", []))  # not both forms
