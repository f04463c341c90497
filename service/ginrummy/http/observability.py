"""Observability: Prometheus metrics at ``/metrics``, JSON logs, and a request id on every request.

``init_app(app)`` (called by ``create_app``) installs:

- ``GET /metrics`` in the Prometheus text format. Under gunicorn with several worker processes set
  ``PROMETHEUS_MULTIPROC_DIR`` (deploy/gunicorn.conf.py does it) so that the figures of every worker are
  summed, not those of whichever worker answered the scrape.
- a request id: ``X-Request-ID`` is accepted when it looks sane (1–128 of ``[A-Za-z0-9._:-]``), else a new
  one is made; it is returned in the response and appears in every log line of the request.
- one JSON access-log line per request (logger ``ginrummy.access``; ``GIN_ACCESS_LOG=0`` turns it off) and
  JSON formatting for the ``ginrummy`` loggers. Only the method, the path (no query string), the status, the
  duration and the request id are logged — never headers, so never a token; a filter also blanks anything
  that looks like a bearer token in any message.

The adapter counts ``record_redis_error(kind)`` and ``record_rate_limited(budget)`` as things happen; what
the use cases count (actions, games, bot decisions) is :mod:`ginrummy.app.metrics`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import time
import uuid
from typing import Any

import orjson
from flask import Flask, Response, g, has_request_context, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from ginrummy.app import metrics as app_metrics
from ginrummy.app.metrics import label
from ginrummy.store import StoreUnavailable

# --- metrics -------------------------------------------------------------------------------------------
# Buckets sized for a service whose moves take a few milliseconds and whose long polls take up to 30 s.
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

REQUEST_LATENCY = Histogram(
    "gin_http_request_duration_seconds",
    "Time to produce the response headers, by endpoint (URL rule), method and status",
    ["endpoint", "method", "status"],
    buckets=_LATENCY_BUCKETS,
)
REDIS_ERRORS = Counter("gin_redis_errors", "Redis operations that failed, by kind", ["kind"])
RATE_LIMITED = Counter("gin_rate_limited", "Requests refused with 429, by budget", ["budget"])


def record_redis_error(kind: str = "error") -> None:
    """Count one failed Redis operation (``kind``: e.g. the exception class name, ``"timeout"``)."""
    REDIS_ERRORS.labels(kind=label(kind)).inc()


def record_rate_limited(budget: str) -> None:
    """Count one request refused by a rate limit (``budget``: create, move, read, wait)."""
    RATE_LIMITED.labels(budget=label(budget)).inc()


def metrics_text() -> tuple[bytes, str]:
    """The exposition of every metric: summed over the gunicorn workers when multiprocess mode is on."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


# --- logs ----------------------------------------------------------------------------------------------
_BEARER_RE = re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]+")
_TOKEN_FIELD_RE = re.compile(r'(?i)("?(?:token|invitation|authorization|password)"?\s*[:=]\s*"?)[^",\s}]+')
_REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_STANDARD_ATTRS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def redact(text: str) -> str:
    """``text`` with bearer tokens and token/invitation values blanked.

    >>> redact('Authorization: Bearer abc.DEF-123 and {"token": "s3cret"}')
    'Authorization: *** and {"token": "***"}'
    """
    text = _BEARER_RE.sub("***", text)
    return _TOKEN_FIELD_RE.sub(r"\1***", text)


class RedactingFilter(logging.Filter):
    """Blanks secrets in a record's formatted message, whoever logged it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and any ``extra=`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        request_id = getattr(record, "request_id", None)
        if request_id is None and has_request_context():
            request_id = g.get("request_id")
        if request_id:
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRS and key not in entry and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = redact(self.formatException(record.exc_info))
        return orjson.dumps(entry, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


def _install_json_logging() -> None:
    """JSON lines on stderr for the ``ginrummy`` loggers, once per process."""
    logger = logging.getLogger("ginrummy")
    if any(getattr(h, "_gin_json", False) for h in logger.handlers):
        return
    from flask.logging import default_handler

    logger.removeHandler(default_handler)  # Flask's own text handler, if app.logger was touched already
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactingFilter())
    handler._gin_json = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(os.environ.get("GIN_LOG_LEVEL", "INFO").upper())


access_log = logging.getLogger("ginrummy.access")


# --- Flask wiring --------------------------------------------------------------------------------------
def init_app(app: Flask) -> None:
    """Add /metrics, request ids, request metrics and JSON logs to ``app`` (idempotent)."""
    if "ginrummy.observability" in app.extensions:
        return
    app.extensions["ginrummy.observability"] = True
    _install_json_logging()
    log_requests = os.environ.get("GIN_ACCESS_LOG", "1").lower() not in {"0", "false", "no", "off"}

    @app.before_request
    def _start_request() -> None:
        incoming = request.headers.get("X-Request-ID", "")
        g.request_id = incoming if _REQUEST_ID_RE.match(incoming) else uuid.uuid4().hex
        g.request_started = time.perf_counter()

    @app.after_request
    def _finish_request(response: Response) -> Response:
        request_id = g.get("request_id") or uuid.uuid4().hex
        response.headers["X-Request-ID"] = request_id
        started = g.get("request_started")
        elapsed = time.perf_counter() - started if started is not None else 0.0
        endpoint = request.url_rule.rule if request.url_rule is not None else "unmatched"
        REQUEST_LATENCY.labels(
            endpoint=endpoint, method=request.method, status=str(response.status_code)
        ).observe(elapsed)
        if log_requests:
            access_log.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "endpoint": endpoint,
                    "status": response.status_code,
                    "duration_ms": round(elapsed * 1000, 2),
                    "request_id": request_id,
                },
            )
        return response

    def metrics() -> Response:
        # The archive's outbox, as Redis holds it now (a scrape must not fail with Redis down).
        with contextlib.suppress(StoreUnavailable):
            app_metrics.record_archive_status(**app.extensions["ginrummy"].archiving.status())
        body, content_type = metrics_text()
        return Response(body, content_type=content_type)

    app.add_url_rule("/metrics", endpoint="metrics", view_func=metrics, methods=["GET"])
