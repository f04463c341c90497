"""A pool of PostgreSQL connections all in use is no outage: a request that finds every connection of its
process held by other requests for the whole wait is refused with 429 ``overloaded`` and ``Retry-After``
(try again in a moment), never 503 ``store_unavailable`` ("PostgreSQL does not answer"); a PostgreSQL that
does not answer still is a 503. Against the suite's real PostgreSQL, with a pool cut down to 1 connection
held by another thread — as 200 quick seekers at once on a loaded machine held them."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import pytest
from flask import Flask
from ginrummy.http import create_app
from ginrummy.store import Database, DatabaseBusy
from ginrummy.store.embedded import free_port
from psycopg_pool import PoolTimeout

from .conftest import services_of
from .gameplay import problem


class Held:
    """A pooled connection held by another thread (another request) until ``release()``."""

    def __init__(self, database: Database) -> None:
        self.taken = threading.Event()
        self.released = threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(database,), daemon=True)
        self.thread.start()
        assert self.taken.wait(60), "the connection was not taken"

    def _hold(self, database: Database) -> None:
        with database.connection() as conn:
            conn.execute("SELECT 1")
            self.taken.set()
            self.released.wait(120)

    def release(self) -> None:
        self.released.set()
        self.thread.join(60)


@pytest.fixture
def one_connection_app(redis_url: str) -> Iterator[Flask]:
    app = create_app({"redis_url": redis_url, "allow_seed": True})
    database = services_of(app).database
    assert database is not None
    database.pool.resize(1, 1)
    yield app
    database.close()


def test_a_request_finding_every_connection_held_is_told_to_come_back_not_that_postgresql_is_down(
    one_connection_app: Flask,
) -> None:
    app = one_connection_app
    database = services_of(app).database
    assert database is not None
    client = app.test_client()
    name = f"busy{uuid.uuid4().hex[:8]}"
    held = Held(database)
    try:
        response = client.post("/v1/players", json={"name": name})
        body = problem(response, 429, "overloaded")
        assert response.headers["Retry-After"] == "1" and "PostgreSQL" in body["detail"]
        assert "does not answer" not in body["detail"]
        assert client.get("/readyz").status_code == 200  # PostgreSQL answers: the instance stays ready
    finally:
        held.release()
    assert client.post("/v1/players", json={"name": name}).status_code == 201  # nothing was made before


def test_the_pool_tells_busy_from_down(one_connection_app: Flask) -> None:
    database = services_of(one_connection_app).database
    assert database is not None
    held = Held(database)
    try:
        with pytest.raises(DatabaseBusy), database.connection(timeout=0.2, busy_wait=0.2):
            pass
    finally:
        held.release()
    with database.connection(timeout=5) as conn:  # free again
        assert conn.execute("SELECT 1").fetchone() == (1,)
    # Nobody holds a connection and none can be made: PostgreSQL does not answer (503), not busy.
    nowhere = Database(f"postgresql://postgres@127.0.0.1:{free_port()}/ginrummy", timeout=0.5)
    try:
        with pytest.raises(PoolTimeout) as raised, nowhere.connection():
            pass
        assert not isinstance(raised.value, DatabaseBusy)
        assert not nowhere.ping()
    finally:
        nowhere.close()
