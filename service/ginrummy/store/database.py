"""PostgreSQL, the home of what lasts: one URL, one connection pool per process, its sizes and timeouts here.

``Database(url)`` opens a ``psycopg_pool.ConnectionPool`` on a ``postgresql://`` URL (``DATABASE_URL``).
Redis keeps what is live (games in play, events, seeks, limits); PostgreSQL keeps players, ratings and
the archive of finished games (docs/design.md, *Store*). The schema is made by the numbered migrations
of :mod:`ginrummy.store.schema`; the server run when ``DATABASE_URL`` is unset by
:mod:`ginrummy.store.embedded_postgres`.

The pool opens in the background: a service whose PostgreSQL is down still starts (and plays: nothing
of a move touches PostgreSQL), ``ping()`` says False, and the pool connects once the server is back.
The URL's own parameters (``?connect_timeout=5``, ``sslmode=require``, …) win over the defaults here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from .connection import redact_url

SCHEMES = ("postgresql", "postgres")
# Per process (gunicorn worker). PostgreSQL is touched when a hand or a match ends and by reads of the
# past, not by moves: one connection kept open, up to MAX_SIZE when those come together. Mind the server:
# instances x workers x MAX_SIZE must stay under its max_connections (100 by default), or put PgBouncer
# (session mode) in between.
MIN_SIZE = 1
MAX_SIZE = 10
POOL_TIMEOUT = 2.0  # seconds a request waits for a pooled connection before it fails (503: see BUSY_WAIT)
# …unless the pool's connections are all in use by this process's other requests (PostgreSQL answers, the
# process has more requests for it than connections: a burst, a slow moment): then it waits this many
# seconds more, and past them it is refused as DatabaseBusy (429 overloaded, Retry-After), never as an outage.
BUSY_WAIT = 4.0
PING_TIMEOUT = 1.0  # /readyz waits no longer than this for PostgreSQL
CONNECT_TIMEOUT = 2  # seconds to open a connection (libpq's connect_timeout: whole seconds, 2 at least)
STATEMENT_TIMEOUT_MS = 10_000  # a statement running longer is cancelled by the server
TCP_USER_TIMEOUT_MS = 15_000  # data unacknowledged this long: the connection is dropped (Linux)
MAX_IDLE = 300.0  # seconds an idle connection above MIN_SIZE is kept
MAX_LIFETIME = 3600.0  # seconds before a connection is replaced (spreads reconnections after a failover)
# A reconnection attempt backs off (1, 2, 4, 8 s…) and gives up after this many seconds; the next request
# that needs a connection starts another. Kept short because psycopg_pool's back-off is not capped: with
# its default (300 s), a pool whose PostgreSQL was down for a minute slept up to a minute more after the
# server came back, answering 503 all the while.
RECONNECT_TIMEOUT = 10.0
APPLICATION_NAME = "ginrummy"  # as pg_stat_activity shows the service's connections

log = logging.getLogger(__name__)


# PostgreSQL's failures (down, refused, timed out, a statement cancelled), under a name the application
# can catch without importing the driver (the archive's reads answer 503 with it; its writes are retried).
DatabaseUnavailable = psycopg.Error
# …and the part of them that says nothing of what was sent (PostgreSQL not reached, the pool exhausted, a
# statement cancelled): a write that fails so would fail alike in any company; another failure of a write of
# many records (a value refused) is told apart by writing them one at a time.
DatabaseUnreachable = psycopg.OperationalError
# …and the one that is about what was sent, not about PostgreSQL: a value it cannot store (a NUL character
# in a text, a number out of range). The request is at fault (a 4xx), not the database (never a 503).
DatabaseRefusedValue = psycopg.DataError


class DatabaseBusy(PoolTimeout):
    """No pooled connection came free within :data:`POOL_TIMEOUT` + :data:`BUSY_WAIT` while other requests
    of this process held them: PostgreSQL answers, this process has more work for it than connections.
    Not an outage (the HTTP layer answers 429 ``overloaded`` with ``Retry-After``, not 503); still a
    ``PoolTimeout`` — a ``psycopg.OperationalError`` —, so what retries an unreachable database retries it."""


class DatabaseUrlError(ValueError):
    """A PostgreSQL URL that cannot be understood; the message says what is wrong and what is expected."""


def check_url(url: str) -> str:
    """``url`` stripped, once it is a ``postgresql://`` (or ``postgres://``) URL libpq understands.

    >>> check_url(" postgresql://gin@db:5432/ginrummy ")
    'postgresql://gin@db:5432/ginrummy'
    >>> check_url("redis://db/0")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    DatabaseUrlError: unsupported database URL scheme 'redis' in 'redis://db/0'; expected postgresql://
    """
    if not isinstance(url, str) or not url.strip():
        raise DatabaseUrlError("empty database URL; expected e.g. postgresql://user@127.0.0.1:5432/ginrummy")
    url = url.strip()
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme not in SCHEMES:
        raise DatabaseUrlError(
            f"unsupported database URL scheme {scheme!r} in {redact_url(url)!r}; expected postgresql://"
        )
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise DatabaseUrlError(f"bad database URL {redact_url(url)!r}: {exc}") from None
    return url


def _with_defaults(url: str) -> dict[str, Any]:
    """The connection parameters of every connection, where the URL gives none. TCP keep-alives and a
    TCP user timeout end a connection whose server stopped answering (a network partition, a host gone)
    instead of leaving a request waiting on it: the statement timeout is the server's, and a server that
    cannot be reached cannot enforce it."""
    given = conninfo_to_dict(url)
    defaults: dict[str, Any] = {
        "connect_timeout": CONNECT_TIMEOUT,
        "application_name": APPLICATION_NAME,
        "keepalives": 1,
        "keepalives_idle": 30,
        "keepalives_interval": 5,
        "keepalives_count": 3,
        "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
    }
    return {name: value for name, value in defaults.items() if name not in given}


def _configure(conn: psycopg.Connection[Any]) -> None:
    """Every new connection: a statement timeout (sent as a SET, not as a startup option, so that it
    also passes through poolers that refuse unknown startup parameters)."""
    conn.execute(sql.SQL("SET statement_timeout = {}").format(sql.Literal(STATEMENT_TIMEOUT_MS)))
    conn.commit()


class Database:
    """The pool of connections to PostgreSQL of this process."""

    def __init__(
        self,
        url: str,
        *,
        min_size: int = MIN_SIZE,
        max_size: int = MAX_SIZE,
        timeout: float = POOL_TIMEOUT,
    ) -> None:
        self.url = check_url(url)
        self.pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            self.url,
            kwargs=_with_defaults(self.url),
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            max_idle=MAX_IDLE,
            max_lifetime=MAX_LIFETIME,
            configure=_configure,
            # A pooled connection is checked (one round trip) before it is handed out: after PostgreSQL
            # restarted, the first request gets a fresh connection rather than the broken one.
            check=ConnectionPool.check_connection,
            reconnect_timeout=RECONNECT_TIMEOUT,
            reconnect_failed=self._reconnect_failed,
            name="ginrummy",
            num_workers=2,
            open=False,
        )
        self.timeout = timeout
        self.in_use = 0  # connections handed out to this process's requests (and threads) now
        self._counting = threading.Lock()
        self.pool.open(wait=False)

    @contextmanager
    def connection(
        self, timeout: float | None = None, busy_wait: float = BUSY_WAIT
    ) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection, in a transaction committed at the end of the block (rolled back on an
        error). After ``timeout`` (default :data:`POOL_TIMEOUT`) without one: ``psycopg_pool.PoolTimeout``
        (a ``psycopg.OperationalError``) when no connection of the pool is in use — PostgreSQL does not
        answer —, else it waits ``busy_wait`` seconds more and raises :class:`DatabaseBusy`."""
        with ExitStack() as stack:
            try:
                conn = stack.enter_context(self.pool.connection(timeout=timeout))
            except PoolTimeout:
                if not self.in_use or busy_wait <= 0:
                    raise
                try:  # the others' connections come back as their requests end
                    conn = stack.enter_context(self.pool.connection(timeout=busy_wait))
                except PoolTimeout as error:
                    if not self.in_use:
                        raise
                    waited = (self.timeout if timeout is None else timeout) + busy_wait
                    raise DatabaseBusy(
                        f"all {self.pool.max_size} connections to PostgreSQL of this process were in use "
                        f"for {waited:.0f} s"
                    ) from error
            with self._counting:
                self.in_use += 1
            try:
                yield conn
            finally:
                with self._counting:
                    self.in_use -= 1

    def ping(self) -> bool:
        """Whether PostgreSQL answers, within :data:`PING_TIMEOUT` (a pool whose connections are all in
        use by requests answers: True)."""
        try:
            with self.connection(timeout=PING_TIMEOUT, busy_wait=0) as conn:
                conn.execute("SELECT 1")
        except PoolTimeout:
            return bool(self.in_use)
        except psycopg.Error:
            return False
        return True

    def close(self) -> None:
        self.pool.close()

    def _reconnect_failed(self, pool: ConnectionPool[Any]) -> None:
        log.warning("PostgreSQL at %s: could not connect for a while; still trying", redact_url(self.url))

    def __repr__(self) -> str:
        return f"<Database {redact_url(self.url)}>"


def create_database(url: str, *, exist_ok: bool = False, replace: bool = False) -> None:
    """Create the database that ``url`` names, on its server (connecting to the ``postgres`` database).

    ``exist_ok``: nothing happens when it exists; ``replace``: it is dropped first (sessions on it are
    ended). Used by the embedded server and the tests; production databases are made by their operators.
    """
    name = _database_name(url)
    with psycopg.connect(make_conninfo(url, dbname="postgres"), autocommit=True, connect_timeout=5) as conn:
        if replace:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        elif exist_ok:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if found is not None:
                return
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(url: str) -> None:
    """Drop the database that ``url`` names, if it exists (sessions on it are ended)."""
    name = _database_name(url)
    with psycopg.connect(make_conninfo(url, dbname="postgres"), autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _database_name(url: str) -> str:
    name = conninfo_to_dict(check_url(url)).get("dbname")
    if not name:
        raise DatabaseUrlError(f"no database named in {redact_url(url)!r}")
    return str(name)
