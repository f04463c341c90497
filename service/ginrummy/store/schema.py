"""Versioned schema migrations: the numbered SQL files of ``migrations/``, applied by one command.

``migrations/NNN_name.sql`` (shipped inside the package) are applied in the order of their numbers by
:func:`migrate` — what ``ginrummy-migrate`` runs, ``ginrummy-serve`` runs before it starts the service, and
the tests run on their databases:

- under a PostgreSQL advisory lock (:data:`LOCK_KEY`, session level), so that runs started at the same time
  (two replicas, a Job retried) take turns: the second finds everything applied and does nothing;
- each file in a transaction of its own, together with its row in ``schema_migrations`` (version, name,
  SHA-256 of the file, time): a file that fails leaves nothing behind, and nothing is applied twice;
- a file already applied whose text has changed is refused (:class:`MigrationError`): shipped migrations
  are never edited, the change goes into a new file.

Versions in the database that this code does not know (a newer release migrated it) are left alone.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from .connection import redact_url
from .database import CONNECT_TIMEOUT, check_url

# pg_advisory_lock's key for migrations: "gin-migr" in ASCII. Advisory locks are per database.
LOCK_KEY = int.from_bytes(b"gin-migr", "big")
LOCK_TIMEOUT = "5min"  # longest a run waits for another one, or for a table lock the app holds
TABLE = "schema_migrations"
_FILE_NAME = re.compile(r"^(\d{3,})_([a-z0-9_]+)\.sql$")

CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


class MigrationError(Exception):
    """The schema could not be brought up to date; the message says why (the database is unchanged by
    the migration that failed)."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()

    def __str__(self) -> str:
        return f"{self.version:03d}_{self.name}"


def migrations(directory: str | Path | Traversable | None = None) -> list[Migration]:
    """The migrations of ``directory`` (default: the package's own), by version.

    >>> [str(m) for m in migrations()][:1]
    ['001_records']
    """
    folder: Traversable | Path = (
        resources.files("ginrummy.store") / "migrations" if directory is None else Path(str(directory))
    )
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNN_name.sql")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"two migration files have the number {version}")
        found[version] = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
    return [found[version] for version in sorted(found)]


def applied(url: str) -> dict[int, str]:
    """``{version: name}`` of the migrations applied to the database of ``url`` (empty before the first)."""
    try:
        with psycopg.connect(check_url(url), autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            return {version: name for version, name, _ in _applied(conn)}
    except psycopg.Error as exc:
        raise MigrationError(f"PostgreSQL at {redact_url(url)}: {exc}") from exc


def migrate(url: str, *, directory: str | Path | None = None) -> list[Migration]:
    """Apply the migrations not yet applied to the database of ``url``, in order; returns them (empty
    when the schema was up to date). Raises :class:`MigrationError`."""
    known = migrations(directory)
    try:
        with psycopg.connect(check_url(url), autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(LOCK_TIMEOUT)))
            conn.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
            try:
                return _apply(conn, known)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    except psycopg.Error as exc:
        raise MigrationError(f"PostgreSQL at {redact_url(url)}: {exc}") from exc


def _applied(conn: psycopg.Connection[Any]) -> list[tuple[int, str, str]]:
    exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", [TABLE]).fetchone()
    if not exists or not exists[0]:
        return []
    rows = conn.execute("SELECT version, name, checksum FROM schema_migrations ORDER BY version").fetchall()
    return [(int(version), str(name), str(checksum)) for version, name, checksum in rows]


def _apply(conn: psycopg.Connection[Any], known: list[Migration]) -> list[Migration]:
    conn.execute(CREATE_TABLE)
    done = {version: (name, checksum) for version, name, checksum in _applied(conn)}
    for migration in known:
        if migration.version in done and done[migration.version][1] != migration.checksum:
            raise MigrationError(
                f"migration {migration} was changed after it was applied (checksum differs); "
                "never edit a shipped migration: add a new one"
            )
    pending = [migration for migration in known if migration.version not in done]
    for migration in pending:
        try:
            with conn.transaction():
                # Without parameters psycopg sends the text as one simple query: several statements.
                conn.execute(migration.sql.encode())
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                    [migration.version, migration.name, migration.checksum],
                )
        except psycopg.Error as exc:
            raise MigrationError(f"migration {migration} failed, nothing of it was applied: {exc}") from exc
    return pending
