"""Every error leaves the service as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Refusals are raised as :class:`~ginrummy.app.errors.ServiceError` (by the use cases, and by this adapter
for what is wrong with a request itself) or :class:`~ginrummy.engine.errors.GinRummyError` (the rules);
:data:`STATUS` below is the one table from a code to its HTTP status, and the handlers here the one place
they become responses. The same body format is used for werkzeug's own 404/405/422/500 by overriding
flask-smorest's ``HTTPException`` handler (see :class:`ProblemApi`).
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
from ginrummy.engine.errors import GinRummyError
from ginrummy.store import DatabaseBusy, DatabaseRefusedValue, DatabaseUnavailable, StoreUnavailable

from . import observability

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger(__name__)

# The status of every code the service answers with: the use cases', the engine's, and this adapter's.
# A code not listed is a bug (tests/http/test_error_table.py checks every raised code is here): a 500.
STATUS: dict[str, int] = {
    # the request itself
    "bad_request": 400,
    "bad_idempotency_key": 400,
    "bad_if_match": 400,
    "unauthorized": 401,
    "unknown_player": 401,
    "forbidden": 403,
    "bad_invitation": 403,
    "game_not_found": 404,
    "hand_not_found": 404,
    "player_not_found": 404,
    "not_archived": 404,
    "review_not_found": 404,
    "seek_not_found": 404,
    "web_client_missing": 404,
    "precondition_required": 428,
    "stale_version": 412,
    "validation_error": 422,
    "bad_cursor": 422,
    "bad_filter": 422,
    "idempotency_key_reused": 422,
    "rate_limited": 429,
    "too_many_games": 429,
    "overloaded": 429,
    "service_full": 503,
    "store_unavailable": 503,
    "archive_unavailable": 503,
    # games
    "seed_not_allowed": 422,
    "unknown_bot": 422,
    "bots_unavailable": 503,
    "player_required": 422,
    "rated_needs_preset": 422,
    "waiting_for_opponent": 409,
    "join_conflict": 409,
    "own_game": 409,
    "rated_game": 409,
    "undo_not_allowed": 409,
    "hint_not_allowed": 409,
    "nothing_to_do": 409,
    "nothing_to_claim": 409,
    "too_early": 409,
    "not_over": 409,
    "rematch_exists": 409,
    "rematch_offered": 409,
    "game_archived": 409,
    # players and the lobby
    "name_reserved": 422,
    "name_taken": 409,
    "seek_taken": 409,
    "seek_incompatible": 409,
    # accounts, sessions and API tokens
    "bad_credentials": 401,
    "session_expired": 401,
    "session_required": 403,
    "token_scope": 403,
    "session_not_found": 404,
    "token_not_found": 404,
    "account_exists": 409,
    "weak_password": 422,
    # bot accounts and challenges
    "already_bot": 409,
    "account_has_games": 409,
    "challenge_not_found": 404,
    "challenge_closed": 409,
    "challenge_self": 422,
    # the rules (ginrummy.engine.errors): a well-formed action refused now is a conflict with the state;
    # a malformed one, or one the rules never allow in that form, is unprocessable
    "illegal_action": 409,
    "not_your_turn": 409,
    "game_over": 409,
    "cannot_undo": 409,
    "bad_action": 422,
    "bad_card": 422,
    "duplicate_card": 422,
    "invalid_meld": 422,
    "invalid_layoff": 422,
    "deadwood_too_high": 422,
    "bad_rules": 422,
    "gin_rummy_error": 422,
    "bad_state": 500,
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


class RequestRefused(ServiceError):
    """A refusal of this adapter for what is wrong with the request itself (a header, a query), with
    headers of its own (``WWW-Authenticate``, the rate limits')."""

    def __init__(
        self, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(code, detail, **extra)
        self.headers = headers or {}


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
    """The status of an engine error: its code's."""
    return STATUS.get(error.code, 422)


def status_of(code: str) -> int:
    status = STATUS.get(code)
    if status is None:
        log.error("no HTTP status for the code %r (add it to ginrummy.http.errors.STATUS)", code)
        return 500
    return status


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


def handle_service_error(error: ServiceError) -> Response:
    status = status_of(error.code)
    return problem(status, error.code, error.detail, headers=headers_of(error, status), **error.extra)


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
    app.register_error_handler(ServiceError, handle_service_error)
    app.register_error_handler(GinRummyError, handle_engine_error)
    app.register_error_handler(StoreUnavailable, handle_store_unavailable)
    app.register_error_handler(DatabaseUnavailable, handle_database_unavailable)
    app.register_error_handler(DatabaseBusy, handle_database_busy)  # (Flask takes the most specific class)
    app.register_error_handler(DatabaseRefusedValue, handle_database_refused_value)
