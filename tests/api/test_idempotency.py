"""Idempotency-Key: a retried request gets the original response; the key with another body gets 422."""

from __future__ import annotations

import uuid

from flask.testing import FlaskClient

from tests.support import choose

from .gameplay import Table, problem


def test_a_retried_move_gets_the_original_response_and_applies_once(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = me.post("/actions", choose(view), version=view["version"], headers=key)
    assert first.status_code == 200
    again = me.post("/actions", choose(view), version=view["version"], headers=key)
    assert again.status_code == 200
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]
    assert me.view()["version"] == view["version"] + 1


def test_the_same_key_with_another_body_is_422_and_changes_nothing(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    key = {"Idempotency-Key": str(uuid.uuid4())}
    assert me.post("/actions", choose(view), version=view["version"], headers=key).status_code == 200
    after = me.view()
    other = me.post("/actions", choose(after), version=after["version"], headers=key)
    if choose(after) == choose(view):  # the same body at a new version is still the same request
        assert other.status_code == 200
    else:
        problem(other, 422, "idempotency_key_reused")
        assert me.view()["version"] == after["version"]


def test_the_same_key_on_another_endpoint_is_422(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    key = {"Idempotency-Key": str(uuid.uuid4())}
    assert me.post("/actions", choose(view), version=view["version"], headers=key).status_code == 200
    problem(me.post("/undo", None, version=view["version"] + 1, headers=key), 422, "idempotency_key_reused")


def test_keys_are_per_seat(table: Table) -> None:
    ann, bob = table.human_game()
    key = {"Idempotency-Key": "shared-key-1"}
    view = ann.view()
    first, second = (ann, bob) if view["turn"] == 0 else (bob, ann)
    moved = first.post("/actions", choose(first.view()), version=view["version"], headers=key)
    assert moved.status_code == 200
    reply = second.post("/actions", choose(second.view()), version=view["version"] + 1, headers=key)
    assert reply.status_code == 200 and "Idempotent-Replayed" not in reply.headers


def test_a_retried_create_returns_the_same_game_and_token(client: FlaskClient) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"opponent": {"type": "human"}, "seed": 3}
    first = client.post("/v1/games", json=body, headers=key)
    again = client.post("/v1/games", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    problem(
        client.post("/v1/games", json={**body, "name": "Zed"}, headers=key), 422, "idempotency_key_reused"
    )


def test_a_retried_join_returns_the_same_token(table: Table, client: FlaskClient) -> None:
    ann, created = table.create(opponent={"type": "human"})
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = f"/v1/games/{ann.game_id}/join"
    first = client.post(path, json={"invitation": created["invitation"]}, headers=key)
    again = client.post(path, json={"invitation": created["invitation"]}, headers=key)
    assert first.status_code == again.status_code == 200
    assert again.get_json()["token"] == first.get_json()["token"]


def test_idempotency_records_do_not_hold_tokens_in_clear(client: FlaskClient, raw_redis: object) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    created = client.post("/v1/games", json={"opponent": {"type": "human"}}, headers=key).get_json()
    import zlib

    records = [
        zlib.decompress(raw_redis.get(k))  # type: ignore[attr-defined]
        for k in raw_redis.keys(f"gin:{{{created['game_id']}}}:i:*")  # type: ignore[attr-defined]
    ]
    assert records
    for record in records:
        assert created["token"].encode() not in record
        assert created["invitation"].encode() not in record


def test_another_caller_replaying_a_create_key_never_gets_the_first_callers_seat(client: FlaskClient) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"opponent": {"type": "human"}}
    ann = client.post("/v1/games", json=body, headers=key, environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert ann.status_code == 201
    player = client.post(
        "/v1/players", json={"name": f"p{uuid.uuid4().hex[:8]}"}, environ_base={"REMOTE_ADDR": "198.51.100.7"}
    ).get_json()["token"]
    for other in (
        {"environ_base": {"REMOTE_ADDR": "203.0.113.66"}},  # no credentials, another address
        {"headers": {**key, "Authorization": f"Bearer {player}"}},  # a player's, from the same address
    ):
        stranger = client.post("/v1/games", json=body, **{"headers": key, **other})  # type: ignore[arg-type]
        assert stranger.status_code == 201 and "Idempotent-Replayed" not in stranger.headers
        assert stranger.get_json()["game_id"] != ann.get_json()["game_id"]
        assert ann.get_json()["token"] not in stranger.get_data(as_text=True)
    again = client.post("/v1/games", json=body, headers=key, environ_base={"REMOTE_ADDR": "198.51.100.7"})
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_json() == ann.get_json()


def test_another_caller_replaying_a_join_key_never_gets_the_joiners_seat(
    table: Table, client: FlaskClient
) -> None:
    ann, created = table.create(opponent={"type": "human"})
    key = {"Idempotency-Key": str(uuid.uuid4())}
    path = f"/v1/games/{ann.game_id}/join"
    bob = client.post(
        path,
        json={"invitation": created["invitation"]},
        headers=key,
        environ_base={"REMOTE_ADDR": "198.51.100.8"},
    )
    assert bob.status_code == 200
    stranger = client.post(
        path,
        json={"invitation": created["invitation"]},
        headers=key,
        environ_base={"REMOTE_ADDR": "203.0.113.67"},
    )
    assert stranger.status_code >= 400 and bob.get_json()["token"] not in stranger.get_data(as_text=True)
