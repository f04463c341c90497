"""Following a game's events: an iterator that survives dropped connections and ended streams.

The service numbers events by cursor ``"<version>-<i>"`` (each committed version's events from 1) and
answers ``GET …/events?after=<cursor>`` with what came after it, so a reader that remembers the last id
it delivered can reconnect at any time without losing or repeating an event. Streams (NDJSON) start
with a keep-alive line, send one when quiet, and end after their ``wait`` seconds; should the service's
store fail, a stream's last line is ``{"type": "error", "code": "store_unavailable", "retry_after": 1}``.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast

import requests

from .errors import ConnectionFailed, error_from_problem
from .models import Event, Problem
from .transport import NETWORK_ERRORS, backoff, describe

if TYPE_CHECKING:
    from .game import Game

NDJSON = "application/x-ndjson"
QUIET_ALLOWANCE = 30.0
"""Seconds of silence on a stream, beyond the client's timeout, before the connection is taken for dead
and replaced (the service sends a keep-alive every ``GIN_STREAM_KEEPALIVE`` seconds, 15 by default)."""


def cursor_key(cursor: str) -> tuple[int, int]:
    """A cursor as a sortable pair.

    >>> cursor_key("12-3") < cursor_key("12-10") < cursor_key("13-1")
    True
    """
    version, _, index = cursor.partition("-")
    return int(version), int(index)


def follows(after: str, cursor: str) -> bool:
    """Whether ``cursor`` is the very next event after ``after`` (else events were trimmed between them).

    >>> follows("12-3", "12-4"), follows("12-3", "13-1"), follows("12-3", "14-1")
    (True, True, False)
    """
    version, index = cursor_key(after)
    return cursor_key(cursor) in ((version, index + 1), (version + 1, 1))


def _interrupt(response: requests.Response) -> None:
    """Wake the thread blocked reading ``response``: shut its socket down, so that the read ends as on a
    dropped connection (closing the response under that thread's feet is not thread-safe).

    The socket is where urllib3 keeps it (a keep-alive connection), else where http.client does (a
    connection closed after the response); should neither be found, the next keep-alive line wakes the
    thread instead."""
    raw = response.raw
    kept = getattr(getattr(raw, "connection", None), "sock", None)
    reading = getattr(getattr(getattr(getattr(raw, "_fp", None), "fp", None), "raw", None), "_sock", None)
    for sock in (kept, reading):
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            return


class EventFeed(Iterator[Event]):
    """An iterator over a game's events; see :meth:`Game.events`.

    ``cursor`` is the id of the last event delivered (pass it as ``after`` to resume later).
    ``truncated`` turns true when events between two delivered ones (or between ``after`` and the first)
    were trimmed away by the service, which keeps only the last few: re-read the view then
    (:meth:`Game.refresh`; its ``history`` has the live hand's moves). :meth:`close` ends the
    iteration, from any thread; a ``with`` block closes it too."""

    def __init__(
        self,
        game: Game,
        after: str | None,
        *,
        wait: float,
        stream: bool,
        until: Callable[[Event], bool] | None,
    ) -> None:
        if wait <= 0:
            raise ValueError("wait must be positive: the seconds each stream or long poll stays open")
        self.game = game
        self.cursor = after
        self.truncated = False
        self.wait = wait
        self.until = until
        self._closed = threading.Event()
        self._response: requests.Response | None = None
        self._events: Generator[Event, None, None] = self._stream() if stream else self._poll()

    def __iter__(self) -> EventFeed:
        return self

    def __next__(self) -> Event:
        return next(self._events)

    def close(self) -> None:
        """Stop: the iteration ends, at once even when another thread is blocked reading the stream (a
        long poll in progress ends first: within ``wait`` seconds)."""
        self._closed.set()
        response = self._response
        if response is not None:
            _interrupt(response)
        # Being run by another thread (ValueError), the generator sees the flag and the broken stream.
        with contextlib.suppress(ValueError):
            self._events.close()

    def __enter__(self) -> EventFeed:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _deliver(self, events: Iterable[Event]) -> Iterator[Event]:
        """The events not delivered yet, in order; notes the cursor and any gap. Stops after ``until``."""
        for event in events:
            if self._closed.is_set():
                return
            if self.cursor is not None:
                if cursor_key(event["id"]) <= cursor_key(self.cursor):
                    continue  # already delivered (a resent page): exactly once
                if not follows(self.cursor, event["id"]):
                    self.truncated = True
            self.cursor = event["id"]
            self.game._received([event])
            yield event
            if self.until is not None and self.until(event):
                self._closed.set()
                return

    def _poll(self) -> Generator[Event, None, None]:
        while not self._closed.is_set():
            page = self.game.events_page(self.cursor, wait=self.wait)
            if page["truncated"]:
                self.truncated = True
            yield from self._deliver(page["events"])

    def _stream(self) -> Generator[Event, None, None]:
        client = self.game.client
        failures = 0  # connections in a row that broke (or ended in an error line) without an event
        while not self._closed.is_set():
            reply = client._request(
                "GET",
                self.game._path("events"),
                token=self.game.token,
                params={"after": self.cursor, "wait": self.wait},
                headers={"Accept": NDJSON},
                timeout=(client.timeout, client.timeout + QUIET_ALLOWANCE),
                stream=True,
            )
            self._response = reply.response
            delay = 0.0
            try:
                for item in self._lines(reply.response):
                    # Checked at every line, keep-alives too: a close() that came while this stream was
                    # still connecting had no socket to shut, and must not wait for the next event.
                    if self._closed.is_set():
                        return
                    if item.get("type") == "keepalive":
                        continue
                    if item.get("type") == "error":
                        failures += 1
                        delay = self._error_line(cast(Problem, item), failures)
                        break
                    delivered = self.cursor
                    yield from self._deliver([cast(Event, item)])
                    if self._closed.is_set():
                        return
                    if self.cursor != delivered:
                        failures = 0
                else:
                    failures = 0  # the service ended the stream after its wait: reconnect at once
            except NETWORK_ERRORS as error:
                if self._closed.is_set():
                    return
                failures += 1
                if failures > client.retries:
                    reason = describe(error)
                    raise ConnectionFailed(
                        f"the event stream keeps breaking ({reason})", reason=reason
                    ) from error
                delay = backoff(failures - 1, client.max_retry_wait)
            finally:
                reply.response.close()
                self._response = None
            if delay:
                self._closed.wait(delay)

    @staticmethod
    def _lines(response: requests.Response) -> Iterator[dict[str, Any]]:
        """The JSON objects of an NDJSON stream (keep-alives included)."""
        for line in response.iter_lines():
            if not line.strip():
                continue
            item = json.loads(line)
            if isinstance(item, dict):
                yield item

    def _error_line(self, problem: Problem, failures: int) -> float:
        """An error line ending a stream: seconds to wait before reconnecting, or raise it."""
        client = self.game.client
        wait = problem.get("retry_after")
        status = problem.get("status") or (503 if wait is not None else 500)
        error = error_from_problem(status, problem, retry_after=wait)
        if wait is None or wait > client.max_retry_wait or failures > client.retries:
            raise error
        return float(wait)
