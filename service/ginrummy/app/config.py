"""The service's settings: read once from the environment into typed values.

``create_app(config)`` overrides any of them with a dict (keys are the attribute names or the
environment variable names). Every variable is documented in docs/api.md.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_UNPREFIXED = {"redis_url", "database_url"}  # the usual names of these URLs, without GIN_


class ConfigError(ValueError):
    """A setting with a value that cannot be used; the message names the variable."""


@dataclass(frozen=True)
class Config:
    """Typed settings. The environment variable of each field is its name in upper case, prefixed
    with ``GIN_`` except for ``REDIS_URL`` and ``DATABASE_URL``."""

    redis_url: str = ""  # empty: the run command starts an embedded redis-server
    # PostgreSQL, what lasts. Empty: ginrummy-serve starts an embedded PostgreSQL and sets it; an app made
    # without one (tests' create_app) keeps nothing in PostgreSQL and /readyz checks Redis only.
    database_url: str = ""
    live_ttl: int = 7 * 24 * 3600  # seconds a game is kept after its last move
    # seconds a finished match stays in Redis once the archive has it (rematch offers, late readers);
    # then it is read from PostgreSQL
    finished_ttl: int = 600
    idempotency_ttl: int = 24 * 3600  # seconds an Idempotency-Key's response is kept
    events_maxlen: int = 16  # events kept per game (older ones are trimmed away)
    hands_kept: int = 1  # finished-hand records kept per game (GET /hands/{n} of older ones: 404)
    max_wait: int = 30  # upper bound of ?wait= for long polls, seconds
    stream_keepalive: int = 15  # seconds between keep-alives on NDJSON/SSE streams
    stream_max: int = 300  # seconds one stream response stays open (clients reconnect with a cursor)
    # a file: every response is checked against the OpenAPI document and what disagrees is written there
    # (http/conformance.py; the test suite turns it on, a staging deployment may); empty: off
    check_responses: str = ""
    allow_seed: bool = False  # accept a "seed" at game creation (tests and replays only)
    # proxies whose X-Forwarded-For names the client (addresses or networks, comma-separated; "*": whichever
    # peer connects, one hop). gunicorn reads the same variable for X-Forwarded-Proto.
    forwarded_allow_ips: str = "127.0.0.1"
    cors_origins: str = ""  # origins allowed to call the API from a browser ("*" or a,b,…); empty: own only
    web_dir: str = ""  # the web client's files served at /play; empty: clients/web of the checkout
    max_live_games: int = 1_000_000  # games in play at once, over all clients (~4 KB each in Redis)
    max_live_games_per_client: int = 10_000  # games in play at once created by one client address
    rate_limits: bool = True  # the budgets below (http/limits.py); off for benchmarks and tests
    limit_create: str = "30/minute"  # POST /v1/games, per address
    limit_move: str = "600/minute"  # other POSTs on a game, per seat token (per address without one)
    limit_read: str = "1200/minute"  # GETs and analyze, per seat token (per address without one)
    limit_wait: str = "120/minute"  # event pages, long polls and streams, per token (or address)
    limit_signup: str = "20/hour"  # sign-ups (POST /v1/account) and new players (/v1/players), per address
    abandon_after: int = 300  # seconds a seat without a clock may idle on its move before being claimed
    seek_ttl: int = 600  # seconds an open seek waits in the lobby
    pool_bot_after: int = 30  # seconds in a quick pairing pool before a house bot is offered instead
    challenge_ttl: int = 900  # seconds a challenge waits for its answer
    tournaments_per_day: int = 5  # tournaments one account may create in 24 hours
    session_days: int = 30  # a session's lifetime, sliding: each use pushes its expiry this far again
    signin_window: int = 300  # seconds failed sign-ins are counted in (the longest an account is locked)
    signin_account_failures: int = 10  # failed sign-ins of one name per window before it is refused
    signin_address_failures: int = 30  # failed sign-ins from one address per window before it is refused
    argon2_time_cost: int = 3  # passwords: argon2id passes (RFC 9106's second option, argon2-cffi's default)
    argon2_memory_kib: int = 65536  # argon2id memory per hash, KiB (64 MiB)
    argon2_parallelism: int = 4  # argon2id lanes

    @staticmethod
    def env_name(field_name: str) -> str:
        if field_name in _UNPREFIXED:
            return field_name.upper()
        return f"GIN_{field_name.upper()}"

    @classmethod
    def load(
        cls, overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
    ) -> Config:
        """Settings from ``environ`` (default: ``os.environ``), then ``overrides``."""
        env = os.environ if environ is None else environ
        overrides = dict(overrides or {})
        values: dict[str, Any] = {}
        for f in fields(cls):
            name = cls.env_name(f.name)
            if f.name in overrides:
                raw: Any = overrides.pop(f.name)
            elif name in overrides:
                raw = overrides.pop(name)
            elif name in env:
                raw = env[name]
            else:
                continue
            values[f.name] = _convert(name, f.type, raw)
        config = cls(**values)
        for f in fields(cls):
            value = getattr(config, f.name)
            # Every number is a count or a duration of at least 1 (max_wait may be 0: no long polls).
            least = 0 if f.name == "max_wait" else 1
            if f.type == "int" and value < least:
                raise ConfigError(f"{cls.env_name(f.name)} must be >= {least}, not {value}")
        return config


def _convert(name: str, kind: Any, raw: Any) -> Any:
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ConfigError(f"{name} must be a boolean (1/0, true/false), not {raw!r}")
    if kind == "int":
        if isinstance(raw, bool):
            raise ConfigError(f"{name} must be an integer, not {raw!r}")
        try:
            return int(raw)
        except (TypeError, ValueError):
            raise ConfigError(f"{name} must be an integer number of seconds/entries, not {raw!r}") from None
    return str(raw)
