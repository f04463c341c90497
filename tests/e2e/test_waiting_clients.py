"""Waiting clients hold no worker: with many long polls and streams open on the real gunicorn, the service
still answers at once, and every waiting client gets the move that concerns it."""

from __future__ import annotations

import json
import threading
from typing import Any

import requests

WAITERS = 150  # far more than the old 2 workers x 8 threads of the test service could hold


def _human_game(base: str) -> tuple[str, list[str], dict[str, Any]]:
    created = requests.post(f"{base}/v1/games", json={"opponent": {"type": "human"}}, timeout=10).json()
    game_id = created["game_id"]
    joined = requests.post(
        f"{base}/v1/games/{game_id}/join", json={"invitation": created["invitation"]}, timeout=10
    ).json()
    return game_id, [created["token"], joined["token"]], joined["view"]


def test_many_waiting_clients_block_nothing_and_all_get_the_move(live_service: str) -> None:
    game_id, tokens, view = _human_game(live_service)
    cursor = requests.get(f"{live_service}/v1/games/{game_id}/events", timeout=10).json()["cursor"]
    mover = 0 if view["turn"] is None else view["turn"]
    received: list[list[str]] = []
    lock = threading.Lock()

    def long_poll(n: int) -> None:
        # Half wait as the other seat, half as spectators; a third of them as NDJSON streams.
        headers = {"Authorization": f"Bearer {tokens[1 - mover]}"} if n % 2 else {}
        url = f"{live_service}/v1/games/{game_id}/events?after={cursor}&wait=25"
        if n % 3 == 0:
            headers["Accept"] = "application/x-ndjson"
            with requests.get(url, headers=headers, stream=True, timeout=40) as response:
                for line in response.iter_lines():
                    event = json.loads(line)
                    if "id" in event:
                        with lock:
                            received.append([event["id"]])
                        return
            return
        events = requests.get(url, headers=headers, timeout=40).json()["events"]
        with lock:
            received.append([e["id"] for e in events])

    threads = [threading.Thread(target=long_poll, args=(n,), daemon=True) for n in range(WAITERS)]
    for thread in threads:
        thread.start()
    # While they all wait, the service answers other requests (a thread per waiter would be exhausted).
    for _ in range(5):
        response = requests.get(f"{live_service}/v1/bots", timeout=10)
        assert response.status_code == 200
    metrics = requests.get(f"{live_service}/metrics", timeout=10)
    assert metrics.status_code == 200
    assert not received  # nobody was answered before the move

    mine = requests.get(
        f"{live_service}/v1/games/{game_id}", headers={"Authorization": f"Bearer {tokens[mover]}"}, timeout=10
    ).json()
    moved = requests.post(
        f"{live_service}/v1/games/{game_id}/actions",
        json=mine["legal_actions"][0],
        headers={"Authorization": f"Bearer {tokens[mover]}", "If-Match": f'"{mine["version"]}"'},
        timeout=10,
    )
    assert moved.status_code == 200, moved.text
    first = moved.json()["events"][0]["id"]
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert len(received) == WAITERS
    assert all(ids and ids[0] == first for ids in received)
