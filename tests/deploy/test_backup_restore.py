"""The backup and restore of docs/operations.md, run for real: deploy/postgres/backup.sh dumps a database
holding rows in every table of the schema, restore.sh puts the dump into a new database, and
verify_restore.py finds the two the same table by table; a database with tables and a damaged dump are
refused. PostgreSQL's programs are the pgserver wheel's (PG_BIN), the server the suite's."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from ginrummy.store.database import create_database, drop_database
from ginrummy.store.embedded import free_port
from ginrummy.store.embedded_postgres import postgres_binary
from ginrummy.store.schema import migrate

from tests.fixtures.postgres_servers import with_database

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "deploy" / "postgres"
VENV_BIN = Path(sys.executable).parent
PG_BIN = postgres_binary("pg_dump").parent
TIMEOUT = 60

_numbers = itertools.count(1)


@contextmanager
def new_database(postgres_url: str) -> Iterator[str]:
    """A new empty database on the suite's server, dropped afterwards."""
    url = with_database(
        postgres_url, f"gin_test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_br{next(_numbers)}"
    )
    create_database(url, replace=True)
    try:
        yield url
    finally:
        drop_database(url)


def run(command: list[str | Path], database_url: str | None, **env: str) -> subprocess.CompletedProcess[str]:
    """A script run as an operator would: the URL in the environment, PostgreSQL's programs in PG_BIN,
    ginrummy-migrate on PATH."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("PG")}
    environment.pop("DATABASE_URL", None)
    environment |= {"PG_BIN": str(PG_BIN), "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}", **env}
    if database_url is not None:
        environment["DATABASE_URL"] = database_url
    return subprocess.run(
        [str(part) for part in command], env=environment, capture_output=True, text=True, timeout=TIMEOUT
    )


def rows(url: str, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return conn.execute(query).fetchall()


def table_counts(url: str) -> dict[str, int]:
    """Every table of the public schema with its row count."""
    with psycopg.connect(url) as conn:
        names = [
            name for (name,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        ]
        return {name: conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in names}


# A few rows in every table, as the service of migrations 001–002 would leave them (ordinals written by the
# service, final states, `json` documents kept as written): two players and a bot, their statistics and
# ratings, a rated match between the two with its hands, an aborted game against the bot, and a hand of a
# match still in play (hands are archived before their match ends). Timestamps with microseconds and in
# other zones, floats of 17 digits, non-ASCII names, NULLs: what a restore must give back exactly.
FILL = """
CREATE FUNCTION pg_temp.player(folded text) RETURNS bigint LANGUAGE sql AS 'SELECT id FROM players WHERE name_folded = folded';

INSERT INTO players (name, name_folded, token_digest, created_at, played, won, lost, drawn) VALUES
    ('Ann', 'ann', 'sha256:3f7a9c0d5e1b2a4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c', '2025-03-01 09:15:00.123456+00', 2, 1, 0, 0),
    ('Zoë', 'zoë', 'sha256:b21c4e6f8a0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f', '2025-03-02 18:40:07.5+01', 1, 0, 1, 0),
    ('expert', 'expert', NULL, '2025-01-01 00:00:00+00', 1, 0, 0, 0);

INSERT INTO player_stats (player_id, stat, total) VALUES
    (pg_temp.player('ann'), 'hands_won', 3), (pg_temp.player('ann'), 'gins', 1),
    (pg_temp.player('zoë'), 'hands_won', 1), (pg_temp.player('zoë'), 'knocks', 2),
    (pg_temp.player('expert'), 'hands_won', 0);

INSERT INTO ratings (player_id, family, mu, sigma, games, ordinal, updated_at) VALUES
    (pg_temp.player('ann'), 'standard', 27.635389418287473, 7.771232711470217, 1, 4.321691283876824, '2025-03-03 20:01:02+00'),
    (pg_temp.player('zoë'), 'standard', 22.364610581712527, 7.771232711470217, 1, -0.9490875526981242, '2025-03-03 20:01:02+00'),
    (pg_temp.player('ann'), 'oklahoma', 25.0, 8.333333333333334, 0, 0.0, '2025-03-04 08:00:00+00');

INSERT INTO rating_history (game_id, player_id, family, mu_before, sigma_before, ordinal_before, mu_after, sigma_after, ordinal_after, at) VALUES
    ('g-7Kq2mP', pg_temp.player('ann'), 'standard', NULL, NULL, NULL, 27.635389418287473, 7.771232711470217, 4.321691283876824, '2025-03-03 20:01:02+00'),
    ('g-7Kq2mP', pg_temp.player('zoë'), 'standard', NULL, NULL, NULL, 22.364610581712527, 7.771232711470217, -0.9490875526981242, '2025-03-03 20:01:02+00');

INSERT INTO games (id, player0_id, player1_id, rules, family, clock, winner, end_reason, rated, started_at, finished_at, document, state, version, hands) VALUES
    ('g-7Kq2mP', pg_temp.player('ann'), pg_temp.player('zoë'),
     '{"preset": "standard", "knock_limit": 10, "target": 100, "gin_bonus": 25, "undercut_bonus": 25}', 'standard',
     '{"initial": 600, "increment": 5}', 0, 'finished', true, '2025-03-03 19:30:00+00', '2025-03-03 20:01:02.000001+00',
     '{"format": "ginrummy.match", "version": 1, "game_id": "g-7Kq2mP", "players": [{"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Zoë"}],
       "result": {"winner": 0, "end_reason": "finished"}, "hand_count": 2}',
     E'{"s":[{"n":"Ann","p":"Ann"},{"n":"Zoë","p":"Zoë"}]}\n{"v":1,"hands":2,"scores":[131,12]}', 57, 2),
    ('g-Xr81dA', NULL, pg_temp.player('expert'), '{"preset": "oklahoma"}', 'oklahoma', NULL, NULL, 'aborted', false,
     '2025-03-04 07:00:00+00', '2025-03-04 07:02:13+00', '{"format":"ginrummy.match","version":1,"game_id":"g-Xr81dA","hand_count":0}',
     E'{"s":[{"n":"guest"},{"n":"expert","p":"expert"}]}\n{"v":1,"hands":0}', 3, 0);

INSERT INTO game_players (game_id, seat, player_id, opponent_id, result, rated, family, finished_at, points, opponent_points, opponent_name, end_reason) VALUES
    ('g-7Kq2mP', 0, pg_temp.player('ann'), pg_temp.player('zoë'), 'won', true, 'standard', '2025-03-03 20:01:02.000001+00', 131, 12, 'Zoë', 'finished'),
    ('g-7Kq2mP', 1, pg_temp.player('zoë'), pg_temp.player('ann'), 'lost', true, 'standard', '2025-03-03 20:01:02.000001+00', 12, 131, 'Ann', 'finished'),
    ('g-Xr81dA', 1, pg_temp.player('expert'), NULL, 'aborted', false, 'oklahoma', '2025-03-04 07:02:13+00', 0, 0, 'guest', 'aborted');

INSERT INTO hands (game_id, number, record, finished_at) VALUES
    ('g-7Kq2mP', 1, '{"deal": ["7H", "8H", "9H", "KD"], "salt": "9f1c2e", "actions": [["draw", "stock"], ["discard", "KD"]], "scoring": {"gin": 0, "points": 31}}', '2025-03-03 19:45:00+00'),
    ('g-7Kq2mP', 2, '{"deal": ["2C", "3C", "4C", "QS"], "salt": "07aa41", "actions": [["pass"], ["knock", "QS"]], "scoring": {"knocker": 1, "points": 12}}', '2025-03-03 20:01:02+00'),
    ('g-InPlay', 1, '{"deal": ["AS", "2S", "3S", "JH"], "salt": "c0ffee", "actions": [], "scoring": {"knocker": 0, "points": 4}}', '2025-03-04 09:00:00+00');

INSERT INTO sessions (player_id, token_digest, created_at, last_used, expires_at, user_agent, address) VALUES
    (pg_temp.player('ann'), 'd1e5a0c0ffee', '2025-03-03 19:00:00+00', '2025-03-03 20:00:00+00', '2025-04-02 20:00:00+00', 'gin/0.1', '198.51.100.x');

INSERT INTO api_tokens (player_id, token_digest, description, scopes, created_at, last_used) VALUES
    (pg_temp.player('zoë'), 'a91b2c3d4e5f', 'my bot', ARRAY['bot', 'read'], '2025-03-01 08:00:00+00', NULL);

INSERT INTO reviews (game_id, status, review, requested_at, finished_at, cpu_seconds) VALUES
    ('g-7Kq2mP', 'done', '{"seats": [{"seat": 0, "accuracy": 97.5}, {"seat": 1, "accuracy": 88.0}], "moves": []}',
     '2025-03-03 20:05:00+00', '2025-03-03 20:05:21+00', 20.9);

INSERT INTO follows (follower_id, followed_id, created_at) VALUES
    (pg_temp.player('ann'), pg_temp.player('zoë'), '2025-03-03 21:00:00+00');

INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES
    (pg_temp.player('zoë'), pg_temp.player('expert'), '2025-03-03 21:05:00+00');

INSERT INTO chat_lines (game_id, n, room, author_id, author_name, seat, bot, preset, body, said_at) VALUES
    ('g-7Kq2mP', 1, 'player', pg_temp.player('ann'), 'Ann', 0, false, 'good_luck', 'Good luck!',
     '2025-03-03 19:00:02.5+00'),
    ('g-7Kq2mP', 2, 'spectator', NULL, 'Guest', NULL, false, NULL, E'gg \u263a',
     '2025-03-03 19:10:00+00');

INSERT INTO chat_mutes (game_id, seat, muted_at) VALUES ('g-7Kq2mP', 1, '2025-03-03 19:11:00+00');

INSERT INTO tournaments (id, format, name, organiser, organiser_id, settings, status, starts_at, started_at,
                         finished_at, round, standings) VALUES
    ('t-Rr4', 'round_robin', 'Spring round robin', 'Ann', pg_temp.player('ann'),
     '{"rules": {"preset": "standard"}, "clock": null, "rated": true, "bots": false, "duplicate": false}',
     'finished', '2025-03-03 19:00:00+00', '2025-03-03 19:00:01+00', '2025-03-03 20:01:03+00', 1,
     '[{"rank": 1, "player": "Ann", "points": 1.0}, {"rank": 2, "player": "Zoë", "points": 0.0}]');

INSERT INTO tournament_entries (tournament_id, player, player_folded, rating, joined_at) VALUES
    ('t-Rr4', 'Ann', 'ann', 1500.0, '2025-03-03 18:00:00+00'),
    ('t-Rr4', 'Zoë', 'zoë', 1480.5, '2025-03-03 18:30:00+00');

INSERT INTO tournament_pairings (tournament_id, number, round, seat0, seat1, game_id, status, outcome, end_reason,
                                 finished_seq, created_at, finished_at) VALUES
    ('t-Rr4', 1, 1, 'Ann', 'Zoë', 'g-7Kq2mP', 'finished', 'seat0', 'finished', 1,
     '2025-03-03 19:00:01+00', '2025-03-03 20:01:03+00');

UPDATE players SET moderator = true WHERE name_folded = 'ann';
UPDATE players SET chat_muted_until = '2025-03-05 12:00:00.25+00', closed_at = '2025-03-06 09:00:00+01'
    WHERE name_folded = 'zoë';

INSERT INTO reports (reporter_id, reported_id, reason, text, game_id, line, line_author, line_body, line_said_at,
                     created_at, closed_at, closed_by) VALUES
    (pg_temp.player('ann'), pg_temp.player('zoë'), 'abuse', E'rude\nagain', 'g-7Kq2mP', 3, 'Zoë', 'gg ez ☺',
     '2025-03-03 19:50:00.5+00', '2025-03-03 20:10:00+00', '2025-03-05 11:00:00+00', pg_temp.player('ann')),
    (pg_temp.player('zoë'), pg_temp.player('expert'), 'other', '', NULL, NULL, NULL, NULL, NULL,
     '2025-03-04 08:00:00+00', NULL, NULL);

INSERT INTO moderation_log (moderator_id, action, player_id, report_id, detail, at) VALUES
    (NULL, 'grant_moderator', pg_temp.player('ann'), NULL, '', '2025-03-01 00:00:00+00'),
    (pg_temp.player('ann'), 'close_report', pg_temp.player('zoë'), (SELECT min(id) FROM reports), 'warned',
     '2025-03-05 11:00:00+00'),
    (pg_temp.player('ann'), 'chat_mute', pg_temp.player('zoë'), NULL, '60 min: insults', '2025-03-05 11:00:00.25+00');
"""


def fill(url: str) -> None:
    with psycopg.connect(url) as conn:
        conn.execute(FILL)


@dataclass(frozen=True)
class Backup:
    source_url: str  # the database dumped, holding rows in every table
    dump: Path  # its dump by backup.sh, the .sha256 beside it


@pytest.fixture(scope="module")
def backup(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backup]:
    """A migrated database with rows in every table, and its dump by backup.sh."""
    with new_database(postgres_url) as source_url:
        migrate(source_url)
        fill(source_url)
        counts = table_counts(source_url)
        assert all(counts.values()), f"fill() must put rows in every table of the schema: {counts}"
        # With a password in the URL (the suite's server trusts every local connection, so any will do):
        # the scripts take it out of the URL into PGPASSWORD.
        with_password = source_url.replace("postgresql://postgres@", "postgresql://postgres:not%40used@")
        assert with_password != source_url
        result = run([SCRIPTS / "backup.sh", tmp_path_factory.mktemp("backups")], with_password)
        assert result.returncode == 0, result.stderr
        path, size, _, checksum = result.stdout.split()
        dump = Path(path)
        assert int(size) == dump.stat().st_size > 0
        assert dump.name.startswith("ginrummy-") and dump.suffix == ".dump"
        assert Path(f"{dump}.sha256").read_text() == f"{checksum.removeprefix('sha256:')}  {dump.name}\n"
        assert sorted(p.name for p in dump.parent.iterdir()) == [dump.name, f"{dump.name}.sha256"]
        assert dump.stat().st_mode & 0o077 == 0, "a dump is readable by its owner only"
        yield Backup(source_url, dump)


def verify(source_url: str, restored_url: str) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, SCRIPTS / "verify_restore.py"], restored_url, SOURCE_DATABASE_URL=source_url)


def test_a_dump_restored_into_a_new_database_is_the_same_table_by_table(
    backup: Backup, postgres_url: str
) -> None:
    with new_database(postgres_url) as restored_url:
        result = run([SCRIPTS / "restore.sh", backup.dump], restored_url)
        assert result.returncode == 0, result.stderr
        assert "up to date" in result.stdout  # ginrummy-migrate: a dump of this release needs nothing
        printed = {
            line.split()[0]: int(line.split()[1])
            for line in result.stdout.splitlines()
            if line.endswith(" rows")
        }
        assert printed == {f"public.{name}": count for name, count in table_counts(backup.source_url).items()}

        verified = verify(backup.source_url, restored_url)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert "verify_restore: the same" in verified.stdout

        # The comparison looks at what the rows hold, not only at how many there are.
        with psycopg.connect(restored_url) as conn:
            conn.execute(
                "UPDATE hands SET finished_at = finished_at + interval '1 microsecond' WHERE game_id = 'g-InPlay'"
            )
        verified = verify(backup.source_url, restored_url)
        assert verified.returncode == 1
        assert "table public.hands: the same 3 rows in number, not in content" in verified.stderr


def test_restore_refuses_a_database_that_has_tables_unless_forced(backup: Backup, postgres_url: str) -> None:
    with new_database(postgres_url) as target_url:
        migrate(target_url)
        with psycopg.connect(target_url) as conn:
            conn.execute("INSERT INTO players (name, name_folded) VALUES ('Bea', 'bea')")
        result = run([SCRIPTS / "restore.sh", backup.dump], target_url)
        assert result.returncode == 1
        assert (
            f"the database already has {len(table_counts(target_url))} tables" in result.stderr
            and "--force" in result.stderr
        )
        assert rows(target_url, "SELECT name FROM players WHERE NOT bot") == [("Bea",)]

        forced = run([SCRIPTS / "restore.sh", "--force", backup.dump], target_url)
        assert forced.returncode == 0, forced.stderr
        verified = verify(backup.source_url, target_url)
        assert verified.returncode == 0, verified.stdout + verified.stderr


def test_restore_refuses_a_damaged_dump_and_one_without_its_checksum(
    backup: Backup, postgres_url: str, tmp_path: Path
) -> None:
    damaged = tmp_path / backup.dump.name
    shutil.copy(backup.dump, damaged)
    shutil.copy(f"{backup.dump}.sha256", f"{damaged}.sha256")
    content = bytearray(damaged.read_bytes())
    content[len(content) // 2] ^= 0xFF
    damaged.write_bytes(bytes(content))
    with new_database(postgres_url) as target_url:
        result = run([SCRIPTS / "restore.sh", damaged], target_url)
        assert result.returncode == 1
        assert "checksum mismatch" in result.stderr and "refusing to restore" in result.stderr

        Path(f"{damaged}.sha256").unlink()
        result = run([SCRIPTS / "restore.sh", damaged], target_url)
        assert result.returncode == 1
        assert "no checksum at" in result.stderr

        assert rows(target_url, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == [(0,)]


def test_backup_fails_clearly_and_leaves_nothing_when_it_cannot_dump(tmp_path: Path) -> None:
    result = run([SCRIPTS / "backup.sh", tmp_path], None)
    assert result.returncode == 1
    assert "backup.sh: set DATABASE_URL" in result.stderr

    result = run([SCRIPTS / "backup.sh", tmp_path], f"postgresql://postgres@127.0.0.1:{free_port()}/ginrummy")
    assert result.returncode == 1
    assert "backup.sh: pg_dump failed" in result.stderr
    assert list(tmp_path.iterdir()) == []

    result = run(
        [SCRIPTS / "backup.sh", tmp_path], "postgresql://postgres@127.0.0.1/ginrummy", PG_BIN=str(tmp_path)
    )
    assert result.returncode == 1
    assert f"pg_dump not found in PG_BIN={tmp_path}" in result.stderr

    assert run([SCRIPTS / "backup.sh"], None).returncode == 2
    assert run([SCRIPTS / "restore.sh", "--no-such-option", "x.dump"], None).returncode == 2


def test_the_password_goes_to_the_environment_not_to_the_programs_arguments() -> None:
    show = '. deploy/postgres/common.sh && connect_from_environment && printf "%s\\n%s\\n" "$CONNECTION" "$PGPASSWORD"'
    url = "postgresql://gin:s3cr%40t%5C%25x@db:5432/ginrummy?sslmode=require"
    result = subprocess.run(
        ["bash", "-c", show],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert result.stdout.splitlines() == ["postgresql://gin@db:5432/ginrummy?sslmode=require", "s3cr@t\\%x"]


@pytest.mark.parametrize("script", ["backup.sh", "restore.sh", "common.sh"])
def test_the_scripts_pass_shellcheck(script: str) -> None:
    assert subprocess.run(["bash", "-n", SCRIPTS / script], timeout=TIMEOUT).returncode == 0
    command = [str(VENV_BIN / "shellcheck"), "--external-sources", str(SCRIPTS / script)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_verify_restore_needs_both_urls() -> None:
    result = run([sys.executable, SCRIPTS / "verify_restore.py"], None)
    assert result.returncode == 2
    assert "set SOURCE_DATABASE_URL" in result.stderr
