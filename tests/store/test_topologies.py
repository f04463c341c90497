"""Complete games through the API on a real 3-master Redis Cluster and on a real Sentinel setup.

The Cluster test checks where the keys really are (CLUSTER KEYSLOT, CLUSTER SLOTS and a SCAN of each
master): one game's keys share one slot on one master, and different games land on different masters.
The Sentinel tests fail the master over in the middle of a game — by SENTINEL FAILOVER and by killing the
master — and the same app (same redis-py client) plays the game on to its end.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from ginrummy.http import create_app

from tests.deploy.play import Seat, create_game, play_to_end, reload, step
from tests.fixtures.redis_servers import ClusterHandle, SentinelHandle


def _app(url: str) -> Flask:
    return create_app({"REDIS_URL": url})


def _game_keys(cluster: ClusterHandle, game_id: str) -> dict[int, list[bytes]]:
    """{master port: keys of the game stored on that master}, only masters that hold some."""
    found = {node.port: cluster.keys_on(node, f"gin:{{{game_id}}}:*") for node in cluster.nodes}
    return {port: keys for port, keys in found.items() if keys}


def test_games_on_a_three_master_cluster_land_on_different_masters(redis_cluster: ClusterHandle) -> None:
    client = _app(redis_cluster.url).test_client()
    # Create games until every master serves one (game ids are random; a few games are enough).
    by_master: dict[int, Seat] = {}
    for _ in range(60):
        seat = create_game(client)
        owner = redis_cluster.node_for_key(f"gin:{{{seat.game_id}}}:s").port
        by_master.setdefault(owner, seat)
        if len(by_master) == 3:
            break
    assert len(by_master) == 3

    for port, seat in by_master.items():
        final = play_to_end(client, seat)
        assert final["phase"] in {"game_over", "match_over"}
        assert seat.moves > 0 and len(seat.hands) >= 1
        keys = _game_keys(redis_cluster, seat.game_id)
        # Every key of the game is on the master that serves its hash tag, and in one slot.
        assert list(keys) == [port]
        assert len(keys[port]) >= 2  # state, events (and finished-hand records)
        assert len({redis_cluster.slot_of(key) for key in keys[port]}) == 1
        # A fresh app (another "instance") sees the same finished game.
        assert reload(_app(redis_cluster.url).test_client(), seat)["phase"] == final["phase"]


def _unavailable(response: Any) -> bool:
    """While Sentinel elects a new master the service answers 503 store_unavailable: resend."""
    return bool(response.status_code == 503)


def _play_through_failover(sentinel: SentinelHandle, fail_over: str) -> None:
    client = _app(sentinel.url).test_client()
    while True:  # a game to 25 points can end within six moves (an early gin): then take another deal
        seat = create_game(client)
        for _ in range(6):
            if seat.view["phase"] == "match_over":
                break
            step(client, seat)
        if seat.view["phase"] != "match_over":
            break
    before = seat.view
    first_master = sentinel.master_address()

    if fail_over == "kill":
        sentinel.kill_master()
    else:
        sentinel.failover()
    assert sentinel.master_address() != first_master

    # The same app, the same client: the state written before the failover is there...
    view = reload(client, seat, retry=_unavailable)
    assert view["hand"] == before["hand"] and view["discard_pile"] == before["discard_pile"]
    # ...and the game goes on to its end on the new master.
    final = play_to_end(client, seat, retry=_unavailable)
    assert final["phase"] in {"game_over", "match_over"}
    assert seat.moves > 6


def test_a_game_continues_after_a_sentinel_failover(redis_sentinel: SentinelHandle) -> None:
    _play_through_failover(redis_sentinel, "sentinel-failover")


def test_a_game_continues_after_the_master_is_killed(redis_sentinel: SentinelHandle) -> None:
    _play_through_failover(redis_sentinel, "kill")
