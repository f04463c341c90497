"""A run that is killed leaves nothing running: the gunicorn and bot worker processes that the suite's
fixtures start (``tests.support.start_gunicorn``, ``tests.fixtures.live_service.start_bot_worker``), and
those of ``ginrummy-serve``, end when the process that started them is killed with SIGKILL (they get
SIGTERM from the kernel: PR_SET_PDEATHSIG), and so do gunicorn's workers and the processes of
``ginrummy-bots --processes N``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ginrummy.store.embedded import free_port

from tests.support import ROOT

A_RUN = """
import json, sys, threading
from pathlib import Path
from tests.fixtures.live_service import start_bot_worker, start_service
log_dir = Path(sys.argv[2])
gunicorn, base = start_service(sys.argv[1], log_dir, workers=2)
bots = start_bot_worker(sys.argv[1], log_dir)
print(json.dumps({"gunicorn": gunicorn.pid, "bots": bots.pid}), flush=True)
threading.Event().wait()
"""
"""A test run as far as its processes go: the suite's own functions start gunicorn and a bot worker, then
it waits to be killed."""


def descendants(pid: int) -> set[int]:
    """The living processes under ``pid`` (children, theirs, …), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie left for a reaper does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_until_gone(pids: set[int], timeout: float = 60.0) -> None:
    """Wait for every process of ``pids`` to end, within a generous bound (a loaded machine)."""
    deadline = time.monotonic() + timeout
    while left := {pid for pid in pids if alive(pid)}:
        assert time.monotonic() < deadline, (
            f"still running {timeout:.0f} s after their parent was killed: {left}"
        )
        time.sleep(0.1)


def wait_for_children(pid: int, count: int, timeout: float = 60.0) -> set[int]:
    """``pid``'s descendants once there are at least ``count`` of them (a set-up guard)."""
    deadline = time.monotonic() + timeout
    while len(found := descendants(pid)) < count:
        assert time.monotonic() < deadline, f"{pid} has {len(found)} processes under it, not {count}"
        time.sleep(0.1)
    return found


def test_a_killed_test_run_leaves_no_gunicorn_nor_bot_worker_running(redis_url: str, tmp_path: Path) -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", A_RUN, redis_url, str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert run.stdout is not None
        started = json.loads(run.stdout.readline())
        # gunicorn's master and its 2 workers, and the bot worker.
        processes = wait_for_children(run.pid, 4)
        assert {started["gunicorn"], started["bots"]} <= processes
    finally:
        run.kill()
        run.wait()
    wait_until_gone(processes)


def test_a_killed_ginrummy_serve_leaves_no_gunicorn_nor_bot_worker_running(
    redis_url: str, tmp_path: Path
) -> None:
    env = {**os.environ, "REDIS_URL": redis_url, "GIN_DATA_DIR": str(tmp_path)}
    with (tmp_path / "serve.log").open("wb") as log:
        serve = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("ginrummy-serve")),
                "--bind",
                f"127.0.0.1:{free_port()}",
                "--workers",
                "1",
                "--bot-processes",
                "2",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        # gunicorn's master and worker; ginrummy-bots and its 2 worker processes.
        processes = wait_for_children(serve.pid, 5)
    finally:
        serve.send_signal(signal.SIGKILL)
        serve.wait()
    wait_until_gone(processes)


def test_a_killed_ginrummy_bots_leaves_none_of_its_worker_processes(redis_url: str, tmp_path: Path) -> None:
    with (tmp_path / "bots.log").open("wb") as log:
        bots = subprocess.Popen(
            [sys.executable, "-m", "ginrummy.bot_worker", "--processes", "2"],
            env={**os.environ, "REDIS_URL": redis_url},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        processes = wait_for_children(bots.pid, 2)
    finally:
        bots.kill()
        bots.wait()
    wait_until_gone(processes)
