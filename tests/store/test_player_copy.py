"""``ginrummy-copy-players`` for real: the players of a release before issue 19 are written into Redis as
that release wrote them (plain HSET, LPUSH, ZADD, SET in the ``{players}`` slot), the command runs as a
subprocess against the suite's Redis (single and Cluster) and PostgreSQL, and what the new release reads
— profiles, counters, statistics, ratings and the leaderboard, tokens, recent games, lists and exports —
is checked through its own stores and app; a second run changes nothing, a dry run writes nothing, and
bad URLs fail clearly without showing a password."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from ginrummy.app.players.ratings import ordinal
from ginrummy.http import create_app
from ginrummy.store import Database, PlayerStore, make_client
from ginrummy.store.archive import NO_STATE, Archive, GameFilter
from ginrummy.store.embedded import free_port
from ginrummy.store.schema import migrate

COMMAND = str(Path(sys.executable).parent / "ginrummy-copy-players")
TIMEOUT = 120
DB = 6  # this module's Redis database: the apps of other tests use 0

DIGESTS = {"ann": "a" * 43, "zoë": "z" * 43, "bob": "b" * 43}
T0 = 1_700_000_000.0


# The old layout, as the release before issue 19 left it: profiles (counters, s:<stat>, r:<family>),
# the token index, recent games newest first (LPUSH), leaderboards and applied markers.
PEOPLE = [  # folded name, name as typed, created (after T0), played, won, lost, drawn
    ("ann", "Ann", 0.123456, 3, 2, 0, 1),
    ("zoë", "Zoë", 50, 2, 0, 2, 0),
    ("bob", "BoB", 60, 1, 0, 1, 0),
    ("expert", "expert", 200, 1, 1, 0, 0),  # a bot's name: made by the service when a game ended, no token
]
STATS = {"ann": {"hands_won": 9, "gins": 2}, "zoë": {"hands_won": 4, "knocks": 5}}
RATINGS = {  # family: (mu, sigma, games)
    "ann": {"standard": (27.5, 7.5, 1), "oklahoma": (24.0, 8.0, 3)},
    "zoë": {"standard": (22.5, 7.5, 1)},
    "bob": {"standard": (30.0, 6.0, 4)},
}


def old_profile(folded: str, name: str, created: float, *counters: int) -> dict[str, Any]:
    fields: dict[str, Any] = {"name": name, "created": repr(T0 + created)}
    fields |= dict(zip(("played", "won", "lost", "drawn"), counters, strict=True))
    if folded in DIGESTS:
        fields["token"] = DIGESTS[folded]
    fields |= {f"s:{stat}": total for stat, total in STATS.get(folded, {}).items()}
    for family, (mu, sigma, games) in RATINGS.get(folded, {}).items():
        fields[f"r:{family}"] = json.dumps({"mu": mu, "sigma": sigma, "games": games})
    return fields


PROFILES = {person[0]: old_profile(*person) for person in PEOPLE}
PROFILES["broken"] = {"played": 1}  # no name: not what the old release wrote


def game(
    game_id: str, family: str, rated: bool, opponent: str | None, result: str, at: float, change: Any
) -> str:
    return json.dumps(
        {
            "game_id": game_id,
            "family": family,
            "rated": rated,
            "reason": "finished",
            "opponent": opponent,
            "result": result,
            "finished_at": at,
            "rating_change": change,
        }
    )


# Oldest first (each LPUSHed, so the list is newest first). gm-rated01 is listed by both of its players;
# gm-expert01 by Zoë only (the bot's list is empty); gm-bob0001 by BoB only (as if it had fallen off Ann's list).
RECENT: dict[str, list[str]] = {
    "ann": [
        game("gm-bob0001", "casual", False, "BoB", "won", T0 + 100, None),
        game("gm-rated01", "standard", True, "Zoë", "won", T0 + 300, 2.5),
        game("gm-anon001", "casual", False, None, "drawn", T0 + 400, None),
    ],
    "zoë": [
        game("gm-expert01", "casual", False, "expert", "lost", T0 + 200, None),
        game("gm-rated01", "standard", True, "Ann", "lost", T0 + 300, -2.5),
    ],
    "bob": [game("gm-bob0001", "casual", False, "Ann", "lost", T0 + 100, None), "not json"],
}


def write_old_layout(client: Any) -> None:
    pipe = client.pipeline(transaction=False)
    for folded, fields in PROFILES.items():
        pipe.hset(f"gin:{{players}}:p:{folded}", mapping=fields)
        if "token" in fields:
            pipe.set(f"gin:{{players}}:t:{fields['token']}", folded)
        for family in (k[2:] for k in fields if k.startswith("r:")):
            rating = json.loads(fields[f"r:{family}"])
            pipe.zadd(f"gin:{{players}}:lb:{family}", {folded: rating["mu"] - 3 * rating["sigma"]})
    for folded, entries in RECENT.items():
        for entry in entries:
            pipe.lpush(f"gin:{{players}}:g:{folded}", entry)
    pipe.set("gin:{players}:a:gm-rated01", "1", ex=3600)
    pipe.execute()


def run(redis_url: str, database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env |= {"REDIS_URL": redis_url, "DATABASE_URL": database_url}
    return subprocess.run([COMMAND, *args], env=env, capture_output=True, text=True, timeout=TIMEOUT)


TABLES = {
    "players": "id",
    "player_stats": "player_id, stat",
    "ratings": "player_id, family",
    "rating_history": "id",
    "games": "id",
    "game_players": "game_id, seat",
    "hands": "game_id, number",
}


def query(url: str, text: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(text).fetchall()


def at(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, dt.UTC)


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the people and archive tables, in key order."""
    with psycopg.connect(url) as conn:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()  # noqa: S608
            for table, order in TABLES.items()
        }


@pytest.fixture
def old_redis(redis_url: str) -> Iterator[str]:
    """``redis://…/6`` holding the old layout (and a key of a game in play beside it)."""
    url = redis_url.rsplit("/", 1)[0] + f"/{DB}"
    client = make_client(url)
    client.flushdb()
    write_old_layout(client)
    client.set("gin:{g-live}:s", "a game in play: not a player")
    yield url
    client.flushdb()
    client.close()


@pytest.fixture
def database(empty_database_url: str) -> str:
    migrate(empty_database_url)
    return empty_database_url


@pytest.fixture
def copied(old_redis: str, database: str) -> subprocess.CompletedProcess[str]:
    result = run(old_redis, database)
    assert result.returncode == 0, result.stderr
    return result


def test_players_counters_statistics_ratings_and_tokens_are_copied(
    copied: subprocess.CompletedProcess[str], database: str
) -> None:
    assert "players: 4 copied, 0 copied before (left as they are), 0 not copied" in copied.stdout
    assert "rows written: 4 statistics, 4 ratings, 4 games, 6 players' games" in copied.stdout
    # The profile without a name and the entry that is not JSON are named, not guessed at.
    assert "gin:{players}:p:broken: ValueError: no name" in copied.stderr
    assert "gin:{players}:g:bob[0]: JSONDecodeError" in copied.stderr

    rows = query(
        database,
        "SELECT name, name_folded, token_digest, created_at, played, won, lost, drawn FROM players"
        " WHERE NOT bot ORDER BY 2",  # (not the house bots the schema seeds)
    )
    assert rows == [
        ("Ann", "ann", DIGESTS["ann"], at(T0 + 0.123456), 3, 2, 0, 1),
        ("BoB", "bob", DIGESTS["bob"], at(T0 + 60), 1, 0, 1, 0),
        ("expert", "expert", None, at(T0 + 200), 1, 1, 0, 0),
        ("Zoë", "zoë", DIGESTS["zoë"], at(T0 + 50), 2, 0, 2, 0),
    ]

    db = Database(database)
    try:
        players = PlayerStore(db)
        assert players.by_token(DIGESTS["zoë"]) == "Zoë"
        assert players.by_token(DIGESTS["bob"]) == "BoB"
        ann = players.get("ANN")
        assert ann is not None
        assert (ann["name"], ann["created"], ann["played"], ann["won"], ann["drawn"]) == (
            "Ann",
            T0 + 0.123456,
            3,
            2,
            1,
        )
        assert ann["stats"] == {"gins": 2, "hands_won": 9}
        assert ann["ratings"] == {
            "oklahoma": {"mu": 24.0, "sigma": 8.0, "games": 3, "rank": 1},
            "standard": {"mu": 27.5, "sigma": 7.5, "games": 1, "rank": 2},
        }
        # The leaderboard ranks by the service's ordinal: BoB 12, Ann 5, Zoë 0.
        board = players.leaderboard("standard")
        assert [(row["rank"], row["name"], row["ordinal"], row["games"]) for row in board] == [
            (1, "BoB", ordinal(30.0, 6.0), 4),
            (2, "Ann", ordinal(27.5, 7.5), 1),
            (3, "Zoë", ordinal(22.5, 7.5), 1),
        ]
        assert players.get("expert") == {
            "name": "expert",
            "bot": False,  # (the old layout's bot player, not the house bot bot-expert the schema seeds)
            "created": T0 + 200,
            "played": 1,
            "won": 1,
            "lost": 0,
            "drawn": 0,
            "stats": {},
            "ratings": {},
            "recent_games": [],  # the bot's list was empty: gm-expert01 is Zoë's row only
        }
    finally:
        db.close()


def test_recent_games_become_archive_rows_one_game_however_many_list_it(
    copied: subprocess.CompletedProcess[str], database: str
) -> None:
    db = Database(database)
    try:
        ann = PlayerStore(db).get("Ann")
        assert ann is not None
        # Newest first, as the old profile showed them (the rating change was not copied: no history).
        assert ann["recent_games"] == [
            {
                "game_id": "gm-anon001",
                "family": "casual",
                "rated": False,
                "reason": "finished",
                "opponent": None,
                "result": "drawn",
                "finished_at": T0 + 400,
                "rating_change": None,
            },
            {
                "game_id": "gm-rated01",
                "family": "standard",
                "rated": True,
                "reason": "finished",
                "opponent": "Zoë",
                "result": "won",
                "finished_at": T0 + 300,
                "rating_change": None,
            },
            {
                "game_id": "gm-bob0001",
                "family": "casual",
                "rated": False,
                "reason": "finished",
                "opponent": "BoB",
                "result": "won",
                "finished_at": T0 + 100,
                "rating_change": None,
            },
        ]
        zoe = PlayerStore(db).get("zoë")
        assert zoe is not None
        assert [(g["game_id"], g["opponent"], g["result"]) for g in zoe["recent_games"]] == [
            ("gm-rated01", "Ann", "lost"),
            ("gm-expert01", "expert", "lost"),
        ]

        games = query(
            database,
            "SELECT g.id, p0.name, p1.name, g.winner, g.family, g.rated, g.state, g.version, g.hands,"
            " g.started_at = g.finished_at FROM games g LEFT JOIN players p0 ON p0.id = g.player0_id"
            " LEFT JOIN players p1 ON p1.id = g.player1_id ORDER BY g.id",
        )
        seats = query(
            database,
            "SELECT gp.game_id, gp.seat, p.name, gp.result, gp.opponent_name, gp.points"
            " FROM game_players gp JOIN players p ON p.id = gp.player_id ORDER BY 1, 2",
        )
        # Seats in the order of the case-folded names; a player against an anonymous seat at 0.
        assert games == [
            ("gm-anon001", "Ann", None, None, None, False, NO_STATE, 1, 0, True),
            ("gm-bob0001", "Ann", "BoB", 0, None, False, NO_STATE, 1, 0, True),
            ("gm-expert01", "expert", "Zoë", 0, None, False, NO_STATE, 1, 0, True),
            ("gm-rated01", "Ann", "Zoë", 0, "standard", True, NO_STATE, 1, 0, True),
        ]
        assert seats == [
            ("gm-anon001", 0, "Ann", "drawn", None, 0),
            ("gm-bob0001", 0, "Ann", "won", "BoB", 0),
            ("gm-bob0001", 1, "BoB", "lost", "Ann", 0),
            ("gm-expert01", 1, "Zoë", "lost", "expert", 0),
            ("gm-rated01", 0, "Ann", "won", "Zoë", 0),
            ("gm-rated01", 1, "Zoë", "lost", "Ann", 0),
        ]

        archive = Archive(db, ordinal=ordinal)
        found = archive.match("gm-rated01")
        assert found is not None and found.state == NO_STATE
        assert found.document == {
            "format": "ginrummy.match",
            "version": 1,
            "game_id": "gm-rated01",
            "imported": "redis-recent-games",
            "family": "standard",
            "rated": True,
            "players": [
                {"seat": 0, "name": "Ann", "player": "Ann"},
                {"seat": 1, "name": "Zoë", "player": "Zoë"},
            ],
            "finished_at": "2023-11-14T22:18:20.000Z",
            "result": {"winner": 0, "end_reason": "finished"},
            "hand_count": 0,
        }
        assert archive.hands("gm-rated01") == []
        bob = archive.player("bob")
        assert bob is not None
        listed = archive.games_of(bob[0], GameFilter(opponent="ann"))
        assert [(row["game_id"], row["seat"], row["result"]) for row in listed] == [("gm-bob0001", 1, "lost")]
    finally:
        db.close()


def test_the_app_exports_a_copied_game_and_has_no_board_to_show(
    copied: subprocess.CompletedProcess[str], database: str, old_redis: str
) -> None:
    app = create_app({"redis_url": old_redis, "database_url": database})
    try:
        client = app.test_client()
        exported = client.get("/v1/games/gm-rated01/export")
        assert exported.status_code == 200
        body = exported.get_json()
        assert (
            body["imported"] == "redis-recent-games"
            and body["hands"] == []
            and body["ratings"] == [None, None]
        )
        assert client.get("/v1/games/gm-rated01").status_code == 404  # no final state to render: not a 500
        listed = client.get("/v1/players/zoë/games").get_json()
        assert [g["game_id"] for g in listed["games"]] == ["gm-rated01", "gm-expert01"]
    finally:
        app.extensions["ginrummy"].database.close()


def test_a_second_run_changes_nothing(
    copied: subprocess.CompletedProcess[str], old_redis: str, database: str
) -> None:
    before = snapshot(database)
    again = run(old_redis, database)
    assert again.returncode == 0, again.stderr
    assert "players: 0 copied, 4 copied before (left as they are), 0 not copied" in again.stdout
    assert "rows written: 0 statistics, 0 ratings, 0 games, 0 players' games" in again.stdout
    assert snapshot(database) == before


def test_a_dry_run_writes_nothing_and_says_what_a_run_would(old_redis: str, database: str) -> None:
    empty = snapshot(database)
    dry = run(old_redis, database, "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "players: 4 to copy, 0 copied before (left as they are), 0 not copied" in dry.stdout
    assert "rows to write: 4 statistics, 4 ratings, 4 games, 6 players' games" in dry.stdout
    assert "dry run: nothing was written" in dry.stdout
    assert snapshot(database) == empty
    locks = "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
    assert query(database, f"{locks} WHERE l.locktype = 'advisory' AND d.datname = current_database()") == [
        (0,)
    ]


def test_a_name_taken_in_postgresql_by_another_player_is_not_copied(old_redis: str, database: str) -> None:
    db = Database(database)
    try:
        PlayerStore(db).create("ANN", "another token's digest")
    finally:
        db.close()
    result = run(old_redis, database)
    assert result.returncode == 0, result.stderr
    assert "players: 3 copied, 0 copied before (left as they are), 1 not copied" in result.stdout
    assert "Ann: PostgreSQL has this name for another player" in result.stderr
    ann = query(database, "SELECT name, token_digest, played FROM players WHERE name_folded = 'ann'")
    assert ann == [("ANN", "another token's digest", 0)]
    # Ann's games are not hers to take; the games her opponents list name her as they did.
    rows = query(
        database,
        "SELECT gp.game_id, p.name, o.name, gp.opponent_name FROM game_players gp JOIN players p ON p.id = gp.player_id"
        " LEFT JOIN players o ON o.id = gp.opponent_id ORDER BY 1, gp.seat",
    )
    assert rows == [
        ("gm-bob0001", "BoB", None, "Ann"),
        ("gm-expert01", "Zoë", "expert", "expert"),
        ("gm-rated01", "Zoë", None, "Ann"),
    ]


def test_a_cluster_deployment_is_copied_the_same(redis_cluster_url: str, database: str) -> None:
    client = make_client(redis_cluster_url)
    assert isinstance(client, redis.RedisCluster)
    write_old_layout(client)
    try:
        result = run(redis_cluster_url, database)
        assert result.returncode == 0, result.stderr
        assert "players: 4 copied" in result.stdout
        assert "rows written: 4 statistics, 4 ratings, 4 games, 6 players' games" in result.stdout
    finally:
        for key in client.scan_iter(match="gin:{players}:*"):
            client.delete(key)
        client.close()


def test_bad_urls_and_an_unmigrated_database_fail_clearly_without_a_password(
    old_redis: str, empty_database_url: str
) -> None:
    unmigrated = run(old_redis, empty_database_url)
    assert unmigrated.returncode == 1
    assert "lacks migrations 001_records, 002_archive" in unmigrated.stderr
    assert "run ginrummy-migrate first" in unmigrated.stderr

    migrate(empty_database_url)
    port = free_port()
    down = run(old_redis, f"postgresql://gin:s3cret@127.0.0.1:{port}/ginrummy")
    assert down.returncode == 1
    assert f"PostgreSQL at postgresql://gin:***@127.0.0.1:{port}/ginrummy" in down.stderr
    assert "run it again" in down.stderr

    seeded = snapshot(empty_database_url)  # (a migrated database holds the house bots the schema seeds)
    no_redis = run(f"redis://:s3cret@127.0.0.1:{port}/0", empty_database_url)
    assert no_redis.returncode == 1
    assert "Redis: ConnectionError" in no_redis.stderr
    assert f"redis://:***@127.0.0.1:{port}/0" in no_redis.stdout
    assert snapshot(empty_database_url) == seeded and not seeded["games"]

    bad_redis = run("mysql://u:s3cret@db/0", empty_database_url)
    assert bad_redis.returncode == 2 and "unsupported Redis URL scheme 'mysql'" in bad_redis.stderr
    bad_database = run(old_redis, "mysql://u:s3cret@db/0")
    assert bad_database.returncode == 2 and "unsupported database URL scheme 'mysql'" in bad_database.stderr

    env = {"PATH": "/usr/bin:/bin"}
    missing = subprocess.run([COMMAND], capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert missing.returncode == 2 and "set REDIS_URL and DATABASE_URL" in missing.stderr
    for result in (unmigrated, down, no_redis, bad_redis, bad_database):
        assert "s3cret" not in result.stdout + result.stderr
