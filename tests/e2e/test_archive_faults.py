"""No record is lost between Redis and PostgreSQL, against real processes: a real gunicorn service, the
suite's redis-server and a PostgreSQL of the test's own that is stopped and started again.

- PostgreSQL stopped while matches finish: play goes on, the records wait in Redis (the outbox; readiness
  says PostgreSQL is down, the metrics show the depth), reads of the archive answer 503 with Retry-After;
  once PostgreSQL is back, every hand and match arrives exactly once, and Redis lets the matches go.
- The service killed with SIGKILL (master and workers) after the Redis commits and before the archive
  writes: a new service's drainer archives what the dead one left, exactly once.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests
from ginrummy.store import GameStore, make_client
from ginrummy.store.database import RECONNECT_TIMEOUT
from ginrummy.store.embedded import free_port
from ginrummy.store.embedded_postgres import EmbeddedPostgres
from ginrummy.store.schema import migrate

from tests.deploy.play import create_game, play_to_end
from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn

MATCHES = 4


@pytest.fixture
def postgres(tmp_path: Path) -> Iterator[EmbeddedPostgres]:
    # A fixed port, so that the server comes back where the service looks for it.
    server = EmbeddedPostgres(tmp_path / "postgres", port=free_port(), durable=False)
    server.start()
    migrate(server.url)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_url: str) -> str:
    """A Redis database of its own: the other services of the suite share database 0 with their own
    PostgreSQL, and their drainers would archive these games there (one Redis goes with one PostgreSQL)."""
    return redis_url.rsplit("/", 1)[0] + "/4"


def _service(redis_url: str, postgres: EmbeddedPostgres, log_dir: Path, **env: str) -> Any:
    # GIN_FINISHED_TTL=1: an archived match leaves Redis a second later.
    extra = {"DATABASE_URL": postgres.url, "GIN_FINISHED_TTL": "1", **env}
    return start_service(redis_url, log_dir, extra_env=extra)


def _finish_matches(base: str, count: int) -> dict[str, int]:
    """Play ``count`` short matches against a bot to their end; returns {game id: hands played}."""
    http = requests.Session()
    played = {}
    for _ in range(count):
        seat = create_game(http, base)
        final = play_to_end(http, seat, base)
        assert final["phase"] == "match_over"
        played[seat.game_id] = len(final["hands"])
    return played


def _archived(url: str) -> tuple[dict[str, int], dict[str, int]]:
    """{game id: hands column} of the archived games, and {game id: hand rows}."""
    with psycopg.connect(url) as conn:
        games = dict(conn.execute("SELECT id, hands FROM games").fetchall())
        hands = dict(conn.execute("SELECT game_id, count(*) FROM hands GROUP BY game_id").fetchall())
    return games, hands


def _wait(what: str, check: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _pending(store: GameStore, games: dict[str, int]) -> list[str]:
    return [game for game in games if store.outbox(game)]


@pytest.mark.slow
def test_postgresql_down_while_matches_finish_loses_and_duplicates_nothing(
    redis_url: str, postgres: EmbeddedPostgres, tmp_path: Path
) -> None:
    process, base = _service(redis_url, postgres, tmp_path)
    store = GameStore(make_client(redis_url))
    try:
        postgres.stop()
        played = _finish_matches(base, MATCHES)  # play goes on without PostgreSQL
        assert sorted(_pending(store, played)) == sorted(played)  # every record waits in Redis
        ready = requests.get(f"{base}/readyz", timeout=5)
        assert ready.status_code == 503 and "PostgreSQL" in ready.json()["detail"]
        metrics = requests.get(f"{base}/metrics", timeout=5).text
        depth = [line for line in metrics.splitlines() if line.startswith("gin_archive_pending")]
        assert depth and float(depth[0].split()[-1]) >= MATCHES
        some = next(iter(played))
        export = requests.get(f"{base}/v1/games/{some}/export", timeout=10)
        assert export.status_code == 503 and export.json()["code"] == "archive_unavailable"
        assert export.headers["Retry-After"]
        # The finished games are still readable from Redis, every hand of them too.
        assert requests.get(f"{base}/v1/games/{some}", timeout=5).status_code == 200

        postgres.start()  # the same port: the pools reconnect, the drainer catches up
        _wait("the outbox to empty", lambda: not _pending(store, played))
        games, hands = _archived(postgres.url)
        assert {game: games[game] for game in played} == played  # each match once, with its hand count
        assert {game: hands[game] for game in played} == played  # each hand once
        _wait("the archived matches to leave Redis", lambda: all(not store.keys_of(g) for g in played), 15)
        # Read from the archive from then on. Every worker's pool reconnects within RECONNECT_TIMEOUT of
        # PostgreSQL's return however long it was away; until then a read may still say 503, nothing else.
        deadline = time.monotonic() + 3 * RECONNECT_TIMEOUT
        for game, count in played.items():
            while True:
                export = requests.get(f"{base}/v1/games/{game}/export", timeout=10)
                if export.status_code == 200 or time.monotonic() > deadline:
                    break
                assert export.json()["code"] == "archive_unavailable"
                time.sleep(0.5)
            assert export.status_code == 200, export.text
            assert len(export.json()["hands"]) == count
            while True:  # (another worker's pool may not have reconnected yet: 503 until it has)
                view = requests.get(f"{base}/v1/games/{game}", timeout=5)
                if view.status_code == 200 or time.monotonic() > deadline:
                    break
                assert view.json()["code"] == "archive_unavailable"
                time.sleep(0.5)
            assert view.status_code == 200 and view.json()["archived"] is True, view.text
    finally:
        stop_gunicorn(process)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


@pytest.mark.slow
def test_a_service_killed_before_its_archive_writes_leaves_them_to_the_next_one(
    redis_url: str, postgres: EmbeddedPostgres, tmp_path: Path
) -> None:
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    process, base = _service(redis_url, postgres, tmp_path / "first")
    store = GameStore(make_client(redis_url))
    postgres.stop()  # the commits to Redis happen, the writes to PostgreSQL cannot
    played = _finish_matches(base, 2)
    workers = _children(process.pid)
    assert workers
    for pid in [process.pid, *workers]:  # no goodbye: SIGKILL the master and every worker
        os.kill(pid, signal.SIGKILL)
    process.wait(10)
    assert sorted(_pending(store, played)) == sorted(played)

    postgres.start()
    second, _ = _service(redis_url, postgres, tmp_path / "second")
    try:
        _wait("the new service's drainer to archive them", lambda: not _pending(store, played))
        games, hands = _archived(postgres.url)
        assert {game: games[game] for game in played} == played
        assert {game: hands[game] for game in played} == played
    finally:
        stop_gunicorn(second)
