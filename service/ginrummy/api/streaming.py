"""Events: a JSON page (with an optional long poll), or a stream of NDJSON lines or Server-Sent Events.

The cursor of an event is its stream id ``<version>-<i>``. Each version's events are numbered from 1,
so the successor of ``v-i`` is ``v-(i+1)`` or ``(v+1)-1``; when the first event returned is neither,
older events were trimmed away and the answer says ``"truncated": true`` (the client should GET the view).
Streams start with a line at once (an NDJSON keep-alive, SSE's ``retry:``), so that a client sees the
stream open before the first event, then send a keep-alive (an NDJSON ``{"type": "keepalive"}`` line, an
SSE comment) after ``GIN_STREAM_KEEPALIVE`` seconds without events, and end after ``?wait=`` seconds (at most
``GIN_STREAM_MAX``); clients reconnect with the last cursor (SSE: ``Last-Event-ID``). Should Redis fail
during a stream, its last line is ``{"type": "error", "code": "store_unavailable", "retry_after": 1, …}``
(SSE: ``event: error`` with ``retry:``) and it ends: reconnect from the last cursor after that delay.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Response, request, stream_with_context

from ginrummy.store import StoreUnavailable

from . import clocks, observability
from .errors import RETRY_AFTER, STORE_UNAVAILABLE, ApiError
from .service import GameService, seat_event

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
PAGE_SIZE = 200
KEEPALIVE_LINE = '{"type":"keepalive"}\n'


def _successor(after: str, first: str) -> bool:
    version, index = (int(x) for x in after.split("-"))
    nxt_version, nxt_index = (int(x) for x in first.split("-"))
    return (nxt_version, nxt_index) in ((version, index + 1), (version + 1, 1))


def _wanted_type() -> str:
    accept = request.accept_mimetypes
    best = accept.best_match(["application/json", NDJSON, SSE], default="application/json")
    return best or "application/json"


def events_response(svc: GameService, game_id: str, token: str | None, query: dict[str, Any]) -> Response:
    seat, clocked, due = svc.reader_seat(game_id, token)
    watch = ClockWatch(clocked, due)
    after: str | None = query.get("after")
    kind = _wanted_type()
    if kind == SSE and after is None:
        last = request.headers.get("Last-Event-ID")
        if last:
            if not _valid_cursor(last):
                raise ApiError(422, "bad_cursor", "Last-Event-ID must be an event id such as 12-3")
            after = last
    config = svc.config
    if kind == "application/json":
        wait = min(float(query.get("wait") or 0), config.max_wait)
        rows = _read(svc, game_id, after, wait, watch)
        events = [seat_event(cursor, payload, seat) for cursor, payload in rows]
        truncated = bool(rows) and after is not None and not _successor(after, rows[0][0])
        body = {"events": events, "cursor": rows[-1][0] if rows else after, "truncated": truncated}
        response = Response(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), mimetype="application/json")
        response.headers["Cache-Control"] = "no-store"
        return response
    duration = min(float(query.get("wait") or config.stream_max), config.stream_max)
    generator = _stream(svc, game_id, seat, after, duration, kind == SSE, watch)
    response = Response(stream_with_context(generator), mimetype=kind)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must not hold the stream back
    return response


@dataclass
class ClockWatch:
    """When a wait on a game with a clock looks at the game again: at the running seat's deadline (to
    commit the loss on time, so that a client that only follows events learns of it), and once after new
    events (a move may have started or moved a clock). Waiting costs no Redis command before then."""

    clocked: bool
    due_ms: int | None  # None: no clock runs

    def wait(self, left: float) -> float:
        """Seconds to wait for events: ``left``, or less when a deadline comes first."""
        if self.due_ms is None:
            return left
        return min(left, max(0.0, (self.due_ms - clocks.now_ms()) / 1000))

    def moved(self) -> None:
        if self.clocked:
            self.due_ms = clocks.now_ms()

    def look(self, svc: GameService, game_id: str) -> bool:
        """At a deadline: commit a passed one (its events are then in the list); True if it looked."""
        if self.due_ms is None or clocks.now_ms() < self.due_ms:
            return False
        now = clocks.now_ms()
        try:
            self.due_ms = svc.expire_if_due(game_id)
        except ApiError:  # a refusal here is another request's business
            self.due_ms = now
        if self.due_ms is not None and self.due_ms <= now:  # not settled yet: look again in a second
            self.due_ms = now + 1000
        return True


def _read(svc: GameService, game_id: str, after: str | None, wait: float, watch: ClockWatch) -> list[Any]:
    """Events after ``after``, waiting up to ``wait`` seconds for one (see :class:`ClockWatch`)."""
    end = time.monotonic() + wait
    while True:
        left = max(0.0, end - time.monotonic())
        rows = svc.store.read_events(game_id, after, count=PAGE_SIZE, wait_ms=int(watch.wait(left) * 1000))
        if rows:
            watch.moved()
            return rows
        if not watch.look(svc, game_id) and time.monotonic() >= end:
            return rows


def _valid_cursor(text: str) -> bool:
    head, _, tail = text.partition("-")
    return head.isdigit() and tail.isdigit() and len(text) <= 20


def _stream(
    svc: GameService,
    game_id: str,
    seat: int | None,
    after: str | None,
    duration: float,
    sse: bool,
    watch: ClockWatch,
) -> Iterator[str]:
    deadline = time.monotonic() + duration
    keepalive = max(1, svc.config.stream_keepalive)
    # Something at once: a WSGI server sends the headers with the first chunk, so a client would not
    # know the stream is open until the first event or keep-alive otherwise.
    yield "retry: 2000\n\n" if sse else KEEPALIVE_LINE
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        try:
            rows = _read(svc, game_id, after, min(keepalive, left), watch)
        except StoreUnavailable as error:
            # The headers are long gone: end the stream with a last line saying why and when to come
            # back (from the last cursor), rather than cutting the connection.
            observability.record_redis_error(type(error).__name__)
            gone = {"type": "error", "code": "store_unavailable", "detail": STORE_UNAVAILABLE}
            gone["retry_after"] = RETRY_AFTER
            text = orjson.dumps(gone).decode()
            yield f"retry: {RETRY_AFTER * 1000}\nevent: error\ndata: {text}\n\n" if sse else text + "\n"
            return
        if not rows:
            yield ": keep-alive\n\n" if sse else KEEPALIVE_LINE
            continue
        for cursor, payload in rows:
            event = seat_event(cursor, payload, seat)
            text = orjson.dumps(event, option=orjson.OPT_NON_STR_KEYS).decode()
            yield f"id: {cursor}\nevent: {event['type']}\ndata: {text}\n\n" if sse else text + "\n"
        after = rows[-1][0]
