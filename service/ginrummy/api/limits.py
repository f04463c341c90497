"""Rate limits: flask-limiter, counted in the service's own Redis (single, Sentinel or Cluster).

Every ``/v1`` request falls in one budget, counted per seat token when it carries one (a digest of it,
never the token) and per client address otherwise:

=========  ======================================================  ==========================
budget     requests                                                default (GIN_LIMIT_…)
=========  ======================================================  ==========================
create     ``POST /v1/games``                                      ``30/minute`` (CREATE)
move       every other ``POST`` on a game: actions, join, undo     ``600/minute`` (MOVE)
read       ``GET`` views, hints, hands, rules, bots; analyze       ``1200/minute`` (READ)
wait       ``GET …/events`` (pages, long polls, streams)           ``120/minute`` (WAIT)
=========  ======================================================  ==========================

Tokens come from creating or joining games, whose budget is per address, so a client cannot escape the
limits by changing tokens faster than ``GIN_LIMIT_CREATE`` lets it. Each request costs ONE counter
update in Redis (a fixed window): the limits add one round trip to a request, no more. Health, metrics,
the web client and the API documents are exempt. A refused request gets ``429`` problem+json (code
``rate_limited``) with ``Retry-After``, ``RateLimit-Limit``, ``RateLimit-Remaining`` and
``RateLimit-Reset`` (seconds); they are not sent on every answer, which would cost a second round trip.
``GIN_RATE_LIMITS=0`` turns them off (benchmarks, tests). Should Redis fail, the limits let requests
through (the store then answers 503 by itself).
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from flask import Flask, Response, request
from flask_limiter import ApplicationLimit, Limiter, RequestLimit

from ginrummy.store import rate_limit_storage

from . import observability, security
from .config import Config
from .errors import ApiError, handle_api_error


def budget_of() -> str | None:
    """The budget of this request (None: not limited)."""
    rule = request.url_rule.rule if request.url_rule is not None else ""
    if not rule.startswith("/v1/"):
        return None
    if rule == "/v1/games" and request.method == "POST":
        return "create"
    if rule.endswith("/events"):
        return "wait"
    if request.method == "POST" and rule.startswith("/v1/games/"):
        return "move"
    return "read"


def _address() -> str:
    return request.remote_addr or "unknown"


def _token_digest() -> str | None:
    try:
        token = security.bearer_token(request.headers.get("Authorization"))
    except ApiError:
        return None
    return None if token is None else hashlib.sha256(token.encode()).hexdigest()[:24]


def _budget_key() -> str:
    token = _token_digest()
    return f"{budget_of()}:" + (f"t:{token}" if token else f"a:{_address()}")


def init_app(app: Flask, settings: Config, redis_url: str, client: Any) -> Limiter | None:
    if not settings.rate_limits:
        return None
    budgets = {
        "create": settings.limit_create,
        "move": settings.limit_move,
        "read": settings.limit_read,
        "wait": settings.limit_wait,
    }
    uri, options = rate_limit_storage(redis_url, client)
    limiter = Limiter(
        key_func=_address,
        app=app,
        storage_uri=uri,
        storage_options=options,
        strategy="fixed-window",
        headers_enabled=False,  # written below, in the standard names
        swallow_errors=True,
        application_limits=[
            ApplicationLimit(
                lambda: budgets[budget_of() or "read"],
                key_function=_budget_key,
                exempt_when=lambda: budget_of() is None,
                scope="budget",
            ),
        ],
        on_breach=_refused,
    )
    return limiter


def _refused(limit: RequestLimit) -> Response:
    """flask-limiter's breach hook: the 429 as every other error is written (problem+json)."""
    observability.record_rate_limited(budget_of() or "other")
    retry_after = max(1, math.ceil(limit.reset_at - time.time()))
    headers = {
        "Retry-After": str(retry_after),
        "RateLimit-Limit": str(limit.limit.amount),
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": str(retry_after),
    }
    error = ApiError(
        429,
        "rate_limited",
        f"too many requests ({limit.limit}); try again in {retry_after} s",
        headers=headers,
    )
    return handle_api_error(error)
