"""The bot workers' queue: the house bots' turns that cost too much CPU to be played inside a web request
(the ``master``'s search), handed from the web workers to the bot workers (``ginrummy-bots``) through
Redis.

Keys (one hash slot, ``{bots}``, so that a Redis Cluster keeps them together):

``gin:{bots}:jobs``       a stream of jobs, ``game`` and ``version`` (the game's version when the bot came
                          to act), read by the consumer group ``workers``: each job goes to one worker;
                          a worker acknowledges it when done (and the entry is deleted). A job a worker
                          took and whose worker's lease ended (it died) goes to another worker: see
                          *Leases* below.
``gin:{bots}:lease:<w>``  worker ``<w>``'s lease (its consumer name, ``host:pid``): renewed every
                          :data:`BEAT_EVERY` seconds by a thread of the worker, also while it plays a
                          job; it lasts :data:`LEASE_MS`
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

Leases. Every worker, when it starts and then every :data:`RESCUE_EVERY` seconds while it waits for
jobs, looks at the group's consumers (``XINFO CONSUMERS``): the jobs in hand of a consumer whose lease
is gone (killed, its host lost) are claimed by this worker (:data:`RESCUE_LUA`: the lease is checked and
the jobs claimed in one script, so two workers never both take them), and so are its own jobs of a
previous life (a worker restarted with the same pid, a container's). A dead worker's job is thus taken
over within :data:`LEASE_MS` + :data:`RESCUE_EVERY` seconds by a running worker, at once by one that
starts after its lease ended.
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
LEASE = "gin:{bots}:lease:"  # + a worker's consumer name
LEASE_MS = 3_000  # a worker's lease lasts this long; its jobs in hand go to another worker once it ended
BEAT_EVERY = 1.0  # seconds between two renewals of a worker's lease (a third of it: two may be missed)
RESCUE_EVERY = 1.0  # seconds between two looks of a waiting worker for a dead worker's jobs
RESCUE_COUNT = 100  # jobs claimed from one dead worker at a time (a worker holds one)
FORGET_MS = 600_000  # a consumer idle this long, with no job in hand nor lease, is removed from the group
ALIVE_TTL = 15  # seconds a worker's sign of life lasts (it renews it every few seconds)
NUDGE_EVERY = 30  # seconds between two re-queuings of one game's stalled turn (see nudge)
HINT_TTL = 600  # seconds a game's hints are kept (a version's hint is asked for once or twice)

LEAVE_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
# KEYS: the stream, the holder's lease; ARGV: the group, the holder, the taker, how many. The holder's jobs
# in hand, claimed by the taker (their ids) — none while the holder's lease lasts. One script: two workers
# that both saw the lease gone cannot both claim the jobs (the second finds them the first's).
RESCUE_LUA = """
if redis.call('EXISTS', KEYS[2]) == 1 then return {} end
local ids = {}
for _, entry in ipairs(redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', tonumber(ARGV[4]), ARGV[2])) do
    ids[#ids + 1] = entry[1]
end
if #ids == 0 then return {} end
ids[#ids + 1] = 'JUSTID'
return redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, unpack(ids))
"""


@dataclass(frozen=True)
class BotJob:
    """A bot's turn to play (``move``) or a seat's hint to find (``hint``): the game, its version then."""

    entry: str  # the stream entry's id (to acknowledge it)
    game_id: str
    version: int
    kind: str = "move"
    seat: int | None = None
    taken_over: str | None = None  # the worker whose job it was, when it was taken over from a dead one


def consumer_name() -> str:
    """This process's name in the consumer group: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


class BotQueue:
    """Jobs for the bot workers, and whether any worker is running."""

    def __init__(self, client: Any, notifier: Notifier, rescue_every: float = RESCUE_EVERY) -> None:
        self.client = client
        self.notifier = notifier
        self.rescue_every = rescue_every
        self._rescue_at = 0.0  # (monotonic) when this process looks for a dead worker's jobs next

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
        """The next jobs for ``consumer``: first any job of a dead worker (or of this name's previous life,
        see :meth:`rescue`), else new ones, waiting up to ``block_ms`` (0: not at all). It looks for a dead
        worker's jobs :data:`RESCUE_EVERY` seconds apart, not at every take (an idle worker takes twice a
        second)."""
        now = time.monotonic()
        if now >= self._rescue_at:
            self._rescue_at = now + self.rescue_every
            rescued = self.rescue(consumer)
            if rescued:
                return rescued
        answer = self.client.xreadgroup(GROUP, consumer, {JOBS: ">"}, count=1, block=block_ms or None)
        return self._jobs(answer[0][1] if answer else [], {})

    def rescue(self, consumer: str) -> list[BotJob]:
        """The jobs in hand of every consumer of the group whose lease has ended, now ``consumer``'s, and
        ``consumer``'s own jobs in hand (of a previous process of that name: ``consumer`` holds none when
        it asks for more). A consumer idle for :data:`FORGET_MS` with nothing in hand is removed."""
        from_whom: dict[str, str] = {}
        own = False
        for info in self.client.xinfo_consumers(JOBS, GROUP):
            holder, pending, idle = _text(info["name"]), int(info["pending"]), int(info["idle"])
            if holder == consumer:
                own = pending > 0
            elif pending:
                keys_args = (JOBS, self.lease_key(holder), GROUP, holder, consumer, RESCUE_COUNT)
                for entry_id in self.client.eval(RESCUE_LUA, 2, *keys_args):
                    from_whom[_text(entry_id)] = holder
            elif idle > FORGET_MS and not self.client.exists(self.lease_key(holder)):
                self.client.xgroup_delconsumer(JOBS, GROUP, holder)
        if not from_whom and not own:
            return []
        answer = self.client.xreadgroup(GROUP, consumer, {JOBS: "0"}, count=RESCUE_COUNT)
        return self._jobs(answer[0][1] if answer else [], from_whom, consumer)

    def _jobs(self, entries: list[Any], from_whom: dict[str, str], own: str | None = None) -> list[BotJob]:
        """Stream entries as jobs; an entry deleted meanwhile (the stream trimmed: no fields) is
        acknowledged and left out."""
        jobs: list[BotJob] = []
        for entry_id, fields in entries:
            entry = _text(entry_id)
            if not fields:
                self.client.xack(JOBS, GROUP, entry)
                continue
            jobs.append(_job(entry, fields, from_whom.get(entry, own)))
        return jobs

    def done(self, job: BotJob) -> None:
        """Acknowledge and delete a job."""
        pipe = self.client.pipeline(transaction=True)
        pipe.xack(JOBS, GROUP, job.entry)
        pipe.xdel(JOBS, job.entry)
        pipe.execute()

    def alive(self) -> bool:
        """Whether some worker said it is running in the last :data:`ALIVE_TTL` seconds."""
        return bool(self.client.exists(ALIVE))

    @staticmethod
    def lease_key(consumer: str) -> str:
        return LEASE + consumer

    def beat(self, consumer: str) -> None:
        """A worker's sign of life: its lease renewed, and the service told a worker runs."""
        pipe = self.client.pipeline(transaction=True)
        pipe.set(self.lease_key(consumer), 1, px=LEASE_MS)
        pipe.set(ALIVE, consumer, ex=ALIVE_TTL)
        pipe.execute()

    def leave(self, consumer: str) -> None:
        """A worker stopping: its lease ends, and its sign of life goes at once (another running worker
        renews it)."""
        self.client.delete(self.lease_key(consumer))
        self.client.eval(LEAVE_LUA, 1, ALIVE, consumer)

    def backlog(self) -> int:
        """Jobs waiting or in hand (acknowledged ones are deleted)."""
        return int(self.client.xlen(JOBS))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _job(entry: str, fields: dict[Any, Any], taken_over: str | None) -> BotJob:
    data = {_text(k): _text(v) for k, v in fields.items()}
    seat = int(data["seat"]) if "seat" in data else None
    return BotJob(entry, data["game"], int(data["version"]), data.get("kind", "move"), seat, taken_over)
