"""Redis connections: one URL picks the topology, with the same pool, timeouts and retries for each.

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

The redis-server run when ``REDIS_URL`` is unset is supervised by :mod:`ginrummy.store.embedded`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
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
