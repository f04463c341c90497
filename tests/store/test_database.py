"""The PostgreSQL pool against the suite's real server: it connects, pings, and says so when nothing answers."""

from __future__ import annotations

import psycopg
import pytest
from ginrummy.store.database import (
    APPLICATION_NAME,
    STATEMENT_TIMEOUT_MS,
    Database,
    DatabaseUrlError,
    check_url,
    create_database,
    drop_database,
)
from ginrummy.store.embedded import free_port

from tests.fixtures.postgres_servers import with_database


def test_the_pool_connects_with_its_settings_and_pings(database_url: str) -> None:
    database = Database(database_url)
    try:
        assert database.ping()
        with database.connection() as conn:
            name, timeout = conn.execute(
                "SELECT current_setting('application_name'), current_setting('statement_timeout')"
            ).fetchone() or (None, None)
        assert name == APPLICATION_NAME
        assert timeout == f"{STATEMENT_TIMEOUT_MS // 1000}s"
        # A transaction per block: what a failed block wrote is rolled back.
        with pytest.raises(ZeroDivisionError), database.connection() as conn:
            conn.execute("CREATE TEMPORARY TABLE scratch (n int)")
            raise ZeroDivisionError
        with database.connection() as conn:
            assert conn.execute("SELECT to_regclass('pg_temp.scratch')").fetchone() == (None,)
    finally:
        database.close()


def test_the_urls_own_parameters_win(database_url: str) -> None:
    database = Database(f"{database_url}?application_name=mine")
    try:
        with database.connection() as conn:
            assert conn.execute("SELECT current_setting('application_name')").fetchone() == ("mine",)
    finally:
        database.close()


def test_ping_says_false_without_hanging_when_nothing_listens() -> None:
    database = Database(f"postgresql://postgres@127.0.0.1:{free_port()}/ginrummy")
    try:
        assert database.ping() is False
    finally:
        database.close()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "empty database URL"),
        ("redis://127.0.0.1:6379/0", "unsupported database URL scheme 'redis'"),
        ("mysql://u:secret@h/db", "unsupported database URL scheme 'mysql'"),
        ("postgresql://u:secret@h/db?no_such_option=1", "bad database URL"),
    ],
)
def test_a_bad_url_is_refused_and_the_password_never_shown(url: str, message: str) -> None:
    with pytest.raises(DatabaseUrlError, match=message) as caught:
        check_url(url)
    assert "secret" not in str(caught.value)


def test_databases_are_created_and_dropped(postgres_url: str) -> None:
    url = with_database(postgres_url, "gin_test_create_drop")
    create_database(url, replace=True)
    create_database(url, exist_ok=True)  # a second time: nothing happens
    with pytest.raises(psycopg.errors.DuplicateDatabase):
        create_database(url)
    psycopg.connect(url).close()
    drop_database(url)
    drop_database(url)  # gone already: nothing happens
    with pytest.raises(psycopg.OperationalError, match="does not exist"):
        psycopg.connect(url).close()
