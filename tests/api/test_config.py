"""Settings come from the environment into typed values; create_app's dict overrides them."""

from __future__ import annotations

import pytest
from ginrummy.app.config import Config, ConfigError


def test_defaults() -> None:
    config = Config.load(environ={})
    assert config.redis_url == "" and config.allow_seed is False and config.live_ttl == 7 * 24 * 3600


def test_environment_values_are_typed() -> None:
    config = Config.load(
        environ={
            "REDIS_URL": "redis://h:1/0",
            "GIN_LIVE_TTL": "60",
            "GIN_ALLOW_SEED": "yes",
            "GIN_EVENTS_MAXLEN": "9",
        }
    )
    assert (config.redis_url, config.live_ttl, config.allow_seed, config.events_maxlen) == (
        "redis://h:1/0",
        60,
        True,
        9,
    )


def test_the_database_url_has_its_usual_name_and_is_empty_by_default() -> None:
    assert Config.env_name("database_url") == "DATABASE_URL"
    assert Config.load(environ={}).database_url == ""
    url = "postgresql://gin@db:5432/ginrummy"
    assert Config.load(environ={"DATABASE_URL": url}).database_url == url
    assert Config.load(environ={"GIN_DATABASE_URL": url}).database_url == ""


def test_overrides_win_over_the_environment() -> None:
    config = Config.load(
        {"live_ttl": 5, "GIN_ALLOW_SEED": False}, environ={"GIN_LIVE_TTL": "60", "GIN_ALLOW_SEED": "1"}
    )
    assert config.live_ttl == 5 and config.allow_seed is False


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("GIN_LIVE_TTL", "soon", "GIN_LIVE_TTL must be an integer"),
        ("GIN_ALLOW_SEED", "maybe", "boolean"),
        ("GIN_MAX_WAIT", "-1", ">= 0"),
        ("GIN_EVENTS_MAXLEN", "0", ">= 1"),
    ],
)
def test_bad_values_are_named(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.load(environ={name: value})
