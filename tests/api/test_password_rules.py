"""Passwords from outside: an unknown name costs the same hashing as a wrong password (no probing names by
timing), wrong current passwords at a password change meet the sign-in limits, sign-ups have their own
small budget per address, and common or guessable passwords are refused (NIST SP 800-63B)."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from ginrummy.app import connect
from ginrummy.app.calls import Caller
from ginrummy.app.config import Config
from ginrummy.app.errors import ServiceError
from ginrummy.http import create_app

PASSWORD = "correct horse battery"
_addresses = (f"198.18.0.{n}" for n in itertools.count(1))  # one fresh client address per use


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def test_an_unknown_name_costs_one_hash_as_a_wrong_password_does(redis_url: str, database_url: str) -> None:
    hashed: list[str] = []

    def counting(work: Callable[[], Any]) -> Any:  # the offload every argon2 hash and check runs through
        hashed.append("hash")
        return work()

    config = Config.load({"redis_url": redis_url, "database_url": database_url})
    accounts = connect(config, counting).accounts
    name = unique("tim")
    accounts.sign_up(name, PASSWORD, Caller(client=next(_addresses)))
    for who in (name, unique("nobody")):
        hashed.clear()
        with pytest.raises(ServiceError) as refused:
            accounts.sign_in(who, "a wrong password", Caller(client=next(_addresses)))
        assert refused.value.code == "bad_credentials"
        assert hashed == ["hash"], who


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password12", "common"),
        ("Password12", "common"),
        ("qwertyuiop", "common"),
        ("aaaaaaaaaa", "repeats"),
        ("abababababab", "repeats"),
        (" " * 10, "spaces"),
        ("abcdefghij", "run"),
        ("9876543210", "run"),
        ("NAME", "your name"),
    ],
)
def test_common_and_guessable_passwords_are_refused(client: FlaskClient, password: str, why: str) -> None:
    name = unique("pw") + "xyzw"
    password = password.replace("NAME", name.upper())
    refused = client.post("/v1/account", json={"name": name, "password": password})
    assert refused.status_code == 422 and refused.get_json()["code"] == "weak_password"
    assert why in refused.get_json()["detail"]
    assert client.post("/v1/account/sessions", json={"name": name, "password": password}).status_code == 401


def test_a_new_password_follows_the_same_rules(client: FlaskClient) -> None:
    session = client.post("/v1/account", json={"name": unique("pw"), "password": PASSWORD}).get_json()[
        "token"
    ]
    changed = client.post(
        "/v1/account/password",
        json={"current": PASSWORD, "new": "password123"},
        headers={"Authorization": f"Bearer {session}"},
    )
    assert changed.status_code == 422 and changed.get_json()["code"] == "weak_password"


def test_wrong_current_passwords_meet_the_sign_in_limit(redis_url: str) -> None:
    app = create_app({"redis_url": redis_url, "signin_account_failures": 3})
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = next(_addresses)
    name = unique("chg")
    session = client.post("/v1/account", json={"name": name, "password": PASSWORD}).get_json()["token"]
    auth = {"Authorization": f"Bearer {session}"}

    def change(current: str) -> Any:
        return client.post(
            "/v1/account/password", json={"current": current, "new": "a new long one 5"}, headers=auth
        )

    assert [change(f"guess number {n}").status_code for n in range(3)] == [401, 401, 401]
    limited = change(PASSWORD)  # even the right one: the name is locked for the window
    assert limited.status_code == 429 and limited.get_json()["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    # ... and so is signing in by the name: a password change is no way around the sign-in limit
    assert client.post("/v1/account/sessions", json={"name": name, "password": PASSWORD}).status_code == 429


def test_sign_ups_have_a_small_budget_per_address(redis_url: str) -> None:
    app = create_app({"redis_url": redis_url, "rate_limits": True, "limit_signup": "3/hour"})
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = next(_addresses)

    def sign_up(**headers: str) -> int:
        body = {"name": unique("su"), "password": PASSWORD}
        return client.post("/v1/account", json=body, headers=headers).status_code

    assert [sign_up(), sign_up(), client.post("/v1/players", json={"name": unique("pl")}).status_code] == [
        201,
        201,
        201,
    ]
    assert sign_up() == 429
    assert sign_up(Authorization="Bearer made-up-to-look-like-another-caller") == 429
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = next(_addresses)
    assert other.post("/v1/account", json={"name": unique("su"), "password": PASSWORD}).status_code == 201
    # other requests of the limited address are not held by it
    assert client.get("/v1/rules").status_code == 200
