"""Compare two PostgreSQL databases table by table: the proof that a restored copy holds what was backed up.

    SOURCE_DATABASE_URL=postgresql://gin@db:5432/ginrummy \\
    DATABASE_URL=postgresql://gin@db:5432/ginrummy_restored python3 deploy/postgres/verify_restore.py

For every table of either database (outside PostgreSQL's own schemas): its row count, and an MD5 over its
rows in primary-key order (each row as PostgreSQL prints it, both sessions with the same time zone, date
style and float digits, so that equal rows print alike); and every sequence's last value, so that a restored
identity column goes on from where the original was. Each database is read in one snapshot. Compare a
restore with a source nothing has written to since its dump (in a drill, the database that was dumped; in
production, a second restore of the same dump), or the rows written since show as differences.

Prints one line per table, then each difference; exit status 0 when the two are the same, 1 when they
differ, 2 when a URL is missing or a database cannot be read. The URLs come from the environment, never
the command line (where `ps` shows them); only the standard library and psycopg are needed.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

# Sessions print values alike whatever the servers' own settings.
SESSION_SETTINGS = {
    "TimeZone": "UTC",
    "DateStyle": "ISO, YMD",
    "IntervalStyle": "postgres",
    "extra_float_digits": "1",
    "bytea_output": "hex",
}

TABLES = r"""
SELECT n.nspname, c.relname,
       ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k (attnum, position)
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.position)
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\_toast%'
ORDER BY 1, 2
"""

SEQUENCES = """
SELECT schemaname, sequencename, last_value FROM pg_sequences
WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2
"""


@dataclass(frozen=True)
class Table:
    """What is compared of one table: how many rows, and the MD5 of them all in primary-key order."""

    rows: int
    md5: str


@dataclass(frozen=True)
class Contents:
    """What is compared of one database."""

    tables: dict[str, Table]
    sequences: dict[str, int | None]


def read(url: str) -> Contents:
    """The tables and sequences of the database at ``url``, read in one snapshot."""
    with psycopg.connect(url, connect_timeout=10) as conn:
        conn.read_only = True
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        for name, value in SESSION_SETTINGS.items():
            conn.execute("SELECT set_config(%s, %s, false)", [name, value])
        tables = {
            f"{schema}.{name}": fingerprint(conn, schema, name, key)
            for schema, name, key in conn.execute(TABLES).fetchall()
        }
        sequences = {f"{schema}.{name}": last for schema, name, last in conn.execute(SEQUENCES).fetchall()}
    return Contents(tables, sequences)


def fingerprint(conn: psycopg.Connection[Any], schema: str, name: str, key: list[str]) -> Table:
    """The row count of a table and the MD5 of its rows' MD5s in primary-key order (the whole row's text
    for a table without one): one pass, and 32 bytes a row in the server's memory."""
    order = sql.SQL(", ").join(sql.Identifier("t", column) for column in key) if key else sql.SQL("t::text")
    query = sql.SQL(
        "SELECT count(*), md5(coalesce(string_agg(md5(t::text), '' ORDER BY {order}), '')) FROM {table} AS t"
    ).format(order=order, table=sql.Identifier(schema, name))
    count, digest = conn.execute(query).fetchone() or (0, "")
    return Table(int(count), str(digest))


def differences(source: Contents, restored: Contents) -> list[str]:
    """What differs between the two, one sentence each; empty when they are the same."""
    found = []
    for name in sorted(source.tables.keys() | restored.tables.keys()):
        before, after = source.tables.get(name), restored.tables.get(name)
        if before is None or after is None:
            found.append(f"table {name} is only in the {'restored' if before is None else 'source'} database")
        elif before.rows != after.rows:
            found.append(f"table {name}: {before.rows} rows in the source, {after.rows} restored")
        elif before.md5 != after.md5:
            found.append(f"table {name}: the same {before.rows} rows in number, not in content")
    for name in sorted(source.sequences.keys() | restored.sequences.keys()):
        if name not in source.sequences or name not in restored.sequences:
            where = "restored" if name not in source.sequences else "source"
            found.append(f"sequence {name} is only in the {where} database")
        elif source.sequences[name] != restored.sequences[name]:
            found.append(
                f"sequence {name}: last value {source.sequences[name]} in the source, "
                f"{restored.sequences[name]} restored"
            )
    return found


def main() -> int:
    source_url = os.environ.get("SOURCE_DATABASE_URL", "")
    restored_url = os.environ.get("DATABASE_URL", "")
    if not source_url or not restored_url:
        print(
            "verify_restore: set SOURCE_DATABASE_URL (the database dumped) and DATABASE_URL (the restored)",
            file=sys.stderr,
        )
        return 2
    try:
        source, restored = read(source_url), read(restored_url)
    except psycopg.Error as exc:
        print(f"verify_restore: cannot read a database: {exc}", file=sys.stderr)
        return 2
    for name, table in sorted(restored.tables.items()):
        print(f"{name:<32} {table.rows:>12} rows  md5 {table.md5}")
    found = differences(source, restored)
    for difference in found:
        print(f"verify_restore: {difference}", file=sys.stderr)
    if found:
        print(f"verify_restore: {len(found)} differences", file=sys.stderr)
        return 1
    print(f"verify_restore: the same: {len(restored.tables)} tables, {len(restored.sequences)} sequences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
