"""End to end through a real gunicorn process (gevent workers) and a real redis-server."""

from __future__ import annotations

import json
import threading
from typing import Any

import requests

from tests.support import choose


class Player:
    """A client of the live service, the way any HTTP client would play."""

    def __init__(self, base: str, session: requests.Session | None = None) -> None:
        self.base = base
        self.http = session or requests.Session()
        self.game_id = ""
        self.token = ""

    def create(self, **body: Any) -> dict[str, Any]:
        response = self.http.post(f"{self.base}/v1/games", json=body, timeout=10)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        self.game_id, self.token = created["game_id"], created["token"]
        return created

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def view(self) -> dict[str, Any]:
        response = self.http.get(f"{self.base}/v1/games/{self.game_id}", headers=self.auth, timeout=10)
        assert response.status_code == 200 and response.headers["ETag"] == f'"{response.json()["version"]}"'
        return response.json()  # type: ignore[no-any-return]

    def act(self, action: dict[str, Any], version: int) -> requests.Response:
        return self.http.post(
            f"{self.base}/v1/games/{self.game_id}/actions",
            json=action,
            headers={**self.auth, "If-Match": f'"{version}"'},
            timeout=10,
        )


def test_a_hand_against_the_bot_over_gunicorn(live_service: str) -> None:
    me = Player(live_service)
    me.create(opponent={"type": "bot", "bot": "simple"}, seed=4)
    for _ in range(300):
        view = me.view()
        if view["phase"] in ("hand_over", "game_over", "match_over"):
            break
        response = me.act(choose(view), view["version"])
        assert response.status_code == 200, response.text
    else:
        raise AssertionError("the hand did not end")
    record = me.http.get(f"{live_service}/v1/games/{me.game_id}/hands/1", timeout=10).json()
    assert record["result"] == view["result"]


def test_racing_moves_through_gunicorn_apply_once(live_service: str) -> None:
    me = Player(live_service)
    me.create(opponent={"type": "bot"}, seed=9)
    view = me.view()
    action = choose(view)
    barrier = threading.Barrier(8)
    statuses: list[int] = []

    def race() -> None:
        player = Player(live_service)
        player.game_id, player.token = me.game_id, me.token
        barrier.wait()
        statuses.append(player.act(action, view["version"]).status_code)

    threads = [threading.Thread(target=race) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [412] * 7
    assert me.view()["version"] == view["version"] + 1


def test_an_ndjson_stream_delivers_the_opponents_move(live_service: str) -> None:
    ann = Player(live_service)
    created = ann.create(opponent={"type": "human"}, seed=12)
    bob = Player(live_service)
    joined = bob.http.post(
        f"{live_service}/v1/games/{ann.game_id}/join", json={"invitation": created["invitation"]}, timeout=10
    ).json()
    bob.game_id, bob.token = ann.game_id, joined["token"]
    view = ann.view()
    mover, watcher = (ann, bob) if view["turn"] == 0 else (bob, ann)
    cursor = watcher.http.get(
        f"{live_service}/v1/games/{ann.game_id}/events", headers=watcher.auth, timeout=10
    ).json()["cursor"]
    stream = watcher.http.get(
        f"{live_service}/v1/games/{ann.game_id}/events?after={cursor}&wait=20",
        headers={**watcher.auth, "Accept": "application/x-ndjson"},
        stream=True,
        timeout=30,
    )
    assert stream.headers["Content-Type"].startswith("application/x-ndjson")
    lines = stream.iter_lines()
    first = json.loads(next(lines))  # a keep-alive comes first: nothing has happened yet
    assert first == {"type": "keepalive"}
    moved = mover.act(choose(mover.view()), view["version"]).json()
    seen = []
    for line in lines:
        event = json.loads(line)
        if event["type"] != "keepalive":
            seen.append(event)
        if len(seen) == len(moved["events"]):
            break
    stream.close()
    assert [e["id"] for e in seen] == [e["id"] for e in moved["events"]]


def test_errors_docs_and_metrics_through_gunicorn(live_service: str) -> None:
    missing = requests.get(f"{live_service}/v1/games/NoSuchGame99", timeout=10)
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"
    assert missing.json()["code"] == "game_not_found"
    assert requests.get(f"{live_service}/openapi.json", timeout=10).json()["info"]["title"] == "Gin Rummy"
    assert requests.get(f"{live_service}/docs", timeout=10).status_code == 200
    metrics = requests.get(f"{live_service}/metrics", timeout=10)
    assert metrics.status_code == 200 and "gin" in metrics.text


def test_an_sse_stream_over_gunicorn(live_service: str) -> None:
    me = Player(live_service)
    me.create(opponent={"type": "bot"}, seed=15)
    page = me.http.get(f"{live_service}/v1/games/{me.game_id}/events", headers=me.auth, timeout=10).json()
    stream = me.http.get(
        f"{live_service}/v1/games/{me.game_id}/events?wait=5",
        headers={**me.auth, "Accept": "text/event-stream"},
        stream=True,
        timeout=30,
    )
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    ids = []
    for line in stream.iter_lines(decode_unicode=True):
        if line.startswith("id: "):
            ids.append(line[4:])
        if len(ids) == len(page["events"]):
            break
    stream.close()
    assert ids == [e["id"] for e in page["events"]]


def test_a_match_against_the_master_over_gunicorn_with_its_turns_played_by_the_bot_worker_process(
    live_service: str,
) -> None:
    """The master's turns are played by the separate ``ginrummy.bot_worker`` process beside gunicorn: the
    human waits for them on the events long poll, as for a person."""
    me = Player(live_service)
    me.create(opponent={"type": "bot", "bot": "master"}, rules={"options": {"target": 30}}, seed=8)
    cursor = None
    waits = 0
    for _ in range(1000):
        view = me.view()
        if view["phase"] == "match_over":
            break
        moves = [a for a in view["legal_actions"] if a["type"] not in ("resign", "abort")]
        if not moves:  # the master's turn: its moves arrive as events
            waits += 1
            params: dict[str, Any] = {"wait": 10, **({"after": cursor} if cursor else {})}
            page = me.http.get(
                f"{live_service}/v1/games/{me.game_id}/events", params=params, headers=me.auth, timeout=20
            ).json()
            cursor = page.get("cursor") or cursor
            continue
        response = me.act(choose(view), view["version"])
        assert response.status_code == 200, response.text
    else:
        raise AssertionError("the match did not end")
    assert waits > 0 and view["players"][1 - view["seat"]]["bot"] == "master"
