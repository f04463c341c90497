"""``ginrummy-migrate``: bring the PostgreSQL schema of ``DATABASE_URL`` up to date, then exit.

Run it before the service starts after every upgrade (compose runs it as a one-off service, Kubernetes as
an init container); running it again, or from two places at once, is safe (ginrummy.store.schema).
``ginrummy-serve`` runs the same function itself.

    DATABASE_URL=postgresql://gin@db:5432/ginrummy ginrummy-migrate
    ginrummy-migrate --database-url postgresql://gin@db:5432/ginrummy

Exit status: 0 up to date, 1 a migration or the connection failed, 2 no database URL.
"""

from __future__ import annotations

import argparse
import os
import sys

from ginrummy.store.connection import redact_url
from ginrummy.store.schema import MigrationError, migrate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ginrummy-migrate", description="Apply the pending schema migrations to PostgreSQL."
    )
    parser.add_argument("--database-url", help="postgresql://… (default: the DATABASE_URL variable)")
    args = parser.parse_args(argv)
    url = args.database_url or os.environ.get("DATABASE_URL", "")
    if not url:
        print("ginrummy-migrate: set DATABASE_URL (or pass --database-url)", file=sys.stderr)
        return 2
    try:
        done = migrate(url)
    except (MigrationError, ValueError) as exc:
        print(f"ginrummy-migrate: {exc}", file=sys.stderr)
        return 1
    where = redact_url(url)
    if done:
        print(f"ginrummy-migrate: {where}: applied {', '.join(str(m) for m in done)}", flush=True)
    else:
        print(f"ginrummy-migrate: {where}: up to date", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
