"""Following a game's events (and, with the same machinery, an account's: :mod:`.account`): an
iterator that survives dropped connections and ended streams.

Each event has an ``id``, and ``GET …/events?after=<id>`` answers with what came after it, so a reader
that remembers the last id it delivered can reconnect at any time without losing or repeating an event.
The SDK treats ids as opaque: it resumes from the last id the service gave it, and tells events apart by
their ids (a set), never by comparing them. Streams (NDJSON) start with a keep-alive line, send one when
quiet, and end after their ``wait`` seconds; should the service's store fail, a stream's last line is
``{"type": "error", "code": "store_unavailable", "retry_after": 1}``.

With ``?chat=true`` a game's stream also carries the table chat: ``chatLine`` lines, which are not the
game's events and have no ``id``, but a number ``n`` (the game's lines, from 1); a reader resumes them with
``?chat_after=<the last n it delivered>``, beside ``after`` for the events.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import Any, TypeVar, cast

import requests

from .errors import ConnectionFailed, error_from_problem
from .models import ChatLine, Event, EventsPage, OpponentGone, Problem, StreamError
from .transport import NDJSON, NETWORK_ERRORS, Requestor, backoff, describe, ndjson_objects

T = TypeVar("T")
Item = TypeVar("Item", Event, Event | ChatLine)
"""What an :class:`EventFeed` yields: the game's events, and with ``chat`` its chat lines too."""

QUIET_ALLOWANCE = 30.0
"""Seconds of silence on a stream, beyond the client's timeout, before the connection is taken for dead
and replaced (the service sends a keep-alive every ``GIN_STREAM_KEEPALIVE`` seconds, 15 by default)."""


def read_page(
    requestor: Requestor, path: str, token: str | None, after: str | None, *, wait: float = 0.0
) -> EventsPage:
    """One JSON page of the events at ``path`` after the id ``after`` (None: from the oldest kept), the
    service holding the request up to ``wait`` seconds for the next event when there is none."""
    params = {"after": after, "wait": wait}
    reply = requestor.request("GET", path, token=token, params=params, timeout=wait + requestor.timeout)
    return cast(EventsPage, reply.data)


def _follows(after: str, event_id: str) -> bool:
    """Whether ``event_id`` comes right after ``after`` (else events were trimmed between them), as far as
    the ids tell: True when they are not of the service's form ``"<version>-<i>"``.

    The one place the SDK reads an id, and only for :attr:`EventFeed.truncated` on a stream: a JSON page
    says ``truncated`` itself, an NDJSON stream does not.

    >>> _follows("12-3", "12-4"), _follows("12-3", "13-1"), _follows("12-3", "14-1"), _follows("a", "b")
    (True, True, False, True)
    """
    try:
        version, index = (int(part) for part in after.split("-"))
        next_version, next_index = (int(part) for part in event_id.split("-"))
    except ValueError:
        return True
    return (next_version, next_index) in ((version, index + 1), (version + 1, 1))


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


class Following(Iterator[T]):
    """What every NDJSON stream the SDK follows shares (a game's events, an account's): it reads
    ``path`` with ``token`` through ``requestor``, connection after connection, each held open up to
    ``wait`` seconds (None: the service's longest), and :meth:`close` ends the iteration from any thread.

    :meth:`_lines` yields the objects of the stream, keep-alives included, and reconnects when the service
    ends a stream or the connection drops (after a pause that doubles), and after an error line's
    ``retry_after``; once ``retries`` connections in a row have failed without a line, it raises
    (:class:`ConnectionFailed`, or the error line's :class:`ApiError`). A subclass says where to resume
    (:meth:`_params`) and makes ``_items`` of the lines."""

    what = "stream"
    """What the stream is, for messages."""

    def __init__(self, requestor: Requestor, path: str, *, token: str | None, wait: float | None) -> None:
        if wait is not None and wait <= 0:
            raise ValueError("wait must be positive: the seconds each stream or long poll stays open")
        self.wait = wait
        self._requestor = requestor
        self._path = path
        self._token = token
        self._closed = threading.Event()
        self._response: requests.Response | None = None
        self._items: Generator[T, None, None] = self._generate()

    def __iter__(self) -> Following[T]:
        return self

    def __next__(self) -> T:
        return next(self._items)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (or the iteration was ended by ``until``)."""
        return self._closed.is_set()

    def close(self) -> None:
        """Stop: the iteration ends, at once even when another thread is blocked reading the stream (a
        long poll in progress ends first: within ``wait`` seconds)."""
        self._closed.set()
        response = self._response
        if response is not None:
            _interrupt(response)
        # Being run by another thread (ValueError), the generator sees the flag and the broken stream.
        with contextlib.suppress(ValueError):
            self._items.close()

    def __enter__(self) -> Following[T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _generate(self) -> Generator[T, None, None]:
        raise NotImplementedError

    def _params(self) -> Mapping[str, Any]:
        """The query of the next connection: where to resume."""
        raise NotImplementedError

    def _connect(self) -> requests.Response:
        requestor = self._requestor
        reply = requestor.request(
            "GET",
            self._path,
            token=self._token,
            params={**self._params(), **({"wait": self.wait} if self.wait is not None else {})},
            headers={"Accept": NDJSON},
            timeout=(requestor.timeout, requestor.timeout + QUIET_ALLOWANCE),
            stream=True,
        )
        return reply.response

    def _lines(self) -> Generator[dict[str, Any], None, None]:
        requestor = self._requestor
        failures = 0  # connections in a row that broke (or ended in an error line) without a line
        while not self._closed.is_set():
            response = self._connect()
            self._response = response
            delay = 0.0
            try:
                for item in ndjson_objects(response):
                    # Checked at every line, keep-alives too: a close() that came while this stream was
                    # still connecting had no socket to shut, and must not wait for the next event.
                    if self._closed.is_set():
                        return
                    if item.get("type") == "error":
                        failures += 1
                        delay = self._error_line(cast(StreamError, item), failures)
                        break
                    yield item
                    if self._closed.is_set():
                        return
                    if item.get("type") != "keepalive":
                        failures = 0
                else:
                    failures = 0  # the service ended the stream after its wait: reconnect at once
            except NETWORK_ERRORS as error:
                if self._closed.is_set():
                    return
                failures += 1
                if failures > requestor.retries:
                    reason = describe(error)
                    raise ConnectionFailed(
                        f"the {self.what} keeps breaking ({reason})", reason=reason
                    ) from error
                delay = backoff(failures - 1, requestor.max_retry_wait)
            finally:
                response.close()
                self._response = None
            if delay:
                self._closed.wait(delay)

    def _error_line(self, line: StreamError, failures: int) -> float:
        """An error line ending a stream: seconds to wait before reconnecting, or raise it (as the
        :class:`ApiError` of its code: the line is the problem's code and detail)."""
        requestor = self._requestor
        wait = line.get("retry_after")
        error = error_from_problem(503 if wait is not None else 500, cast(Problem, line), retry_after=wait)
        if wait is None or wait > requestor.max_retry_wait or failures > requestor.retries:
            raise error
        return float(wait)


class EventFeed(Following[Item]):
    """An iterator over a game's events (and, with ``chat``, its chat lines); see :meth:`Game.events`.

    ``cursor`` is the id of the last event delivered (pass it as ``after`` to resume later).
    ``truncated`` turns true when events between two delivered ones (or between ``after`` and the first)
    were trimmed away by the service, which keeps only the last few: re-read the view then
    (:meth:`Game.refresh`; its ``history`` has the live hand's moves). :meth:`close` ends the
    iteration, from any thread; a ``with`` block closes it too. ``opponent_gone`` is the service's last
    word that the opponent seems to have left — ``{"type": "opponentGone", "gone": True, "claim_in":
    seconds}`` until :meth:`Game.claim_victory` wins — or None (it says so between events, while none come).

    ``chat``: the stream also yields the chat lines the seat reads, as :class:`ChatLine`\\ s (``type``
    ``"chatLine"``, no ``id``: they are not events, and leave ``cursor``, ``truncated`` and ``until``
    alone), those after line ``chat_after`` first; ``chat_after`` then follows the last line delivered,
    and each new connection asks for the lines after it, so every line comes once. Chat lines come on the
    stream only (``stream=True``).

    It reads ``path`` (a game's events) with ``token`` through ``requestor``, and tells ``received`` of
    each event it delivers, with the id of the one it delivered before (how a :class:`Game` keeps its
    ``cursor``)."""

    what = "event stream"

    def __init__(
        self,
        requestor: Requestor,
        path: str,
        *,
        token: str | None,
        after: str | None,
        wait: float,
        stream: bool,
        until: Callable[[Event], bool] | None = None,
        received: Callable[[list[Event], str | None], None] | None = None,
        chat: bool = False,
        chat_after: int = 0,
    ) -> None:
        if chat and not stream:
            raise ValueError("chat lines come on the stream only: stream=True (or read game.chat() pages)")
        self.cursor = after
        self.truncated = False
        self.opponent_gone: OpponentGone | None = None
        self.until = until
        self.stream = stream
        self.chat = chat
        self.chat_after = chat_after
        self._received = received
        self._delivered: set[str] = set()
        super().__init__(requestor, path, token=token, wait=wait)

    def _generate(self) -> Generator[Item, None, None]:
        return self._stream() if self.stream else self._poll()

    def _params(self) -> Mapping[str, Any]:
        if self.chat:
            return {"after": self.cursor, "chat": "true", "chat_after": self.chat_after}
        return {"after": self.cursor}

    def _deliver(self, events: Iterable[Event], *, gaps: bool = False) -> Iterator[Item]:
        """The events not delivered yet, in order; notes the cursor (and with ``gaps``, any gap before an
        event). Stops after ``until``."""
        for event in events:
            if self._closed.is_set():
                return
            if event["id"] in self._delivered:
                continue  # already delivered (a resent page): exactly once
            if gaps and self.cursor is not None and not _follows(self.cursor, event["id"]):
                self.truncated = True
            previous, self.cursor = self.cursor, event["id"]
            self._delivered.add(event["id"])
            if self._received is not None:
                self._received([event], previous)
            yield event
            if self.until is not None and self.until(event):
                self._closed.set()
                return

    def _poll(self) -> Generator[Item, None, None]:
        after = self.cursor
        wait = self.wait or 0.0
        while not self._closed.is_set():
            page = read_page(self._requestor, self._path, self._token, after, wait=wait)
            if page["truncated"]:
                self.truncated = True
            self.opponent_gone = page.get("opponent_gone")
            yield from self._deliver(page["events"])
            after = page["cursor"] or after  # where the service says to go on from

    def _stream(self) -> Generator[Item, None, None]:
        for item in self._lines():
            kind = item.get("type")
            if kind == "opponentGone":  # a status line (no id), not one of the game's events
                self.opponent_gone = cast(OpponentGone, item)
                continue
            if kind == "chatLine" and self.chat:  # no id either: numbered, and resumed by its number
                if item["n"] > self.chat_after:  # a line resent after a reconnection: once
                    self.chat_after = item["n"]
                    yield cast(Item, item)
                continue
            if "id" not in item:  # keep-alives, and status lines of later versions of the service
                continue
            self.opponent_gone = None
            if kind != "keepalive":
                # A stream, unlike a page, does not say when events were trimmed before this one.
                yield from self._deliver([cast(Event, item)], gaps=True)
