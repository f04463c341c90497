"""Schema migrations against a real PostgreSQL: applied once, in order, under a lock, whole or not at all;
and the schema of 001 holds what issue 19 keeps (players, ratings, history, the archive, hands)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from ginrummy.app.players.ratings import ordinal
from ginrummy.store.schema import LOCK_KEY, Migration, MigrationError, applied, migrate, migrations

VENV_BIN = Path(sys.executable).parent


def rows(url: str, query: str, params: Any = None) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(query, params).fetchall()


def test_the_package_ships_its_numbered_migrations() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert str(found[0]) == "001_records"


def test_migrate_applies_everything_once_and_a_second_run_applies_nothing(empty_database_url: str) -> None:
    assert applied(empty_database_url) == {}
    first = migrate(empty_database_url)
    assert [m.version for m in first] == [m.version for m in migrations()]
    assert migrate(empty_database_url) == []
    assert applied(empty_database_url) == {m.version: m.name for m in migrations()}
    recorded = rows(empty_database_url, "SELECT version, checksum FROM schema_migrations ORDER BY version")
    assert recorded == [(m.version, m.checksum) for m in migrations()]


def test_two_runs_at_once_take_turns_under_the_lock_and_apply_once(empty_database_url: str) -> None:
    results: list[list[Migration]] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(migrate(empty_database_url))
        except BaseException as exc:
            errors.append(exc)

    # Hold the migrations' lock, so that both runs are certainly waiting for it at the same time.
    with psycopg.connect(empty_database_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        runs = [threading.Thread(target=run) for _ in range(2)]
        for thread in runs:
            thread.start()
        waiting_query = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        for _ in range(600):
            (waiting,) = holder.execute(waiting_query).fetchone() or (0,)
            if waiting == 2:
                break
            threading.Event().wait(0.05)
        assert waiting == 2, "both runs should be waiting for the lock"
        holder.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])
    for thread in runs:
        thread.join(60)
    assert not errors
    assert sorted(len(result) for result in results) == [0, len(migrations())]
    assert rows(empty_database_url, "SELECT count(*) FROM schema_migrations") == [(len(migrations()),)]


def test_a_failing_migration_leaves_nothing_and_is_reported(empty_database_url: str, tmp_path: Path) -> None:
    (tmp_path / "001_first.sql").write_text("CREATE TABLE first (n int);")
    (tmp_path / "002_broken.sql").write_text("CREATE TABLE second (n int);\nSELECT no_such_function();")
    with pytest.raises(MigrationError, match="002_broken failed, nothing of it was applied"):
        migrate(empty_database_url, directory=tmp_path)
    # 001 stays applied; nothing of 002 exists (its first statement was rolled back with the second).
    assert applied(empty_database_url) == {1: "first"}
    assert rows(empty_database_url, "SELECT to_regclass('second') IS NULL") == [(True,)]
    # Fixed, it applies — and only it.
    (tmp_path / "002_broken.sql").write_text("CREATE TABLE second (n int);")
    assert [str(m) for m in migrate(empty_database_url, directory=tmp_path)] == ["002_broken"]


def test_an_applied_migration_that_was_edited_is_refused(empty_database_url: str, tmp_path: Path) -> None:
    (tmp_path / "001_first.sql").write_text("CREATE TABLE first (n int);")
    migrate(empty_database_url, directory=tmp_path)
    (tmp_path / "001_first.sql").write_text("CREATE TABLE first (n bigint);")
    (tmp_path / "002_second.sql").write_text("CREATE TABLE second (n int);")
    with pytest.raises(MigrationError, match="001_first was changed after it was applied"):
        migrate(empty_database_url, directory=tmp_path)
    assert applied(empty_database_url) == {1: "first"}


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["1_short.sql"], "not named NNN_name.sql"),
        (["001_Upper.sql"], "not named NNN_name.sql"),
        (["001_a.sql", "001_b.sql"], "two migration files have the number 1"),
    ],
)
def test_badly_named_files_are_refused(tmp_path: Path, files: list[str], message: str) -> None:
    for name in files:
        (tmp_path / name).write_text("SELECT 1;")
    with pytest.raises(MigrationError, match=message):
        migrations(tmp_path)


def test_unreachable_database_is_a_migration_error() -> None:
    with pytest.raises(MigrationError, match="PostgreSQL at postgresql://postgres@127.0.0.1:1/x"):
        migrate("postgresql://postgres@127.0.0.1:1/x")


def test_the_command_migrates_and_says_so(empty_database_url: str) -> None:
    command = [str(VENV_BIN / "ginrummy-migrate"), "--database-url", empty_database_url]
    first = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    assert "applied 001_records" in first.stdout
    again = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "up to date" in again.stdout
    env = {"PATH": "/usr/bin:/bin"}
    missing = subprocess.run(command[:1], capture_output=True, text=True, timeout=60, env=env)
    assert missing.returncode == 2 and "set DATABASE_URL" in missing.stderr
    down = subprocess.run(
        [*command[:2], "postgresql://gin:secret@127.0.0.1:1/x"], capture_output=True, text=True, timeout=60
    )
    assert down.returncode == 1 and "ginrummy-migrate: PostgreSQL at" in down.stderr
    assert "secret" not in down.stderr


# --- the schema of 001 and 002 -----------------------------------------------------------------------------------


def test_the_tables_and_indexes_exist(database_url: str) -> None:
    tables = {
        name for (name,) in rows(database_url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    }
    assert {"players", "player_stats", "ratings", "rating_history", "games", "game_players", "hands",
            "schema_migrations"} <= tables  # fmt: skip
    indexes = dict(
        rows(database_url, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")
    )
    assert "(family, ordinal DESC, player_id DESC)" in indexes["ratings_leaderboard"]
    assert "(player_id, opponent_id, finished_at DESC, game_id DESC)" in indexes["game_players_opponent"]
    assert "(player_id, finished_at DESC, game_id DESC)" in indexes["game_players_newest"]
    assert "(player_id, family, at DESC, id DESC)" in indexes["rating_history_player"]
    assert "(game_id, number)" in indexes["hands_pkey"]
    columns = dict(
        rows(
            database_url,
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'games'",
        )
    )
    assert columns["rules"] == "jsonb" and columns["document"] == "json"  # json: served as written
    assert columns["started_at"] == columns["finished_at"] == "timestamp with time zone"


@pytest.fixture
def conn(database_url: str) -> Any:
    """A connection to the worker's migrated database, in a transaction rolled back after the test."""
    with psycopg.connect(database_url) as connection:
        yield connection
        connection.rollback()


def _player(conn: Any, name: str, token: str | None = None) -> int:
    row = conn.execute(
        "INSERT INTO players (name, name_folded, token_digest) VALUES (%s, %s, %s) RETURNING id",
        [name, name.casefold(), token],
    ).fetchone()
    return int(row[0])


def test_a_name_is_unique_whatever_its_case(conn: Any) -> None:
    _player(conn, "Straße", "t1")
    conn.execute("SAVEPOINT s")
    with pytest.raises(psycopg.errors.UniqueViolation):
        _player(conn, "STRASSE", "t2")  # casefold: ß is ss
    conn.execute("ROLLBACK TO SAVEPOINT s")
    with pytest.raises(psycopg.errors.UniqueViolation):
        _player(conn, "Other", "t1")  # one token, one player


def test_the_leaderboard_is_ordered_by_the_ordinal_from_its_index(conn: Any) -> None:
    ids = [_player(conn, f"lb-{i}") for i in range(3)]
    for player, (mu, sigma) in zip(ids, [(1500.0, 100.0), (1700.0, 300.0), (1450.0, 20.0)], strict=True):
        conn.execute(
            "INSERT INTO ratings (player_id, family, mu, sigma, games, ordinal)"
            " VALUES (%s, 'schema-test', %s, %s, 1, %s)",
            [player, mu, sigma, ordinal(mu, sigma)],
        )
    query = (  # a family of its own: the worker's database holds the other tests' ratings too
        "SELECT player_id, ordinal FROM ratings WHERE family = 'schema-test'"
        " ORDER BY ordinal DESC, player_id DESC LIMIT 50"
    )
    assert conn.execute(query).fetchall() == [(ids[2], 1390.0), (ids[0], 1200.0), (ids[1], 800.0)]
    # Tiny tables: make the planner use an index if it can, and show that the index gives the order.
    conn.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off")
    plan = "\n".join(line for (line,) in conn.execute("EXPLAIN " + query).fetchall())
    assert "ratings_leaderboard" in plan and "Sort" not in plan


def test_a_players_games_come_newest_first_from_one_index(conn: Any) -> None:
    ann, bob = _player(conn, "ann-archive"), _player(conn, "bob-archive")
    for number in range(3):
        game = f"g-{number}"
        conn.execute(
            "INSERT INTO games (id, player0_id, player1_id, rules, family, end_reason, rated, started_at,"
            " finished_at, document, state, version) VALUES (%s, %s, %s, '{}', 'standard', 'finished', true,"
            " now() - interval '1 hour', now() - make_interval(mins => %s), '{}', 'state', 1)",
            [game, ann, bob, 10 - number],
        )
        for seat, (player, opponent) in enumerate([(ann, bob), (bob, ann)]):
            conn.execute(
                "INSERT INTO game_players (game_id, seat, player_id, opponent_id, result, rated, family,"
                " finished_at) SELECT id, %s, %s, %s, %s, rated, family, finished_at FROM games WHERE id = %s",
                [seat, player, opponent, "won" if seat == 0 else "lost", game],
            )
    query = f"SELECT game_id FROM game_players WHERE player_id = {ann} ORDER BY finished_at DESC, game_id DESC LIMIT 50"
    assert [g for (g,) in conn.execute(query).fetchall()] == ["g-2", "g-1", "g-0"]
    conn.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off")
    plan = "\n".join(line for (line,) in conn.execute("EXPLAIN " + query).fetchall())
    assert "game_players_newest" in plan and "Sort" not in plan


def test_a_hand_is_kept_once(conn: Any) -> None:
    insert = "INSERT INTO hands (game_id, number, record) VALUES ('g-hand', 1, %s) ON CONFLICT DO NOTHING"
    conn.execute(insert, ['{"number": 1}'])
    conn.execute(insert, ['{"number": 1, "again": true}'])
    assert conn.execute("SELECT record FROM hands WHERE game_id = 'g-hand'").fetchall() == [({"number": 1},)]
