"""Rate limits: fixed-window counters of the ``limits`` library, kept in the service's own Redis (single,
Sentinel or Cluster).

Every ``/v1`` request falls in one budget, counted per seat token when it carries one (a digest of it,
never the token) and per client address otherwise:

=========  ======================================================  ==========================
budget     requests                                                default (GIN_LIMIT_…)
=========  ======================================================  ==========================
create     ``POST /v1/games``, ``POST /v1/challenges``             ``30/minute`` (CREATE)
signup     ``POST /v1/account``, ``POST /v1/players``; always per   ``20/hour`` (SIGNUP)
           address (a made-up token must not buy another budget:
           each sign-up hashes a password)
move       every other ``POST`` on a game or a challenge           ``600/minute`` (MOVE)
read       ``GET`` views, hints, hands, rules, bots; analyze       ``1200/minute`` (READ)
wait       ``GET …/events``, ``GET /v1/account/stream``            ``120/minute`` (WAIT)
=========  ======================================================  ==========================

Tokens come from creating or joining games, whose budget is per address, so a client cannot escape the
limits by changing tokens faster than ``GIN_LIMIT_CREATE`` lets it.

An account's session or API token (``gin_s_…``, ``gin_p_…``) plays many games with one credential — a bot
account several at once —, so its ``move``, ``read`` and ``wait`` requests that name a game are counted
per credential AND game, as lichess counts a bot's moves per game: its budget grows with its games in play
(a seat token is one game's anyway). So that made-up game ids buy no more than that, such a credential's
requests on games are also counted together against :data:`CEILING_GAMES` times the budget (a second
counter, for these requests only). Its other requests (the account stream, its lists) stay per credential.

Each request costs ONE counter update in Redis (two for an account credential's request on a game): the
limits add one round trip to a request. Health, metrics, the web client and
the API documents are exempt. A refused request gets ``429`` problem+json (code ``rate_limited``) with
``Retry-After``, ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds); they are
not sent on every answer, which would cost a second round trip. ``GIN_RATE_LIMITS=0`` turns them off
(benchmarks, tests). Should Redis refuse, the limits let requests through (the store then answers 503,
and what needs no Redis still works); should it hang, the request gets its 503 at once rather than after
a second timeout.

Why ``limits`` itself and not flask-limiter, which is built on it: flask-limiter resolves its limits,
scopes and exemptions anew on every request — about 0.2 ms of CPU per request here, more than the Redis
round trip of the counter itself — for a job of five budgets that is one function below.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from flask import Flask, Response, request
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from ginrummy.app import security
from ginrummy.app.config import Config, ConfigError
from ginrummy.app.players.identity import SESSION_PREFIX, TOKEN_PREFIX
from ginrummy.store import StoreTimeout, StoreUnavailable, rate_limit_storage

from . import observability
from .errors import RequestRefused, handle_service_error, handle_store_unavailable
from .requests import bearer_token, client_address

log = logging.getLogger(__name__)

ACCOUNT_CREDENTIALS = (SESSION_PREFIX, TOKEN_PREFIX)
CEILING_GAMES = 50  # an account credential's requests on all its games: at most this many games' budgets


def budget_of() -> str | None:
    """The budget of this request (None: not limited)."""
    rule = request.url_rule.rule if request.url_rule is not None else ""
    if not rule.startswith("/v1/"):
        return None
    if rule in ("/v1/account", "/v1/players") and request.method == "POST":
        return "signup"
    if rule in ("/v1/games", "/v1/challenges", "/v1/games/<game_id>/review") and request.method == "POST":
        return "create"  # (a review costs a bot worker some twenty seconds of CPU)
    if rule.endswith("/events") or rule == "/v1/account/stream":
        return "wait"
    if request.method == "POST" and rule.startswith(("/v1/games/", "/v1/challenges/")):
        return "move"
    return "read"


def _counted_as(budget: str) -> tuple[str, str | None]:
    """Whose budget this is: the seat token's (by a digest) or, without one (and always for sign-ups),
    the client address's; an account credential's request on a game: that credential's in that game,
    with the credential's ceiling over all its games as the second key (else None)."""
    if budget == "signup":
        return "a:" + (client_address() or "unknown"), None
    try:
        token = bearer_token(request.headers.get("Authorization"))
    except RequestRefused:
        token = None
    if token is None:
        return "a:" + (client_address() or "unknown"), None
    key = "t:" + security.digest(token)
    game_id = (request.view_args or {}).get("game_id")
    if game_id is not None and budget != "create" and token.startswith(ACCOUNT_CREDENTIALS):
        return f"{key}:g:{game_id}", key + ":games"
    return key, None


def _budgets(settings: Config) -> dict[str, RateLimitItem]:
    budgets = {}
    for name in ("create", "signup", "move", "read", "wait"):
        text = getattr(settings, f"limit_{name}")
        try:
            budgets[name] = parse(text)
        except ValueError:
            raise ConfigError(f"GIN_LIMIT_{name.upper()} must look like 30/minute, not {text!r}") from None
    return budgets


def init_app(app: Flask, settings: Config, redis_url: str, client: Any) -> None:
    if not settings.rate_limits:
        return
    budgets = _budgets(settings)
    ceilings = {
        name: type(item)(item.amount * CEILING_GAMES, item.multiples, item.namespace)
        for name, item in budgets.items()
    }
    uri, options = rate_limit_storage(redis_url, client)
    limiter = FixedWindowRateLimiter(storage_from_string(uri, **options))

    @app.before_request
    def _within_budget() -> Response | None:
        budget = budget_of()
        if budget is None:
            return None
        (key, ceiling_key), item = _counted_as(budget), budgets[budget]
        try:
            if limiter.hit(item, budget, key):
                if ceiling_key is None:
                    return None
                key, item = ceiling_key, ceilings[budget]
                if limiter.hit(item, budget, key):
                    return None
            reset_at = limiter.get_window_stats(item, budget, key).reset_time
        except StoreTimeout as error:
            # Redis hangs: the request's own store calls would wait as long again, past the 2 s a client
            # may expect a 503 in. Answer it now.
            return handle_store_unavailable(error)
        except StoreUnavailable as error:  # fail open: the store answers 503 by itself if it must
            log.warning("rate limits not counted: Redis failed (%s)", type(error).__name__)
            return None
        return _refused(budget, item, reset_at)


def _refused(budget: str, item: RateLimitItem, reset_at: float) -> Response:
    """The 429, written as every other error is (problem+json)."""
    observability.record_rate_limited(budget)
    retry_after = max(1, math.ceil(reset_at - time.time()))
    headers = {
        "Retry-After": str(retry_after),
        "RateLimit-Limit": str(item.amount),
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": str(retry_after),
    }
    error = RequestRefused(
        "rate_limited", f"too many requests ({item}); try again in {retry_after} s", headers=headers
    )
    return handle_service_error(error)
