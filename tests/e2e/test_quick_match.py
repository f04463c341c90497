"""Quick match under load, through the real service (gunicorn, 2 workers): 200 players seek at once and
pair into exactly 100 games — each seeker in exactly one, nobody left waiting beside a compatible seek —
on a single Redis and on the 3-master Redis Cluster; and the story (match, play, resign, ratings,
leaderboard) on the Cluster. A burst on a slow moment may be told to come back (429 ``overloaded`` with
``Retry-After``: more requests need PostgreSQL than the pool has connections), as a client should it comes
back; never that a store is down (503)."""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn

SEEKERS = 200
PATIENCE = 120.0  # seconds a client keeps coming back after 429 overloaded (a generous bound)


def post(http: requests.Session, url: str, **kwargs: Any) -> requests.Response:
    """POST, coming back after ``Retry-After`` while the service says it is overloaded (429): what a
    client does with a busy service (the SDK does so). Any other answer is returned."""
    deadline = time.monotonic() + PATIENCE
    while True:
        response = http.post(url, timeout=60, **kwargs)
        if response.status_code != 429 or response.json()["code"] != "overloaded":
            return response
        assert time.monotonic() < deadline, f"still overloaded after {PATIENCE:.0f} s"
        time.sleep(float(response.headers["Retry-After"]))


@pytest.fixture(scope="module")
def cluster_service(redis_cluster_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    process, base = start_service(
        redis_cluster_url, tmp_path_factory.mktemp("cluster"), extra_env={"GIN_GRACEFUL_TIMEOUT": "1"}
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


def new_player(http: requests.Session, base: str, prefix: str) -> dict[str, str]:
    name = f"{prefix}{uuid.uuid4().hex[:10]}"
    response = post(http, f"{base}/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def seek_all_at_once(base: str, family: str) -> None:
    """SEEKERS players post a quick seek each, concurrently, for the same (otherwise unused) rules."""
    http = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_maxsize=64)
    http.mount("http://", adapter)
    with ThreadPoolExecutor(32) as pool:
        players = list(pool.map(lambda _: new_player(http, base, "q"), range(SEEKERS)))
    # A rules family of this run alone: options that no other test uses (casual seeks allow options).
    rules = {"preset": "standard", "options": {"target": 97 + hash(family) % 3, "box_bonus": 17}}

    def seek(player: dict[str, str]) -> dict[str, Any]:
        auth = {"Authorization": f"Bearer {player['token']}"}
        response = post(http, f"{base}/v1/seeks", json={"rules": rules, "quick": True}, headers=auth)
        assert response.status_code in (201, 202), response.text
        return {
            "player": player["name"],
            "status": response.status_code,
            "body": response.json(),
            "auth": auth,
        }

    with ThreadPoolExecutor(64) as pool:
        results = list(pool.map(seek, players))
    started = [r for r in results if r["status"] == 201]
    waiting = [r for r in results if r["status"] == 202]
    assert len(started) == len(waiting) == SEEKERS // 2, Counter(r["status"] for r in results)

    def outcome(result: dict[str, Any]) -> tuple[str, str]:
        seek_id = result["body"]["seek"]["id"]
        auth = {"Authorization": f"Bearer {result['body']['token']}"}
        status = http.get(f"{base}/v1/seeks/{seek_id}?wait=10", headers=auth, timeout=30).json()
        assert status["status"] == "matched", status
        return status["game_id"], result["player"]

    with ThreadPoolExecutor(32) as pool:
        owners = dict(pool.map(outcome, waiting))
    takers = {r["body"]["game_id"]: r["player"] for r in started}
    # Exactly N/2 games, each with one waiting owner and one taker, every seeker in exactly one game.
    assert set(owners) == set(takers) and len(owners) == SEEKERS // 2
    seated = list(owners.values()) + list(takers.values())
    assert sorted(seated) == sorted(p["name"] for p in players)
    game_id = next(iter(owners))
    view = http.get(f"{base}/v1/games/{game_id}", timeout=30).json()
    assert [p["player"] for p in view["players"]] == [owners[game_id], takers[game_id]]
    # Nobody is left waiting beside a compatible seek.
    lobby = http.get(f"{base}/v1/lobby", timeout=30).json()["seeks"]
    assert not [s for s in lobby if s["player"] in set(seated)]


def test_200_concurrent_quick_seekers_pair_exactly_once_on_redis(live_service: str) -> None:
    seek_all_at_once(live_service, "single")


def test_200_concurrent_quick_seekers_pair_exactly_once_on_the_cluster(cluster_service: str) -> None:
    seek_all_at_once(cluster_service, "cluster")


def test_a_rated_match_resign_and_leaderboard_on_the_cluster(cluster_service: str, tmp_path: Path) -> None:
    base, http = cluster_service, requests.Session()
    ann, bob = new_player(http, base, "ann"), new_player(http, base, "bob")
    body = {"rules": {"preset": "oklahoma"}, "rated": True}
    waiting = http.post(f"{base}/v1/seeks", json=body, headers={"Authorization": f"Bearer {ann['token']}"})
    assert waiting.status_code == 202, waiting.text
    started = http.post(f"{base}/v1/seeks", json=body, headers={"Authorization": f"Bearer {bob['token']}"})
    assert started.status_code == 201, started.text
    game = started.json()
    # Ann plays with her player token: it is the credential of the seat tied to her.
    view = http.get(
        f"{base}/v1/games/{game['game_id']}", headers={"Authorization": f"Bearer {ann['token']}"}
    ).json()
    assert view["seat"] == 0 and view["rated"] is True
    live = http.get(f"{base}/v1/games?status=live&limit=200").json()["games"]
    assert game["game_id"] in [g["game_id"] for g in live]  # the list reads games from all nodes
    resigned = http.post(
        f"{base}/v1/games/{game['game_id']}/resign",
        headers={"Authorization": f"Bearer {ann['token']}", "If-Match": f'"{view["version"]}"'},
    )
    assert resigned.status_code == 200, resigned.text
    deadline = time.monotonic() + 15  # the service's drainer archives the match a moment after its end
    while http.get(f"{base}/v1/games/{game['game_id']}/export").status_code == 404:
        assert time.monotonic() < deadline, "the match was not archived"
        time.sleep(0.05)
    board = http.get(f"{base}/v1/leaderboard?family=oklahoma&limit=200").json()["players"]
    names = [row["name"] for row in board]
    assert names.index(bob["name"]) < names.index(ann["name"])
    profile = http.get(f"{base}/v1/players/{ann['name']}").json()
    assert profile["games"]["lost"] == 1 and profile["recent"][0]["reason"] == "resigned"
