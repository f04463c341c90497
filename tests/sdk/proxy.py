"""A TCP proxy on loopback in front of the real service, for the SDK's network stories.

It forwards bytes both ways, one pair of sockets per client connection, and notes the head (request or
status line and headers) of every request and response that passes. On demand it breaks things the way a
network does: :meth:`Proxy.cut` drops every live connection (an open event stream included),
:meth:`Proxy.swallow` lets the next matching request through but drops the connection instead of passing
its response on (the service did the work, the client never hears of it), and :meth:`Proxy.answer`
answers the next matching request itself without forwarding it (e.g. a 503 with Retry-After).

Heads are read from the first bytes of a chunk: on loopback a client writes its head in one piece, and
the service its status line and headers. That is enough for a test helper; it is not an HTTP parser.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

METHODS = (b"GET ", b"POST ", b"PUT ", b"DELETE ", b"PATCH ", b"HEAD ", b"OPTIONS ")


@dataclass(frozen=True)
class Head:
    """The first line and the headers (lower-case names) of a request or a response."""

    line: str
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, data: bytes) -> Head:
        lines = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return cls(lines[0], headers)


class _Pair:
    """A client connection and its connection to the service."""

    def __init__(self, client: socket.socket, upstream: socket.socket) -> None:
        self.client = client
        self.upstream = upstream
        self.swallow = False

    def kill(self) -> None:
        for sock in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


class Proxy:
    """``url`` leads to the service at ``upstream`` through this proxy."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        self._pairs: list[_Pair] = []
        self._swallow: str | None = None
        self._answer: tuple[str, bytes] | None = None
        self.requests: list[Head] = []
        self.responses: list[Head] = []
        self.swallowed: list[Head] = []
        threading.Thread(target=self._accept, daemon=True).start()

    # --- faults ----------------------------------------------------------------------------------

    def cut(self) -> int:
        """Drop every live connection now; returns how many there were."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            pair.kill()
        return len(pairs)

    def swallow(self, request_start: str) -> None:
        """The next request whose first line starts with ``request_start`` goes through, but its response
        is dropped with the connection."""
        self._swallow = request_start

    def answer(self, request_start: str, response: bytes) -> None:
        """The next request whose first line starts with ``request_start`` gets ``response`` from the
        proxy (which then closes the connection); the service never sees it."""
        self._answer = (request_start, response)

    def requests_to(self, request_start: str) -> list[Head]:
        return [head for head in self.requests if head.line.startswith(request_start)]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (close alone does not)
        self._listener.close()
        self.cut()

    def _drop(self, pair: _Pair) -> None:
        with self._lock:
            if pair in self._pairs:
                self._pairs.remove(pair)
        pair.kill()

    # --- pumping -----------------------------------------------------------------------------------

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            pair = _Pair(client, socket.create_connection(self._target))
            with self._lock:
                self._pairs.append(pair)
            threading.Thread(target=self._up, args=(pair,), daemon=True).start()
            threading.Thread(target=self._down, args=(pair,), daemon=True).start()

    def _up(self, pair: _Pair) -> None:
        self._pump(pair, pair.client, pair.upstream, self._request_seen)

    def _down(self, pair: _Pair) -> None:
        self._pump(pair, pair.upstream, pair.client, self._response_seen)

    def _pump(
        self, pair: _Pair, source: socket.socket, sink: socket.socket, look: Callable[[_Pair, bytes], bool]
    ) -> None:
        """Forward ``source`` to ``sink`` until a side closes or ``look`` (shown each chunk) says stop."""
        try:
            while (data := source.recv(65536)) and look(pair, data):
                sink.sendall(data)
        except OSError:
            pass
        self._drop(pair)

    def _request_seen(self, pair: _Pair, data: bytes) -> bool:
        if not data.startswith(METHODS):
            return True
        head = Head.parse(data)
        self.requests.append(head)
        answer = self._answer
        if answer is not None and head.line.startswith(answer[0]):
            self._answer = None
            pair.client.sendall(answer[1])
            return False
        if self._swallow is not None and head.line.startswith(self._swallow):
            self._swallow = None
            pair.swallow = True
        return True

    def _response_seen(self, pair: _Pair, data: bytes) -> bool:
        if not data.startswith(b"HTTP/"):
            return True
        head = Head.parse(data)
        (self.swallowed if pair.swallow else self.responses).append(head)
        return not pair.swallow


def problem_response(status: int, reason: str, code: str, *, retry_after: int) -> bytes:
    """A raw problem+json HTTP response with Retry-After, as the service writes one."""
    body = f'{{"status": {status}, "code": "{code}", "title": "{reason}", "detail": "try again later"}}'
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/problem+json\r\n"
        f"Retry-After: {retry_after}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return (head + body).encode()
