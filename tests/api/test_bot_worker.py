"""The master through the API: its turns are played by a bot worker (ginrummy.bot_worker), never inside
the request of the move they answer; without a worker it is refused; a job is only a hint (a stale one
changes nothing, a job a dead worker took goes to another — a real worker killed with SIGKILL in the
middle of a master's turn has it taken over through its lease —, the same job twice makes one move)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from ginrummy.app.playing import reading
from ginrummy.bot_worker import Worker
from ginrummy.store.bot_jobs import ALIVE, GROUP, JOBS, BotQueue
from ginrummy.store.embedded import die_with_parent

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


def sweep(queue: BotQueue) -> None:
    """Take and acknowledge every job left (earlier tests'; this process's tests run in turn)."""
    queue.prepare()
    while leftover := queue.take("sweeper", 0):
        queue.done(leftover[0])


def test_a_job_a_dead_worker_took_goes_to_another_worker_once_its_lease_ended(lonely_app: Flask) -> None:
    store = services_of(lonely_app).store
    queue = BotQueue(store.client, store.notifier, rescue_every=0)
    sweep(queue)
    game = "g" + uuid.uuid4().hex[:21]
    queue.beat("dying-worker")
    queue.beat("living-worker")
    queue.push(game, 4)
    taken = queue.take("dying-worker", 0)
    assert [(job.game_id, job.version, job.taken_over) for job in taken] == [(game, 4, None)]
    assert queue.take("living-worker", 0) == []  # the dying worker's lease lasts: its job stays its own
    queue.client.delete(queue.lease_key("dying-worker"))  # (as after LEASE_MS without a renewal)
    rescued = queue.take("living-worker", 0)
    assert [(job.game_id, job.version, job.taken_over) for job in rescued] == [(game, 4, "dying-worker")]
    assert queue.take("third-worker", 0) == []  # the living worker's now: not taken over twice
    queue.done(rescued[0])
    assert queue.take("living-worker", 0) == []
    # A worker restarted under the same name (a container's pid) takes back its own jobs in hand.
    queue.push(game, 5)
    assert [job.version for job in queue.take("living-worker", 0)] == [5]
    again = queue.take("living-worker", 0)
    assert [(job.version, job.taken_over) for job in again] == [(5, "living-worker")]
    queue.done(again[0])
    queue.leave("living-worker")
    assert not queue.client.exists(queue.lease_key("living-worker"))


class WorkerProcess:
    """A real bot worker process (``python -m ginrummy.bot_worker``) on a Redis and the test database;
    ``name`` is its consumer name, its output in ``log``."""

    def __init__(self, redis_url: str, log: Path) -> None:
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ginrummy.bot_worker"],
                env={**os.environ, "REDIS_URL": redis_url, "GIN_LOG_LEVEL": "INFO"},
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),
            )
        self.name = f"{socket.gethostname()}:{self.process.pid}"

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signum)

    def stop(self) -> None:
        self.signal(signal.SIGCONT)
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def wait_for(condition: Any, what: str, timeout: float = 60.0) -> Any:
    """``condition()`` once it is true, polled, within a generous bound (a loaded machine is slow)."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"not within {timeout:.0f} s: {what}"
        time.sleep(0.01)
    return found


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def holder(queue: BotQueue, game_id: str) -> tuple[str, str] | None:
    """(the entry, the consumer holding it) of the job of ``game_id`` in hand, if any."""
    for pending in queue.client.xpending_range(JOBS, GROUP, min="-", max="+", count=100):
        entry = text(pending["message_id"])
        found = queue.client.xrange(JOBS, entry, entry)
        if found and {text(k): text(v) for k, v in found[0][1].items()}.get("game") == game_id:
            return entry, text(pending["consumer"])
    return None


@pytest.mark.slow
@pytest.mark.parametrize("other", ["started after", "running"])
def test_a_worker_killed_in_the_middle_of_a_master_turn_has_it_taken_over_through_its_lease(
    lonely: Table, lonely_app: Flask, redis_url: str, tmp_path: Path, other: str
) -> None:
    """``started after``: the only worker is killed, another one starts; ``running``: of two workers,
    the one holding the turn is killed. Either way the other takes the job over once the dead one's lease
    ended, and the master makes its one move."""
    queue = services_of(lonely_app).bot_queue
    sweep(queue)
    lonely_url = redis_url[:-1] + "9"
    workers = [WorkerProcess(lonely_url, tmp_path / "first.log")]
    if other == "running":
        workers.append(WorkerProcess(lonely_url, tmp_path / "second.log"))
    try:
        for worker in workers:
            wait_for(lambda w=worker: queue.client.exists(queue.lease_key(w.name)), f"{worker.name} started")
        me = lonely.create(opponent=MASTER, seed=5)[0]
        bot_seat = 1 - me.seat
        # Freeze the workers (each waits for a job in XREADGROUP most of the time, where Redis hands it
        # the job even so), move, and see whether one of them took the master's turn; else thaw them.
        for _ in range(200):
            view = my_turn(me)
            assert view["phase"] != "match_over", "the match ended before a turn was caught"
            for worker in workers:
                worker.signal(signal.SIGSTOP)
            after = me.act(choose(view), view["version"])["view"]
            caught = holder(queue, me.game_id) if after["turn"] == bot_seat and not playable(after) else None
            if caught is not None:
                break
            for worker in workers:
                worker.signal(signal.SIGCONT)
        else:
            raise AssertionError("no worker took a master's turn while frozen")
        entry, victim_name = caught
        victim = next(worker for worker in workers if worker.name == victim_name)
        victim.signal(signal.SIGKILL)  # frozen in the middle of the master's turn: the job in its hand
        victim.process.wait()
        killed_at = time.monotonic()
        workers.remove(victim)
        if other == "started after":
            workers.append(WorkerProcess(lonely_url, tmp_path / "second.log"))
        (taker,) = workers
        taker.signal(signal.SIGCONT)
        wait_for(lambda: holder(queue, me.game_id) != caught, "the job taken over or done")
        print(f"\n{other}: the master's turn taken over {time.monotonic() - killed_at:.2f} s after the kill")
        done = wait_for(lambda: (v := me.view())["version"] > after["version"] and v, "the master's move")
        assert done["version"] == after["version"] + 1  # one move (the store's compare-and-set)
        # Taken over because the dead worker's lease ended, not after the job was left unacknowledged
        # for long (XAUTOCLAIM): the taker says so.
        said = f"took over job {entry} (move {me.game_id} v{after['version']}) of {victim_name}, whose lease"
        wait_for(lambda: said in taker.log.read_text(), f"{taker.log.name} says it took the job over")
    finally:
        for worker in workers:
            worker.stop()


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
