"""The master through the API: its turns are played by a bot worker (ginrummy.bot_worker), never inside
the request of the move they answer; without a worker it is refused; a job is only a hint (a stale one
changes nothing, a job a dead worker took goes to another, the same job twice makes one move)."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from flask import Flask
from ginrummy.app import reading
from ginrummy.bot_worker import Worker
from ginrummy.store.bot_jobs import ALIVE, JOBS, BotQueue

from tests.support import choose

from .conftest import services_of
from .gameplay import Seat, Table, problem

MASTER = {"type": "bot", "bot": "master"}
SHORT = {"preset": "standard", "options": {"target": 30}}  # a match of a hand or two


def playable(view: dict[str, Any]) -> bool:
    return any(a["type"] not in ("resign", "abort") for a in view["legal_actions"])


def my_turn(seat: Seat, timeout: float = 60.0) -> dict[str, Any]:
    """The seat's view once it has something to play (the bot worker moved meanwhile), or at the end."""
    deadline = time.monotonic() + timeout
    while True:
        view = seat.view()
        if playable(view) or view["phase"] == "match_over":
            return view
        assert time.monotonic() < deadline, f"the bot did not move: {view['phase']}, turn {view['turn']}"
        time.sleep(0.01)


def test_a_master_game_is_played_to_its_end_with_every_bot_turn_left_to_the_worker(
    lonely: Table, worker: Worker
) -> None:
    me = lonely.create(opponent=MASTER, rules=SHORT, seed=11)[0]
    bot_seat = 1 - me.seat
    left_to_worker = 0
    for _ in range(2000):
        view = my_turn(me)
        if view["phase"] == "match_over":
            break
        answer = me.act(choose(view), view["version"])
        after = answer["view"]
        if after["turn"] == bot_seat and after["phase"] != "match_over":
            # The move's own answer: the bot has not moved (its turn is queued), and no event of its seat.
            left_to_worker += 1
            assert not playable(after)
            assert all(event.get("seat") != bot_seat for event in answer["events"])
    else:
        raise AssertionError("the match did not end")
    final = me.view()
    assert final["phase"] == "match_over" and final["players"][bot_seat]["bot"] == "master"
    assert left_to_worker > 5 and worker.played >= left_to_worker


def test_without_a_worker_the_master_is_refused_and_nothing_is_made(lonely: Table, lonely_app: Flask) -> None:
    client = lonely.client
    raw_redis = services_of(lonely_app).bot_queue.client
    before = raw_redis.xlen(JOBS) if raw_redis.exists(JOBS) else 0
    response = client.post("/v1/games", json={"opponent": MASTER, "seed": 3})
    body = problem(response, 503, "bots_unavailable")
    assert "master" in body["detail"] and response.headers["Retry-After"] == "30"
    assert (raw_redis.xlen(JOBS) if raw_redis.exists(JOBS) else 0) == before
    assert client.post("/v1/games", json={"opponent": {"type": "bot", "bot": "expert"}}).status_code == 201
    bots = client.get("/v1/bots").get_json()["bots"]
    assert bots[-1]["name"] == "master" and bots[-1]["player"] == "bot-master"


def bot_to_act(me: Seat) -> dict[str, Any]:
    """Play the human's moves until the master is to act (no worker runs); its view then."""
    for _ in range(200):
        view = me.view()
        if not playable(view):
            return view
        me.act(choose(view), view["version"])
    raise AssertionError("the bot never came to act")


def test_a_job_is_a_hint_stale_or_repeated_jobs_change_nothing(lonely: Table, lonely_app: Flask) -> None:
    services = services_of(lonely_app)
    services.bot_queue.client.set(ALIVE, "a worker said so", ex=60)  # offered; but nobody plays its turns
    me = lonely.create(opponent=MASTER, seed=5)[0]
    view = bot_to_act(me)
    version = view["version"]
    assert services.bot_turns.play(me.game_id, version - 1) == "stale"
    assert services.bot_turns.play("g" + "0" * 21, version) == "gone"
    assert me.view()["version"] == version
    assert services.bot_turns.play(me.game_id, version) == "played"
    assert services.bot_turns.play(me.game_id, version) == "stale"  # the same job again: no second move
    after = me.view()
    assert after["version"] == version + 1 and (playable(after) or after["phase"] == "match_over")


def test_a_job_a_dead_worker_took_goes_to_another_worker(lonely_app: Flask) -> None:
    store = services_of(lonely_app).store
    queue = BotQueue(store.client, store.notifier, reclaim_ms=50)
    queue.prepare()
    while leftover := queue.take("sweeper", 0):  # earlier tests' jobs (this process's tests run in turn)
        queue.done(leftover[0])
    game = "g" + uuid.uuid4().hex[:21]
    queue.push(game, 4)
    taken = queue.take("dead-worker", 0)
    assert [(job.game_id, job.version) for job in taken] == [(game, 4)]
    time.sleep(0.1)  # longer than reclaim_ms: the job is the living worker's now
    reclaimed = queue.take("living-worker", 0)
    assert [(job.game_id, job.version) for job in reclaimed] == [(game, 4)]
    queue.done(reclaimed[0])
    assert all(job.game_id != game for job in queue.take("living-worker", 0))


def test_a_hint_is_the_master_s_found_by_a_worker_while_the_request_waits(
    lonely: Table, worker: Worker
) -> None:
    me = lonely.create(opponent={"type": "bot", "bot": "expert"}, seed=21)[0]
    view = my_turn(me)
    response = me.get("/hint")
    assert response.status_code == 200, response.get_json()
    advice = response.get_json()
    assert advice["by"] == "master" and advice["action"] in view["legal_actions"]
    assert advice["alternatives"][0]["action"] == advice["action"]
    assert all(alt["action"] in view["legal_actions"] for alt in advice["alternatives"])
    deadline = time.monotonic() + 10  # the worker counts the job once it is acknowledged, a moment later
    while not worker.outcomes["hinted"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert worker.outcomes["hinted"] == 1, worker.outcomes
    again = me.get("/hint").get_json()  # the same version: the kept hint, no second search
    assert again == advice and worker.outcomes["hinted"] == 1
    moved = me.act(advice["action"], view["version"])
    assert moved["version"] == view["version"] + 1


def test_without_a_worker_the_hint_is_the_expert_s_at_once(lonely: Table) -> None:
    me = lonely.create(opponent={"type": "bot", "bot": "expert"}, seed=21)[0]
    view = my_turn(me)
    advice = me.get("/hint").get_json()
    assert advice["by"] == "expert" and advice["action"] in view["legal_actions"]


def test_a_master_turn_whose_job_was_lost_is_queued_again_when_the_game_is_read(
    lonely: Table, lonely_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = services_of(lonely_app)
    queue = services.bot_queue
    queue.client.set(ALIVE, "a worker said so", ex=60)
    me = lonely.create(opponent=MASTER, seed=9)[0]
    view = bot_to_act(me)
    queue.prepare()
    while lost := queue.take("sweeper", 0):  # the jobs are lost (as if the web process died meanwhile)
        queue.done(lost[0])
    monkeypatch.setattr(reading, "REQUEUE_AFTER_MS", 0)  # (instead of waiting 30 s)
    me.view()
    again = queue.take("sweeper", 0)
    assert [(job.game_id, job.version, job.kind) for job in again] == [(me.game_id, view["version"], "move")]
    queue.done(again[0])
    me.view()  # read again at once: not queued twice within NUDGE_EVERY
    assert queue.take("sweeper", 0) == []
    assert services.bot_turns.play(me.game_id, view["version"]) == "played"
