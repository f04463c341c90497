"""Faults: Redis killed (SIGKILL) or hung (SIGSTOP) in the middle of play, under the real gunicorn.

Every endpoint answers 503 + Retry-After (no hang, no 500), an open stream ends with an error line, and
once Redis is back (from its AOF) the service recovers by itself and the game goes on from its last
committed move. How fast the 503s come is measured by bench/bench_faults.py, not asserted here; the
client timeouts below only catch a hang.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis.exceptions
import requests
from ginrummy.store.embedded import EmbeddedRedis

from tests.fixtures.live_service import start_service
from tests.support import choose, stop_gunicorn

HANG = 10  # seconds: far beyond what any answer may take; only a hang reaches it


@pytest.fixture
def crashable(tmp_path: Path) -> Iterator[tuple[EmbeddedRedis, str]]:
    """A redis-server of this test alone (it gets killed) and a gunicorn in front of it."""
    server = EmbeddedRedis(tmp_path / "redis").start()
    # The production default: rate limits on (counted in the same Redis), budgets this test never meets.
    budgets = {f"GIN_LIMIT_{b}": "100000/minute" for b in ("CREATE", "MOVE", "READ", "WAIT")}
    process, base = start_service(
        server.url, tmp_path, workers=1, extra_env={"GIN_RATE_LIMITS": "1", **budgets}
    )
    try:
        yield server, base
    finally:
        stop_gunicorn(process)
        server.stop()


class Seat:
    def __init__(self, base: str) -> None:
        created = requests.post(f"{base}/v1/games", json={"opponent": {"type": "bot"}}, timeout=HANG).json()
        self.base, self.game_id, self.token = base, created["game_id"], created["token"]
        self.url = f"{base}/v1/games/{self.game_id}"
        self.auth = {"Authorization": f"Bearer {self.token}"}

    def view(self) -> dict[str, Any]:
        response = requests.get(self.url, headers=self.auth, timeout=HANG)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def move(self) -> requests.Response:
        view = self.view()
        headers = {**self.auth, "If-Match": f'"{view["version"]}"'}
        return requests.post(f"{self.url}/actions", json=choose(view), headers=headers, timeout=HANG)


def every_endpoint(seat: Seat) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Each endpoint that needs Redis: (method, URL, request keywords)."""
    moving = {**seat.auth, "If-Match": '"1"'}
    return {
        "view": ("GET", seat.url, {"headers": seat.auth}),
        "spectator view": ("GET", seat.url, {}),
        "move": ("POST", f"{seat.url}/draw", {"json": {"source": "stock"}, "headers": moving}),
        "events": ("GET", f"{seat.url}/events", {"headers": seat.auth}),
        "long poll": ("GET", f"{seat.url}/events?wait=5", {"headers": seat.auth}),
        "hand": ("GET", f"{seat.url}/hands/1", {"headers": seat.auth}),
        "hint": ("GET", f"{seat.url}/hint", {"headers": seat.auth}),
        "create": ("POST", f"{seat.base}/v1/games", {"json": {}}),
        "readyz": ("GET", f"{seat.base}/readyz", {}),
    }


def _every_endpoint(seat: Seat) -> dict[str, requests.Response]:
    """All of them at once (a hung Redis costs each one its timeouts)."""
    with ThreadPoolExecutor(max_workers=10) as pool:
        futures = {
            name: pool.submit(requests.request, method, url, timeout=HANG, **kwargs)
            for name, (method, url, kwargs) in every_endpoint(seat).items()
        }
        return {name: future.result() for name, future in futures.items()}


def _assert_all_unavailable(seat: Seat) -> None:
    for name, response in _every_endpoint(seat).items():
        assert response.status_code == 503, (name, response.status_code, response.text)
        assert response.headers.get("Retry-After") == "1", name
        assert response.json()["code"] == "store_unavailable", name
    assert requests.get(f"{seat.base}/healthz", timeout=HANG).status_code == 200  # the process is fine


def _stream_lines(seat: Seat, lines: list[dict[str, Any]]) -> threading.Thread:
    def read() -> None:
        headers = {**seat.auth, "Accept": "application/x-ndjson"}
        with requests.get(
            f"{seat.url}/events?wait=60", headers=headers, stream=True, timeout=HANG
        ) as response:
            for line in response.iter_lines():
                lines.append(json.loads(line))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def _wait_ready(base: str) -> None:
    deadline = time.monotonic() + 30
    while requests.get(f"{base}/readyz", timeout=HANG).status_code != 200:
        assert time.monotonic() < deadline, "the service did not recover"
        time.sleep(0.1)


def test_redis_killed_mid_game_then_restarted_from_its_aof(crashable: tuple[EmbeddedRedis, str]) -> None:
    server, base = crashable
    seat = Seat(base)
    for _ in range(4):
        assert seat.move().status_code == 200
    before = seat.view()
    lines: list[dict[str, Any]] = []
    reader = _stream_lines(seat, lines)
    time.sleep(0.5)  # the stream is open and waiting

    server.kill()
    _assert_all_unavailable(seat)
    reader.join(timeout=HANG)
    assert not reader.is_alive(), "the open stream did not end"
    assert lines and lines[-1]["type"] == "error" and lines[-1]["code"] == "store_unavailable"
    assert lines[-1]["retry_after"] == 1

    server.stop()  # release its data directory; then the same port and AOF
    server.requested_port = server.port
    server.start()
    _wait_ready(base)
    after = seat.view()
    assert (after["version"], after["hand"], after["discard_pile"]) == (
        before["version"],
        before["hand"],
        before["discard_pile"],
    )
    assert seat.move().status_code == 200  # and the game goes on


def test_redis_hung_answers_503_not_a_hang_then_recovers(crashable: tuple[EmbeddedRedis, str]) -> None:
    server, base = crashable
    seat = Seat(base)
    assert seat.move().status_code == 200
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        _assert_all_unavailable(seat)
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    _wait_ready(base)
    assert seat.move().status_code == 200


def test_a_full_redis_refuses_whole_changes_with_503(tmp_path: Path) -> None:
    """Under maxmemory with noeviction a commit is refused whole: 503 + Retry-After, no half-written game,
    and the games already there stay readable."""
    server = EmbeddedRedis(
        tmp_path / "redis", config=["maxmemory 4mb", "maxmemory-policy noeviction"]
    ).start()
    process, base = start_service(server.url, tmp_path, workers=1)
    try:
        seat = Seat(base)
        filler = server.client()
        filled = itertools.count()

        def fill() -> None:
            """Fill Redis to its limit, to the last few bytes — again right before each request: keys
            that expire meanwhile (a lock, a rate-limit window) give some room back."""
            for size in (65536, 1024, 16):
                while True:
                    try:
                        filler.set(f"filler:{next(filled)}", b"x" * size)
                    except redis.exceptions.OutOfMemoryError:
                        break

        fill()
        keys_before = set(filler.keys("gin:*"))
        fill()
        created = requests.post(f"{base}/v1/games", json={}, timeout=HANG)
        fill()
        moved = seat.move()
        for response in (created, moved):
            assert response.status_code == 503, response.text
            assert response.headers["Retry-After"] == "1" and response.json()["code"] == "store_unavailable"
        assert set(filler.keys("gin:*")) == keys_before  # nothing half-written
        assert requests.get(seat.url, headers=seat.auth, timeout=HANG).status_code == 200
        filler.flushdb()
        keep = Seat(base)  # room again: the service goes on by itself
        assert keep.move().status_code == 200
        filler.close()
    finally:
        stop_gunicorn(process)
        server.stop()
