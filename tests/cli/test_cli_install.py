"""`gin` installs without the service: a fresh virtual environment gets clients/python (the SDK) and
clients/cli (gin) with ``pip install``, holds nothing of the service, and plays a game against it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import GinProcess, gin_env, play_to_end

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TIMEOUT = 240.0
"""Seconds pip may take (it may fetch requests, rich and setuptools from the index): a guard, not a goal."""


def terminal_only(env: dict[str, str]) -> dict[str, str]:
    """``env`` without what would let the new venv see the checkout or the suite's venv."""
    return {k: v for k, v in env.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}


def run(command: list[str], cwd: Path, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env=terminal_only(dict(os.environ)),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.slow
def test_a_fresh_venv_installs_gin_and_the_sdk_alone_and_plays(
    live_service: str, tmp_path: Path, config_home: Path
) -> None:
    # Copies of the two directories, as a user's checkout would give them: the builds write build/ and
    # *.egg-info next to the sources, which must not land in the work tree (nor race the dev venv's).
    sources = tmp_path / "clients"
    for name in ("python", "cli"):
        shutil.copytree(
            ROOT / "clients" / name,
            sources / name,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist"),
        )
    venv = tmp_path / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    assert made.returncode == 0, made.stderr
    bin_dir = venv / "bin"

    pip = [str(bin_dir / "python"), "-m", "pip", "--disable-pip-version-check"]
    installed = run(
        [*pip, "install", "--quiet", "./clients/python", "./clients/cli"], tmp_path, INSTALL_TIMEOUT
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr

    # Nothing of the service came along: no Flask, no Redis client, no ginrummy package.
    for service_dependency in ("flask", "redis", "gunicorn", "ginrummy"):
        shown = run([*pip, "show", service_dependency], tmp_path)
        assert shown.returncode != 0, f"{service_dependency} is installed:\n{shown.stdout}"
    assert run([*pip, "check"], tmp_path).returncode == 0
    where = run(
        [str(bin_dir / "python"), "-c", "import gin_cli, ginrummy_client; print(gin_cli.__file__)"], tmp_path
    )
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(venv)  # the installed copy, not the checkout's
    assert run([str(bin_dir / "python"), "-c", "import ginrummy"], tmp_path).returncode != 0

    gin = str(bin_dir / "gin")
    helped = run([gin, "--help"], tmp_path)
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("usage: gin") and "exit status:" in helped.stdout

    env = terminal_only(gin_env(config_home, live_service))
    player = GinProcess(["play", "--bot", "simple", "--seed", "7", "-o", "target=10"], env, program=gin)
    try:
        first = player.wait_prompt()
        assert first is not None and "Your hand:" in first, player.errors
        assert play_to_end(player) == 0, player.errors
    finally:
        if player.proc.poll() is None:
            player.kill()
    assert "Game over." in player.output and player.errors == ""
