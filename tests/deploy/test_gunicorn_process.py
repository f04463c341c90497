"""The container's exact command, run here without Docker, and the ``ginrummy-serve`` run command.

- The CMD of the Dockerfile (the same as compose's and the Kubernetes Deployment's) is started as is, with
  the virtualenv's gunicorn first on PATH, against the suite's real Redis; the Dockerfile's HEALTHCHECK
  command reports it healthy; /readyz, /metrics and the request id work; SIGTERM lets an in-flight stream
  finish (the drain) and gunicorn exits 0; the JSON logs never contain the token.
- ``ginrummy-serve`` with REDIS_URL and DATABASE_URL unset starts the embedded redis-server (AOF in
  GIN_DATA_DIR) and the embedded PostgreSQL (in GIN_DATA_DIR/postgres) with the schema migrated, serves
  games, stops both on exit (or when it is killed), and a game and the database survive a restart.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import requests
from ginrummy.store.embedded import die_with_parent, free_port
from ginrummy.store.schema import migrations

from tests.deploy.play import create_game, reload, step
from tests.deploy.test_deploy_files import ROOT, dockerfile_cmd, dockerfile_healthcheck

VENV_BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    """The process environment with the virtualenv's tools first on PATH, as /opt/venv/bin is in the image."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR"}
    }
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env["GIN_ACCESS_LOG"] = "1"
    env.update(extra)
    return env


def _wait_until(what: str, check: object, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"{what}: the process exited ({process.returncode}):\n{log.read_text()[-3000:]}"
            )
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}:\n{log.read_text()[-3000:]}")


def _healthy(port: int) -> bool:
    """The Dockerfile's HEALTHCHECK command, run as Docker would (in the image's working directory)."""
    command = dockerfile_healthcheck()
    result = subprocess.run(command, cwd=ROOT, env=_env(GIN_BIND=f"0.0.0.0:{port}"), capture_output=True)
    return result.returncode == 0


@pytest.fixture
def container_command(
    redis_url: str, database_url: str, tmp_path: Path
) -> Iterator[tuple[subprocess.Popen[bytes], str, Path]]:
    port = free_port()
    log = tmp_path / "gunicorn.log"
    env = _env(
        REDIS_URL=redis_url,
        DATABASE_URL=database_url,
        GIN_BIND=f"127.0.0.1:{port}",
        GIN_WORKERS="2",
        GIN_GRACEFUL_TIMEOUT="20",
        GIN_STREAM_KEEPALIVE="1",
        GIN_STREAM_MAX="3",
    )
    with log.open("wb") as out:
        process = subprocess.Popen(  # (ends with the run, should the run be killed)
            dockerfile_cmd(),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent(),
        )
    try:
        _wait_until("the HEALTHCHECK to pass", lambda: _healthy(port), process, log)
        yield process, f"http://127.0.0.1:{port}", log
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_container_command_serves_and_drains_on_sigterm(
    container_command: tuple[subprocess.Popen[bytes], str, Path],
) -> None:
    process, base, log = container_command
    http = requests.Session()
    assert http.get(f"{base}/readyz").status_code == 200

    # A game through the real gunicorn, with a request id of ours.
    seat = create_game(http, base)
    step(http, seat, base)
    response = http.get(
        f"{base}/v1/games/{seat.game_id}", headers={**seat.auth, "X-Request-ID": "ops-test-1"}
    )
    assert response.status_code == 200 and response.headers["X-Request-ID"] == "ops-test-1"
    generated = http.get(f"{base}/healthz").headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", generated)

    # /metrics sums every worker's figures (PROMETHEUS_MULTIPROC_DIR set by the gunicorn config).
    before = _healthz_count(http.get(f"{base}/metrics").text)
    for _ in range(8):
        requests.get(f"{base}/healthz")  # new connections, so both workers take some
    metrics = http.get(f"{base}/metrics").text
    assert _healthz_count(metrics) == before + 8
    assert 'gin_actions_total{type="' in metrics and "gin_games_created_total 1.0" in metrics

    # An NDJSON stream is in flight (its headers have arrived) when gunicorn gets SIGTERM...
    stream = requests.get(
        f"{base}/v1/games/{seat.game_id}/events",
        headers={**seat.auth, "Accept": "application/x-ndjson"},
        stream=True,
        timeout=30,
    )
    assert stream.status_code == 200
    process.send_signal(signal.SIGTERM)
    # ...and still runs to its natural end (GIN_STREAM_MAX=3 s), keep-alives included: the drain.
    lines = [json.loads(line) for line in stream.iter_lines() if line]
    # Keep-alives come after a second of silence, so these were written after the SIGTERM.
    assert {"type": "keepalive"} in lines
    assert process.wait(30) == 0

    # The logs are JSON lines, one access line per request with its id, and never a token.
    text = log.read_text()
    entries = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    assert len(entries) == len([line for line in text.splitlines() if line.strip()])
    assert any(e.get("request_id") == "ops-test-1" and e.get("status") == 200 for e in entries)
    assert any("Handling signal: term" in e["msg"] for e in entries)
    assert seat.token not in text


def _healthz_count(metrics: str) -> float:
    name = 'gin_http_request_duration_seconds_count{endpoint="/healthz",method="GET",status="200"}'
    for line in metrics.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def test_the_healthcheck_fails_when_nothing_listens() -> None:
    assert not _healthy(free_port())


def _serve(tmp_path: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = _env(GIN_DATA_DIR=str(tmp_path / "data"), GIN_WORKERS="1")
    with log.open("ab") as out:
        return subprocess.Popen(
            [str(VENV_BIN / "ginrummy-serve"), "--bind", f"127.0.0.1:{port}"],
            cwd=tmp_path,  # not the checkout: the config is found next to the package
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent(),  # (ends with the run, should the run be killed)
        )


def _embedded_redis_port(log: Path) -> int:
    matches = re.findall(r"embedded redis-server at redis://127\.0\.0\.1:(\d+)/0", log.read_text())
    return int(matches[-1])


def _embedded_postgres_url(log: Path) -> str:
    matches = re.findall(r"embedded PostgreSQL at (postgresql://\S+) ", log.read_text())
    return str(matches[-1])


def _port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


@pytest.mark.slow
def test_ginrummy_serve_runs_an_embedded_redis_and_stops_it(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "serve.log"
    base = f"http://127.0.0.1:{port}"
    serve = _serve(tmp_path, port, log)
    try:
        # Its own line may come a moment after gunicorn answers (two processes writing).
        _wait_until(
            "ginrummy-serve to answer /healthz and say where",
            lambda: _get_ok(f"{base}/healthz") and f"serving on {base}" in log.read_text(),
            serve,
            log,
        )
        redis_port = _embedded_redis_port(log)
        # PostgreSQL is up, in the data directory, with every migration applied before gunicorn started;
        # /readyz asks it too.
        postgres_url = _embedded_postgres_url(log)
        assert f"(data in {(tmp_path / 'data' / 'postgres').resolve()})" in log.read_text()
        text = log.read_text()
        assert text.index("database schema applied 001_records, 002_archive") < text.index("serving on")
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            versions = [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]
            assert versions == [m.version for m in migrations()]
            conn.execute("INSERT INTO players (name, name_folded) VALUES ('Kept', 'kept')")
        assert requests.get(f"{base}/readyz", timeout=5).json()["status"] == "ready"
        http = requests.Session()
        seat = create_game(http, base)
        step(http, seat, base)
        # Beside gunicorn runs a bot worker: the master is offered and plays (its turns are the worker's).
        bots_pid = int(re.findall(r"bot worker running \(pid (\d+)\)", log.read_text())[-1])
        master = http.post(
            f"{base}/v1/games", json={"opponent": {"type": "bot", "bot": "master"}}, timeout=10
        )
        assert master.status_code == 201, master.text
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(60) == 0
        assert not Path(f"/proc/{bots_pid}").exists()  # stopped (and reaped) with the service
    finally:
        if serve.poll() is None:
            serve.kill()
    # Redis and PostgreSQL were stopped with the service, Redis after writing its AOF in the data directory.
    text = log.read_text()
    assert "embedded redis-server stopped" in text and "embedded PostgreSQL stopped" in text
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", redis_port), timeout=2)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", _port_of(postgres_url)), timeout=2)
    aof = list((tmp_path / "data" / "redis").glob("appendonly*.aof"))
    assert aof and sum(p.stat().st_size for p in aof) > 0

    # Started again on the same data directory, the game is still there; Ctrl+C stops everything too.
    serve = _serve(tmp_path, port, log)
    try:
        _wait_until("ginrummy-serve to restart", lambda: _get_ok(f"{base}/healthz"), serve, log)
        view = reload(requests.Session(), seat, base)
        assert view["game_id"] == seat.game_id and view["hand_number"] == 1
        assert log.read_text().count("database schema up to date") == 1  # nothing applied twice
        with psycopg.connect(_embedded_postgres_url(log)) as conn:
            assert conn.execute("SELECT name FROM players WHERE NOT bot").fetchall() == [("Kept",)]
        serve.send_signal(signal.SIGINT)
        assert serve.wait(60) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", _embedded_redis_port(log)), timeout=2)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", _port_of(_embedded_postgres_url(log))), timeout=2)


def _get_ok(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def test_ginrummy_serve_refuses_an_address_in_use_instead_of_sharing_it(tmp_path: Path) -> None:
    """gunicorn binds with SO_REUSEPORT: started on a port another program listens on, it would take half
    its connections. ginrummy-serve looks first, and says so."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        log = tmp_path / "serve.log"
        serve = _serve(tmp_path, port, log)
        assert serve.wait(60) == 1
    assert f"127.0.0.1:{port} is in use" in log.read_text()
    assert "embedded" not in log.read_text()  # refused before anything was started


def test_a_killed_ginrummy_serve_leaves_no_server_behind(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "serve.log"
    serve = _serve(tmp_path, port, log)
    try:
        _wait_until(
            "ginrummy-serve to answer /healthz",
            lambda: _get_ok(f"http://127.0.0.1:{port}/healthz"),
            serve,
            log,
        )
        redis_port = _embedded_redis_port(log)
        postgres_port = _port_of(_embedded_postgres_url(log))
    finally:
        serve.kill()  # no chance to clean up: the children must notice their parent died
        serve.wait()
    ports = (port, redis_port, postgres_port)
    deadline = time.monotonic() + 30
    while not all(_refused(p) for p in ports) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(_refused(p) for p in ports)
