"""The archive in PostgreSQL: every finished hand and match, forever, and the reads of the past.

Writes come from the outbox of the game store (:mod:`ginrummy.store.games`), drained by
:mod:`ginrummy.app.archive.writing`; each is idempotent, so a record drained twice (a worker killed after the
write, before the outbox was cleared) is written once:

- a hand: ``INSERT … ON CONFLICT (game_id, number) DO NOTHING``;
- a match: in ONE transaction, the players' rows are locked (every player of every match of the write at
  once, in the order of their ids, so that two writes sharing players — two processes' drainers, each
  with several matches — wait for each other and never deadlock), the game is inserted ``ON CONFLICT (id)
  DO NOTHING RETURNING`` — when it was there already, nothing else happens — and then the players'
  counters, statistics, ratings, their history and the rows of the players' lists are written. A rating is
  therefore applied exactly once per game, and never from a rating another transaction is changing.

A write is pipelined (psycopg's pipeline mode: the statements whose answer nothing waits for travel
together), and the rows of a kind are one statement (``INSERT … SELECT * FROM unnest(%s::type[], …)``,
one list per column) whatever the number of matches: a write of rated matches with their hands and
statistics is ten statements in four round trips (the locks, the games' rows, the ratings before, the
rest with the commit), one match or fifty; the ratings of a player in several of them are computed in
their order, each from the one before. ``bench/bench_archive.py``
measures it.

The store computes no rating: :meth:`Archive.write` hands the ratings before to the service's ``rate``
and ``ordinal`` (:mod:`ginrummy.app.players.ratings`) and writes what they return.

A game copied from the Redis records of a release before the archive (``ginrummy-copy-players``,
:mod:`ginrummy.store.player_copy`) has a ``games`` row without a final state (:data:`NO_STATE`), no hands
and a minimal document, and its players' rows: it is listed and exported, never decoded.

Reads: a match (its final state and document), a hand, a match's export parts, a player's games (newest
first, keyset-paged by ``(finished_at, game_id)``, filtered), the same as a stream through a server-side
cursor (constant memory), and a player's rating history.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import psycopg
from psycopg import sql
from psycopg.rows import dict_row

from .database import Database
from .players import folded

Rating = tuple[float, float]  # (mu, sigma)
RateFunction = Callable[[tuple[Rating | None, Rating | None], int], tuple[Rating, Rating]]
Ordinal = Callable[[float, float], float]

RESULTS = ("won", "lost", "drawn", "aborted")
NO_STATE = ""  # games.state of a game copied from the old Redis records: there is no state to show
STREAM_BATCH = 200  # rows fetched at a time by a streaming read's server-side cursor


def _at(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _columns(rows: Iterable[Sequence[Any]]) -> list[list[Any]]:
    """Rows as one list per column: the arrays an ``unnest(%s::type[], …)`` turns back into rows, so that
    many rows are one statement (one execution on the server, not one per row)."""
    return [list(column) for column in zip(*rows, strict=True)]


INSERT_HANDS = (
    "INSERT INTO hands (game_id, number, record, finished_at)"
    " SELECT * FROM unnest(%s::text[], %s::int[], %b::text[]::json[], %s::timestamptz[])"
    " ON CONFLICT (game_id, number) DO NOTHING"
)
INSERT_GAME_PLAYERS = (
    "INSERT INTO game_players (game_id, seat, player_id, opponent_id, result, rated, family, finished_at,"
    " points, opponent_points, opponent_name, end_reason, private)"
    " SELECT * FROM unnest(%s::text[], %s::smallint[], %s::bigint[], %s::bigint[], %s::text[], %s::boolean[],"
    " %s::text[], %s::timestamptz[], %s::int[], %s::int[], %s::text[], %s::text[], %s::boolean[])"
)


@dataclass(frozen=True)
class SeatRecord:
    """One seat of a finished match as the archive keeps it."""

    name: str | None  # as shown (a bot's name, a guest's chosen name)
    player: str | None  # the player tied to the seat (None: anonymous, or a bot outside rated games)
    points: int
    stats: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchRecord:
    """A finished match, as its outbox entry carries it to the archive."""

    game_id: str
    seats: tuple[SeatRecord, SeatRecord]
    rules: Mapping[str, Any]
    family: str | None  # the preset of rules without overrides
    clock: Mapping[str, Any] | None
    rated: bool
    winner: int | None
    end_reason: str  # "finished", or how it ended early ("resigned", "timeout", "aborted", …)
    started_at: float
    finished_at: float
    hands: int
    version: int
    state: str  # the service's final state of the match (never served as such)
    document: Mapping[str, Any]  # the export document, less its hands and rating changes
    private: bool = False  # left out of its players' lists for everyone but them

    def result(self, seat: int) -> str:
        if self.end_reason == "aborted":
            return "aborted"
        if self.winner is None:
            return "drawn"
        return "won" if self.winner == seat else "lost"


@dataclass(frozen=True)
class HandRecord:
    """A finished hand: its game, number, the record's JSON text and when it ended."""

    game_id: str
    number: int
    record: str
    finished_at: float


@dataclass(frozen=True)
class Archived:
    """A finished match read back: its final state and version, its document and rating changes."""

    game_id: str
    version: int
    state: str  # NO_STATE: a game copied from the old Redis records, with its document only
    document: dict[str, Any]
    ratings: list[dict[str, Any] | None]  # per seat: before/after, or None (unrated)


@dataclass(frozen=True)
class ExportParts:
    """A finished match's export as the archive stores it, in JSON texts: its document, its hands'
    records joined by commas (the inside of a JSON array), and its rating changes ``[[seat, mu0, sigma0,
    mu1, sigma1], …]``."""

    document: str
    hands: str
    changes: str


@dataclass(frozen=True)
class GameFilter:
    """What a player's list keeps; every part optional."""

    since: dt.datetime | None = None
    until: dt.datetime | None = None
    opponent: str | None = None  # a player's name (any case)
    rated: bool | None = None
    family: str | None = None  # a preset's name
    casual: bool = False  # only rules with overrides (no family); with ``family``: nothing
    result: str | None = None  # one of RESULTS
    private: bool = False  # private games too (only for the player itself)


def rating_changes(rows: Sequence[Sequence[Any]]) -> list[dict[str, Any] | None]:
    """Per seat, ``{"before": (mu, sigma) | None, "after": (mu, sigma)}`` or None (unrated), from rows
    ``(seat, mu_before, sigma_before, mu_after, sigma_after)``."""
    out: list[dict[str, Any] | None] = [None, None]
    for seat, mu0, sigma0, mu1, sigma1 in rows:
        before = None if mu0 is None else (float(mu0), float(sigma0))
        out[int(seat)] = {"before": before, "after": (float(mu1), float(sigma1))}
    return out


class Archive:
    """Writes and reads of the archive."""

    def __init__(self, database: Database, *, ordinal: Ordinal) -> None:
        self.database = database
        self.ordinal = ordinal

    # --- writes -----------------------------------------------------------------------------------
    def write(
        self,
        hands: Sequence[HandRecord],
        matches: Sequence[MatchRecord],
        rate: RateFunction,
    ) -> list[str]:
        """Archive these hands and matches in one transaction; returns the ids of the matches that were
        new (a match archived before is left as it was). Raises ``psycopg.Error`` (nothing written)."""
        # In pipeline mode, a statement is sent at once and its answer read only when it is needed (a
        # fetch) or at the end: every statement before a fetch travels in the same round trip.
        with self.database.connection() as conn, conn.pipeline():
            if hands:
                conn.execute(
                    INSERT_HANDS,
                    _columns((h.game_id, h.number, h.record, _at(h.finished_at)) for h in hands),
                )
            if not matches:
                return []
            ids = self._lock_players(conn, [seat.player for match in matches for seat in match.seats])
            new = self._insert_games(conn, matches, ids)
            counted = []  # the new matches, each with its seats' player ids
            for match in matches:
                if match.game_id not in new:
                    continue  # archived before
                player_ids = [
                    None if seat.player is None else ids[seat.player.casefold()] for seat in match.seats
                ]
                if (
                    player_ids[0] is None or player_ids[0] != player_ids[1]
                ):  # (one player on both: not counted)
                    counted.append((match, player_ids))
            rated = [
                (match, (first, second))
                for match, (first, second) in counted
                if match.rated and match.winner is not None and match.family
                if first is not None and second is not None
            ]
            if rated:
                self._rate(conn, rated, rate)
            self._count(conn, counted, {match.game_id for match, _ in rated})
        return [match.game_id for match in matches if match.game_id in new]

    @staticmethod
    def _insert_games(
        conn: psycopg.Connection[Any], matches: Sequence[MatchRecord], ids: Mapping[str, int]
    ) -> set[str]:
        """Insert the matches' rows (one statement); returns the ids of those that were not there."""

        def pid(seat: SeatRecord) -> int | None:
            return None if seat.player is None else ids[seat.player.casefold()]

        rows = conn.execute(
            "INSERT INTO games (id, player0_id, player1_id, rules, family, clock, winner, end_reason, rated,"
            " started_at, finished_at, document, state, version, hands)"
            " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::bigint[], %b::text[]::jsonb[], %s::text[],"
            " %b::text[]::jsonb[], %s::smallint[], %s::text[], %s::boolean[], %s::timestamptz[],"
            " %s::timestamptz[], %b::text[]::json[], %s::text[], %s::int[], %s::int[])"
            " ON CONFLICT (id) DO NOTHING RETURNING id",
            _columns(
                (
                    match.game_id,
                    pid(match.seats[0]),
                    pid(match.seats[1]),
                    _json(match.rules),
                    match.family,
                    None if match.clock is None else _json(match.clock),
                    match.winner,
                    match.end_reason,
                    match.rated,
                    _at(match.started_at),
                    _at(match.finished_at),
                    _json(match.document),
                    match.state,
                    match.version,
                    match.hands,
                )
                for match in matches
            ),
        ).fetchall()
        return {str(row[0]) for row in rows}

    @staticmethod
    def _lock_players(conn: psycopg.Connection[Any], names: Sequence[str | None]) -> dict[str, int]:
        """``{folded name: id}`` of these players (every seat of a write's matches), made when missing (the
        house bots' fixed names get their profile so), locked FOR UPDATE in the order of their ids: every
        write locks its players in the same order, so two writes sharing players cannot deadlock."""
        wanted = {name.casefold(): name for name in names if name is not None}
        if not wanted:
            return {}
        conn.execute(
            "INSERT INTO players (name, name_folded)"
            " SELECT name, folded FROM unnest(%s::text[], %s::text[]) AS w(name, folded) ORDER BY folded"
            " ON CONFLICT (name_folded) DO NOTHING",
            _columns((name, key) for key, name in wanted.items()),
        )
        rows = conn.execute(
            "SELECT id, name_folded FROM players WHERE name_folded = ANY(%s) ORDER BY id FOR UPDATE",
            [list(wanted)],
        ).fetchall()
        return {str(folded): int(pid) for pid, folded in rows}

    @staticmethod
    def _count(
        conn: psycopg.Connection[Any],
        counted: Sequence[tuple[MatchRecord, list[int | None]]],
        rated: set[str],
    ) -> None:
        """The new matches' rows of the players' lists, the players' career counters and summed
        statistics: one statement each, however many matches (a player's several matches summed first:
        a statement changes a row once)."""
        listed = []
        results: dict[int, list[int]] = {}  # player -> [played, won, lost, drawn]
        stats: dict[tuple[int, str], int] = {}
        for match, player_ids in counted:
            at = _at(match.finished_at)
            for seat, player in enumerate(player_ids):
                if player is None:
                    continue
                result = match.result(seat)
                opponent = match.seats[1 - seat]
                listed.append(
                    (
                        match.game_id,
                        seat,
                        player,
                        player_ids[1 - seat],
                        result,
                        match.game_id in rated,
                        match.family,
                        at,
                        match.seats[seat].points,
                        opponent.points,
                        opponent.player or opponent.name,
                        match.end_reason,
                        match.private,
                    )
                )
                if result != "aborted":  # an aborted match is not played
                    totals = results.setdefault(player, [0, 0, 0, 0])
                    totals[0] += 1
                    totals[("won", "lost", "drawn").index(result) + 1] += 1
                for name, value in match.seats[seat].stats.items():
                    stats[player, name] = stats.get((player, name), 0) + int(value)
        if listed:
            conn.execute(INSERT_GAME_PLAYERS, _columns(listed))
        if results:
            conn.execute(
                "UPDATE players SET played = players.played + c.played, won = players.won + c.won,"
                " lost = players.lost + c.lost, drawn = players.drawn + c.drawn"
                " FROM unnest(%s::bigint[], %s::int[], %s::int[], %s::int[], %s::int[])"
                " AS c(id, played, won, lost, drawn) WHERE players.id = c.id",
                _columns((player, *totals) for player, totals in results.items()),
            )
        if stats:
            conn.execute(
                "INSERT INTO player_stats (player_id, stat, total)"
                " SELECT * FROM unnest(%s::bigint[], %s::text[], %s::bigint[])"
                " ON CONFLICT (player_id, stat) DO UPDATE SET total = player_stats.total + EXCLUDED.total",
                _columns((player, name, total) for (player, name), total in stats.items()),
            )

    def _rate(
        self,
        conn: psycopg.Connection[Any],
        rated: Sequence[tuple[MatchRecord, tuple[int, int]]],
        rate: RateFunction,
    ) -> None:
        """The rated matches, in their order: each player's rating before (read once for the write, then
        carried from match to match), after, its history row; the ratings written once each."""
        wanted = {(player, match.family) for match, players in rated for player in players}
        current: dict[tuple[int, str | None], tuple[float, float]] = {
            (int(player), str(family)): (float(mu), float(sigma))
            for player, family, mu, sigma in conn.execute(
                "SELECT r.player_id, r.family, r.mu, r.sigma FROM ratings r"
                " JOIN unnest(%s::bigint[], %s::text[]) AS w(player_id, family)"
                " ON r.player_id = w.player_id AND r.family = w.family",
                _columns(wanted),
            ).fetchall()
        }
        history = []
        games: dict[tuple[int, str | None], int] = {}  # rated games of the write, by (player, family)
        updated: dict[tuple[int, str | None], dt.datetime] = {}
        for match, players in rated:
            assert match.winner is not None
            keys = [(player, match.family) for player in players]
            before = [current.get(key) for key in keys]
            after = rate((before[0], before[1]), match.winner)
            at = _at(match.finished_at)
            for key, old, (mu, sigma) in zip(keys, before, after, strict=True):
                history.append(
                    (
                        match.game_id,
                        key[0],
                        match.family,
                        None if old is None else old[0],
                        None if old is None else old[1],
                        None if old is None else self.ordinal(*old),
                        mu,
                        sigma,
                        self.ordinal(mu, sigma),
                        at,
                    )
                )
                current[key] = (mu, sigma)
                games[key] = games.get(key, 0) + 1
                updated[key] = at
        conn.execute(
            "INSERT INTO ratings (player_id, family, mu, sigma, games, ordinal, updated_at)"
            " SELECT * FROM unnest(%s::bigint[], %s::text[], %s::float8[], %s::float8[], %s::int[],"
            " %s::float8[], %s::timestamptz[])"
            " ON CONFLICT (player_id, family) DO UPDATE SET mu = EXCLUDED.mu, sigma = EXCLUDED.sigma,"
            " games = ratings.games + EXCLUDED.games, ordinal = EXCLUDED.ordinal,"
            " updated_at = EXCLUDED.updated_at",
            _columns(
                (key[0], key[1], *current[key], count, self.ordinal(*current[key]), updated[key])
                for key, count in games.items()
            ),
        )
        conn.execute(
            "INSERT INTO rating_history (game_id, player_id, family, mu_before, sigma_before,"
            " ordinal_before, mu_after, sigma_after, ordinal_after, at)"
            " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::float8[], %s::float8[],"
            " %s::float8[], %s::float8[], %s::float8[], %s::float8[], %s::timestamptz[])",
            _columns(history),
        )

    # --- reads ------------------------------------------------------------------------------------
    def match(self, game_id: str) -> Archived | None:
        """A finished match, or None when the archive has no such game."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT version, state, document::text FROM games WHERE id = %s", [game_id]
            ).fetchone()
            if row is None:
                return None
            changes = self._rating_changes(conn, game_id)
        return Archived(game_id, int(row[0]), str(row[1]), json.loads(row[2]), changes)

    @staticmethod
    def _rating_changes(conn: psycopg.Connection[Any], game_id: str) -> list[dict[str, Any] | None]:
        rows = conn.execute(
            "SELECT gp.seat, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after"
            " FROM rating_history h JOIN game_players gp"
            " ON gp.game_id = h.game_id AND gp.player_id = h.player_id WHERE h.game_id = %s",
            [game_id],
        ).fetchall()
        return rating_changes(rows)

    def hand(self, game_id: str, number: int) -> str | None:
        """A finished hand's record (JSON text), or None."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT record::text FROM hands WHERE game_id = %s AND number = %s", [game_id, number]
            ).fetchone()
        return None if row is None else str(row[0])

    def hands(self, game_id: str) -> list[str]:
        """Every archived hand of a game (JSON texts), in order."""
        with self.database.connection() as conn:
            rows = conn.execute(
                "SELECT record::text FROM hands WHERE game_id = %s ORDER BY number", [game_id]
            ).fetchall()
        return [str(row[0]) for row in rows]

    def player(self, name: str) -> tuple[int, str] | None:
        """The id and the name (as its player typed it) of the player of this name in any case."""
        with self.database.connection() as conn:
            row = conn.execute(
                "SELECT id, name FROM players WHERE name_folded = %s", [folded(name)]
            ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def _page_query(
        self,
        player_id: int,
        where: GameFilter,
        after: tuple[dt.datetime, str] | None,
        limit: int | None,
    ) -> tuple[sql.Composed, list[Any]]:
        """The player's rows of ``game_players`` that pass the filters, newest first, after the keyset
        ``after``, ``limit`` of them (None: all)."""
        clauses = [sql.SQL("gp.player_id = %s")]
        params: list[Any] = [player_id]
        if after is not None:
            clauses.append(sql.SQL("(gp.finished_at, gp.game_id) < (%s, %s)"))
            params += [after[0], after[1]]
        opponent = None if where.opponent is None else folded(where.opponent)
        for clause, value in (
            ("gp.finished_at >= %s", where.since),
            ("gp.finished_at < %s", where.until),
            ("gp.opponent_id = (SELECT id FROM players WHERE name_folded = %s)", opponent),
            ("gp.rated = %s", where.rated),
            ("gp.family = %s", where.family),
            ("gp.result = %s", where.result),
        ):
            if value is not None:
                clauses.append(sql.SQL(clause))  # literal clauses only: the values are bound
                params.append(value)
        if where.casual:
            clauses.append(sql.SQL("gp.family IS NULL"))
        if not where.private:
            clauses.append(sql.SQL("NOT gp.private"))
        page = sql.SQL(
            "SELECT * FROM game_players gp WHERE {} ORDER BY gp.finished_at DESC, gp.game_id DESC"
        ).format(sql.SQL(" AND ").join(clauses))
        if limit is not None:
            page += sql.SQL(" LIMIT %s")
            params.append(limit)
        return page, params

    def _list_query(
        self, player_id: int, where: GameFilter, after: tuple[dt.datetime, str] | None, limit: int
    ) -> tuple[sql.Composed, list[Any]]:
        """A page of the player's games, newest first: the page is chosen from ``game_players`` alone,
        and only its rows are joined to their game and rating change. (Joined first, a player the
        statistics think has a few dozen games but has hundreds would have all of them joined, then
        sorted.)"""
        page, params = self._page_query(player_id, where, after, limit)
        query = sql.SQL(
            "SELECT gp.game_id, gp.seat, gp.result, gp.rated, gp.family, gp.finished_at, gp.points,"
            " gp.opponent_points, gp.opponent_name, gp.end_reason, g.started_at, g.hands,"
            " h.mu_before, h.sigma_before, h.mu_after, h.sigma_after"
            " FROM ({}) gp JOIN games g ON g.id = gp.game_id"
            " LEFT JOIN rating_history h ON h.game_id = gp.game_id AND h.player_id = gp.player_id"
            " ORDER BY gp.finished_at DESC, gp.game_id DESC"
        ).format(page)
        return query, params

    def games_of(
        self,
        player_id: int,
        where: GameFilter,
        *,
        after: tuple[dt.datetime, str] | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """A page of the player's games, newest first, after the keyset ``after`` (exclusive)."""
        query, params = self._list_query(player_id, where, after, limit)
        with self.database.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            # Never a prepared statement: its generic plan, made for a player of a few dozen games, joins
            # every game of a player of 10,000 before it keeps 50 (50 ms instead of 2); planned for the
            # player at hand, the page is a walk down the player's index.
            rows = cur.execute(query, params, prepare=False).fetchall()
        return [dict(row) for row in rows]

    def stream_games_of(self, player_id: int, where: GameFilter) -> Iterator[ExportParts]:
        """Every game of the player (newest first, filtered) as its whole export in the JSON texts the
        archive keeps. A server-side cursor fetches :data:`STREAM_BATCH` rows at a time, in the order of
        the player's index (no sort before the first row): memory stays flat however many games there
        are."""
        page, params = self._page_query(player_id, where, None, None)
        query = sql.SQL(
            "SELECT g.document::text, coalesce((SELECT string_agg(x.record::text, ',' ORDER BY x.number)"
            " FROM hands x WHERE x.game_id = gp.game_id), ''), coalesce((SELECT json_agg(json_build_array("
            " CASE WHEN r.player_id = g.player0_id THEN 0 ELSE 1 END, r.mu_before, r.sigma_before,"
            " r.mu_after, r.sigma_after))::text FROM rating_history r WHERE r.game_id = gp.game_id), '[]')"
            " FROM ({}) gp JOIN games g ON g.id = gp.game_id ORDER BY gp.finished_at DESC, gp.game_id DESC"
        ).format(page)
        with self.database.connection() as conn, conn.cursor(name="gin_export") as cur:
            cur.itersize = STREAM_BATCH
            cur.execute(query, params)
            for document, hands, changes in cur:
                yield ExportParts(str(document), str(hands), str(changes))

    def rating_history(
        self, player_id: int, family: str | None = None, *, private: bool = False
    ) -> list[dict[str, Any]]:
        """Each rated game's change of the player's rating, oldest first, per family; the game id of a
        private game is None unless ``private`` (the player itself asks)."""
        query = (
            "SELECT r.family, CASE WHEN gp.private AND NOT %s THEN NULL ELSE r.game_id END AS game_id, r.at,"
            " r.mu_before, r.sigma_before, r.ordinal_before, r.mu_after, r.sigma_after, r.ordinal_after"
            " FROM rating_history r LEFT JOIN game_players gp"
            " ON gp.game_id = r.game_id AND gp.player_id = r.player_id WHERE r.player_id = %s"
        )
        params: list[Any] = [private, player_id]
        if family is not None:
            query += " AND r.family = %s"
            params.append(family)
        with self.database.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            rows = cur.execute(query + " ORDER BY r.family, r.at, r.id", params).fetchall()
        return [dict(row) for row in rows]

    def counts(self) -> dict[str, int]:
        """Rows of the archive's tables (for operators and benchmarks)."""
        out = {}
        with self.database.connection() as conn:
            for table in ("games", "hands", "game_players", "rating_history"):
                row = conn.execute(
                    sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
                ).fetchone()
                out[table] = 0 if row is None else int(row[0])
        return out
