"""``ginrummy-copy-players``: copy the players, ratings and recent games of a deployment of a release
before issue 19 (players in Redis) into PostgreSQL, once, when upgrading (docs/operations.md, *Upgrading
from a release that kept players in Redis*). What is and is not copied, and why running it again is
safe: :mod:`ginrummy.store.player_copy`.

    REDIS_URL=redis://redis:6379/0 DATABASE_URL=postgresql://gin@db:5432/ginrummy ginrummy-copy-players
    ginrummy-copy-players --redis-url redis+cluster://n1:6379 --database-url postgresql://… --dry-run

Exit status: 0 copied (or nothing left to copy), 1 the copy failed (Redis or PostgreSQL unreachable, the
schema not migrated, …: what was written stays, run it again), 2 a URL missing or malformed.
"""

from __future__ import annotations

import argparse
import os
import sys

from ginrummy.app.players.ratings import ordinal
from ginrummy.store import make_client
from ginrummy.store.connection import redact_url
from ginrummy.store.player_copy import CopyError, CopyReport, copy_players
from ginrummy.store.redis_players import RedisPlayers

PROG = "ginrummy-copy-players"
SHOWN = 20  # names or keys listed at most per kind of problem


def _summary(report: CopyReport) -> list[str]:
    verb = "to copy" if report.dry_run else "copied"
    lines = [
        f"players: {report.players} {verb}, {report.players_before} copied before (left as they are), "
        f"{len(report.not_copied)} not copied",
        f"rows {'to write' if report.dry_run else 'written'}: {report.stats} statistics, "
        f"{report.ratings} ratings, {report.games} games, {report.game_rows} players' games",
    ]
    if report.dry_run:
        lines.append("dry run: nothing was written")
    return [f"{PROG}: {line}" for line in lines]


def _problems(report: CopyReport) -> list[str]:
    lines = []
    if report.not_copied:
        lines.append(
            f"{len(report.not_copied)} players not copied (their records in Redis stay as they are):"
        )
        lines += [f"  {entry}" for entry in report.not_copied[:SHOWN]]
    if report.unreadable:
        lines.append(f"{len(report.unreadable)} profiles or recent games unreadable, left out:")
        lines += [f"  {item.key}: {item.reason}" for item in report.unreadable[:SHOWN]]
    if len(report.not_copied) > SHOWN or len(report.unreadable) > SHOWN:
        lines.append(f"  (the first {SHOWN} of each are listed)")
    return [f"{PROG}: {line}" for line in lines]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Copy the players, ratings and recent games kept in Redis by a release before issue 19 "
        "into PostgreSQL (once, when upgrading; safe to run again).",
    )
    parser.add_argument("--redis-url", help="the old deployment's Redis (default: the REDIS_URL variable)")
    parser.add_argument("--database-url", help="postgresql://… (default: the DATABASE_URL variable)")
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="read and check everything, write nothing, say what a run would",
    )
    args = parser.parse_args(argv)
    redis_url = args.redis_url or os.environ.get("REDIS_URL", "")
    database_url = args.database_url or os.environ.get("DATABASE_URL", "")
    if not redis_url or not database_url:
        missing = " and ".join(
            name for name, url in (("REDIS_URL", redis_url), ("DATABASE_URL", database_url)) if not url
        )
        print(f"{PROG}: set {missing} (or pass --redis-url / --database-url)", file=sys.stderr)
        return 2
    try:
        client = make_client(redis_url)
    except ValueError as exc:  # the message shows the URL without its password
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    print(f"{PROG}: from {redact_url(redis_url)} to {redact_url(database_url)}", flush=True)
    try:
        report = copy_players(RedisPlayers(client), database_url, ordinal=ordinal, dry_run=args.dry_run)
    except ValueError as exc:  # a malformed database URL
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except CopyError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        print(f"{PROG}: what was copied stays; run it again once that is fixed", file=sys.stderr)
        return 1
    finally:
        client.close()
    for line in _problems(report):
        print(line, file=sys.stderr)
    for line in _summary(report):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
