"""Keys and expiry: every key of a game shares one hash slot and has a TTL (but the archive's outbox,
which the archive empties); a finished match expires sooner once archived; the event list stays
trimmed."""

from __future__ import annotations

import time
import uuid

from flask import Flask
from ginrummy.http import create_app
from redis.crc import key_slot

from tests.support import choose

from .gameplay import Table, archived


def keys_of(raw_redis: object, game_id: str) -> list[bytes]:
    return sorted(raw_redis.keys(f"gin:{{{game_id}}}:*"))  # type: ignore[attr-defined]


def test_every_key_of_a_game_has_an_expiry_and_one_hash_slot(table: Table, raw_redis: object) -> None:
    me = table.bot_game()
    for _ in range(60):
        view = me.view()
        if view["phase"] in ("hand_over", "game_over", "match_over"):
            break
        me.post(
            "/actions", choose(view), version=view["version"], headers={"Idempotency-Key": str(uuid.uuid4())}
        )
    keys = keys_of(raw_redis, me.game_id)
    kinds = {k.decode().split(":")[2] for k in keys}
    assert {"s", "e", "h", "i", "k"} <= kinds
    assert len({key_slot(k) for k in keys}) == 1
    for key in keys:
        ttl = raw_redis.ttl(key)  # type: ignore[attr-defined]
        if key.endswith(b":o"):  # the archive's outbox never expires: the archive empties it
            assert ttl in (-1, -2), (key, ttl)  # (-2: already drained)
            continue
        assert 0 < ttl <= 7 * 24 * 3600, (key, ttl)


def test_a_finished_match_expires_after_the_finished_ttl(redis_url: str, raw_redis: object) -> None:
    app: Flask = create_app(
        {"redis_url": redis_url, "allow_seed": True, "finished_ttl": 120, "live_ttl": 5000}
    )
    table = Table(app.test_client())
    me = table.bot_game(rules={"preset": "standard", "options": {"target": 10}})
    for _ in range(2000):
        view = me.view()
        if view["phase"] == "match_over":
            break
        me.act(choose(view), view["version"])
    else:
        raise AssertionError("the match did not end")
    archived(app.test_client(), me.game_id)  # once archived, every key expires GIN_FINISHED_TTL later
    deadline = time.monotonic() + 10
    while any(raw_redis.ttl(k) > 120 for k in keys_of(raw_redis, me.game_id)):  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the archived match kept its live expiry"
        time.sleep(0.02)
    keys = keys_of(raw_redis, me.game_id)
    assert keys and all(0 < raw_redis.ttl(key) <= 120 for key in keys)  # type: ignore[attr-defined]


def test_the_event_list_is_trimmed(redis_url: str, raw_redis: object) -> None:
    app: Flask = create_app({"redis_url": redis_url, "allow_seed": True, "events_maxlen": 6})
    me = Table(app.test_client()).bot_game()
    for _ in range(8):
        view = me.view()
        if not view["legal_actions"]:
            break
        me.act(choose(view), view["version"])
    assert raw_redis.llen(f"gin:{{{me.game_id}}}:e") <= 6  # type: ignore[attr-defined]


def test_a_live_game_stays_small_in_redis(table: Table, raw_redis: object) -> None:
    """The memory budget of a live game (4 KB incl. its events) is a design limit, so it is a test."""
    me = table.bot_game()
    for _ in range(6):
        view = me.view()
        if (
            view["phase"] != "draw"
            and view["phase"] != "discard"
            and view["phase"].startswith("upcard") is False
        ):
            break
        me.act(choose(view), view["version"])
    usage = sum(raw_redis.memory_usage(k, samples=0) for k in keys_of(raw_redis, me.game_id))  # type: ignore[attr-defined]
    assert usage <= 4096, usage
