"""The engine, the house bots and the arena install on their own: ``ginrummy-engine`` (service/pyproject.toml)
is built and installed offline into a fresh virtual environment, which then has no Flask, no Redis client,
nothing of the service — and plays the arena, runs the README's engine example and imports the bots."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.app.test_architecture import imports_of

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "service" / "ginrummy"
DISTRIBUTED = ("engine", "bots", "arena")
OPTIONAL = {PACKAGE / "arena" / "aec.py"}  # the pettingzoo extra's
BUILD_TIMEOUT = 120.0  # seconds: a guard, not a goal


def isolated_env() -> dict[str, str]:
    """The environment less what would let a new venv see the checkout or the suite's venv."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def run(command: list[str], cwd: Path, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=isolated_env(), capture_output=True, text=True, timeout=timeout, check=False
    )


def readme_match_example() -> str:
    section = (ROOT / "README.md").read_text().split("## The rules engine", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, flags=re.MULTILINE | re.DOTALL)
    return blocks[1]


def test_the_distributed_packages_import_only_the_standard_library_and_each_other() -> None:
    allowed = tuple(f"ginrummy.{name}" for name in DISTRIBUTED)
    checked = 0
    for name in DISTRIBUTED:
        for path in sorted(set((PACKAGE / name).glob("*.py")) - OPTIONAL):
            checked += 1
            for module in imports_of(path):
                inside = module.startswith(allowed) and module.split(".")[1] in DISTRIBUTED
                assert inside or module.split(".")[0] in sys.stdlib_module_names, (
                    f"{path.relative_to(ROOT)} imports {module}: ginrummy-engine is standard library only"
                )
    assert checked > 20, "the scan found too few modules: the path is wrong"


def test_the_two_distributions_agree() -> None:
    engine = tomllib.loads((ROOT / "service" / "pyproject.toml").read_text())
    service = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert engine["project"]["version"] == service["project"]["version"]
    assert engine["project"]["dependencies"] == []
    assert engine["project"]["scripts"]["ginrummy-arena"] == service["project"]["scripts"]["ginrummy-arena"]
    extra = engine["project"]["optional-dependencies"]["pettingzoo"]
    assert extra == service["project"]["optional-dependencies"]["pettingzoo"]
    assert set(extra) <= set(service["project"]["optional-dependencies"]["test"])  # CI tests the extra
    assert engine["tool"]["setuptools"]["packages"] == [f"ginrummy.{name}" for name in DISTRIBUTED]
    # Every package of those three is listed (setuptools installs only the listed ones).
    found = {
        ".".join(path.parent.relative_to(PACKAGE.parent).parts)
        for name in DISTRIBUTED
        for path in (PACKAGE / name).rglob("__init__.py")
    }
    assert found == set(engine["tool"]["setuptools"]["packages"])


@pytest.mark.slow
def test_a_fresh_venv_installs_the_engine_alone_offline_and_plays_the_arena(tmp_path: Path) -> None:
    # A copy of service/, as a checkout gives it: the build writes build/ and *.egg-info beside the sources.
    source = tmp_path / "service"
    shutil.copytree(
        ROOT / "service", source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist")
    )
    (source / "README.md").exists() or pytest.fail("service/README.md: the distribution's readme")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        tmp_path,
        BUILD_TIMEOUT,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("ginrummy_engine-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    packages = {name.split("/")[1] for name in names if name.startswith("ginrummy/")}
    assert packages == set(DISTRIBUTED), packages  # no app, http, store, serve.py, ginrummy/__init__.py
    assert "ginrummy/engine/py.typed" in names

    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path).returncode == 0
    python = str(venv / "bin" / "python")
    installed = run([*pip, "--python", python, "install", "--no-index", "--no-deps", str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    probe = (
        "import importlib.metadata as m, importlib.util as u, ginrummy.engine as e, ginrummy.bots, ginrummy.arena;"
        "print(e.__file__);"
        "print(sorted(d.metadata['Name'] for d in m.distributions()));"
        "print([m for m in ('flask', 'redis', 'psycopg', 'gunicorn', 'ginrummy.app', 'ginrummy.http') if u.find_spec(m)])"
    )
    shown = run([python, "-c", probe], tmp_path)
    assert shown.returncode == 0, shown.stderr
    where, distributions, found = shown.stdout.splitlines()
    assert Path(where).is_relative_to(venv)  # the installed copy, not the checkout's
    assert distributions == "['ginrummy-engine']" and found == "[]"  # nothing else; nothing of the service

    (tmp_path / "mybot.py").write_text(
        "def choose(view):\n    return next(a for a in view['legal_actions'] if a['kind'] == 'play')\n"
    )
    played = run(
        [str(venv / "bin" / "ginrummy-arena"), "mybot:choose", "simple", "--games", "2", "-o", "target=20",
         "--json", "out.json", "--records", "games.ndjson"],
        tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "mybot:choose" in played.stdout and (tmp_path / "games.ndjson").read_text().count("\n") == 2
    again = run(
        [python, "-m", "ginrummy.arena", "random", "novice", "--games", "2", "-o", "target=10"], tmp_path
    )
    assert again.returncode == 0 and "novice" in again.stdout, again.stderr

    example = run([python, "-c", readme_match_example()], tmp_path)  # the README's engine example, as printed
    assert example.returncode == 0, example.stderr
    assert re.fullmatch(r"seat [01] wins after \d+ hands\n", example.stdout)
