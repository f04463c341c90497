"""gunicorn settings of the Gin Rummy service — one file for local runs, the container and Kubernetes.

Run: ``gunicorn -c deploy/gunicorn.conf.py ginrummy.http.wsgi:app`` (what the Dockerfile, compose and the
Kubernetes Deployment run, and what ``ginrummy-serve`` starts). Everything is set from the environment:

- ``GIN_BIND`` (default ``127.0.0.1:$PORT``): address(es) to listen on, comma-separated.
- ``PORT`` (``8000``): the port when ``GIN_BIND`` is unset.
- ``GIN_WORKERS`` (the CPUs, at most 8): worker processes.
- ``GIN_WORKER_CONNECTIONS`` (``5000``): simultaneous connections per worker (waiting clients included).
- ``GIN_GRACEFUL_TIMEOUT`` (``30``): seconds in-flight requests get to finish after SIGTERM.
- ``GIN_KEEPALIVE`` (``5``): seconds an idle keep-alive connection is kept.
- ``GIN_FORWARDED_ALLOW_IPS`` (``127.0.0.1``): proxies whose X-Forwarded-* headers are trusted (the app reads
  the same variable for the client address of X-Forwarded-For).
- ``GIN_LOG_LEVEL`` (``info``): gunicorn's and the service's log level.
- ``GIN_CONTROL_SOCKET`` (unset: off): path of gunicorn's control socket (``gunicornc``).
- ``PROMETHEUS_MULTIPROC_DIR`` (a fresh temporary directory): where the workers' metrics meet; wiped at start.

Why gevent: a game server spends most of its life holding clients that wait for the opponent's move
(long polls with ``?wait=`` up to 30 s, NDJSON/SSE streams). Under gevent each request is a greenlet, so
a waiting client costs a few KB of memory and no thread; it waits on the process's one Redis pub/sub
listener (ginrummy.store.notify), not on Redis, so thousands of them cost no Redis command either. Moves
are short CPU work (engine, bot) that never yields in the middle, so they run one after another in a
worker exactly as they would under the GIL with threads, without the threads' switching. See
docs/operations.md ("Waiting clients"). SIGTERM makes gunicorn stop accepting, let the in-flight requests
finish for up to ``graceful_timeout`` seconds, then exit: that is the container's drain.
"""

# ruff: noqa: N816  (gunicorn reads these lower-case module globals by name)
from __future__ import annotations

import glob
import json
import logging
import os
import shutil
import tempfile
import time
from typing import Any

from gunicorn.glogging import Logger


def _int_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"gunicorn.conf.py: {name} must be an integer, not {raw!r}") from None
    if value < 1:
        raise SystemExit(f"gunicorn.conf.py: {name} must be at least 1, not {value}")
    return value


def _default_workers() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 8))


bind = [b.strip() for b in os.environ.get("GIN_BIND", "").split(",") if b.strip()] or [
    f"127.0.0.1:{_int_env('PORT', 8000)}"
]
worker_class = "gevent"
workers = _int_env("GIN_WORKERS", _default_workers())
worker_connections = _int_env("GIN_WORKER_CONNECTIONS", 5000)
# Each worker listens on its own SO_REUSEPORT socket, so the kernel spreads new connections evenly over
# the workers. On one shared socket, whichever gevent worker woke first accepted nearly every connection:
# under 16 keep-alive clients one worker ran at 100 % while the other idled.
reuse_port = True
# gevent workers heartbeat from their own greenlet, so a 30 s long poll does not trip this.
timeout = 60
graceful_timeout = _int_env("GIN_GRACEFUL_TIMEOUT", 30)
keepalive = _int_env("GIN_KEEPALIVE", 5)
forwarded_allow_ips = os.environ.get("GIN_FORWARDED_ALLOW_IPS", "127.0.0.1")
# Request lines and headers beyond these are refused before they reach Flask.
limit_request_line = 8190  # the most gunicorn bounds; the OpenAPI document names it (414)
limit_request_fields = 50
# The heartbeat file on tmpfs: a container's disk may be slow or read-only.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
# The app writes one JSON access line per request (with the request id and without headers, so without
# tokens); gunicorn's own access log would duplicate it and is off.
accesslog = None
errorlog = "-"


class AppWritesTheAccessLog(Logger):
    """gunicorn's logger, without gunicorn's access log. gunicorn counts a ``logconfig_dict`` as "access
    log on" and builds a dict of atoms for every request that nobody reads (~3 % of a move's CPU)."""

    @property
    def access_log_enabled(self) -> bool:
        return bool(self.cfg.accesslog)

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if self.cfg.accesslog:
            super().access(resp, req, environ, request_time)


logger_class = AppWritesTheAccessLog
loglevel = os.environ.get("GIN_LOG_LEVEL", "info").lower()
proc_name = "ginrummy"
# gunicorn >= 25 opens a control socket at one fixed path per user by default: two instances on one host
# (or a read-only home in a container) would collide, so it is opt-in here.
control_socket_disable = not os.environ.get("GIN_CONTROL_SOCKET")
if os.environ.get("GIN_CONTROL_SOCKET"):
    control_socket = os.environ["GIN_CONTROL_SOCKET"]


LISTENING = "Listening at: %s (%s)"  # gunicorn's line, whose address would be empty (see below)


class JsonLogFormatter(logging.Formatter):
    """gunicorn's own lines (start, workers, signals) as JSON, like the service's."""

    def format(self, record: logging.LogRecord) -> str:
        if record.msg == LISTENING and isinstance(record.args, tuple) and not record.args[0]:
            # With reuse_port each worker binds its own socket, so the arbiter has none to name.
            record.args = (",".join(f"http://{address}" for address in bind), *record.args[1:])
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            "pid": record.process,
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, separators=(",", ":"))


logconfig_dict: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": JsonLogFormatter}},
    "handlers": {
        "error_console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        },
    },
    "loggers": {
        "gunicorn.error": {"level": loglevel.upper(), "handlers": ["error_console"], "propagate": False},
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
    },
    # The service's "ginrummy" loggers have their own JSON handler (ginrummy.http.observability).
    "root": {"level": "WARNING", "handlers": []},
}

_owned_metrics_dir: str | None = None


def on_starting(server: Any) -> None:
    """Before any worker: give the workers one directory for their Prometheus figures, empty."""
    global _owned_metrics_dir
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if path:
        os.makedirs(path, exist_ok=True)
        # Figures of a previous run's dead workers would be summed in otherwise.
        for stale in glob.glob(os.path.join(path, "*.db")):
            os.remove(stale)
    else:
        _owned_metrics_dir = tempfile.mkdtemp(prefix="ginrummy-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = _owned_metrics_dir
    server.log.info("metrics of all workers are collected in %s", os.environ["PROMETHEUS_MULTIPROC_DIR"])


def child_exit(server: Any, worker: Any) -> None:
    """A worker is gone: its live-gauge files must not count any more."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    if _owned_metrics_dir:
        shutil.rmtree(_owned_metrics_dir, ignore_errors=True)
