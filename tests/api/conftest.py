"""The app under test: ``create_app`` against the suite's real redis-server, and a test client; a second
app on a Redis database of its own (``lonely_app``) where the only bot worker is a test's (``worker``)."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.app import Services
from ginrummy.bot_worker import Worker
from ginrummy.http import create_app
from ginrummy.store import make_client
from ginrummy.store.bot_jobs import ALIVE

from .gameplay import Table


@pytest.fixture(scope="session")
def app(redis_url: str) -> Flask:
    return create_app({"redis_url": redis_url, "allow_seed": True, "stream_keepalive": 1})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client)


@pytest.fixture
def raw_redis(redis_url: str) -> Iterator[object]:
    redis_client = make_client(redis_url)
    yield redis_client
    redis_client.close()


def services_of(app: Flask) -> Services:
    services: Services = app.extensions["ginrummy"]
    return services


@pytest.fixture
def worker(lonely_app: Flask, lonely: Table) -> Iterator[Worker]:
    """A real bot worker on a thread of this process, on the suite's Redis and PostgreSQL: the only one
    of the lonely service."""
    app = lonely_app
    running = Worker(services_of(app), name=f"test-{uuid.uuid4().hex[:8]}")
    running.block_ms = 100
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not services_of(app).bot_queue.alive():
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.01)
    yield running
    running.stop()
    thread.join(10)


@pytest.fixture(scope="session")
def lonely_app(redis_url: str) -> Flask:
    """The service on a Redis database where no bot worker runs but the tests' own (the suite's gunicorn
    has one on database 0, which the other tests' app shares)."""
    assert redis_url.endswith("/0")
    return create_app({"redis_url": redis_url[:-1] + "9", "allow_seed": True})


@pytest.fixture
def lonely(lonely_app: Flask) -> Iterator[Table]:
    """A table of that service, no worker's sign of life left from an earlier test."""
    queue = services_of(lonely_app).bot_queue
    queue.client.delete(ALIVE)
    yield Table(lonely_app.test_client())
    queue.client.delete(ALIVE)
