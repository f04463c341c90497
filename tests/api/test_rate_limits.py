"""Rate limits (the limits library, counted in the real Redis): budgets per seat token and per address, 429
problem+json with Retry-After and the RateLimit headers, exemptions, and failing open without Redis."""

from __future__ import annotations

import itertools
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.http import create_app, limits

from tests.support import choose

_addresses = (f"203.0.113.{n}" for n in itertools.count(1))  # TEST-NET-3: one fresh client per test


def limited_app(redis_url: str, **budgets: Any) -> Flask:
    return create_app({"redis_url": redis_url, "rate_limits": True, **budgets})


@pytest.fixture
def address() -> str:
    return next(_addresses)


def client_at(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_creating_games_beyond_the_budget_is_refused_with_429(redis_url: str, address: str) -> None:
    client = client_at(limited_app(redis_url, limit_create="3/minute"), address)
    assert [client.post("/v1/games", json={}).status_code for _ in range(3)] == [201] * 3
    refused = client.post("/v1/games", json={})
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    body = refused.get_json()
    assert body["code"] == "rate_limited" and body["status"] == 429 and "3 per 1 minute" in body["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 61  # seconds, rounded up
    assert refused.headers["RateLimit-Limit"] == "3" and refused.headers["RateLimit-Remaining"] == "0"
    assert refused.headers["RateLimit-Reset"] == refused.headers["Retry-After"]
    # Another client is not affected.
    assert client_at(client.application, next(_addresses)).post("/v1/games", json={}).status_code == 201
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'gin_rate_limited_total{budget="create"}' in metrics


def test_a_flooding_seat_is_stopped_while_another_seat_plays_on(redis_url: str, address: str) -> None:
    """Both seats play from the same address: the budget of moves is per seat token."""
    client = client_at(limited_app(redis_url, limit_move="4/minute"), address)
    seats = []
    for _ in range(2):
        created = client.post("/v1/games", json={"opponent": {"type": "bot"}}).get_json()
        seats.append((created["game_id"], {"Authorization": f"Bearer {created['token']}"}))

    def move(game_id: str, auth: dict[str, str]) -> int:
        view = client.get(f"/v1/games/{game_id}", headers=auth).get_json()
        headers = {**auth, "If-Match": f'"{view["version"]}"'}
        return client.post(f"/v1/games/{game_id}/actions", json=choose(view), headers=headers).status_code

    flooder, player = seats
    assert [move(*flooder) for _ in range(4)] == [200] * 4
    assert move(*flooder) == 429
    assert [move(*player) for _ in range(4)] == [200] * 4


def test_health_metrics_and_the_documents_are_exempt(redis_url: str, address: str) -> None:
    client = client_at(limited_app(redis_url, limit_read="2/minute"), address)
    for _ in range(4):
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 200
        assert client.get("/metrics").status_code == 200
        assert client.get("/openapi.json").status_code == 200
    assert [client.get("/v1/rules").status_code for _ in range(3)] == [200, 200, 429]


def test_without_redis_the_limits_let_requests_through() -> None:
    """The limits fail open: what needs no Redis still answers, what needs it answers 503, never 500."""
    app = create_app({"redis_url": "redis://127.0.0.1:1/0", "rate_limits": True})
    client = client_at(app, next(_addresses))
    assert client.get("/v1/rules").status_code == 200
    assert client.post("/v1/games", json={}).status_code == 503


@pytest.mark.parametrize("topology", ["sentinel", "cluster"])
def test_the_limits_count_on_sentinel_and_cluster_too(topology: str, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("redis_sentinel_url" if topology == "sentinel" else "redis_cluster_url")
    client = client_at(limited_app(url, limit_create="2/minute"), next(_addresses))
    assert [client.post("/v1/games", json={}).status_code for _ in range(3)] == [201, 201, 429]


def test_games_in_play_are_bounded_per_client_and_overall(redis_url: str) -> None:
    app = create_app({"redis_url": redis_url, "max_live_games_per_client": 2, "max_live_games": 1_000_000})
    client = client_at(app, next(_addresses))
    first = client.post("/v1/games", json={"rules": {"options": {"target": 10}}}).get_json()
    assert client.post("/v1/games", json={}).status_code == 201
    refused = client.post("/v1/games", json={})
    problem = refused.get_json()
    assert refused.status_code == 429 and problem["code"] == "too_many_games"
    assert client_at(app, next(_addresses)).post("/v1/games", json={}).status_code == 201  # others may
    # Finishing a match frees its place.
    auth = {"Authorization": f"Bearer {first['token']}"}
    url = f"/v1/games/{first['game_id']}"
    for _ in range(2000):
        view = client.get(url, headers=auth).get_json()
        if view["scores"]["match_over"]:
            break
        client.post(f"{url}/actions", json=choose(view), headers={**auth, "If-Match": f'"{view["version"]}"'})
    assert view["scores"]["match_over"]
    assert client.post("/v1/games", json={}).status_code == 201

    full = client_at(create_app({"redis_url": redis_url, "max_live_games": 1}), next(_addresses))
    refused = full.post("/v1/games", json={})
    assert refused.status_code == 503 and refused.get_json()["code"] == "service_full"
    assert refused.headers["Retry-After"] == "60"


def test_an_account_credentials_budget_grows_with_its_games_in_play(redis_url: str, address: str) -> None:
    """A bot account plays many games with one API token: its move and wait budgets count per game (its
    account stream keeps its own), and all its games together meet a ceiling."""
    app = limited_app(redis_url, limit_move="4/minute", limit_wait="3/minute")
    client = client_at(app, address)
    name = f"rl{uuid.uuid4().hex[:8]}"
    session = client.post("/v1/account", json={"name": name, "password": "correct horse battery"}).get_json()
    auth = {"Authorization": f"Bearer {session['token']}"}
    token = client.post("/v1/account/tokens", json={"description": "bot", "scopes": ["play"]}, headers=auth)
    api = {"Authorization": f"Bearer {token.get_json()['token']}"}
    games = [
        client.post("/v1/games", json={"opponent": {"type": "bot", "bot": "random"}}, headers=api).get_json()[
            "game_id"
        ]
        for _ in range(2)
    ]

    def act(game_id: str) -> int:
        return client.post(f"/v1/games/{game_id}/actions", json={"type": "nothing"}, headers=api).status_code

    first = [act(games[0]) for _ in range(4)]
    assert 429 not in first and act(games[0]) == 429
    assert act(games[1]) != 429  # the other game has a budget of its own
    for _ in range(3):
        assert client.get(f"/v1/games/{games[0]}/events", headers=api).status_code == 200
    assert client.get(f"/v1/games/{games[0]}/events", headers=api).status_code == 429
    stream = client.get("/v1/account/stream?wait=0", headers=api)
    assert stream.status_code == 200  # the account stream is not spent by the games' event reads
    # Made-up game ids buy no more than CEILING_GAMES budgets in all.
    answers = [act(f"gfake{n:06d}xyz") for n in range(limits.CEILING_GAMES * 4 + 1)]
    assert 429 in answers and answers.count(429) <= 2 + 4
