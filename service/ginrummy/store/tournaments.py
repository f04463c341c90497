"""Tournaments: what lasts in PostgreSQL (migration 009) and what is live in Redis.

PostgreSQL keeps the tournament, its entries and every pairing with its game and result. A director
(:mod:`ginrummy.app.tournaments.directing`) acts on a tournament while it holds its lease, and each of
its writes checks the lease in the same statement (:data:`HELD`): a director that stalled past its lease
writes nothing, so no pairing is made twice and no result is recorded twice. A pairing is written before
its game is made, with the game's id: a director that is killed in between leaves a pairing whose game
the next one makes.

Redis keys (each its own Cluster slot):

``gin:tn:{<id>}:standings``  the live standings (JSON), written by the director after each change
``gin:tn:{<id>}:ev``         stream: the tournament's events (standings, pairings, results, rounds), the
                             last :data:`EVENTS_KEPT`, announced on ``gin:{tn:<id>}:n`` as the account
                             events are (:mod:`ginrummy.store.notify`)
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from typing import Any

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from .database import Database
from .notify import Notifier, wait_until

EVENTS_KEPT = 500
LIVE_TTL = 14 * 24 * 3600  # the live keys outlast a tournament by this much

# The fence of every director's write: the tournament's lease is held by this director and runs.
HELD = (
    "EXISTS (SELECT 1 FROM tournaments t"
    " WHERE t.id = %(id)s AND t.director = %(director)s AND t.lease_until > now())"
)

ENTRY_COLUMNS = "player, bot, house, rating, joined_at, joined_round, active"
PAIRING_COLUMNS = (
    "number, round, seat0, seat1, game_id, deal_seed, mirror_of, status, outcome, end_reason, "
    "berserk0, berserk1, no_show, finished_seq, created_at, finished_at"
)


class LeaseLost(Exception):
    """The director no longer holds the tournament's lease: another one acts on it now."""


@dataclass(frozen=True)
class TournamentState:
    """A tournament as a director or a reader sees it: its row, entries and pairings."""

    row: dict[str, Any]
    entries: list[dict[str, Any]]
    pairings: list[dict[str, Any]]


def _seconds(at: dt.datetime | None) -> float | None:
    return None if at is None else at.timestamp()


def _at(seconds: float | None) -> dt.datetime | None:
    return None if seconds is None else dt.datetime.fromtimestamp(seconds, dt.UTC)


def _times(row: dict[str, Any]) -> dict[str, Any]:
    """A row with its timestamps as unix seconds."""
    return {k: _seconds(v) if isinstance(v, dt.datetime) else v for k, v in row.items()}


class TournamentStore:
    """Tournaments, entries and pairings in PostgreSQL."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- the organiser and the players ---------------------------------------------------------------
    def created_since(self, organiser_id: int, since: float) -> int:
        """How many tournaments the player created since ``since`` (unix seconds)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT count(*) FROM tournaments WHERE organiser_id = %s AND created_at >= %s",
                [organiser_id, _at(since)],
            ).fetchone()
        return int(row[0]) if row else 0

    def create(
        self,
        tournament_id: str,
        *,
        format: str,
        name: str,
        organiser: str,
        organiser_id: int,
        settings: dict[str, Any],
        entry_code_digest: str | None,
        starts_at: float,
        next_round_at: float | None,
    ) -> None:
        with self.database.connection() as conn:
            conn.execute(
                "INSERT INTO tournaments (id, format, name, organiser, organiser_id, settings,"
                " entry_code_digest, starts_at, next_round_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    tournament_id,
                    format,
                    name,
                    organiser,
                    organiser_id,
                    Jsonb(settings),
                    entry_code_digest,
                    _at(starts_at),
                    _at(next_round_at),
                ],
            )

    def get(self, tournament_id: str) -> dict[str, Any] | None:
        with self.database.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute("SELECT * FROM tournaments WHERE id = %s", [tournament_id]).fetchone()
        return None if row is None else _times(row)

    def state(self, tournament_id: str, *, playing_only: bool = False) -> TournamentState | None:
        """The tournament with its entries (in joining order) and pairings (in the order made; with
        ``playing_only``, only those in play: what a read of it shows beside the live standings)."""
        with self.database.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute("SELECT * FROM tournaments WHERE id = %s", [tournament_id]).fetchone()
            if row is None:
                return None
            entries = cur.execute(
                f"SELECT {ENTRY_COLUMNS} FROM tournament_entries WHERE tournament_id = %s"
                " ORDER BY joined_at, player_folded",
                [tournament_id],
            ).fetchall()
            pairings = cur.execute(
                f"SELECT {PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament_id = %s"
                + (" AND status = 'playing'" if playing_only else "")
                + " ORDER BY number",
                [tournament_id],
            ).fetchall()
        return TournamentState(_times(row), [_times(e) for e in entries], [_times(p) for p in pairings])

    def listed(self, statuses: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        """Public tournaments in these statuses: upcoming soonest first, the others newest first; each with
        its number of entries."""
        order = "starts_at ASC" if statuses == ("created",) else "starts_at DESC"
        with self.database.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            rows = cur.execute(
                "SELECT t.*, (SELECT count(*) FROM tournament_entries e"
                " WHERE e.tournament_id = t.id) AS players FROM tournaments t"
                " WHERE status = ANY(%s) AND entry_code_digest IS NULL"
                f" ORDER BY {order} LIMIT %s",
                [list(statuses), limit],
            ).fetchall()
        return [_times(row) for row in rows]

    def update_settings(
        self, tournament_id: str, name: str, settings: dict[str, Any], starts_at: float
    ) -> bool:
        """The organiser's edit, before the start; False once started."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE tournaments SET name = %s, settings = %s, starts_at = %s"
                " WHERE id = %s AND status = 'created' RETURNING id",
                [name, Jsonb(settings), _at(starts_at), tournament_id],
            ).fetchone()
        return row is not None

    def join(
        self,
        tournament_id: str,
        player: str,
        *,
        bot: bool,
        house: str | None,
        rating: float,
        joined_round: int,
    ) -> bool:
        """Enter the player (or make a paused one active again); False when the tournament is over."""
        with self.database.connection() as conn:
            row = conn.execute(
                "INSERT INTO tournament_entries (tournament_id, player, player_folded, bot, house, rating,"
                " joined_round) SELECT %s, %s, %s, %s, %s, %s, %s FROM tournaments"
                " WHERE id = %s AND status IN ('created', 'started')"
                " ON CONFLICT (tournament_id, player_folded) DO UPDATE SET active = true RETURNING player",
                [
                    tournament_id,
                    player,
                    player.casefold(),
                    bot,
                    house,
                    rating,
                    joined_round,
                    tournament_id,
                ],
            ).fetchone()
        return row is not None

    def leave(self, tournament_id: str, player: str, *, remove: bool) -> bool:
        """Pause or withdraw the player (``remove``: before the start, the entry is deleted)."""
        with self.database.connection() as conn:
            if remove:
                sql = (
                    "DELETE FROM tournament_entries WHERE tournament_id = %s AND player_folded = %s"
                    " RETURNING player"
                )
            else:
                sql = (
                    "UPDATE tournament_entries SET active = false WHERE tournament_id = %s"
                    " AND player_folded = %s RETURNING player"
                )
            row = conn.execute(sql, [tournament_id, player.casefold()]).fetchone()
        return row is not None

    def ask_next_round(self, tournament_id: str) -> bool:
        """The organiser starts the next Swiss round now (or the tournament itself, before its time)."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE tournaments SET next_round_at = now(),"
                " starts_at = CASE WHEN status = 'created' THEN now() ELSE starts_at END"
                " WHERE id = %s AND status IN ('created', 'started') RETURNING id",
                [tournament_id],
            ).fetchone()
        return row is not None

    def cancel(self, tournament_id: str) -> bool:
        """Before the start, the organiser cancels it."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE tournaments SET status = 'canceled', finished_at = now()"
                " WHERE id = %s AND status = 'created' RETURNING id",
                [tournament_id],
            ).fetchone()
        return row is not None

    def ask_end(self, tournament_id: str) -> bool:
        """The organiser ends a running tournament: its director finishes it at its next step."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE tournaments SET ends_at = now(), settings = settings || '{\"terminated\": true}'"
                " WHERE id = %s AND status = 'started' RETURNING id",
                [tournament_id],
            ).fetchone()
        return row is not None

    # --- the directors ----------------------------------------------------------------------------------
    def due(self, limit: int = 100) -> list[str]:
        """Tournaments a director has work on: started, or created and due to start."""
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT id FROM tournaments WHERE status = 'started'"
                " OR (status = 'created' AND starts_at <= now()) ORDER BY starts_at LIMIT %s",
                [limit],
            ).fetchall()
        return [row[0] for row in rows]

    def take_lease(self, tournament_id: str, director: str, seconds: float) -> bool:
        """Take or renew the lease: free, expired or already this director's."""
        with self.database.connection() as conn:
            row = conn.execute(
                "UPDATE tournaments SET director = %s, lease_until = now() + make_interval(secs => %s)"
                " WHERE id = %s AND status IN ('created', 'started')"
                " AND (director IS NULL OR director = %s OR lease_until < now()) RETURNING id",
                [director, seconds, tournament_id, director],
            ).fetchone()
        return row is not None

    def release_lease(self, tournament_id: str, director: str) -> None:
        with self.database.connection() as conn:
            conn.execute(
                "UPDATE tournaments SET lease_until = NULL WHERE id = %s AND director = %s",
                [tournament_id, director],
            )

    def _fenced(self, conn: Any, sql: str, params: dict[str, Any]) -> None:
        """One fenced statement; :class:`LeaseLost` when the lease is gone (the transaction rolls back)."""
        if conn.execute(sql, params).fetchone() is None:
            raise LeaseLost(params["id"])

    def start(
        self, tournament_id: str, director: str, ends_at: float | None, settings: dict[str, Any]
    ) -> None:
        """Started now; ``settings``: what the start settles (merged into the settings)."""
        with self.database.connection() as conn:
            self._fenced(
                conn,
                "UPDATE tournaments SET status = 'started', started_at = now(), ends_at = %(ends)s,"
                " settings = settings || %(settings)s, next_round_at = NULL"
                f" WHERE id = %(id)s AND status = 'created' AND {HELD} RETURNING id",
                {
                    "id": tournament_id,
                    "director": director,
                    "ends": _at(ends_at),
                    "settings": Jsonb(settings),
                },
            )

    def schedule_round(self, tournament_id: str, director: str, at: float) -> None:
        """A Swiss' next round is paired at ``at`` (a round's timer)."""
        with self.database.connection() as conn:
            self._fenced(
                conn,
                f"UPDATE tournaments SET next_round_at = %(at)s WHERE id = %(id)s AND {HELD} RETURNING id",
                {"id": tournament_id, "director": director, "at": _at(at)},
            )

    def add_pairings(
        self,
        tournament_id: str,
        director: str,
        pairings: list[dict[str, Any]],
        *,
        round_number: int | None = None,
        next_round_at: float | None = None,
    ) -> list[dict[str, Any]]:
        """Write new pairings (numbered after the last) in one fenced transaction; with ``round_number``
        the tournament moves to that round (it must be the next one: a round is paired once). A pairing's
        ``mirror_of`` may be ``"previous"``: the pairing written just before it (a duplicate pair's second
        match, whose number is only known here)."""
        with self.database.connection() as conn:
            if round_number is not None:
                self._fenced(
                    conn,
                    f"UPDATE tournaments SET round = %(round)s, next_round_at = %(next)s"
                    f" WHERE id = %(id)s AND round = %(round)s - 1 AND {HELD} RETURNING id",
                    {
                        "id": tournament_id,
                        "director": director,
                        "round": round_number,
                        "next": _at(next_round_at),
                    },
                )
            else:
                self._fenced(
                    conn,
                    f"SELECT 1 FROM tournaments t0 WHERE t0.id = %(id)s AND {HELD} FOR UPDATE",
                    {"id": tournament_id, "director": director},
                )
            row = conn.execute(
                "SELECT coalesce(max(number), 0) FROM tournament_pairings WHERE tournament_id = %s",
                [tournament_id],
            ).fetchone()
            number = int(row[0]) if row else 0
            made = []
            for pairing in pairings:
                number += 1
                if pairing.get("mirror_of") == "previous":
                    pairing = {**pairing, "mirror_of": number - 1}
                made.append({**pairing, "number": number})
                conn.execute(
                    "INSERT INTO tournament_pairings (tournament_id, number, round, seat0, seat1, game_id,"
                    " deal_seed, mirror_of, status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        tournament_id,
                        number,
                        pairing["round"],
                        pairing["seat0"],
                        pairing.get("seat1"),
                        pairing.get("game_id"),
                        pairing.get("deal_seed"),
                        made[-1].get("mirror_of"),
                        pairing["status"],
                    ],
                )
        return made

    def record(self, tournament_id: str, director: str, number: int, result: dict[str, Any]) -> bool:
        """A pairing's result, once (False: it was recorded already); its ``finished_seq`` is the next."""
        with self.database.connection() as conn:
            self._fenced(
                conn,
                f"SELECT 1 FROM tournaments t0 WHERE t0.id = %(id)s AND {HELD} FOR UPDATE",
                {"id": tournament_id, "director": director},
            )
            row = conn.execute(
                "UPDATE tournament_pairings SET status = %s, outcome = %s, end_reason = %s, berserk0 = %s,"
                " berserk1 = %s, no_show = %s, finished_at = now(), finished_seq = (SELECT coalesce("
                "max(finished_seq), 0) + 1 FROM tournament_pairings WHERE tournament_id = %s)"
                " WHERE tournament_id = %s AND number = %s AND status = 'playing' RETURNING number",
                [
                    result["status"],
                    result["outcome"],
                    result["end_reason"],
                    result["berserk0"],
                    result["berserk1"],
                    result.get("no_show"),
                    tournament_id,
                    tournament_id,
                    number,
                ],
            ).fetchone()
        return row is not None

    def withdraw(self, tournament_id: str, director: str, player: str) -> None:
        """A no-show is withdrawn (by the director)."""
        with self.database.connection() as conn:
            self._fenced(
                conn,
                f"UPDATE tournament_entries SET active = false WHERE tournament_id = %(id)s"
                f" AND player_folded = %(p)s AND {HELD} RETURNING player",
                {"id": tournament_id, "director": director, "p": player.casefold()},
            )

    def finish(self, tournament_id: str, director: str, standings: list[dict[str, Any]]) -> None:
        with self.database.connection() as conn:
            self._fenced(
                conn,
                f"UPDATE tournaments SET status = 'finished', finished_at = now(), standings = %(s)s,"
                f" lease_until = NULL WHERE id = %(id)s AND status = 'started' AND {HELD} RETURNING id",
                {"id": tournament_id, "director": director, "s": Jsonb(standings)},
            )


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class TournamentLive:
    """A tournament's live standings and its stream of events, in Redis."""

    def __init__(self, client: Any, notifier: Notifier | None = None) -> None:
        self.client = client
        self.notifier = notifier or Notifier(client)

    @staticmethod
    def standings_key(tournament_id: str) -> str:
        return "gin:tn:{" + tournament_id + "}:standings"

    @staticmethod
    def events_key(tournament_id: str) -> str:
        return "gin:tn:{" + tournament_id + "}:ev"

    def set_standings(self, tournament_id: str, text: str) -> None:
        self.client.set(self.standings_key(tournament_id), text, ex=LIVE_TTL)

    def standings(self, tournament_id: str) -> str | None:
        raw = self.client.get(self.standings_key(tournament_id))
        return None if raw is None else _text(raw)

    def publish(self, tournament_id: str, events: list[str]) -> None:
        """Append events (JSON texts) to the tournament's stream and wake its readers."""
        if not events:
            return
        key = self.events_key(tournament_id)
        pipe = self.client.pipeline(transaction=False)
        for event in events:
            pipe.xadd(key, {"e": event}, maxlen=EVENTS_KEPT, approximate=True)
        pipe.expire(key, LIVE_TTL)
        pipe.execute()
        self.client.publish("gin:{tn:" + tournament_id + "}:n", "1")

    def last_event_id(self, tournament_id: str) -> str:
        rows = self.client.xrevrange(self.events_key(tournament_id), count=1)
        return _text(rows[0][0]) if rows else "0-0"

    def events(
        self, tournament_id: str, after: str, *, wait: float = 0.0, count: int = 100
    ) -> list[tuple[str, str]]:
        """The events after the id ``after``; with ``wait`` and none, wait up to that long for one."""
        key = self.events_key(tournament_id)
        deadline = time.monotonic() + wait
        with self.notifier.watch("tn:" + tournament_id) as changed:
            while True:
                rows = self.client.xrange(key, min="(" + after, count=count)
                if rows or time.monotonic() >= deadline:
                    out = []
                    for event_id, fields in rows:
                        value = fields[b"e"] if b"e" in fields else fields["e"]
                        out.append((_text(event_id), _text(value)))
                    return out
                wait_until(changed, deadline, self.notifier.recheck_interval())
