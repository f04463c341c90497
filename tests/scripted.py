"""A scripted stand-in for the service, for what the real one will not do on cue — a stream that breaks
or says "retry after", a review that stays pending or fails: ``reply(method, path)`` says what each
request gets (status, headers, body); ``log`` keeps each request's time, method and path.

:func:`scripted_service` serves JSON answers (the SDK's and gin's stories of reviews); the SDK's stories of
streams serve NDJSON pages through it (``tests/sdk/conftest.py``)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

Reply = tuple[int, Mapping[str, str], bytes]
"""Status, headers (the Content-Type among them), and the body."""
Answer = tuple[int, Mapping[str, str], Any]
"""A JSON answer: status, headers, and the body's data."""

Server = TypeVar("Server", bound="ScriptedService")


class ScriptedService(ThreadingHTTPServer):
    def __init__(self, reply: Callable[[str, str], Reply]) -> None:
        super().__init__(("127.0.0.1", 0), ScriptedHandler)
        self.reply = reply
        self.log: list[tuple[float, str, str]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_port}"

    def requests(self) -> list[tuple[str, str]]:
        """The requests seen, as ``(method, path)``, in order."""
        return [(method, path) for _, method, path in self.log]


class ScriptedHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: ScriptedService

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        self.answer("GET")

    def do_POST(self) -> None:  # noqa: N802 - the http.server API
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.answer("POST")

    def answer(self, method: str) -> None:
        self.server.log.append((time.monotonic(), method, self.path))
        status, headers, body = self.server.reply(method, self.path)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        pass


@contextlib.contextmanager
def serving(server: Server) -> Iterator[Server]:
    """``server`` serving on its loopback port (its ``url``) while the block runs."""
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def scripted_service(
    answer: Callable[[str, str], Answer],
) -> contextlib.AbstractContextManager[ScriptedService]:
    """A service whose every request gets the JSON answer ``answer(method, path)`` says."""

    def reply(method: str, path: str) -> Reply:
        status, headers, data = answer(method, path)
        return status, {"Content-Type": "application/json", **headers}, json.dumps(data).encode()

    return serving(ScriptedService(reply))


def review_answer(game_id: str, status: str) -> dict[str, Any]:
    """A review's answer as the service writes it, still without a review (``pending``, ``failed``)."""
    return {
        "game_id": game_id,
        "status": status,
        "requested_at": "2026-11-24T18:00:00+00:00",
        "finished_at": None if status == "pending" else "2026-11-24T18:00:05+00:00",
        "review": None,
    }


NOT_ASKED = {"status": 404, "code": "review_not_found", "detail": "no review was asked for"}
