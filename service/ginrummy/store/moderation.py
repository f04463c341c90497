"""Reports and moderation in PostgreSQL (migration 012): reports of players, the moderator flag, chat mutes,
closed accounts and the moderation log.

A report quotes a chat line (``chat_lines`` of migration 011) by copying its author, body and time into
its own row. Each act of a moderator and its line in ``moderation_log`` are written in one transaction;
closing an account ends every credential of it in that same transaction (its sessions deleted, its API
tokens revoked, its player token cleared), so no process accepts one of them afterwards
(:mod:`ginrummy.store.accounts` looks credentials up on every use). Tokens are never read here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal

from .database import Database
from .players import folded

Action = Literal["close_report", "chat_mute", "close_account", "grant_moderator", "revoke_moderator"]


@dataclass(frozen=True)
class Player:
    """A player as moderation sees it: whether it is an account (it has a password), a bot, a moderator,
    closed."""

    id: int
    name: str
    account: bool
    bot: bool
    moderator: bool
    closed: bool


@dataclass(frozen=True)
class ChatLine:
    """A line said at a table, as a report quotes it."""

    n: int
    author_id: int | None
    author: str
    body: str
    said_at: float


@dataclass(frozen=True)
class Closed:
    """An account just closed: when, and how many sessions and API tokens ended with it."""

    at: float
    sessions: int
    tokens: int


def _seconds(at: dt.datetime | None) -> float | None:
    return None if at is None else at.timestamp()


REPORT_COLUMNS = (
    "r.id, a.name AS reporter, d.name AS player, r.reason, r.text, r.game_id, r.line, r.line_author,"
    " r.line_body, r.line_said_at, r.created_at, r.closed_at, m.name AS closed_by"
    " FROM reports r JOIN players a ON a.id = r.reporter_id JOIN players d ON d.id = r.reported_id"
    " LEFT JOIN players m ON m.id = r.closed_by"
)


def _report(row: tuple[Any, ...]) -> dict[str, Any]:
    (rid, reporter, player, reason, text, game_id, line, author, body, said_at, created, closed, by) = row
    quoted = (
        None if line is None else {"n": line, "author": author, "body": body, "said_at": _seconds(said_at)}
    )
    return {
        "id": str(rid),
        "reporter": reporter,
        "player": player,
        "reason": reason,
        "text": text,
        "game_id": game_id,
        "line": quoted,
        "created": _seconds(created),
        "closed": _seconds(closed),
        "closed_by": by,
    }


def _log(conn: Any, moderator_id: int | None, action: Action, **target: Any) -> None:
    conn.execute(
        "INSERT INTO moderation_log (moderator_id, action, player_id, report_id, detail)"
        " VALUES (%s, %s, %s, %s, %s)",
        [moderator_id, action, target.get("player_id"), target.get("report_id"), target.get("detail", "")],
    )


class ModerationStore:
    """Reports, moderators, chat mutes, closed accounts and the moderation log."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- players ------------------------------------------------------------------------------------
    def player(self, name: str) -> Player | None:
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT id, name, password_hash IS NOT NULL, bot, moderator, closed_at IS NOT NULL"
                " FROM players WHERE name_folded = %s",
                [folded(name)],
            ).fetchone()
        return None if row is None else Player(int(row[0]), str(row[1]), *map(bool, row[2:]))

    def is_moderator(self, player_id: int) -> bool:
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT moderator AND closed_at IS NULL FROM players WHERE id = %s", [player_id]
            ).fetchone()
        return bool(row and row[0])

    def closed(self, name: str) -> bool:
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT closed_at IS NOT NULL FROM players WHERE name_folded = %s", [folded(name)]
            ).fetchone()
        return bool(row and row[0])

    # --- reports ------------------------------------------------------------------------------------
    def chat_line(self, game_id: str, n: int) -> ChatLine | None:
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT author_id, author_name, body, said_at FROM chat_lines WHERE game_id = %s AND n = %s",
                [game_id, n],
            ).fetchone()
        if row is None:
            return None
        author_id, author, body, said_at = row
        return ChatLine(n, author_id, author, body, said_at.timestamp())

    def reports_since(self, reporter_id: int, seconds: int) -> tuple[int, float | None]:
        """How many reports the player filed in the last ``seconds``, and when the oldest of them was."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT count(*), min(created_at) FROM reports"
                " WHERE reporter_id = %s AND created_at > now() - make_interval(secs => %s)",
                [reporter_id, seconds],
            ).fetchone()
        assert row is not None
        return int(row[0]), _seconds(row[1])

    def file_report(
        self,
        reporter_id: int,
        reported_id: int,
        reason: str,
        text: str,
        game_id: str | None,
        line: ChatLine | None,
    ) -> str:
        """A new report; its id."""
        quoted = (None,) * 4 if line is None else (line.n, line.author, line.body, line.said_at)
        with self.database.connection() as conn:
            row = conn.execute(
                "INSERT INTO reports (reporter_id, reported_id, reason, text, game_id, line, line_author,"
                " line_body, line_said_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, to_timestamp(%s))"
                " RETURNING id",
                [reporter_id, reported_id, reason, text, game_id, *quoted],
            ).fetchone()
        assert row is not None
        return str(row[0])

    def reports(self, after: tuple[bool, int] | None, limit: int) -> list[dict[str, Any]]:
        """Open reports first, then closed ones, newest first in each; after the keyset ``after`` (closed,
        id) of the last one shown."""
        where, args = "", [limit]
        if after is not None:
            where = " WHERE (r.closed_at IS NOT NULL) > %s OR ((r.closed_at IS NOT NULL) = %s AND r.id < %s)"
            args = [after[0], after[0], after[1], limit]
        with self.database.connection() as conn:
            rows = conn.execute(
                f"SELECT {REPORT_COLUMNS}{where} ORDER BY (r.closed_at IS NOT NULL), r.id DESC LIMIT %s", args
            ).fetchall()
        return [_report(row) for row in rows]

    def close_report(
        self, report_id: int, moderator_id: int, note: str
    ) -> tuple[dict[str, Any], bool] | None:
        """Close the report (logged): the report and whether it was open until now (one closed already
        stays as it was); None when there is no such report."""
        with self.database.connection() as conn:
            done = conn.execute(
                "UPDATE reports SET closed_at = now(), closed_by = %s WHERE id = %s AND closed_at IS NULL"
                " RETURNING reported_id",
                [moderator_id, report_id],
            ).fetchone()
            if done is not None:
                _log(conn, moderator_id, "close_report", player_id=done[0], report_id=report_id, detail=note)
            row = conn.execute(f"SELECT {REPORT_COLUMNS} WHERE r.id = %s", [report_id]).fetchone()
        return None if row is None else (_report(row), done is not None)

    # --- a moderator's acts on players ----------------------------------------------------------------
    def chat_mute(self, moderator_id: int, player_id: int, minutes: int, reason: str) -> float:
        """Mute the player's chat for ``minutes`` from now (a mute in force is replaced); when it ends."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE players SET chat_muted_until = now() + make_interval(mins => %s) WHERE id = %s"
                " RETURNING chat_muted_until",
                [minutes, player_id],
            ).fetchone()
            assert row is not None
            _log(conn, moderator_id, "chat_mute", player_id=player_id, detail=f"{minutes} min: {reason}")
        return row[0].timestamp()  # type: ignore[no-any-return]

    def close_account(self, moderator_id: int, player_id: int, reason: str) -> Closed | None:
        """Close the account and end every credential of it; None when it is closed already or is a
        moderator's (checked in the same statement)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE players SET closed_at = now(), token_digest = NULL"
                " WHERE id = %s AND closed_at IS NULL AND NOT moderator RETURNING closed_at",
                [player_id],
            ).fetchone()
            if row is None:
                return None
            sessions = conn.execute("DELETE FROM sessions WHERE player_id = %s", [player_id]).rowcount
            tokens = conn.execute(
                "UPDATE api_tokens SET revoked_at = now() WHERE player_id = %s AND revoked_at IS NULL",
                [player_id],
            ).rowcount
            _log(conn, moderator_id, "close_account", player_id=player_id, detail=reason)
        return Closed(row[0].timestamp(), sessions, tokens)

    # --- appointing (the command line only) --------------------------------------------------------
    def appoint(self, player_id: int, on: bool) -> None:
        """Make the player a moderator (or no longer one), logged as done from the command line."""
        with self.database.connection() as conn:
            conn.execute("UPDATE players SET moderator = %s WHERE id = %s", [on, player_id])
            _log(conn, None, "grant_moderator" if on else "revoke_moderator", player_id=player_id)

    def moderators(self) -> list[str]:
        with self.database.connection() as conn:
            rows = conn.execute("SELECT name FROM players WHERE moderator ORDER BY name_folded").fetchall()
        return [str(row[0]) for row in rows]

    # --- the log --------------------------------------------------------------------------------------
    def log(self, before: int | None, limit: int) -> list[dict[str, Any]]:
        """The moderation log, newest first, before the entry ``before``."""
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT l.id, m.name, l.action, p.name, l.report_id, l.detail, l.at FROM moderation_log l"
                " LEFT JOIN players m ON m.id = l.moderator_id LEFT JOIN players p ON p.id = l.player_id"
                " WHERE %s::bigint IS NULL OR l.id < %s ORDER BY l.id DESC LIMIT %s",
                [before, before, limit],
            ).fetchall()
        return [
            {
                "id": str(lid),
                "moderator": moderator,
                "action": action,
                "player": player,
                "report": None if report is None else str(report),
                "detail": detail,
                "at": at.timestamp(),
            }
            for lid, moderator, action, player, report, detail, at in rows
        ]
