"""Events over HTTP: a JSON page (with an optional long poll), or a stream of NDJSON lines or Server-Sent
Events, chosen by ``Accept``. What is read, and when, is the use case's (:mod:`ginrummy.app.playing.events`).

Streams start with a line at once (an NDJSON keep-alive, SSE's ``retry:``), so that a client sees the
stream open before the first event, then send a keep-alive (an NDJSON ``{"type": "keepalive"}`` line, an
SSE comment) after ``GIN_STREAM_KEEPALIVE`` seconds without events, and end after ``?wait=`` seconds (at most
``GIN_STREAM_MAX``); clients reconnect with the last cursor (SSE: ``Last-Event-ID``). Should Redis fail
during a stream, its last line is ``{"type": "error", "code": "store_unavailable", "retry_after": 1, …}``
(SSE: ``event: error`` with ``retry:``) and it ends: reconnect from the last cursor after that delay.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Response, request, stream_with_context

from ginrummy.app import Services
from ginrummy.app.errors import ServiceError
from ginrummy.app.playing.chat import Chat, Listener
from ginrummy.app.playing.events import EventReader, Reader, check_cursor
from ginrummy.app.playing.render import seat_event
from ginrummy.store import StoreUnavailable
from ginrummy.store.chat import chat_channel_key

from . import observability
from .errors import RETRY_AFTER, STORE_UNAVAILABLE

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
KEEPALIVE_LINE = '{"type":"keepalive"}\n'
EVENT_ID = re.compile(r"\d{1,20}-\d{1,20}")  # an account event's id (a Redis stream id)


def _wanted_type() -> str:
    accept = request.accept_mimetypes
    best = accept.best_match(["application/json", NDJSON, SSE], default="application/json")
    return best or "application/json"


def wants_ndjson() -> bool:
    """Whether the client asks for NDJSON rather than JSON (``Accept``)."""
    accept = request.accept_mimetypes
    return accept.best_match(["application/json", NDJSON], default="application/json") == NDJSON


def ndjson_response(lines: Iterator[bytes] | Iterator[str]) -> Response:
    """An answer of NDJSON lines (an export, a tournament's results), streamed as they come."""
    response = Response(stream_with_context(lines), mimetype=NDJSON)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must not hold the stream back
    return response


def events_response(services: Services, game_id: str, token: str | None, query: dict[str, Any]) -> Response:
    events = services.events
    reader = events.open(game_id, token)
    after: str | None = query.get("after")
    kind = _wanted_type()
    if kind == SSE and after is None:
        last = request.headers.get("Last-Event-ID")
        if last:
            after = check_cursor(last)
    config = services.config
    if kind == "application/json":
        page = events.page(reader, after, float(query.get("wait") or 0))
        response = Response(orjson.dumps(page, option=orjson.OPT_NON_STR_KEYS), mimetype="application/json")
        response.headers["Cache-Control"] = "no-store"
        return response
    duration = min(float(query.get("wait") or config.stream_max), config.stream_max)
    keepalive = max(1, config.stream_keepalive)
    chat = None
    if query.get("chat"):
        listener = services.chat.listener(game_id, token)
        chat_after = query.get("chat_after")
        chat = ChatFeed(
            services.chat, listener, services.chat.last(game_id) if chat_after is None else chat_after
        )
    generator = _stream(events, reader, after, duration, keepalive, kind == SSE, chat)
    response = Response(stream_with_context(generator), mimetype=kind)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must not hold the stream back
    return response


@dataclass
class ChatFeed:
    """The chat lines a game's stream sends beside its events (``?chat=true``): the listener's, after
    line ``after``. They have no event id (they are not the game's events): a client resumes them with
    ``?chat_after=`` or ``GET …/chat?after=``."""

    chat: Chat
    listener: Listener
    after: int

    def lines(self, sse: bool) -> Iterator[str]:
        for line in self.chat.read(self.listener, self.after):
            self.after = line["n"]
            text = orjson.dumps(line).decode()
            yield f"event: chatLine\ndata: {text}\n\n" if sse else text + "\n"


def _stream(
    events: EventReader,
    reader: Reader,
    after: str | None,
    duration: float,
    keepalive: int,
    sse: bool,
    chat: ChatFeed | None = None,
) -> Iterator[str]:
    deadline = time.monotonic() + duration
    # Something at once: a WSGI server sends the headers with the first chunk, so a client would not
    # know the stream is open until the first event or keep-alive otherwise.
    yield "retry: 2000\n\n" if sse else KEEPALIVE_LINE
    also = None if chat is None else chat_channel_key(reader.game_id)
    if chat is not None:
        yield from chat.lines(sse)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        try:
            rows = events.read(reader, after, min(keepalive, left), also=also)
            said = [] if chat is None or rows else list(chat.lines(sse))
        except StoreUnavailable as error:
            # The headers are long gone: end the stream with a last line saying why and when to come
            # back (from the last cursor), rather than cutting the connection.
            observability.record_redis_error(type(error).__name__)
            gone: dict[str, Any] = {"type": "error", "code": "store_unavailable", "detail": STORE_UNAVAILABLE}
            gone["retry_after"] = RETRY_AFTER
            text = orjson.dumps(gone).decode()
            yield f"retry: {RETRY_AFTER * 1000}\nevent: error\ndata: {text}\n\n" if sse else text + "\n"
            return
        if said:
            yield from said
            continue
        if not rows:
            # A keep-alive, or — the opponent sitting on its move for long — opponentGone (no id: it is
            # not one of the game's events, and is said again at each keep-alive while it holds).
            away = events.opponent_gone(reader)
            if away is None:
                yield ": keep-alive\n\n" if sse else KEEPALIVE_LINE
            else:
                text = orjson.dumps(away).decode()
                yield f"event: opponentGone\ndata: {text}\n\n" if sse else text + "\n"
            continue
        for cursor, payload in rows:
            event = seat_event(cursor, payload, reader.seat)
            text = orjson.dumps(event, option=orjson.OPT_NON_STR_KEYS).decode()
            yield f"id: {cursor}\nevent: {event['type']}\ndata: {text}\n\n" if sse else text + "\n"
        after = rows[-1][0]


def account_stream_response(services: Services, token: str | None, query: dict[str, Any]) -> Response:
    """``GET /v1/account/stream``: NDJSON lines, each event with its ``id`` (or, with ``Accept:
    application/json``, a page of them: a long poll); resumed from ``?since=`` or ``Last-Event-ID``."""
    since = query.get("since") or request.headers.get("Last-Event-ID")
    if since is not None and not EVENT_ID.fullmatch(since):
        raise ServiceError("bad_cursor", "an account event id looks like 1732450000000-0")
    streams = services.streams
    opened = streams.open(token, since, follows=bool(query.get("follows")))
    config = services.config
    return resumable_response(
        opened.present,
        opened.after,
        lambda after, wait: streams.read(opened, after, wait),
        query,
        config,
        sse=False,
    )


def resumable_response(
    present: list[dict[str, Any]],
    after: str,
    read: Callable[[str, float], list[tuple[str, str]]],
    query: dict[str, Any],
    config: Any,
    *,
    sse: bool,
) -> Response:
    """A stream of events kept in a Redis stream (an account's, a tournament's), each line with its id:
    NDJSON, or Server-Sent Events when ``sse`` and asked for (``Accept: text/event-stream``). It starts
    with a keep-alive and ``present`` (what is, for a stream opened afresh: with the id it was read at),
    then what ``read(after, wait)`` gives, with keep-alives, until ``?wait=`` (at most GIN_STREAM_MAX).
    With ``Accept: application/json``, a page instead: ``{"events", "last_id"}``, a long poll of up to
    ``?wait=`` seconds (at most GIN_MAX_WAIT) while there is nothing."""
    accept = request.accept_mimetypes
    if accept.best_match([NDJSON, SSE, "application/json"], default=NDJSON) == "application/json":
        events = [{**event, "id": after} for event in present]
        wait = 0.0 if events else min(float(query.get("wait") or 0), config.max_wait)
        rows = read(after, wait)
        events += [{**orjson.loads(text), "id": event_id} for event_id, text in rows]
        page = {"events": events, "last_id": rows[-1][0] if rows else after}
        response = Response(orjson.dumps(page), mimetype="application/json")
        response.headers["Cache-Control"] = "no-store"
        return response
    duration = min(float(query.get("wait") or config.stream_max), config.stream_max)
    keepalive = max(1, config.stream_keepalive)
    as_sse = sse and _wanted_type() == SSE

    def line(event_id: str, text: str) -> str:
        if not as_sse:
            return text[:-1] + f',"id":"{event_id}"}}\n'
        kind = orjson.loads(text)["type"]
        return f'id: {event_id}\nevent: {kind}\ndata: {text[:-1]},"id":"{event_id}"}}\n\n'

    def lines() -> Iterator[str]:
        deadline = time.monotonic() + duration
        yield "retry: 2000\n\n" if as_sse else KEEPALIVE_LINE
        for event in present:
            yield line(after, orjson.dumps(event).decode())
        last = after
        while (left := deadline - time.monotonic()) > 0:
            try:
                rows = read(last, min(keepalive, left))
            except StoreUnavailable as error:
                observability.record_redis_error(type(error).__name__)
                gone = {"type": "error", "code": "store_unavailable", "detail": STORE_UNAVAILABLE}
                text = orjson.dumps({**gone, "retry_after": RETRY_AFTER}).decode()
                yield (
                    f"retry: {RETRY_AFTER * 1000}\nevent: error\ndata: {text}\n\n" if as_sse else text + "\n"
                )
                return
            if not rows:
                yield ": keep-alive\n\n" if as_sse else KEEPALIVE_LINE
                continue
            for event_id, text in rows:
                yield line(event_id, text)
            last = rows[-1][0]

    response = Response(stream_with_context(lines()), mimetype=SSE if as_sse else NDJSON)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
