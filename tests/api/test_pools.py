"""Quick pairing pools through the service on real Redis and PostgreSQL: the pools listed with how many
wait in each, two players joining one paired, two who block each other kept apart (a third is paired, the
blocked one's take refused as if the seek were gone, the lobby hiding each from the other), and a house bot
offered to whoever waits in a pool longer than GIN_POOL_BOT_AFTER — not before.

Everyone seeks in the same pools, so these tests run a service of their own on a Redis database no other
test uses (7), each test in a pool of its own, emptied first (a seek left by an interrupted run would pair).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.app.meeting.pools import pool_of
from ginrummy.http import create_app

from .conftest import services_of
from .gameplay import problem
from .test_accounts import bearer, unique
from .test_tournaments import account

BOT_AFTER = 2  # seconds in a pool before a bot is offered (the default is 30)


@pytest.fixture(scope="module")
def pool_app(redis_url: str) -> Flask:
    own = redis_url.rsplit("/", 1)[0] + "/7"
    return create_app({"redis_url": own, "allow_seed": True, "pool_bot_after": BOT_AFTER})


@pytest.fixture
def client(pool_app: Flask) -> FlaskClient:
    return pool_app.test_client()


def empty_pool(app: Flask, pool_id: str) -> None:
    lobby = services_of(app).seeks.lobby
    for seek in lobby.open_seeks(500):
        if getattr(pool_of(seek), "id", None) == pool_id:
            lobby.cancel(seek["id"], seek["secret_hash"])


@pytest.fixture
def pool(request: pytest.FixtureRequest, pool_app: Flask) -> Iterator[str]:
    """The test's own pool (its parameter), empty before and after."""
    empty_pool(pool_app, request.param)
    yield request.param
    empty_pool(pool_app, request.param)


def player(client: FlaskClient) -> tuple[str, str]:
    name = unique("pool")
    made = client.post("/v1/players", json={"name": name})
    assert made.status_code == 201
    return name, made.get_json()["token"]


def pools(client: FlaskClient) -> dict[str, dict[str, Any]]:
    listed = client.get("/v1/lobby/pools")
    assert listed.status_code == 200
    return {p["id"]: p for p in listed.get_json()["pools"]}


def join(client: FlaskClient, pool_id: str, token: str) -> Any:
    return client.post("/v1/seeks", json=pools(client)[pool_id]["seek"], headers=bearer(token))


def status(client: FlaskClient, waiting: Any, wait: float = 0) -> dict[str, Any]:
    seek = waiting.get_json()
    got = client.get(f"/v1/seeks/{seek['seek']['id']}?wait={wait}", headers=bearer(seek["token"]))
    assert got.status_code == 200
    return got.get_json()  # type: ignore[no-any-return]


@pytest.mark.parametrize("pool", ["standard-rapid"], indirect=True)
def test_the_pools_say_who_waits_and_two_joining_one_play_its_terms(client: FlaskClient, pool: str) -> None:
    listed = pools(client)
    assert len(listed) == 9 and {"standard-blitz", "oklahoma-rapid", "hollywood-classical"} <= set(listed)
    rapid = listed[pool]
    assert rapid["seek"] == {
        "rules": {"preset": "standard", "options": {}},
        "clock": {"preset": "rapid"},
        "rated": True,
    }
    assert rapid["clock"] == {"preset": "rapid", "per_move": None, "bank": 600, "increment": 5}
    assert rapid["waiting"] == 0
    assert client.get("/v1/lobby/pools").get_json()["bot_after"] == BOT_AFTER

    ann, ann_token = player(client)
    waiting = join(client, pool, ann_token)
    assert waiting.status_code == 202, waiting.get_json()
    assert pools(client)[pool]["waiting"] == 1

    bob, bob_token = player(client)
    started = join(client, pool, bob_token)
    assert started.status_code == 201, started.get_json()
    game = started.get_json()
    assert status(client, waiting)["game_id"] == game["game_id"]
    view = game["view"]
    assert [p["player"] for p in view["players"]] == [ann, bob]
    assert view["rated"] is True and view["clock"]["bank"] == 600
    assert pools(client)[pool]["waiting"] == 0


@pytest.mark.parametrize("pool", ["oklahoma-blitz"], indirect=True)
def test_two_in_a_block_are_never_paired_nor_shown_to_each_other_and_a_third_is_paired(
    client: FlaskClient, pool: str
) -> None:
    ann, ann_token = account(client, "pann")
    bob, bob_token = account(client, "pbob")
    assert client.post(f"/v1/players/{bob}/block", headers=bearer(ann_token)).status_code == 200
    bob_waits = join(client, pool, bob_token)
    ann_waits = join(client, pool, ann_token)
    assert (bob_waits.status_code, ann_waits.status_code) == (202, 202)  # Ann was not paired with Bob
    assert pools(client)[pool]["waiting"] == 2
    ann_seek, bob_seek = ann_waits.get_json()["seek"]["id"], bob_waits.get_json()["seek"]["id"]

    def lobby(token: str | None) -> set[str]:
        got = client.get("/v1/lobby", headers=bearer(token) if token else {})
        assert got.status_code == 200
        return {s["id"] for s in got.get_json()["seeks"]}

    assert {ann_seek, bob_seek} <= lobby(None)
    assert bob_seek not in lobby(ann_token) and ann_seek in lobby(ann_token)
    assert ann_seek not in lobby(bob_token) and bob_seek in lobby(bob_token)
    problem(client.get("/v1/lobby", headers=bearer("no-such-token")), 401, "unknown_player")

    # Bob, blocked, finds Ann's seek gone, as a withdrawn one; Ann knows her block and is told.
    taken = client.post(f"/v1/seeks/{ann_seek}/accept", headers=bearer(bob_token))
    assert "block" not in problem(taken, 404, "seek_not_found")["detail"]
    problem(client.post(f"/v1/seeks/{bob_seek}/accept", headers=bearer(ann_token)), 403, "player_blocked")

    # A third player is paired with the oldest seek, Bob's; Ann keeps waiting.
    carol, carol_token = player(client)
    started = join(client, pool, carol_token)
    assert started.status_code == 201
    assert [p["player"] for p in started.get_json()["view"]["players"]] == [bob, carol]
    assert status(client, bob_waits)["status"] == "matched"
    assert status(client, ann_waits)["status"] == "open"


@pytest.mark.parametrize("pool", ["hollywood-classical"], indirect=True)
def test_a_house_bot_near_the_seekers_rating_is_offered_after_the_wait_and_not_before(
    client: FlaskClient, pool: str
) -> None:
    _, token = player(client)
    waiting = join(client, pool, token)
    assert waiting.status_code == 202, waiting.get_json()
    assert status(client, waiting)["bot_offer"] is None  # not before the wait
    deadline = time.monotonic() + 30  # a guard: the long poll ends when the offer comes
    while (seen := status(client, waiting, wait=10))["bot_offer"] is None:
        assert time.monotonic() < deadline, "no bot was offered"
    offer = seen["bot_offer"]
    assert seen["status"] == "open"

    # The nearest (in the family) to a new player's 1500 of the bots GET /v1/bots lists, random aside.
    house = client.get("/v1/bots").get_json()["bots"]
    rating = {
        b["name"]: b["ratings"].get("hollywood", {"rating": 1500})["rating"] for b in house if b["level"]
    }
    assert offer["bot"] in rating and offer["rating"] == rating[offer["bot"]]
    assert abs(offer["rating"] - 1500) == min(abs(r - 1500) for r in rating.values())

    # Taking it: the seek withdrawn, the pool's game against the bot made as any bot game.
    seek = waiting.get_json()
    assert client.delete(f"/v1/seeks/{seek['seek']['id']}", headers=bearer(seek["token"])).status_code == 200
    terms = pools(client)[pool]["seek"]
    made = client.post(
        "/v1/games", json={**terms, "opponent": {"type": "bot", "bot": offer["bot"]}}, headers=bearer(token)
    )
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["view"]["rated"] is True
    assert pools(client)[pool]["waiting"] == 0
