"""The whole service on a Redis Cluster and behind Sentinel: every key of a game is in one slot, so the
atomic commit and the idempotency lookups work unchanged."""

from __future__ import annotations

import uuid

from ginrummy.http import create_app

from tests.support import choose

from .gameplay import Table


def play_a_few_moves(redis_url: str) -> None:
    app = create_app({"redis_url": redis_url, "allow_seed": True})
    me = Table(app.test_client()).bot_game()
    for _ in range(6):
        view = me.view()
        if not view["legal_actions"]:
            break
        key = {"Idempotency-Key": str(uuid.uuid4())}
        first = me.post("/actions", choose(view), version=view["version"], headers=key)
        again = me.post("/actions", choose(view), version=view["version"], headers=key)
        assert first.status_code == again.status_code == 200
        assert again.get_json() == first.get_json()
    events = me.get("/events").get_json()["events"]
    assert events and events[-1]["id"].startswith(f"{me.view()['version']}-")
    assert app.test_client().get("/readyz").status_code == 200


def test_the_service_on_a_redis_cluster(redis_cluster_url: str) -> None:
    play_a_few_moves(redis_cluster_url)


def test_the_service_behind_sentinel(redis_sentinel_url: str) -> None:
    play_a_few_moves(redis_sentinel_url)
