"""``ginrummy-admin``: what only the deployment's operators do, from the command line, on the PostgreSQL of
``DATABASE_URL`` — appointing the moderators (docs/operations.md, *Moderators*). No API sets them.

    ginrummy-admin moderator grant Ann      # Ann (an account) moderates from her next request on
    ginrummy-admin moderator revoke Ann     # and no longer does, from her next request on
    ginrummy-admin moderator list           # the moderators, a name a line
    ginrummy-admin --database-url postgresql://gin@db:5432/ginrummy moderator list

Each grant and revoke is written to the moderation log (``GET /v1/moderation/log``) as done from the
command line. Exit status: 0 done (or nothing to do), 1 refused (no such player, not an account, closed)
or the database failed, 2 a usage error or no database URL.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from ginrummy.store import Database, DatabaseUnavailable, DatabaseUrlError
from ginrummy.store.connection import redact_url
from ginrummy.store.moderation import ModerationStore

PROG = "ginrummy-admin"
CONNECT_WAIT = 10.0  # seconds to reach PostgreSQL


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1


def _moderator(store: ModerationStore, action: str, name: str) -> int:
    if action == "list":
        for moderator in store.moderators():
            print(moderator)
        return 0
    on = action == "grant"
    player = store.player(name)
    if player is None:
        return _fail(f"there is no player {name!r}")
    if on and (player.bot or not player.account or player.closed):
        why = "is closed" if player.closed else "is a bot account" if player.bot else "has no password"
        return _fail(f"{player.name} {why}: only a person's open account may moderate")
    if player.moderator == on:
        print(f"{PROG}: {player.name} {'is a moderator already' if on else 'is no moderator'}")
        return 0
    store.appoint(player.id, on)
    print(f"{PROG}: {player.name} {'is a moderator now' if on else 'is no longer a moderator'}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Appoint the service's moderators.")
    parser.add_argument("--database-url", help="postgresql://… (default: the DATABASE_URL variable)")
    topics = parser.add_subparsers(dest="topic", required=True)
    moderator = topics.add_parser("moderator", help="grant, revoke or list the moderator role")
    actions = moderator.add_subparsers(dest="action", required=True)
    actions.add_parser("grant", help="make an account a moderator").add_argument("name")
    actions.add_parser("revoke", help="take the role back").add_argument("name")
    actions.add_parser("list", help="the moderators, a name a line")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    url = args.database_url or os.environ.get("DATABASE_URL", "")
    if not url:
        print(f"{PROG}: set DATABASE_URL (or pass --database-url)", file=sys.stderr)
        return 2
    pool_log = logging.getLogger("psycopg.pool")  # its retries: the one message below says it all
    level = pool_log.level
    pool_log.setLevel(logging.CRITICAL)
    try:
        return _run(url, args)
    finally:
        pool_log.setLevel(level)


def _run(url: str, args: argparse.Namespace) -> int:
    try:
        database = Database(url, min_size=1, max_size=1, timeout=CONNECT_WAIT)
    except DatabaseUrlError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        return _moderator(ModerationStore(database), args.action, getattr(args, "name", ""))
    except DatabaseUnavailable as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return _fail(f"{redact_url(url)}: {first} (is it up, and migrated by ginrummy-migrate?)")
    finally:
        database.close()


if __name__ == "__main__":
    sys.exit(main())
