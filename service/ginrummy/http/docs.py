"""The OpenAPI side of the operations: security, headers, error responses, links and streams, merged
into each operation's ``@blp.doc``; ``op`` gives each its stable operationId."""

from __future__ import annotations

from typing import Any

from ginrummy.app.shapes.playing import EventLine

from . import contract
from .errors import PROBLEM_JSON, ProblemSchema
from .requests import IF_MATCH_PATTERN

AUTH_DOC: dict[str, Any] = {"security": [{"seatToken": []}]}
# Readable with a seat token (that seat's view) or without one (the spectator's).
OPTIONAL_AUTH_DOC: dict[str, Any] = {"security": [{"seatToken": []}, {}]}
ACTION_HEADERS: dict[str, Any] = {
    "parameters": [
        {
            "in": "header",
            "name": "If-Match",
            "required": True,
            "schema": {"type": "string", "pattern": IF_MATCH_PATTERN, "examples": ['"12"']},
            "description": 'ETag ("<version>") of the view the move came from (or *): 428 without, 412 stale',
        },
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {"type": "string", "maxLength": 200},
            "description": "A unique random key (empty: none): a retry gets the original response; "
            "another body gets 422.",
        },
    ]
}
IDEMPOTENCY_HEADER = {"parameters": ACTION_HEADERS["parameters"][1:]}

# Any /v1 operation may meet a rate limit (429) or a store that is down (503), both with Retry-After.
ALWAYS = (429, 503)


def error_responses(*statuses: int, limited: bool = True) -> dict[str, Any]:
    """The problem+json responses of an operation (``limited``: a /v1 one, under the rate limits)."""
    return {
        "responses": {
            **{
                str(s): {"description": "problem+json", "content": {PROBLEM_JSON: {"schema": ProblemSchema}}}
                for s in sorted({*statuses, *(ALWAYS if limited else ())})
            },
            "414": URI_TOO_LONG,
        }
    }


# The one error the service does not write: gunicorn refuses a request line over its limit
# (deploy/gunicorn.conf.py, limit_request_line) before the request reaches the application.
URI_TOO_LONG: dict[str, Any] = {
    "description": "The request line (method, path and query) is over 8,190 bytes: the HTTP server's own "
    "answer, not problem+json",
    "content": {"text/html": {"schema": {"type": "string"}}},
}


def merge_doc(*docs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for doc in docs:
        for key, value in doc.items():
            if key in out and isinstance(value, dict):
                out[key] = {**out[key], **value}
            elif key in out and isinstance(value, list):
                out[key] = [*out[key], *value]
            else:
                out[key] = value
    return out


def op(operation_id: str) -> dict[str, Any]:
    """The operation's stable operationId: the name a generated client gives its method."""
    return {"operationId": operation_id}


# Where a new seat leads: its game_id and token (generators and stateful testers follow these).
_SEAT = {"game_id": "$response.body#/game_id"}


def game_links(status: int) -> dict[str, Any]:
    return {
        "responses": {
            status: {
                "links": {
                    name: {
                        "operationId": target,
                        "parameters": _SEAT,
                        "description": f"{name} of the new seat's game; authenticate with the response's "
                        "token (Authorization: Bearer <token>)",
                    }
                    for name, target in (
                        ("GetGame", "getGame"),
                        ("PostAction", "postAction"),
                        ("GetEvents", "getEvents"),
                        ("GetHint", "getHint"),
                    )
                }
            }
        }
    }


NOT_MODIFIED: dict[str, Any] = {"responses": {304: {"description": "If-None-Match is the current ETag"}}}


def streamed(line: Any, description: str, *, sse: bool = False) -> dict[str, Any]:
    """The 200 answer's streamed forms, documented by the schema of one line (a TypedDict or union, as
    lichess's API documents its NDJSON): NDJSON lines (and Server-Sent Events, whose ``data:`` is one)."""
    item = contract.ref(line)
    content: dict[str, Any] = {
        "application/x-ndjson": {
            "schema": {**item, "description": f"One JSON object per line: {description}"}
        }
    }
    if sse:
        content["text/event-stream"] = {
            "schema": {
                **item,
                "description": f"Server-Sent Events, each one's data one JSON object: {description}",
            }
        }
    return {"responses": {200: {"content": content}}}


def ndjson_form(line: Any) -> dict[str, Any]:
    """The 200 answer's NDJSON form (``Accept: application/x-ndjson``: every item, a line each, streamed),
    documented by its line, beside the JSON form its ``@blp.response`` documents."""
    return {"responses": {200: {"content": {"application/x-ndjson": {"schema": contract.ref(line)}}}}}


STREAMS = streamed(
    EventLine,
    "events (with their id), chat lines (with ?chat=true; no id), keep-alive lines, opponentGone, an error"
    " line if the store fails",
    sse=True,
)


SEEK_AUTH: dict[str, Any] = {"security": [{"seatToken": []}]}
ACTION_ERRORS = error_responses(400, 401, 403, 404, 409, 412, 422, 428)


def action_doc(operation_id: str) -> dict[str, Any]:
    return merge_doc(op(operation_id), AUTH_DOC, ACTION_HEADERS, ACTION_ERRORS)


def doc(operation_id: str, *parts: dict[str, Any]) -> dict[str, Any]:
    """An operation's documentation: its operationId and the parts above, merged."""
    return merge_doc(op(operation_id), *parts)
