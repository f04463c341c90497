"""Table chat (migration 011): the lines said in a game's two rooms, kept in PostgreSQL with the game for
good, and their announcement on Redis pub/sub so that the game's streams and the chat's long polls wake.

A line's number ``n`` counts the game's lines from 1 across both rooms, in the order they were said: it
is taken as one more than the game's last, and the primary key (game, n) makes a second line said at
the same moment wait for the first's commit and try again with the next number — so a reader that has
seen line n has seen every earlier one it may read.

What a reader is shown is decided in the query (:meth:`ChatStore.lines`): its rooms, after its cursor,
without the lines of authors it blocks, nor — in the players' room — the other seat's once its seat muted
it. The pace of one author in one game is counted in Redis (:meth:`ChatStore.count`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from .database import Database
from .players import folded

RETRIES = 5  # attempts to take the next number when lines of one game are said at the same moment


def chat_channel_key(game_id: str) -> str:
    """What the game's chat is announced under (a notifier key of its own: a move does not wake it)."""
    return f"chat:{game_id}"


@dataclass(frozen=True)
class Author:
    """Who says a line, as the store knows it: its player's id (None: no named player), name, whether it
    has an account (a password: free text is an account's), whether it is a bot account, and until when a
    moderator muted its chat (epoch seconds; None: not muted)."""

    player_id: int | None
    name: str
    account: bool = False
    bot: bool = False
    muted_until: float | None = None


@dataclass(frozen=True)
class Said:
    """A line to keep: its room, author, the author's seat (players' room), preset id and text."""

    room: str
    author: Author
    seat: int | None
    preset: str | None
    body: str


LINE_COLUMNS = "n, room, author_name, seat, bot, preset, body, said_at"


def line_json(row: Sequence[Any]) -> dict[str, Any]:
    n, room, author, seat, bot, preset, body, said_at = row
    return {
        "type": "chatLine",
        "n": int(n),
        "room": room,
        "author": author,
        "seat": seat,
        "bot": bool(bot),
        "preset": preset,
        "text": body,
        "at": int(said_at.timestamp() * 1000),
    }


class ChatStore:
    """Chat lines and table mutes in PostgreSQL; the pace counters and announcements in Redis."""

    def __init__(self, database: Database, client: Any) -> None:
        self.database = database
        self.client = client

    def author(self, name: str) -> Author:
        """The named player ``name`` as an author (an unknown name: a player without account)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT id, name, password_hash IS NOT NULL, bot, chat_muted_until FROM players"
                " WHERE name_folded = %s",
                [folded(name)],
            ).fetchone()
        if row is None:
            return Author(None, name)
        until: dt.datetime | None = row[4]
        muted = None if until is None else until.timestamp()
        return Author(int(row[0]), str(row[1]), bool(row[2]), bool(row[3]), muted)

    def say(self, game_id: str, said: Said, *, most: int) -> dict[str, Any] | None:
        """Keep a line as the game's next; None when the game has ``most`` lines already."""
        author = said.author
        for attempt in range(RETRIES):
            try:
                with self.database.connection() as conn:
                    row = conn.execute(
                        "INSERT INTO chat_lines (game_id, n, room, author_id, author_name, seat, bot, preset,"
                        " body) SELECT %s::text, coalesce(max(n), 0) + 1, %s::text, %s::bigint, %s::text,"
                        " %s::smallint, %s::boolean, %s::text, %s::text"
                        " FROM chat_lines WHERE game_id = %s HAVING coalesce(max(n), 0) < %s"
                        f" RETURNING {LINE_COLUMNS}",
                        [
                            game_id,
                            said.room,
                            author.player_id,
                            author.name,
                            said.seat,
                            author.bot,
                            said.preset,
                            said.body,
                            game_id,
                            most,
                        ],
                    ).fetchone()
            except psycopg.errors.UniqueViolation:
                if attempt == RETRIES - 1:
                    raise
                continue
            break
        if row is None:
            return None
        self.client.publish(f"gin:{{{chat_channel_key(game_id)}}}:n", str(row[0]))
        return line_json(row)

    def lines(
        self,
        game_id: str,
        rooms: Sequence[str],
        after: int,
        *,
        reader: str | None,
        seat: int | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """The lines of ``rooms`` after line ``after``, oldest first, as the reader may see them: its own
        player's blocks (``reader``: a player's name) and its seat's mute (``seat``) applied."""
        with self.database.connection() as conn:
            rows = conn.execute(
                f"SELECT {LINE_COLUMNS} FROM chat_lines c WHERE c.game_id = %(game)s"
                " AND c.room = ANY(%(rooms)s) AND c.n > %(after)s"
                " AND NOT EXISTS (SELECT 1 FROM blocks b JOIN players r ON r.id = b.blocker_id"
                "   WHERE r.name_folded = %(reader)s AND b.blocked_id = c.author_id)"
                " AND NOT (c.room = 'player' AND c.seat IS DISTINCT FROM %(seat)s AND EXISTS ("
                "   SELECT 1 FROM chat_mutes m WHERE m.game_id = c.game_id AND m.seat = %(seat)s))"
                " ORDER BY c.n LIMIT %(limit)s",
                {
                    "game": game_id,
                    "rooms": list(rooms),
                    "after": after,
                    "reader": None if reader is None else folded(reader),
                    "seat": seat,
                    "limit": limit,
                },
            ).fetchall()
        return [line_json(row) for row in rows]

    def last(self, game_id: str) -> int:
        """The number of the game's last line (0: none yet)."""
        with self.database.connection() as conn:
            row = conn.execute("SELECT max(n) FROM chat_lines WHERE game_id = %s", [game_id]).fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def mute(self, game_id: str, seat: int, on: bool) -> None:
        """The seat mutes the other seat's lines in this game (``on``), or hears them again."""
        with self.database.connection() as conn:
            if on:
                conn.execute(
                    "INSERT INTO chat_mutes (game_id, seat) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    [game_id, seat],
                )
            else:
                conn.execute("DELETE FROM chat_mutes WHERE game_id = %s AND seat = %s", [game_id, seat])

    def muted(self, game_id: str, seat: int) -> bool:
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT 1 FROM chat_mutes WHERE game_id = %s AND seat = %s", [game_id, seat]
            ).fetchone()
        return row is not None

    def count(self, game_id: str, author_key: str, window: int) -> int:
        """Counts one more line of an author in a game in the current window of ``window`` seconds (a
        fixed window in Redis, one key per author and game, gone with its window); the count so far."""
        key = f"gin:{{{game_id}}}:chat:{author_key}"
        count = int(self.client.incr(key))
        if count == 1:
            self.client.expire(key, window)
        return count
