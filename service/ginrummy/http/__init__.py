"""The HTTP adapter: ``create_app(config=None)`` builds the Flask app (flask-smorest, problem+json errors)
over the use cases of :mod:`ginrummy.app`.

``config`` overrides the environment (see :class:`ginrummy.app.config.Config` and docs/api.md). Where
things go: an endpoint in the blueprint module of its resource (``games``, ``people``, ``reference`` — the
``meta`` tag —, ``health``), its request schemas in :mod:`~ginrummy.http.schemas`, its response schemas
from the ``TypedDict`` of what it sends (``contract.ref``; :mod:`~ginrummy.http.contract`), a new error
code in the registry :mod:`~ginrummy.http.codes`; headers are read and written in
:mod:`~ginrummy.http.requests` only.
"""

from __future__ import annotations

import atexit
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from flask import Flask, Response, send_from_directory

from ginrummy.app import DEFAULT_REDIS_URL, connect
from ginrummy.app.archive import Drainer
from ginrummy.app.config import Config

from . import (
    accounts,
    challenges,
    chat,
    conformance,
    contract,
    errors,
    games,
    health,
    limits,
    moderation,
    observability,
    offload,
    people,
    reference,
    schemas,
    tournaments,
    web,
)
from .errors import ProblemApi
from .requests import trusted_proxies

# Swagger UI's own files are served by the app, so /docs works offline: swagger-ui-dist 5 (npm, Apache-2.0),
# its three files kept in http/swagger-ui/ — the swagger-ui-bundle wheel carries Swagger UI 4.15, which
# cannot read an OpenAPI 3.1 document ("Unable to render this definition").
SWAGGER_UI_DIR = Path(__file__).with_name("swagger-ui")
SWAGGER_UI_URL = "/docs/static/"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The service's WSGI application. ``config`` keys override the environment."""
    settings = Config.load(config)
    trusted_proxies(settings.forwarded_allow_ips)  # a wrong GIN_FORWARDED_ALLOW_IPS stops the start
    app = Flask("ginrummy")
    app.config.update(
        API_TITLE="Gin Rummy",
        API_VERSION="1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=SWAGGER_UI_URL,
        MAX_CONTENT_LENGTH=64 * 1024,
        API_SPEC_OPTIONS={
            "info": {
                "description": "Play Gin Rummy over HTTP. Errors are application/problem+json with a stable "
                "`code`. See docs/api.md for the walk-through, concurrency (ETag/If-Match), idempotency and "
                "the fair-shuffle commitment. Browsers on other origins may call the API when the service "
                "allows their origin (`GIN_CORS_ORIGINS`: a list of origins or `*`; unset: same origin "
                "only): preflights allow `Authorization`, `Content-Type`, `If-Match`, `If-None-Match`, "
                "`Idempotency-Key`, `Last-Event-ID` and `X-Request-ID`; `ETag`, `Idempotent-Replayed`, "
                "`Retry-After`, `Location` and `X-Request-ID` are exposed; no credentials (bearer tokens)."
            },
            "servers": [{"url": "/"}],
        },
    )
    app.config["GINRUMMY"] = settings
    known = {f.name for f in fields(Config)} | {Config.env_name(f.name) for f in fields(Config)}
    app.config.update({k: v for k, v in (config or {}).items() if k not in known})  # e.g. TESTING
    services = connect(settings, offload.run)
    drainer = Drainer(services.archiving)
    # Closed before the interpreter tears down (a gunicorn worker exiting): the pool's workers are
    # joined while they still can be (under gevent, a greenlet being finalized cannot be waited for).
    atexit.register(services.database.close)
    atexit.register(drainer.stop)
    app.extensions["ginrummy"] = services
    # The archive's drainer runs in every process that serves (started by its first request, so that a
    # process forked after create_app gets its own thread).
    app.before_request_funcs.setdefault(None, []).insert(0, drainer.start)

    api = ProblemApi(app, spec_kwargs={"marshmallow_plugin": schemas.SchemaPlugin()})
    api.spec.components.schema("Card", schemas.CARD_SCHEMA)
    api.spec.components.schema("Rules", schemas.RULES_SCHEMA)
    for action in schemas.ACTION_SCHEMAS.values():
        api.spec.components.schema(action.__name__, schema=action)
    api.spec.components.security_scheme(
        "seatToken",
        {"type": "http", "scheme": "bearer", "description": "The seat token of POST /v1/games or /join"},
    )
    api.register_blueprint(games.blp)
    api.register_blueprint(chat.blp)
    api.register_blueprint(reference.blp)
    api.register_blueprint(people.blp)
    api.register_blueprint(moderation.blp)
    api.register_blueprint(accounts.blp)
    api.register_blueprint(challenges.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(health.blp)
    contract.register(api.spec)  # the response schemas the blueprints refer to (contract.ref)
    errors.register(app)
    app.add_url_rule("/docs/static/<path:filename>", "swagger_ui_static", _swagger_ui_file)
    observability.init_app(app)
    web.init_app(app, settings)
    limits.init_app(app, settings, settings.redis_url or DEFAULT_REDIS_URL, services.store.client)
    if settings.check_responses:
        conformance.init_app(app, settings.check_responses, api.spec.to_dict)
    return app


def _swagger_ui_file(filename: str) -> Response:
    return send_from_directory(SWAGGER_UI_DIR, filename, max_age=86400)
