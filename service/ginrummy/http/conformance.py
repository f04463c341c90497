"""Every response checked against the OpenAPI document, when ``GIN_CHECK_RESPONSES`` names a file.

The test suite turns it on for every service it starts (tests/conftest.py): each JSON body, and each line
of an NDJSON or Server-Sent Events stream, is validated against the schema its operation documents for
that status and media type (JSON Schema 2020-12, by jsonschema-rs). What disagrees — a member missing or
undocumented, a value of another type, a status or media type the operation does not document — is
written to the file, one JSON line each, and the test that received it fails. A staging deployment may
turn it on too; it changes no response.

>>> checker = Conformance({"paths": {"/v1/x": {"get": {"responses": {"200": {"content": {
...     "application/json": {"schema": {"type": "object", "required": ["a"]}}}}}}}}})
>>> checker.problems("/v1/x", "get", 200, "application/json", b'{"a": 1}')
[]
>>> checker.problems("/v1/x", "get", 200, "application/json", b'{"b": 1}')
['"a" is a required property (at /)']
>>> checker.problems("/v1/x", "get", 201, "application/json", b"{}")
['status 201 is not documented']
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson
from flask import Flask, Response, request

log = logging.getLogger(__name__)

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
# The few bodies that are not JSON (the document itself is one; Prometheus text; the web client's files).
UNCHECKED_TYPES = frozenset({"text/plain", "text/html", "text/css", "text/javascript", "image/svg+xml"})
_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


class Conformance:
    """The document's responses as validators, built once per operation, status and media type."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document

    def problems(self, path: str, method: str, status: int, media_type: str, body: bytes) -> list[str]:
        """What is wrong with a whole body (for a stream: its lines) — [] when it agrees."""
        found = self._validator(path, method, str(status), media_type)
        if isinstance(found, str):
            return [found]
        if found is None:
            return []
        if media_type == NDJSON:
            return [p for line in body.splitlines() if line.strip() for p in self._check(found, line)]
        if media_type == SSE:
            return [p for data in _sse_data(body) for p in self._check(found, data)]
        return self._check(found, body) if body else []

    def line_problems(
        self, path: str, method: str, status: int, media_type: str, chunk: str | bytes
    ) -> list[str]:
        """What is wrong with one chunk of a stream (a whole line, or a whole SSE message)."""
        data = chunk.encode() if isinstance(chunk, str) else chunk
        return self.problems(path, method, status, media_type, data)

    @staticmethod
    def _check(validator: Any, text: bytes) -> list[str]:
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            return [f"not JSON: {error}"]
        if validator.is_valid(value):  # the usual case, and the cheapest question to ask
            return []
        return [
            f"{_short(e.message)} (at /{'/'.join(map(str, e.instance_path))})"
            for e in validator.iter_errors(value)
        ]

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - one checker per app, kept for the process's life
    def _validator(self, path: str, method: str, status: str, media_type: str) -> Any:
        """The validator, None when nothing is to be checked, or a sentence saying what is undocumented."""
        operation = self.document.get("paths", {}).get(path, {}).get(method)
        if operation is None or media_type in UNCHECKED_TYPES:
            return None
        responses = operation.get("responses", {})
        response = responses.get(status) or responses.get(f"{status[0]}XX") or responses.get("default")
        if response is None:
            return f"status {status} is not documented"
        response = self._resolve(response)
        content = response.get("content")
        if not content:
            return None if status in ("204", "304") else f"status {status} documents no body"
        media = content.get(media_type)
        if media is None:
            return f"{media_type} is not documented for status {status} (only {', '.join(content)})"
        schema = media.get("schema")
        if schema is None:
            return None
        import jsonschema_rs  # the test extra: imported only where checking is on

        return jsonschema_rs.Draft202012Validator(
            {**schema, "components": self.document.get("components", {})}
        )

    def _resolve(self, item: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in item:
            node: Any = self.document
            for part in item["$ref"].removeprefix("#/").split("/"):
                node = node[part]
            item = node
        return item


def _short(message: str) -> str:
    """A validator's message, which quotes the whole value, cut to a readable length."""
    return message if len(message) <= 400 else message[:400] + "…"


def _sse_data(body: bytes) -> Iterator[bytes]:
    """The ``data:`` of each Server-Sent Events message (comments, ``retry:`` and ``id:`` are framing)."""
    for message in body.split(b"\n\n"):
        data = [line[5:].lstrip() for line in message.split(b"\n") if line.startswith(b"data:")]
        if data:
            yield b"\n".join(data)


def openapi_path(rule: str) -> str:
    """A Flask rule as the document writes its path.

    >>> openapi_path("/v1/games/<game_id>/hands/<int:number>")
    '/v1/games/{game_id}/hands/{number}'
    """
    return _CONVERTER.sub(r"{\1}", rule)


def init_app(app: Flask, log_path: str, document: Callable[[], dict[str, Any]]) -> None:
    """Check every response of `app` against `document()` (read at the first response), writing what
    disagrees to `log_path`."""
    checker: list[Conformance] = []

    def report(line: dict[str, Any], problems: list[str]) -> None:
        for problem in problems:
            log.error("the response disagrees with the OpenAPI document: %s", {**line, "problem": problem})
            with open(log_path, "a", encoding="utf-8") as out:
                out.write(json.dumps({**line, "problem": problem}) + "\n")

    @app.after_request
    def check(response: Response) -> Response:
        rule = request.url_rule
        if rule is None or request.method in ("HEAD", "OPTIONS"):
            return response
        if not checker:
            checker.append(Conformance(document()))
        path, method, status = openapi_path(rule.rule), request.method.lower(), response.status_code
        media_type = response.mimetype or ""
        # Read now: a stream's lines are checked after the request's context is gone.
        line = {"method": method.upper(), "path": path, "url": request.full_path, "status": status}
        if response.is_streamed and media_type in (NDJSON, SSE):
            response.response = _checked_stream(
                response.response,
                lambda chunk: report(line, checker[0].line_problems(path, method, status, media_type, chunk)),
            )
            return response
        if response.direct_passthrough or response.is_streamed:
            return response  # a file sent as it is
        report(line, checker[0].problems(path, method, status, media_type, response.get_data()))
        return response


def _checked_stream(chunks: Iterable[Any], check: Callable[[Any], None]) -> Iterator[Any]:
    try:
        for chunk in chunks:
            check(chunk)
            yield chunk
    finally:  # the stream's own clean-up runs when the server closes the response, as without the check
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
