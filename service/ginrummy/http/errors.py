"""Every error leaves the service as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Refusals are raised as :class:`~ginrummy.app.errors.ServiceError` (by the use cases, and by this adapter
for what is wrong with a request itself) or :class:`~ginrummy.engine.errors.GinRummyError` (the rules);
:mod:`ginrummy.http.codes` is the one registry of the codes (each one's status, title and sentence), and the
handlers here the one place they become responses. The same body format is used for werkzeug's own
404/405/422/500 by overriding flask-smorest's ``HTTPException`` handler (see :class:`ProblemApi`), and
:class:`ProblemSchema` documents it to the leaf: the code an enum of the registry's, with ``x-codes``.
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

from ginrummy.app.errors import ServiceError
from ginrummy.engine.errors import BadStateError, GinRummyError
from ginrummy.store import DatabaseBusy, DatabaseRefusedValue, DatabaseUnavailable, StoreUnavailable

from . import observability
from .codes import CODES, HTTP_CODES
from .schemas import ActionSchema

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)

STATUS: dict[str, int] = {code: entry.status for code, entry in CODES.items() if entry.status is not None}
"""The status of every code the service answers with: a view of the registry (:mod:`ginrummy.http.codes`)."""


class RequestRefused(ServiceError):
    """A refusal of this adapter for what is wrong with the request itself (a header, a query), with
    headers of its own (``WWW-Authenticate``, the rate limits')."""

    def __init__(
        self, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(code, detail, **extra)
        self.headers = headers or {}


def problem(
    status: int, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
) -> Response:
    """A problem+json response of a registered code, titled as the registry says."""
    body = {
        "type": f"urn:ginrummy:problem:{code}",
        "title": CODES[code].title,
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
    """The status of an engine error: its code's; 500 for a stored game the engine cannot read, or (a bug,
    tests/app/test_error_table.py) for a code the registry lacks."""
    return 500 if isinstance(error, BadStateError) else STATUS.get(error.code, 500)


def headers_of(error: ServiceError, status: int) -> dict[str, str]:
    """What a refusal's response says in headers: how to authenticate (401), the current version
    (``stale_version``), when to try again."""
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="ginrummy"'
    if error.code == "stale_version" and "version" in error.extra:
        headers["ETag"] = f'"{error.extra["version"]}"'
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    headers.update(getattr(error, "headers", {}))
    return headers


UNEXPECTED = "an unexpected error happened; nothing was changed"


def handle_service_error(error: ServiceError) -> Response:
    status = STATUS.get(error.code)
    if status is None:
        log.error("no HTTP status for the code %r (add it to ginrummy.http.codes)", error.code)
        return problem(500, "internal_error", UNEXPECTED)
    return problem(status, error.code, error.detail, headers=headers_of(error, status), **error.extra)


def handle_engine_error(error: GinRummyError) -> Response:
    status = engine_status(error)
    if status < 500:
        return problem(status, error.code, str(error) or error.code)
    log.error("engine error %r answered as a bug: %s", error.code, error)
    unreadable = isinstance(error, BadStateError)
    return problem(
        500, "internal_error", "the game's stored state could not be used" if unreadable else UNEXPECTED
    )


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


DATABASE_UNAVAILABLE = (
    "PostgreSQL (players, ratings, the archive) does not answer; games in play go on — try again shortly"
)


def handle_database_unavailable(error: Exception) -> Response:
    """PostgreSQL is down or refused where a request needs it (a player's token, a new player, the
    ratings of a seek): 503 with Retry-After. The archive's reads say ``archive_unavailable`` instead."""
    log.warning("PostgreSQL failed a request: %s", error)
    return problem(503, "store_unavailable", DATABASE_UNAVAILABLE, headers={"Retry-After": str(RETRY_AFTER)})


def handle_database_refused_value(error: Exception) -> Response:
    """PostgreSQL refused a value of the request (a NUL character in a text): the request's fault, 400 —
    never the 503 of a database that does not answer, which clients retry and monitoring counts."""
    log.info("PostgreSQL refused a value of a request: %s", type(error).__name__)
    return problem(400, "bad_request", "this request holds a value that cannot be kept (a NUL character?)")


OVERLOADED = (
    "the service has more requests needing PostgreSQL than connections to it at the moment: try again in "
    "a moment (a change is applied whole or not at all: resend it with the same Idempotency-Key)"
)


def handle_database_busy(error: Exception) -> Response:
    """Every pooled connection to PostgreSQL stayed in use by other requests for the whole wait (a burst
    on a slow moment): 429 ``overloaded`` with Retry-After — PostgreSQL answers, this is no outage."""
    log.warning("PostgreSQL's pool was busy for a request: %s", error)
    return problem(429, "overloaded", OVERLOADED, headers={"Retry-After": str(RETRY_AFTER)})


# What a request's schema refused (flask-smorest's messages), by location (json, query, headers) and then by
# field: a list of messages, or — for a nested object or list — the same again, by field name or item index.
VALIDATION_MESSAGES: dict[str, Any] = {
    "description": "Messages by location or field: a list of messages, or those of a nested object or "
    "list (by field name or item index)",
    "type": "object",
    "additionalProperties": {
        "oneOf": [
            {"type": "array", "items": {"type": "string"}},
            {"$ref": "#/components/schemas/ValidationMessages"},
        ]
    },
}
CHALLENGE_ENDS = ["accepted", "declined", "canceled", "expired"]  # what a challenge no longer open became


class ProblemSchema(ma.Schema):
    """The body of every error response (RFC 9457 problem details plus a stable ``code``), to the leaf:
    the code is one of the registry's, and the members some problems add are each declared."""

    class Meta:
        unknown = ma.RAISE  # documented as additionalProperties: false — nothing undeclared is sent

    type = ma.fields.String(required=True, metadata={"description": "A URI naming the kind of problem"})
    title = ma.fields.String(
        required=True, metadata={"description": "The code's title: a few words, the same every time"}
    )
    status = ma.fields.Integer(
        required=True, metadata={"description": "The HTTP status", "minimum": 400, "maximum": 599}
    )
    detail = ma.fields.String(
        required=True, metadata={"description": "What was refused this time, for developers"}
    )
    code = ma.fields.String(
        required=True,
        validate=ma.validate.OneOf(sorted(CODES)),
        metadata={
            "description": "Stable machine-readable code; x-codes gives each one's status (null: "
            "werkzeug's), title and the sentence a person reads (what the clients show)",
            "x-codes": {
                code: {"status": entry.status, "title": entry.title, "sentence": entry.sentence}
                for code, entry in CODES.items()
            },
        },
    )
    errors = ma.fields.Raw(
        metadata={
            "description": "What the request's schema refused (validation_error, bad_request)",
            "allOf": [{"$ref": "#/components/schemas/ValidationMessages"}],
        }
    )
    legal_actions = ma.fields.List(
        ma.fields.Nested(ActionSchema),
        metadata={"description": "The caller's legal actions, when the rules refused an action"},
    )
    turn = ma.fields.Integer(
        allow_none=True,
        metadata={
            "description": "The seat to act (null: either may deal), when the rules refused an action "
            "(and nothing_to_do)"
        },
    )
    version = ma.fields.Integer(metadata={"description": "The game's current version (stale_version)"})
    bots = ma.fields.List(ma.fields.String(), metadata={"description": "The bots there are (unknown_bot)"})
    seconds_left = ma.fields.Float(
        metadata={"description": "Seconds before the victory may be claimed (too_early, on a clock)"}
    )
    game_id = ma.fields.String(metadata={"description": "The rematch's game (rematch_exists)"})
    challenge_status = ma.fields.String(
        validate=ma.validate.OneOf(CHALLENGE_ENDS),
        metadata={"description": "What became of the challenge (challenge_closed)"},
    )


class ProblemApi(Api):  # type: ignore[misc]  # flask-smorest ships no type hints
    """flask-smorest's Api with problem+json bodies for every ``HTTPException`` (404, 405, 422, 500…)."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        """flask-smorest's default responses, documented as problem+json (what is really sent)."""
        self.spec.components.schema("ValidationMessages", VALIDATION_MESSAGES)
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
            detail = UNEXPECTED
        headers = dict(data.get("headers") or {})
        if status == 405 and error.get_headers():
            headers.update({k: v for k, v in error.get_headers() if k.lower() == "allow"})
        return problem(status, code, detail, headers=headers, **extra)


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
    app.register_error_handler(ServiceError, handle_service_error)
    app.register_error_handler(GinRummyError, handle_engine_error)
    app.register_error_handler(StoreUnavailable, handle_store_unavailable)
    app.register_error_handler(DatabaseUnavailable, handle_database_unavailable)
    app.register_error_handler(DatabaseBusy, handle_database_busy)  # (Flask takes the most specific class)
    app.register_error_handler(DatabaseRefusedValue, handle_database_refused_value)
