"""The embedded PostgreSQL (the pgserver wheel's binaries): it starts, keeps its data, stops for good, and
never outlives the process that started it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from ginrummy.store.embedded_postgres import EmbeddedPostgres, postgres_binary

ROOT = Path(__file__).resolve().parents[2]


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for every purpose but its process-table entry.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_the_wheel_ships_postgresql_16() -> None:
    version = subprocess.run(
        [str(postgres_binary()), "--version"], capture_output=True, text=True, check=True
    )
    assert version.stdout.startswith("postgres (PostgreSQL) 16.")


def test_it_starts_keeps_its_data_and_is_gone_after_stop(private_postgres: EmbeddedPostgres) -> None:
    server = private_postgres
    assert server.url.endswith("/ginrummy")  # the database is made at the first start
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute("CREATE TABLE kept (n int)")
        conn.execute("INSERT INTO kept VALUES (7)")
        assert conn.execute("SELECT current_user").fetchone() == ("postgres",)

    # A second server on the same data directory is refused while the first runs.
    with pytest.raises(RuntimeError, match="another PostgreSQL is already using"):
        EmbeddedPostgres(server.data_dir, durable=False).start()
    assert server.running

    assert server.process is not None
    pid, port = server.process.pid, server.port
    server.stop()
    assert not server.running and not _alive(pid) and _refused(port)
    assert "database system is shut down" in server.log_path.read_text()

    server.start()  # the same cluster, no initdb, a new port
    with psycopg.connect(server.url) as conn:
        assert conn.execute("SELECT n FROM kept").fetchall() == [(7,)]


def test_a_directory_that_is_not_a_cluster_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pg").mkdir()
    (tmp_path / "pg" / "notes.txt").write_text("mine")
    with pytest.raises(RuntimeError, match="neither empty nor a PostgreSQL data directory"):
        EmbeddedPostgres(tmp_path / "pg").start()


CHILD = """
import json, sys, time
sys.path.insert(0, {service!r})
from ginrummy.store.embedded_postgres import EmbeddedPostgres
server = EmbeddedPostgres({data_dir!r}, durable=False).start()
print(json.dumps({{"pid": server.process.pid, "port": server.port}}), flush=True)
time.sleep(600)
"""


def test_a_killed_parent_takes_its_postgresql_along(tmp_path: Path) -> None:
    code = CHILD.format(service=str(ROOT / "service"), data_dir=str(tmp_path / "pg"))
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        started = json.loads(parent.stdout.readline())
    finally:
        parent.send_signal(signal.SIGKILL)  # no chance to clean up: the server must notice by itself
        parent.wait()
    deadline = time.monotonic() + 30
    while (_alive(started["pid"]) or not _refused(started["port"])) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(started["pid"]) and _refused(started["port"])
    # A fast shutdown, not a crash: the next start needs no recovery.
    assert "database system is shut down" in (tmp_path / "pg" / "postgresql.log").read_text()
