"""The app under test: ``create_app`` against the suite's real redis-server, and a test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.http import create_app
from ginrummy.store import make_client

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
