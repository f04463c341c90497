"""/readyz asks both stores, Redis and PostgreSQL, and shows the archive's outbox (games pending, lag). A
PostgreSQL that stops makes the service unready (503, Retry-After) while play goes on, and ready again once
it is back; an app without a DATABASE_URL is refused at start, saying how to get one."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from ginrummy.app import Services
from ginrummy.app.config import ConfigError
from ginrummy.http import create_app
from ginrummy.store.embedded import free_port
from ginrummy.store.embedded_postgres import EmbeddedPostgres

from .gameplay import Table, problem


def _services(app: Flask) -> Services:
    services: Services = app.extensions["ginrummy"]
    return services


@pytest.fixture
def app_with_postgres(redis_url: str, tmp_path: Path) -> Iterator[tuple[Flask, EmbeddedPostgres]]:
    # A server of the test's own, on a fixed port so that it comes back where the app looks for it.
    server = EmbeddedPostgres(tmp_path / "postgres", port=free_port(), durable=False)
    server.start()
    app = create_app({"redis_url": redis_url, "database_url": server.url, "allow_seed": True})
    try:
        yield app, server
    finally:
        database = _services(app).database
        assert database is not None
        database.close()
        server.stop()


def _ready(app: Flask, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if app.test_client().get("/readyz").status_code == 200:
            return True
        time.sleep(0.1)
    return False


def test_readiness_follows_postgresql_while_play_goes_on(
    app_with_postgres: tuple[Flask, EmbeddedPostgres],
) -> None:
    app, server = app_with_postgres
    client = app.test_client()
    assert _ready(app)
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ready" and ready["archive"]["pending"] >= 0
    assert ready["archive"]["lag_seconds"] >= 0

    server.stop()
    body = problem(client.get("/readyz"), 503, "store_unavailable")
    assert body["detail"] == "PostgreSQL does not answer"
    assert client.get("/readyz").headers["Retry-After"] == "1"
    assert client.get("/healthz").status_code == 200
    # Nothing of a move touches PostgreSQL: a game is created and played meanwhile.
    seat = Table(client).bot_game()
    seat.play_one()
    seat.play_one()
    # What needs PostgreSQL says so: a new player (store_unavailable), the archive (archive_unavailable).
    body = problem(client.post("/v1/players", json={"name": "Later"}), 503, "store_unavailable")
    assert "PostgreSQL" in body["detail"]
    problem(client.get("/v1/players/Later/games"), 503, "archive_unavailable")

    server.start()  # the same port: the pool reconnects by itself
    assert _ready(app), "the service should be ready again once PostgreSQL is back"


def test_both_stores_down_are_named(tmp_path: Path) -> None:
    app = create_app(
        {
            "redis_url": "redis://127.0.0.1:1/0?socket_connect_timeout=0.5",
            "database_url": f"postgresql://postgres@127.0.0.1:{free_port()}/ginrummy",
        }
    )
    try:
        body = problem(app.test_client().get("/readyz"), 503, "store_unavailable")
        assert body["detail"] == "Redis and PostgreSQL do not answer"
    finally:
        database = _services(app).database
        assert database is not None
        database.close()


def test_an_app_without_a_database_url_is_refused_with_the_way_out(redis_url: str) -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL is not set.*ginrummy-serve starts an embedded one"):
        create_app({"redis_url": redis_url, "database_url": ""})
