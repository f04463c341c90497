"""Behind a proxy: the per-address budgets count the client that ``X-Forwarded-For`` names when (and only
when) the connecting peer is a proxy ``GIN_FORWARDED_ALLOW_IPS`` trusts — against a real gunicorn, as an
ingress would reach it. Before, every client behind an ingress was the ingress: 30 wrong sign-ins locked
sign-in for everyone, and the creation budget was site-wide."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from ginrummy.store.embedded import EmbeddedRedis

from tests.support import start_gunicorn, stop_gunicorn

BOT_GAME = {"opponent": {"type": "bot", "bot": "random"}}


def _serve(tmp_path: Path, trusted: str) -> Iterator[str]:
    with EmbeddedRedis(tmp_path / "redis") as redis_server:
        env = {
            **os.environ,
            "REDIS_URL": redis_server.url,
            "GIN_WORKERS": "1",
            "GIN_GRACEFUL_TIMEOUT": "1",
            "GIN_RATE_LIMITS": "1",
            "GIN_LIMIT_CREATE": "3/minute",
            "GIN_SIGNIN_ADDRESS_FAILURES": "3",
            "GIN_SIGNIN_ACCOUNT_FAILURES": "1000",
            "GIN_FORWARDED_ALLOW_IPS": trusted,
        }
        process, port = start_gunicorn(env, tmp_path)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_gunicorn(process)


@pytest.fixture
def behind_ingress(tmp_path: Path) -> Iterator[str]:
    """The Kubernetes value: whichever peer connects is the ingress."""
    yield from _serve(tmp_path, "*")


@pytest.fixture
def behind_other_proxies(tmp_path: Path) -> Iterator[str]:
    """Only 10.0.0.0/8 is trusted: this test's own connections (127.0.0.1) are not a proxy's."""
    yield from _serve(tmp_path, "10.0.0.0/8")


def _address() -> str:
    return f"203.0.113.{secrets.randbelow(250) + 1}"


def _create(base: str, forwarded_for: str) -> int:
    response = requests.post(
        f"{base}/v1/games", json=BOT_GAME, headers={"X-Forwarded-For": forwarded_for}, timeout=30
    )
    return response.status_code


def test_each_client_behind_the_ingress_has_its_own_creation_budget(behind_ingress: str) -> None:
    ann, bob = "198.51.100.7", "198.51.100.8"
    assert [_create(behind_ingress, ann) for _ in range(3)] == [201, 201, 201]
    assert _create(behind_ingress, ann) == 429
    # Whatever a client writes into the header itself stands left of what the ingress appended.
    assert _create(behind_ingress, f"{bob}, {ann}") == 429
    assert _create(behind_ingress, bob) == 201


def test_wrong_sign_ins_behind_the_ingress_lock_only_their_address(behind_ingress: str) -> None:
    name, password = f"fwd{secrets.token_hex(4)}", "a long enough password 7"
    created = requests.post(
        f"{behind_ingress}/v1/account", json={"name": name, "password": password}, timeout=30
    )
    assert created.status_code == 201, created.text

    def sign_in(address: str, attempt: str) -> int:
        response = requests.post(
            f"{behind_ingress}/v1/account/sessions",
            json={"name": name, "password": attempt},
            headers={"X-Forwarded-For": address},
            timeout=30,
        )
        return response.status_code

    guesser, owner = _address(), "198.51.100.9"
    assert [sign_in(guesser, "not the password") for _ in range(3)] == [401, 401, 401]
    assert sign_in(guesser, "not the password") == 429
    assert sign_in(owner, password) == 201  # the owner, elsewhere, is not locked out


def test_a_peer_that_is_no_trusted_proxy_cannot_choose_its_address(behind_other_proxies: str) -> None:
    statuses = [_create(behind_other_proxies, _address()) for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
