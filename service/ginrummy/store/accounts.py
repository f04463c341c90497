"""Accounts in PostgreSQL: a player's password hash, the sessions of its signed-in devices and its
personal API tokens (migration 003).

Sessions and API tokens are found by the digest of the token (one indexed lookup, joined to the player)
on EVERY request that presents one: nothing here is cached in a process, so a session deleted or a token
revoked by one process (or one gunicorn worker) is refused by every other one at its next request; the
same holds of a player's own token (:meth:`ginrummy.store.players.PlayerStore.by_token`), which signing
out everywhere or a new password ends. A closed account's credentials are ended when it is closed
(:mod:`ginrummy.store.moderation`), and refused here besides: a sign-in that was under way then makes
no session that works. ``last_used`` (and a session's sliding expiry) is
written at most once per :data:`TOUCH_EVERY` seconds per credential, not on each request.

The stored hash is whatever the caller gives (argon2id text): this store neither makes nor checks it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from psycopg.rows import dict_row

from .database import Database
from .players import NameTaken, folded

TOUCH_EVERY = 60  # seconds: last_used (and a session's expiry) is written at most this often per credential


@dataclass(frozen=True)
class Credential:
    """What a session or API token stands for: its kind (``session`` or ``token``) and id, the player
    (id and display name) and the scopes it grants; ``expired``: a session past its expiry."""

    kind: str
    id: int
    player_id: int
    name: str
    scopes: tuple[str, ...]
    expired: bool = False
    bot: bool = False  # a bot account: its sessions only read (it plays through API tokens)


def _seconds(at: dt.datetime | None) -> float | None:
    return None if at is None else at.timestamp()


class AccountStore:
    """Passwords, sessions and API tokens of players."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- passwords --------------------------------------------------------------------------------
    def sign_up(self, name: str, password_hash: str) -> None:
        """A new player ``name`` with a password and no player token; :class:`NameTaken` when the
        name is used in any case."""
        with self.database.connection() as conn:
            row = conn.execute(
                "INSERT INTO players (name, name_folded, password_hash) VALUES (%s, %s, %s)"
                " ON CONFLICT (name_folded) DO NOTHING RETURNING id",
                [name, name.casefold(), password_hash],
            ).fetchone()
        if row is None:
            raise NameTaken(name)

    def claim(self, name: str, token_digest: str, password_hash: str) -> bool:
        """Set the first password of the name-and-token player ``name`` whose token has this digest;
        False when the name, the token or the absence of a password does not hold."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE players SET password_hash = %s WHERE name_folded = %s AND token_digest = %s"
                " AND password_hash IS NULL RETURNING id",
                [password_hash, folded(name), token_digest],
            ).fetchone()
        return row is not None

    def password_of(self, name: str) -> tuple[int, str, str | None] | None:
        """(player id, display name, password hash or None) of the player ``name``; None if none."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT id, name, password_hash FROM players WHERE name_folded = %s", [folded(name)]
            ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), row[2])

    def closed(self, player_id: int) -> bool:
        """Whether a moderator closed the player's account (migration 012)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT closed_at IS NOT NULL FROM players WHERE id = %s", [player_id]
            ).fetchone()
        return bool(row and row[0])

    def set_password(self, player_id: int, password_hash: str) -> None:
        with self.database.connection() as conn:
            conn.execute("UPDATE players SET password_hash = %s WHERE id = %s", [password_hash, player_id])

    def password_hash(self, player_id: int) -> str | None:
        with self.database.connection() as conn:
            row = conn.execute("SELECT password_hash FROM players WHERE id = %s", [player_id]).fetchone()
        return None if row is None else row[0]

    # --- sessions and tokens ----------------------------------------------------------------------
    def create_session(
        self, player_id: int, token_digest: str, lifetime: int, user_agent: str, address: str
    ) -> int:
        """A new session of the player, expiring ``lifetime`` seconds from now; its id."""
        with self.database.connection() as conn:
            row = conn.execute(
                "INSERT INTO sessions (player_id, token_digest, expires_at, user_agent, address)"
                " VALUES (%s, %s, now() + make_interval(secs => %s), %s, %s) RETURNING id",
                [player_id, token_digest, lifetime, user_agent, address],
            ).fetchone()
        assert row is not None
        return int(row[0])

    def session(self, token_digest: str, lifetime: int) -> Credential | None:
        """The session of this token digest (None: no such session); a live one's last use and expiry
        are moved on, at most once per :data:`TOUCH_EVERY` seconds."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT s.id, s.player_id, p.name, s.expires_at <= now(),"
                " s.last_used < now() - make_interval(secs => %s), p.bot"
                " FROM sessions s JOIN players p ON p.id = s.player_id"
                " WHERE s.token_digest = %s AND p.closed_at IS NULL",
                [TOUCH_EVERY, token_digest],
            ).fetchone()
            if row is None:
                return None
            session_id, player_id, name, expired, stale, bot = row
            if expired:
                conn.execute("DELETE FROM sessions WHERE id = %s", [session_id])
            elif stale:
                conn.execute(
                    "UPDATE sessions SET last_used = now(), expires_at = now() + make_interval(secs => %s)"
                    " WHERE id = %s",
                    [lifetime, session_id],
                )
        scopes = ("read",) if bot else ("play", "read")  # a bot plays through the API (its tokens) only
        return Credential("session", int(session_id), int(player_id), str(name), scopes, bool(expired), bot)

    def token(self, token_digest: str) -> Credential | None:
        """The API token of this digest, unless revoked; its last use is written at most once per
        :data:`TOUCH_EVERY` seconds."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT t.id, t.player_id, p.name, t.scopes,"
                " t.last_used IS NULL OR t.last_used < now() - make_interval(secs => %s), p.bot"
                " FROM api_tokens t JOIN players p ON p.id = t.player_id"
                " WHERE t.token_digest = %s AND t.revoked_at IS NULL AND p.closed_at IS NULL",
                [TOUCH_EVERY, token_digest],
            ).fetchone()
            if row is None:
                return None
            token_id, player_id, name, scopes, stale, bot = row
            if stale:
                conn.execute("UPDATE api_tokens SET last_used = now() WHERE id = %s", [token_id])
        return Credential("token", int(token_id), int(player_id), str(name), tuple(scopes), bot=bool(bot))

    def sessions(self, player_id: int) -> list[dict[str, Any]]:
        """The player's live sessions, newest first (never their tokens)."""
        with self.database.connection() as conn:
            rows = (
                conn.cursor(row_factory=dict_row)
                .execute(
                    "SELECT id, created_at, last_used, expires_at, user_agent, address FROM sessions"
                    " WHERE player_id = %s AND expires_at > now() ORDER BY created_at DESC, id DESC",
                    [player_id],
                )
                .fetchall()
            )
        return [
            {
                "id": str(row["id"]),
                "created": _seconds(row["created_at"]),
                "last_used": _seconds(row["last_used"]),
                "expires": _seconds(row["expires_at"]),
                "user_agent": row["user_agent"],
                "address": row["address"],
            }
            for row in rows
        ]

    def delete_sessions(
        self, player_id: int, *, only: int | None = None, keep: int | None = None, player_token: bool = False
    ) -> int:
        """Delete the player's sessions: ``only`` that one, or every one but ``keep``; how many went.
        ``player_token``: the player's own token (``POST /v1/players``) ends too, in the same transaction."""
        query = "DELETE FROM sessions WHERE player_id = %s"
        args: list[Any] = [player_id]
        if only is not None:
            query += " AND id = %s"
            args.append(only)
        if keep is not None:
            query += " AND id <> %s"
            args.append(keep)
        with self.database.connection() as conn:
            if player_token:
                conn.execute("UPDATE players SET token_digest = NULL WHERE id = %s", [player_id])
            return conn.execute(query, args).rowcount

    def create_token(
        self, player_id: int, token_digest: str, description: str, scopes: list[str]
    ) -> dict[str, Any]:
        """A new API token of the player; its listing (without the token)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "INSERT INTO api_tokens (player_id, token_digest, description, scopes)"
                " VALUES (%s, %s, %s, %s) RETURNING id, created_at",
                [player_id, token_digest, description, scopes],
            ).fetchone()
        assert row is not None
        return {
            "id": str(row[0]),
            "description": description,
            "scopes": scopes,
            "created": _seconds(row[1]),
            "last_used": None,
        }

    def tokens(self, player_id: int) -> list[dict[str, Any]]:
        """The player's API tokens not revoked, newest first (never the tokens themselves)."""
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT id, description, scopes, created_at, last_used FROM api_tokens"
                " WHERE player_id = %s AND revoked_at IS NULL ORDER BY created_at DESC, id DESC",
                [player_id],
            ).fetchall()
        return [
            {
                "id": str(token_id),
                "description": description,
                "scopes": list(scopes),
                "created": _seconds(created),
                "last_used": _seconds(last_used),
            }
            for token_id, description, scopes, created, last_used in rows
        ]

    def revoke_token(self, player_id: int, token_id: int) -> bool:
        """Revoke the player's token ``token_id``; False when it has no such token (or it is revoked)."""
        with self.database.connection() as conn:
            return (
                conn.execute(
                    "UPDATE api_tokens SET revoked_at = now() WHERE id = %s AND player_id = %s"
                    " AND revoked_at IS NULL",
                    [token_id, player_id],
                ).rowcount
                > 0
            )

    def account(self, player_id: int) -> dict[str, Any]:
        """Who the player is to itself: name, created, whether it has a password, its counts."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT p.name, p.created_at, p.password_hash IS NOT NULL, p.bot,"
                " (SELECT count(*) FROM sessions s WHERE s.player_id = p.id AND s.expires_at > now()),"
                " (SELECT count(*) FROM api_tokens t WHERE t.player_id = p.id AND t.revoked_at IS NULL)"
                " FROM players p WHERE p.id = %s",
                [player_id],
            ).fetchone()
        assert row is not None
        name, created, has_password, bot, sessions, tokens = row
        return {
            "name": name,
            "created": _seconds(created),
            "password": bool(has_password),
            "bot": bool(bot),
            "sessions": int(sessions),
            "tokens": int(tokens),
        }

    # --- bot accounts -----------------------------------------------------------------------------
    def make_bot(self, player_id: int) -> str:
        """Mark the account a bot, for good: ``"done"``; ``"bot"`` when it is one already, ``"played"``
        when it has played a game (a bot account starts with none, as lichess's)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE players SET bot = true, bot_since = now() WHERE id = %s AND NOT bot AND played = 0"
                " AND NOT EXISTS (SELECT 1 FROM game_players g WHERE g.player_id = players.id)"
                " RETURNING id",
                [player_id],
            ).fetchone()
            if row is not None:
                return "done"
            found = conn.execute("SELECT bot FROM players WHERE id = %s", [player_id]).fetchone()
        return "bot" if found is not None and found[0] else "played"

    def bots(self, names: list[str]) -> list[dict[str, Any]]:
        """The bot accounts among ``names`` (case-folded) and every house bot (``bot-`` names), with
        their ratings by family: ``{"name", "house", "since", "played", "ratings": {family: (mu, sigma,
        games)}}``, house bots first, then by name."""
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT p.name, p.name_folded LIKE 'bot-%%', p.bot_since, p.played, r.family, r.mu, r.sigma,"
                " r.games FROM players p LEFT JOIN ratings r ON r.player_id = p.id"
                " WHERE p.bot AND (p.name_folded LIKE 'bot-%%' OR p.name_folded = ANY(%s))"
                " ORDER BY 2 DESC, p.name_folded, r.family",
                [names],
            ).fetchall()
        out: dict[str, dict[str, Any]] = {}
        for name, house, since, played, family, mu, sigma, games in rows:
            entry = out.setdefault(
                name,
                {
                    "name": name,
                    "house": bool(house),
                    "since": _seconds(since),
                    "played": int(played),
                    "ratings": {},
                },
            )
            if family is not None:
                entry["ratings"][family] = (float(mu), float(sigma), int(games))
        return list(out.values())
