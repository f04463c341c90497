"""Relations in PostgreSQL (migration 010): who follows whom, and who blocks whom."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .database import Database
from .players import folded

Kind = Literal["follows", "blocks"]
COLUMNS: dict[str, tuple[str, str]] = {
    "follows": ("follower_id", "followed_id"),
    "blocks": ("blocker_id", "blocked_id"),
}


class RelationStore:
    """Follows and blocks between players."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def relate(self, kind: Kind, me_id: int, other: str, on: bool) -> str | None:
        """Follow or block (``on``), or stop; the other player's name as typed, or None if there is none."""
        mine, theirs = COLUMNS[kind]
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT id, name FROM players WHERE name_folded = %s", [folded(other)]
            ).fetchone()
            if row is None:
                return None
            if on:
                conn.execute(
                    f"INSERT INTO {kind} ({mine}, {theirs}) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    [me_id, row[0]],
                )
            else:
                conn.execute(f"DELETE FROM {kind} WHERE {mine} = %s AND {theirs} = %s", [me_id, row[0]])
        return str(row[1])

    def of(self, kind: Kind, me_id: int) -> list[tuple[str, bool]]:
        """The players ``me`` follows (or blocks), by name, with whether each is a bot account."""
        mine, theirs = COLUMNS[kind]
        with self.database.connection() as conn:
            rows = conn.execute(
                f"SELECT p.name, p.bot FROM {kind} r JOIN players p ON p.id = r.{theirs}"
                f" WHERE r.{mine} = %s ORDER BY p.name_folded",
                [me_id],
            ).fetchall()
        return [(str(name), bool(bot)) for name, bot in rows]

    def followers(self, name: str) -> int:
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT count(*) FROM follows f JOIN players p ON p.id = f.followed_id"
                " WHERE p.name_folded = %s",
                [folded(name)],
            ).fetchone()
        return int(row[0]) if row else 0

    def followers_of(self, name: str) -> list[str]:
        """The names of those who follow ``name``, less those it blocks."""
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT f.name FROM follows r JOIN players p ON p.id = r.followed_id"
                " JOIN players f ON f.id = r.follower_id WHERE p.name_folded = %s AND NOT EXISTS"
                " (SELECT 1 FROM blocks b WHERE b.blocker_id = p.id AND b.blocked_id = f.id)",
                [folded(name)],
            ).fetchall()
        return [str(row[0]) for row in rows]

    def blocks(self, blocker: str, blocked: str) -> bool:
        """Whether ``blocker`` blocks ``blocked``."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT 1 FROM blocks b JOIN players a ON a.id = b.blocker_id"
                " JOIN players d ON d.id = b.blocked_id WHERE a.name_folded = %s AND d.name_folded = %s",
                [folded(blocker), folded(blocked)],
            ).fetchone()
        return row is not None

    def blocked_pairs(self, names: Sequence[str]) -> set[frozenset[str]]:
        """The pairs of these players (case-folded names) of which one blocks the other."""
        if len(names) < 2:
            return set()
        keys = [folded(name) for name in names]
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT a.name_folded, d.name_folded FROM blocks b JOIN players a ON a.id = b.blocker_id"
                " JOIN players d ON d.id = b.blocked_id"
                " WHERE a.name_folded = ANY(%s) AND d.name_folded = ANY(%s)",
                [keys, keys],
            ).fetchall()
        return {frozenset((str(a), str(d))) for a, d in rows}
