"""Fixtures of the SDK stories: clients of the session's real service, direct or through a proxy."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from ginrummy_client import Client

from .proxy import Proxy


@pytest.fixture
def client(live_service: str) -> Iterator[Client]:
    """A client straight to the real service."""
    with Client(live_service) as sdk:
        yield sdk


@pytest.fixture
def proxy(live_service: str) -> Iterator[Proxy]:
    """A TCP proxy in front of the real service, which can drop connections and responses."""
    in_front = Proxy(live_service)
    try:
        yield in_front
    finally:
        in_front.close()


def wait_until(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Poll ``check()`` until true; a guard against a hang, not a timed assertion."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)
