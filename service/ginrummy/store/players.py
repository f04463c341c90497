"""The player store in PostgreSQL: accounts, career counters and statistics, ratings per rules family,
leaderboards and recent games.

Tables of migrations 001–002: ``players`` (name as typed, ``name_folded`` unique — names are unique
whatever their case —, the token's digest, counters), ``player_stats``, ``ratings`` (with the ordinal the
leaderboard ranks by, index ``ratings_leaderboard``), ``game_players`` and ``rating_history``. What a
finished match changes is written by the archive (:meth:`ginrummy.store.archive.Archive.write`) in one
transaction with the match itself; this store creates players and reads.

A player's token is checked when it is presented (creating, joining or seeking a game, or acting with it
instead of a seat token): one indexed lookup by its digest on every use, never remembered by a process, as
sessions are — signing out everywhere or changing the password of a claimed player ends its token, and
every process must refuse it at once.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from psycopg.rows import dict_row

from .database import Database
from .games import StoreError

RECENT_GAMES = 20  # games shown on a profile, newest first

Rating = tuple[float, float]  # (mu, sigma)


def folded(name: str) -> str:
    """A name as ``name_folded`` is looked up by: casefolded, and a NUL (which PostgreSQL cannot take in
    a text: the query would fail) made a character no name has (names are printable), so that a name
    with a NUL simply names nobody.

    >>> folded("ÄnN"), folded("a\x00b")
    ('änn', 'a\x01b')
    """
    return name.casefold().replace("\x00", "\x01")


class NameTaken(StoreError):
    """A player with this name (in any case) exists already."""


def _seconds(at: dt.datetime | None) -> float | None:
    return None if at is None else at.timestamp()


class PlayerStore:
    """Players in PostgreSQL."""

    def __init__(self, database: Database, *, recent_games: int = RECENT_GAMES) -> None:
        self.database = database
        self.recent_games = max(1, recent_games)

    # --- accounts ---------------------------------------------------------------------------------
    def create(self, name: str, token_digest: str) -> None:
        """A new player ``name`` (kept as typed for display) signing in with the token of
        ``token_digest``. Raises :class:`NameTaken` when the name is used in any case."""
        if not name or not token_digest:
            raise ValueError("a player needs a name and a token digest")
        with self.database.connection() as conn:
            row = conn.execute(
                "INSERT INTO players (name, name_folded, token_digest) VALUES (%s, %s, %s)"
                " ON CONFLICT (name_folded) DO NOTHING RETURNING id",
                [name, name.casefold(), token_digest],
            ).fetchone()
        if row is None:
            raise NameTaken(name)

    def by_token(self, token_digest: str) -> str | None:
        """The display name of the player of this token, or None (none, or ended)."""
        with self.database.connection() as conn:
            row = conn.execute("SELECT name FROM players WHERE token_digest = %s", [token_digest]).fetchone()
        return None if row is None else str(row[0])

    def exists(self, name: str) -> bool:
        with self.database.connection() as conn:
            row = conn.execute("SELECT 1 FROM players WHERE name_folded = %s", [folded(name)]).fetchone()
        return row is not None

    def get(self, name: str) -> dict[str, Any] | None:
        """The public profile: ``name``, ``created``, ``played``/``won``/``lost``/``drawn``, ``stats``
        (summed counters), ``ratings`` (``{family: {"mu", "sigma", "games", "rank"}}``) and
        ``recent_games`` (newest first); None when there is no such player."""
        with self.database.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            player = cur.execute(
                "SELECT id, name, created_at, played, won, lost, drawn, bot FROM players"
                " WHERE name_folded = %s",
                [folded(name)],
            ).fetchone()
            if player is None:
                return None
            pid = player["id"]
            stats = {
                str(stat): int(total)
                for stat, total in conn.execute(
                    "SELECT stat, total FROM player_stats WHERE player_id = %s ORDER BY stat", [pid]
                ).fetchall()
            }
            ratings = {}
            for row in cur.execute(
                "SELECT r.family, r.mu, r.sigma, r.games, (SELECT count(*) FROM ratings b"
                " JOIN players q ON q.id = b.player_id AND NOT q.bot AND q.closed_at IS NULL"
                " WHERE b.family = r.family"
                " AND (b.ordinal, b.player_id) > (r.ordinal, r.player_id)) + 1 AS rank"
                " FROM ratings r WHERE r.player_id = %s ORDER BY r.family",
                [pid],
            ).fetchall():
                ratings[row["family"]] = {
                    "mu": float(row["mu"]),
                    "sigma": float(row["sigma"]),
                    "games": int(row["games"]),
                    # Bots are not ranked (the leaderboard leaves them out): no rank to show.
                    "rank": None if player["bot"] else int(row["rank"]),
                }
            recent = cur.execute(
                "SELECT gp.game_id, gp.family, gp.rated, gp.end_reason, gp.opponent_name, gp.result,"
                " gp.finished_at, h.ordinal_before, h.ordinal_after FROM game_players gp"
                " LEFT JOIN rating_history h ON h.game_id = gp.game_id AND h.player_id = gp.player_id"
                " WHERE gp.player_id = %s AND NOT gp.private"  # (a profile is public)
                " ORDER BY gp.finished_at DESC, gp.game_id DESC LIMIT %s",
                [pid, self.recent_games],
            ).fetchall()
        return {
            "name": player["name"],
            "bot": bool(player["bot"]),
            "created": _seconds(player["created_at"]),
            **{counter: int(player[counter]) for counter in ("played", "won", "lost", "drawn")},
            "stats": stats,
            "ratings": ratings,
            "recent_games": [
                {
                    "game_id": row["game_id"],
                    "family": row["family"] or "casual",
                    "rated": row["rated"],
                    "reason": row["end_reason"],
                    "opponent": row["opponent_name"],
                    "result": row["result"],
                    "finished_at": _seconds(row["finished_at"]),
                    "rating_change": None
                    if row["ordinal_before"] is None or row["ordinal_after"] is None
                    else round(float(row["ordinal_after"]) - float(row["ordinal_before"]), 6),
                }
                for row in recent
            ],
        }

    def rating(self, name: str, family: str) -> Rating | None:
        """The player's (mu, sigma) in the family, or None before the first rated game in it."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT r.mu, r.sigma FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE p.name_folded = %s AND r.family = %s",
                [folded(name), family],
            ).fetchone()
        return None if row is None else (float(row[0]), float(row[1]))

    # --- leaderboards -----------------------------------------------------------------------------
    def leaderboard(self, family: str, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """The best players of the family by ordinal, from rank ``offset + 1``: ``rank``, ``name``,
        ``mu``, ``sigma``, ``ordinal``, ``games`` (one index scan of ``ratings_leaderboard``). Bots — the
        house bots and bot accounts — are not on it (their ratings are on ``GET /v1/bots``), as lichess
        keeps its BOTs off its leaderboards, and closed accounts are not either; a player's rank counts the
        players above it."""
        if limit <= 0:
            return []
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT p.name, r.mu, r.sigma, r.ordinal, r.games FROM ratings r"
                " JOIN players p ON p.id = r.player_id"
                " WHERE r.family = %s AND NOT p.bot AND p.closed_at IS NULL"
                " ORDER BY r.ordinal DESC, r.player_id DESC LIMIT %s OFFSET %s",
                [family, limit, offset],
            ).fetchall()
        return [
            {
                "rank": offset + place,
                "name": str(name),
                "mu": float(mu),
                "sigma": float(sigma),
                "ordinal": float(ordinal),
                "games": int(games),
            }
            for place, (name, mu, sigma, ordinal, games) in enumerate(rows, 1)
        ]

    def rank(self, name: str, family: str) -> int | None:
        """The player's place on the family's leaderboard (1 is the best), or None when unrated."""
        found = self.get(name)
        if found is None or family not in found["ratings"]:
            return None
        rank = found["ratings"][family]["rank"]
        return None if rank is None else int(rank)
