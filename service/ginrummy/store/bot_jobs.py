"""The bot workers' queue: the house bots' turns that cost too much CPU to be played inside a web request
(the ``master``'s search), handed from the web workers to the bot workers (``ginrummy-bots``) through
Redis.

Keys (one hash slot, ``{bots}``, so that a Redis Cluster keeps them together):

``gin:{bots}:jobs``       a stream of jobs, ``game`` and ``version`` (the game's version when the bot came
                          to act), read by the consumer group ``workers``: each job goes to one worker;
                          a worker acknowledges it when done (and the entry is deleted). A job read and
                          not acknowledged within :data:`RECLAIM_MS` (its worker died) goes to another
                          worker.
``gin:{bots}:alive``      set (with a short expiry) by every running worker: whether a bot that needs a
                          worker may be offered
``gin:{<G>}:bq``          set for :data:`NUDGE_EVERY` seconds when game ``<G>``'s stalled turn is queued
                          again (:meth:`BotQueue.nudge`)
``gin:{<G>}:hint``        hash ``<version>:<seat> -> the master's hint`` (JSON) of game ``<G>``, written by
                          the worker of a ``hint`` job (expires after :data:`HINT_TTL`); the request that
                          asked waits for it on the notification channel ``gin:{<G>.hint}:n``

A job is ``kind`` ``move`` (the searching bot is to act), ``hint`` (a seat asked for the master's hint,
``seat`` says which) or ``review`` (a finished match's review was asked for; ``version`` 0).

A job is a hint: the worker loads the game, and plays only if the game is still at that version with
the bot to act. A job lost or repeated costs nothing but a look at the game; a move is committed only
at the version it was chosen from (the store's compare-and-set), so two workers with the same job
commit one move.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from typing import Any

import redis.exceptions

from .notify import Notifier, wait_until

JOBS = "gin:{bots}:jobs"
ALIVE = "gin:{bots}:alive"
GROUP = "workers"
MAXLEN = 100_000  # the stream is a queue: acknowledged jobs are deleted; this bounds a backlog of dead ones
RECLAIM_MS = 30_000  # a job unacknowledged this long goes to another worker
ALIVE_TTL = 15  # seconds a worker's sign of life lasts (it renews it every few seconds)
NUDGE_EVERY = 30  # seconds between two re-queuings of one game's stalled turn (see nudge)
HINT_TTL = 600  # seconds a game's hints are kept (a version's hint is asked for once or twice)

LEAVE_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


@dataclass(frozen=True)
class BotJob:
    """A bot's turn to play (``move``) or a seat's hint to find (``hint``): the game, its version then."""

    entry: str  # the stream entry's id (to acknowledge it)
    game_id: str
    version: int
    kind: str = "move"
    seat: int | None = None


def consumer_name() -> str:
    """This process's name in the consumer group: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


class BotQueue:
    """Jobs for the bot workers, and whether any worker is running."""

    def __init__(self, client: Any, notifier: Notifier, reclaim_ms: int = RECLAIM_MS) -> None:
        self.client = client
        self.notifier = notifier
        self.reclaim_ms = reclaim_ms
        self._reclaim_at = 0.0  # (monotonic) when this process looks for abandoned jobs next

    def push(self, game_id: str, version: int) -> None:
        """Queue the bot's turn in ``game_id`` at ``version``."""
        self.client.xadd(JOBS, {"game": game_id, "version": version}, maxlen=MAXLEN, approximate=True)

    def nudge(self, game_id: str, version: int) -> bool:
        """Queue the bot's turn again, unless it was queued again in the last :data:`NUDGE_EVERY` seconds
        (a key in the game's slot says so): True when it was."""
        if not self.client.set(f"gin:{{{game_id}}}:bq", version, nx=True, ex=NUDGE_EVERY):
            return False
        self.push(game_id, version)
        return True

    def push_review(self, game_id: str) -> None:
        """Queue the review of an archived match."""
        fields = {"game": game_id, "version": 0, "kind": "review"}
        self.client.xadd(JOBS, fields, maxlen=MAXLEN, approximate=True)

    # --- hints ------------------------------------------------------------------------------------
    @staticmethod
    def hint_key(game_id: str) -> str:
        return f"gin:{{{game_id}}}:hint"

    def ask_hint(self, game_id: str, version: int, seat: int) -> None:
        """Queue a job for the master's hint to ``seat`` at ``version``."""
        fields = {"game": game_id, "version": version, "kind": "hint", "seat": seat}
        self.client.xadd(JOBS, fields, maxlen=MAXLEN, approximate=True)

    def put_hint(self, game_id: str, version: int, seat: int, text: str) -> None:
        """Keep a hint found by a worker, and wake the request waiting for it."""
        key = self.hint_key(game_id)
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, f"{version}:{seat}", text)
        pipe.expire(key, HINT_TTL)
        pipe.execute()
        self.client.publish(f"gin:{{{game_id}.hint}}:n", "1")  # (a Cluster's pipeline takes no PUBLISH)

    def hint(self, game_id: str, version: int, seat: int, wait: float = 0.0) -> str | None:
        """The master's hint to ``seat`` at ``version`` if a worker has found it; with ``wait``, wait up to
        that many seconds for it."""
        deadline = time.monotonic() + wait
        with self.notifier.watch(f"{game_id}.hint") as changed:
            while True:
                found = self.client.hget(self.hint_key(game_id), f"{version}:{seat}")
                if found is not None or time.monotonic() >= deadline:
                    return _text(found) if found is not None else None
                wait_until(changed, deadline, self.notifier.recheck_interval())

    def prepare(self) -> None:
        """Create the stream and the consumer group if they do not exist (every worker, at start)."""
        try:
            self.client.xgroup_create(JOBS, GROUP, id="0", mkstream=True)
        except redis.exceptions.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    def take(self, consumer: str, block_ms: int) -> list[BotJob]:
        """The next jobs for ``consumer``: first any job another worker took and never acknowledged
        (for :data:`RECLAIM_MS`), else new ones, waiting up to ``block_ms`` (0: not at all). It looks for
        abandoned jobs a sixth of the reclaim time apart, not at every take (an idle worker takes twice a
        second)."""
        entries: list[Any] = []
        now = time.monotonic()
        if now >= self._reclaim_at:
            self._reclaim_at = now + self.reclaim_ms / 6000
            claimed = self.client.xautoclaim(JOBS, GROUP, consumer, self.reclaim_ms, "0-0", count=1)
            entries = claimed[1] if claimed else []
        if not entries:
            answer = self.client.xreadgroup(GROUP, consumer, {JOBS: ">"}, count=1, block=block_ms or None)
            entries = answer[0][1] if answer else []
        return [job for job in map(_job, entries) if job is not None]

    def done(self, job: BotJob) -> None:
        """Acknowledge and delete a job."""
        pipe = self.client.pipeline(transaction=True)
        pipe.xack(JOBS, GROUP, job.entry)
        pipe.xdel(JOBS, job.entry)
        pipe.execute()

    def alive(self) -> bool:
        """Whether some worker said it is running in the last :data:`ALIVE_TTL` seconds."""
        return bool(self.client.exists(ALIVE))

    def beat(self, consumer: str) -> None:
        """A worker's sign of life."""
        self.client.set(ALIVE, consumer, ex=ALIVE_TTL)

    def leave(self, consumer: str) -> None:
        """A worker stopping: its sign of life goes at once (another running worker renews it)."""
        self.client.eval(LEAVE_LUA, 1, ALIVE, consumer)

    def backlog(self) -> int:
        """Jobs waiting or in hand (acknowledged ones are deleted)."""
        return int(self.client.xlen(JOBS))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _job(entry: Any) -> BotJob | None:
    """A stream entry as a job; None for an entry deleted meanwhile (XAUTOCLAIM returns it empty)."""
    entry_id, fields = entry
    if not fields:
        return None
    data = {_text(k): _text(v) for k, v in fields.items()}
    seat = int(data["seat"]) if "seat" in data else None
    return BotJob(_text(entry_id), data["game"], int(data["version"]), data.get("kind", "move"), seat)
