"""Every error leaves the service as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Domain errors (the engine's, the store's, the service's own :class:`ApiError`) are mapped to HTTP
statuses here and nowhere else; views raise, they never build error responses. The same body format is
used for 404/405/422/500 by overriding flask-smorest's ``HTTPException`` handler (see :class:`ProblemApi`).
"""

from __future__ import annotations

import http
import logging
from typing import Any

import marshmallow as ma
import orjson
from flask import Flask, Response
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException, InternalServerError

from ginrummy.engine.errors import (
    BadStateError,
    CannotUndoError,
    GameOverError,
    GinRummyError,
    IllegalActionError,
    NotYourTurnError,
)
from ginrummy.store import StoreUnavailable

from . import observability

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)

# Statuses of the engine's error codes; anything not listed (a GinRummyError subclass added later) is
# a 422: the request asked for something the rules refuse.
ENGINE_STATUS: dict[type[GinRummyError], int] = {
    NotYourTurnError: 409,
    GameOverError: 409,
    CannotUndoError: 409,
    BadStateError: 500,
}

# Codes for werkzeug's own HTTP errors (routing, methods, bodies).
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    428: "precondition_required",
    429: "too_many_requests",
    500: "internal_error",
    503: "unavailable",
}


class ApiError(Exception):
    """A refusal by the service itself, with its status, stable code and extra body members."""

    def __init__(
        self, status: int, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
    ):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


class ActionRefused(ApiError):
    """The engine refused a seat's action: the engine's code and message, with the caller's legal
    actions and whose turn it is (they help a client recover and reveal nothing new)."""

    def __init__(self, error: GinRummyError, legal_actions: list[dict[str, Any]], turn: int | None):
        super().__init__(
            engine_status(error), error.code, str(error) or error.code, legal_actions=legal_actions, turn=turn
        )


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A problem+json response."""
    body = {
        "type": f"urn:ginrummy:problem:{code}",
        "title": title or code.replace("_", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    response = Response(
        orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), status=status, mimetype=PROBLEM_JSON
    )
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def engine_status(error: GinRummyError) -> int:
    for cls in type(error).__mro__:
        if cls in ENGINE_STATUS:
            return ENGINE_STATUS[cls]
    if isinstance(error, IllegalActionError) and type(error) is IllegalActionError:
        return 409
    return 422


def handle_api_error(error: ApiError) -> Response:
    return problem(error.status, error.code, error.detail, headers=error.headers, **error.extra)


def handle_engine_error(error: GinRummyError) -> Response:
    status = engine_status(error)
    if status >= 500:
        log.error("engine state error: %s", error)
        return problem(500, "internal_error", "the game's stored state could not be used")
    return problem(status, error.code, str(error) or error.code)


# Seconds a client should wait before trying again after a 503 (Redis down, hung, or failing over).
RETRY_AFTER = 1
STORE_UNAVAILABLE = (
    "the game store is unavailable; try again in a moment. A change is applied whole or not at all: "
    "resend it with the same Idempotency-Key (or GET the game first)"
)


def handle_store_unavailable(error: Exception) -> Response:
    """Redis is down, hung or refused: 503 with Retry-After (every change is one atomic commit)."""
    observability.record_redis_error(type(error).__name__)
    return problem(503, "store_unavailable", STORE_UNAVAILABLE, headers={"Retry-After": str(RETRY_AFTER)})


class ProblemSchema(ma.Schema):
    """The body of every error response (RFC 9457 problem details plus a stable ``code``)."""

    class Meta:
        unknown = ma.INCLUDE  # some problems carry more members (turn, bots, …)

    type = ma.fields.String(metadata={"description": "A URI naming the kind of problem"})
    title = ma.fields.String(metadata={"description": "Short human summary of the kind of problem"})
    status = ma.fields.Integer(metadata={"description": "The HTTP status"})
    detail = ma.fields.String(metadata={"description": "Human explanation of this occurrence"})
    code = ma.fields.String(
        metadata={"description": "Stable machine-readable code, e.g. not_your_turn, stale_version, bad_card"}
    )
    errors = ma.fields.Dict(metadata={"description": "Validation errors per location and field (422)"})
    legal_actions = ma.fields.List(
        ma.fields.Dict(), metadata={"description": "The caller's legal actions, on action errors"}
    )
    version = ma.fields.Integer(metadata={"description": "The game's current version (412)"})


class ProblemApi(Api):  # type: ignore[misc]  # flask-smorest ships no type hints
    """flask-smorest's Api with problem+json bodies for every ``HTTPException`` (404, 405, 422, 500…)."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        """flask-smorest's default responses, documented as problem+json (what is really sent)."""
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Default error response", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        code = HTTP_CODES.get(status, "http_error")
        data = getattr(error, "data", None) or {}
        extra: dict[str, Any] = {}
        detail = error.description or error.name
        if status in (400, 422) and "messages" in data:
            extra["errors"] = data["messages"]
            detail = "the request does not match the schema: " + _summarize(data["messages"])
        elif "message" in data:
            detail = data["message"]
        elif status == 404:
            # Most often a client given a server URL with a path (…/v1, …/play) in it.
            detail = (
                "there is nothing at this path: the API's paths start with /v1 at the service's root "
                "(GET /openapi.json lists them)"
            )
        if isinstance(error, InternalServerError):
            original = getattr(error, "original_exception", None)
            if original is not None:
                log.error("unhandled exception", exc_info=original)
            detail = "an unexpected error happened; nothing was changed"
        headers = dict(data.get("headers") or {})
        if status == 405 and error.get_headers():
            headers.update({k: v for k, v in error.get_headers() if k.lower() == "allow"})
        return problem(status, code, detail, title=error.name, headers=headers, **extra)


def _summarize(messages: Any) -> str:
    """One line out of webargs' nested messages: 'json.card: Missing data for required field.'"""
    parts: list[str] = []

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(f"{prefix}.{key}" if prefix else str(key), value)
        elif isinstance(node, list) and all(isinstance(x, str) for x in node):
            parts.append(f"{prefix}: {' '.join(node)}")
        else:
            parts.append(f"{prefix}: {node}")

    walk("", messages)
    return "; ".join(parts[:5])


def register(app: Flask) -> None:
    """Install the domain error handlers (the HTTP ones come with :class:`ProblemApi`)."""
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(GinRummyError, handle_engine_error)
    app.register_error_handler(StoreUnavailable, handle_store_unavailable)
