"""The one-time copy of a Redis deployment's people into PostgreSQL: what ``ginrummy-copy-players`` runs
when a deployment of a release before issue 19 (players in Redis, :mod:`ginrummy.store.redis_players`)
moves to this one.

What is copied, from each profile ``gin:{players}:p:<folded>``:

- the player (``players``): the name as typed, its case-folded form, the token's digest (the old
  ``token`` field already is the digest, in the same form), ``created_at`` from ``created``, and the
  counters ``played``/``won``/``lost``/``drawn``;
- its statistics (``player_stats``, from the ``s:<stat>`` fields) and its ratings (``ratings``, from the
  ``r:<family>`` fields, with the ordinal the leaderboard ranks by computed by the service's ``ordinal``);
- its recent games (``gin:{players}:g:<folded>``) as rows of the archive: one ``games`` row per game
  (however many of its players list it) and one ``game_players`` row per player who lists it.

The old records never said who sat where. A copied game seats its two sides in the order of their
case-folded names (a player against an anonymous seat sits at 0): the same seats whichever of the two
players is read first, so the row written from either side is the same. Such a game has no final state
(``games.state`` is :data:`~ginrummy.store.archive.NO_STATE`: it cannot be shown as a board, only listed
and exported), no hands, no rules (``{}``), no clock, no points, ``started_at`` = ``finished_at``, and
its export document says what it is: ``"imported": "redis-recent-games"`` and only what was known (the
players by seat, family, rated, finish time, winner, how it ended).

Not copied: the rating changes shown beside recent games (the old records kept the change of the
ordinal only, not the ratings before and after that ``rating_history`` holds: a player's rating history
starts empty), games that had fallen off every player's 20 recent games, the token index, leaderboards
(PostgreSQL ranks by an index) and the applied markers.

Idempotent, and safe to stop and run again: a player is written only when PostgreSQL does not have its
name yet — with its statistics and ratings, in the same transaction —, so counters are never added
twice; a player found with the same token digest and creation time is one an earlier run copied and is
left as it is; a name PostgreSQL has for another player (made by the new release before the copy) is
not copied and is reported. Games go in with ``ON CONFLICT DO NOTHING``, and a player's row of a game
only into a copied game and only once per player. Runs take turns under an advisory lock. A dry run does
all of it in one transaction and rolls it back, so its report says exactly what a run would write.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
import redis
from psycopg import sql

from ginrummy.engine.export import FORMAT, FORMAT_VERSION

from .archive import NO_STATE, Ordinal
from .connection import redact_url
from .database import CONNECT_TIMEOUT, check_url
from .games import StoreError
from .redis_players import RECENT_PREFIX, OldGame, OldProfile, RedisPlayers, Unreadable
from .schema import MigrationError, applied, migrations

# pg_advisory_lock's key of the copy: "gin-copy" in ASCII (the migrations' is "gin-migr").
LOCK_KEY = int.from_bytes(b"gin-copy", "big")
LOCK_TIMEOUT = "5min"  # longest a run waits for another one
BATCH = 200  # players written per transaction
IMPORTED = "redis-recent-games"  # the export document's "imported": where a copied game comes from
CASUAL = "casual"  # the old records' family of an unrated game (PostgreSQL: NULL)

INSERT_PLAYER = (
    "INSERT INTO players (name, name_folded, token_digest, created_at, played, won, lost, drawn)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING id"
)
INSERT_STAT = "INSERT INTO player_stats (player_id, stat, total) VALUES (%s, %s, %s)"
INSERT_RATING = (
    "INSERT INTO ratings (player_id, family, mu, sigma, games, ordinal) VALUES (%s, %s, %s, %s, %s, %s)"
)
# A batch of games and of players' rows of them, one statement each: columns as arrays (sent in binary,
# which psycopg does not escape element by element), unnested.
INSERT_GAMES = (
    "INSERT INTO games (id, player0_id, player1_id, rules, family, clock, winner, end_reason, rated,"
    " started_at, finished_at, document, state, version, hands)"
    " SELECT t.id, t.p0, t.p1, '{}', t.family, NULL, t.winner, t.reason, t.rated, t.at, t.at,"
    " t.document::json, %s, 1, 0 FROM unnest(%b::text[], %b::bigint[], %b::bigint[], %b::text[],"
    " %b::smallint[], %b::text[], %b::boolean[], %b::timestamptz[], %b::text[])"
    " AS t (id, p0, p1, family, winner, reason, rated, at, document)"
    " ON CONFLICT (id) DO NOTHING"
)
# Only into a copied game (never beside a match the archive wrote itself), once per player.
INSERT_GAME_PLAYERS = (
    "INSERT INTO game_players (game_id, seat, player_id, opponent_id, result, rated, family, finished_at,"
    " opponent_name, end_reason)"
    " SELECT t.game_id, t.seat, t.player_id, t.opponent_id, t.result, t.rated, t.family, t.at,"
    " t.opponent_name, t.reason FROM unnest(%b::text[], %b::smallint[], %b::bigint[], %b::bigint[],"
    " %b::text[], %b::boolean[], %b::text[], %b::timestamptz[], %b::text[], %b::text[])"
    " AS t (game_id, seat, player_id, opponent_id, result, rated, family, at, opponent_name, reason)"
    " JOIN games g ON g.id = t.game_id AND g.state = %s"
    " WHERE NOT EXISTS"
    " (SELECT 1 FROM game_players x WHERE x.game_id = t.game_id AND x.player_id = t.player_id)"
    " ON CONFLICT (game_id, seat) DO NOTHING"
)


class CopyError(StoreError):
    """The copy could not run or stopped; the message says why (no password in it). What it had written
    stays, and a new run goes on from there."""


@dataclass
class CopyReport:
    """What a run wrote (a dry run: what it would have written)."""

    dry_run: bool = False
    players: int = 0  # copied by this run
    players_before: int = 0  # copied by an earlier run, left as they are
    not_copied: list[str] = field(default_factory=list)  # "<name>: why" (PostgreSQL has it for another)
    stats: int = 0  # player_stats rows
    ratings: int = 0  # ratings rows
    games: int = 0  # games rows
    game_rows: int = 0  # game_players rows
    unreadable: list[Unreadable] = field(default_factory=list)  # profiles and entries left out


@dataclass(frozen=True)
class _Copied:
    """A player of the old records who is in PostgreSQL (copied now or before)."""

    key: str  # <folded> of its Redis keys
    folded: str  # its name_folded
    name: str
    player_id: int


def _at(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def _iso(at: dt.datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _columns(rows: Sequence[tuple[Any, ...]]) -> list[list[Any]]:
    """Rows turned into columns (one array parameter each, for ``unnest``)."""
    return [list(column) for column in zip(*rows, strict=True)]


def pending_migrations(url: str) -> list[str]:
    """The migrations of this release not applied to the database of ``url`` (the copy needs them all).
    Raises :class:`~ginrummy.store.schema.MigrationError` when the database cannot be read."""
    done = applied(url)
    return [str(migration) for migration in migrations() if migration.version not in done]


def copy_players(
    source: RedisPlayers,
    url: str,
    *,
    ordinal: Ordinal,
    dry_run: bool = False,
    batch: int = BATCH,
) -> CopyReport:
    """Copy every player of ``source`` with its statistics, ratings and recent games into the PostgreSQL
    of ``url`` (migrated to this release). ``ordinal(mu, sigma)`` is the service's
    (:func:`ginrummy.app.players.ratings.ordinal`). Raises :class:`CopyError`, or ``ValueError`` for a bad
    URL."""
    url = check_url(url)
    try:
        missing = pending_migrations(url)
    except MigrationError as exc:
        raise CopyError(str(exc)) from None
    if missing:
        lacking = ", ".join(missing)
        where = redact_url(url)
        raise CopyError(f"PostgreSQL at {where} lacks migrations {lacking}: run ginrummy-migrate first")
    report = CopyReport(dry_run=dry_run)
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
            conn.execute(sql.SQL("SET lock_timeout = {}").format(sql.Literal(LOCK_TIMEOUT)))
            conn.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
            try:
                # A dry run: one transaction rolled back at the end (each batch a savepoint inside it).
                outer = conn.transaction(force_rollback=True) if dry_run else contextlib.nullcontext()
                with outer:
                    _Copy(conn, ordinal, max(1, batch), report).run(source)
            finally:
                with contextlib.suppress(psycopg.Error):
                    conn.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    except psycopg.Error as exc:
        raise CopyError(f"PostgreSQL at {redact_url(url)}: {exc}") from None
    except redis.RedisError as exc:
        raise CopyError(f"Redis: {type(exc).__name__}: {exc}") from None
    return report


class _Copy:
    """One run: players first (all of them, so that a game finds both of its players), then their games."""

    def __init__(
        self, conn: psycopg.Connection[Any], ordinal: Ordinal, batch: int, report: CopyReport
    ) -> None:
        self.conn = conn
        self.ordinal = ordinal
        self.batch = batch
        self.report = report
        self.copied: dict[str, _Copied] = {}  # by name_folded

    def run(self, source: RedisPlayers) -> None:
        profiles: list[OldProfile] = []
        for item in source.profiles():
            if isinstance(item, Unreadable):
                self.report.unreadable.append(item)
                continue
            profiles.append(item)
            if len(profiles) >= self.batch:
                self._players(profiles)
                profiles = []
        self._players(profiles)
        for chunk in _chunks(list(self.copied.values()), self.batch):
            self._games(chunk, source.recent_games([player.key for player in chunk]))

    # --- players ----------------------------------------------------------------------------------
    def _players(self, profiles: Sequence[OldProfile]) -> None:
        if not profiles:
            return
        stats: list[tuple[int, str, int]] = []
        ratings: list[tuple[int, str, float, float, int, float]] = []
        with self.conn.transaction():
            for profile in profiles:
                player_id = self._player(profile)
                if player_id is None:
                    continue
                stats += [(player_id, stat, total) for stat, total in sorted(profile.stats.items())]
                ratings += [
                    (player_id, family, r.mu, r.sigma, r.games, self.ordinal(r.mu, r.sigma))
                    for family, r in sorted(profile.ratings.items())
                ]
            with self.conn.cursor() as cur:
                cur.executemany(INSERT_STAT, stats)
                cur.executemany(INSERT_RATING, ratings)
        self.report.stats += len(stats)
        self.report.ratings += len(ratings)

    def _player(self, profile: OldProfile) -> int | None:
        """Write the player when PostgreSQL does not have its name: its id (None: nothing to write)."""
        folded = profile.name.casefold()
        created = _at(profile.created)
        counters = [profile.counters[name] for name in ("played", "won", "lost", "drawn")]
        row = self.conn.execute(
            INSERT_PLAYER, [profile.name, folded, profile.token_digest, created, *counters]
        ).fetchone()
        if row is not None:
            self.report.players += 1
            self.copied[folded] = _Copied(profile.folded, folded, profile.name, int(row[0]))
            return int(row[0])
        found = self.conn.execute(
            "SELECT id, token_digest, created_at FROM players WHERE name_folded = %s", [folded]
        ).fetchone()
        if found is None:
            self.report.not_copied.append(f"{profile.name}: its token is another player's in PostgreSQL")
        elif found[1] == profile.token_digest and found[2] == created:
            self.report.players_before += 1
            self.copied[folded] = _Copied(profile.folded, folded, profile.name, int(found[0]))
        else:
            self.report.not_copied.append(f"{profile.name}: PostgreSQL has this name for another player")
        return None

    # --- recent games -----------------------------------------------------------------------------
    def _games(self, players: Sequence[_Copied], lists: Sequence[Sequence[OldGame | Unreadable]]) -> None:
        games: list[tuple[Any, ...]] = []
        rows: list[tuple[Any, ...]] = []
        for player, entries in zip(players, lists, strict=True):
            for entry in entries:
                if isinstance(entry, Unreadable):
                    self.report.unreadable.append(entry)
                elif entry.opponent is not None and entry.opponent.casefold() == player.folded:
                    reason = f"{entry.game_id}: {player.name} against themself"
                    self.report.unreadable.append(Unreadable(RECENT_PREFIX + player.key, reason))
                else:
                    game, row = self._rows(player, entry)
                    games.append(game)
                    rows.append(row)
        if not games:
            return
        with self.conn.transaction():
            inserted = self.conn.execute(INSERT_GAMES, [NO_STATE, *_columns(games)])
            self.report.games += max(0, inserted.rowcount)
            inserted = self.conn.execute(INSERT_GAME_PLAYERS, [*_columns(rows), NO_STATE])
            self.report.game_rows += max(0, inserted.rowcount)

    def _rows(self, player: _Copied, game: OldGame) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """The game's row and the player's row of it, in the columns of INSERT_GAMES and
        INSERT_GAME_PLAYERS."""
        other_folded = None if game.opponent is None else game.opponent.casefold()
        other: _Copied | None = None if other_folded is None else self.copied.get(other_folded)
        other_name = game.opponent if other is None else other.name
        seat = 0 if other_folded is None or player.folded < other_folded else 1
        names: list[str | None] = [None, None]
        ids: list[int | None] = [None, None]
        names[seat], ids[seat] = player.name, player.player_id
        names[1 - seat], ids[1 - seat] = other_name, None if other is None else other.player_id
        winner = {"won": seat, "lost": 1 - seat}.get(game.result)
        end_reason = game.reason or ("aborted" if game.result == "aborted" else "finished")
        family = None if game.family == CASUAL else game.family
        at = _at(game.finished_at)
        document: Mapping[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game_id": game.game_id,
            "imported": IMPORTED,
            "family": family,
            "rated": game.rated,
            "players": [{"seat": s, "name": names[s], "player": names[s]} for s in (0, 1)],
            "finished_at": _iso(at),
            "result": {"winner": winner, "end_reason": end_reason},
            "hand_count": 0,
        }
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        game_row = (game.game_id, ids[0], ids[1], family, winner, end_reason, game.rated, at, text)
        player_row = (
            game.game_id,
            seat,
            player.player_id,
            ids[1 - seat],
            game.result,
            game.rated,
            family,
            at,
        )
        return game_row, (*player_row, other_name, end_reason)
