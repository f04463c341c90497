"""Fixtures of the SDK stories: clients of the session's real service, direct or through a proxy."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar
from urllib.parse import parse_qs, urlsplit

import pytest
from ginrummy_client import Client
from ginrummy_client.events import Following

from tests.scripted import Reply, ScriptedService, serving

from .proxy import Proxy

T = TypeVar("T")


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


class Reader(Generic[T]):
    """Iterates a feed (a game's events, an account stream) on a thread of its own, as an application
    would, collecting what it yields."""

    def __init__(self, feed: Following[T]) -> None:
        self.feed = feed
        self.events: list[T] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for event in self.feed:
                self.events.append(event)
        except BaseException as error:  # noqa: BLE001 - handed to the test thread
            self.error = error

    def stop(self) -> list[T]:
        self.feed.close()
        self.thread.join(10)
        assert not self.thread.is_alive(), "the feed did not stop"
        assert self.error is None, self.error
        return self.events


Answer = tuple[int, Mapping[str, str], list[dict[str, Any]]]
"""A stub's answer: status, headers, and the lines of its NDJSON body."""


class StubServer(ScriptedService):
    """A stub of the service's NDJSON streams: ``answer(query)`` says what each GET gets; ``seen`` keeps
    each GET's query, with its time."""

    def __init__(self, answer: Callable[[dict[str, str]], Answer]) -> None:
        def reply(method: str, path: str) -> Reply:
            status, headers, lines = answer(query_of(path))
            body = "".join(json.dumps(line) + "\n" for line in lines).encode()
            return status, {"Content-Type": "application/x-ndjson", **headers}, body

        super().__init__(reply)

    @property
    def seen(self) -> list[tuple[float, dict[str, str]]]:
        return [(at, query_of(path)) for at, _, path in self.log]


def query_of(path: str) -> dict[str, str]:
    return {name: values[0] for name, values in parse_qs(urlsplit(path).query).items()}


def stub_service(answer: Callable[[dict[str, str]], Answer]) -> contextlib.AbstractContextManager[StubServer]:
    """A :class:`StubServer` serving on a free loopback port (its ``url``)."""
    return serving(StubServer(answer))
