"""Reviews of finished matches in PostgreSQL (table ``reviews``, migration 006): asked for, then written
by a bot worker. A review is JSON text written once and served as it is."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import psycopg

from .database import Database


class GameNotArchived(LookupError):
    """The game has no row in the archive (a review is of an archived match: ``reviews`` refers to it)."""


@dataclass(frozen=True)
class StoredReview:
    """A review's row: ``pending``, ``done`` (with its JSON text) or ``failed``."""

    status: str
    review: str | None
    requested_at: dt.datetime
    finished_at: dt.datetime | None
    cpu_seconds: float | None


class ReviewStore:
    """Asking for, reading and writing reviews."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def request(self, game_id: str) -> bool:
        """Ask for the review of an archived match: True when a computation is now due (a first request,
        or one after a failure), False when it is pending or done already; :class:`GameNotArchived` when
        the archive has no such game (the row's foreign key says so: no read beforehand)."""
        try:
            with self.database.connection() as conn:
                row = conn.execute(
                    "INSERT INTO reviews (game_id, status) VALUES (%s, 'pending')"
                    " ON CONFLICT (game_id) DO UPDATE SET status = 'pending', requested_at = now()"
                    " WHERE reviews.status = 'failed' RETURNING game_id",
                    [game_id],
                ).fetchone()
        except psycopg.errors.ForeignKeyViolation:
            raise GameNotArchived(game_id) from None
        return row is not None

    def again(self, game_id: str, older_than: float) -> bool:
        """A pending review asked for more than ``older_than`` seconds ago (its job was lost) is asked for
        anew: True when it was (due again)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE reviews SET requested_at = now() WHERE game_id = %s AND status = 'pending'"
                " AND requested_at < now() - make_interval(secs => %s) RETURNING game_id",
                [game_id, older_than],
            ).fetchone()
        return row is not None

    def get(self, game_id: str) -> StoredReview | None:
        """The game's review, None when none was asked for; :class:`GameNotArchived` when the archive has
        no such game — one query tells the three apart."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT r.status, r.review::text, r.requested_at, r.finished_at, r.cpu_seconds"
                " FROM games g LEFT JOIN reviews r ON r.game_id = g.id WHERE g.id = %s",
                [game_id],
            ).fetchone()
        if row is None:
            raise GameNotArchived(game_id)
        if row[0] is None:
            return None
        return StoredReview(str(row[0]), row[1], row[2], row[3], row[4])

    def save(self, game_id: str, review: str, cpu_seconds: float) -> None:
        with self.database.connection() as conn:
            conn.execute(
                "UPDATE reviews SET status = 'done', review = %s::json, finished_at = now(), cpu_seconds = %s"
                " WHERE game_id = %s",
                [review, cpu_seconds, game_id],
            )

    def fail(self, game_id: str) -> None:
        with self.database.connection() as conn:
            conn.execute(
                "UPDATE reviews SET status = 'failed', finished_at = now() WHERE game_id = %s", [game_id]
            )
