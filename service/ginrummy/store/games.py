"""The game store: every game's state, events, finished hands and idempotency records in Redis.

Keys of game ``G`` (all share the Cluster hash tag ``{G}``, so one Lua script can touch them all):

``gin:{G}:s``      string ``"<version>\\n<doc>"`` — the current state (the doc is opaque here)
``gin:{G}:e``      list of events ``"<version>-<i>\t<payload>"``, trimmed to the last ``events_maxlen``
``gin:{G}:h``      hash ``hand number -> finished-hand record`` of the last ``hands_kept`` finished hands
``gin:{G}:i:<k>``  idempotency record of one request (``k`` is a hash of the seat and the client's key)
``gin:{G}:k``      set of the game's idempotency record keys (so that they can be retired with the game)
``gin:{G}:o``      the archive's outbox: hash ``h:<n>`` (a finished hand) / ``m`` (the finished match) ->
                   record, written by the commit that ends them; it never expires: it is emptied once
                   PostgreSQL has the records (:mod:`ginrummy.app.archive.writing`)

and one key of the archive's own (one slot: it is small, and touched once per finished hand):

``gin:archive:pending``  sorted set — the games whose outbox may hold records, scored by when a commit
                         announced them (:meth:`GameStore.announce`, written *before* that commit)
``gin:archive:lock``     string — the process whose drainer works now (:meth:`GameStore.hold_drain_lock`)

Hand and idempotency records are stored zlib-compressed (they are a few KB of repetitive JSON and are
read rarely), which keeps a long match's memory small. The client must not decode responses.

A state change is ONE Lua script (:data:`~ginrummy.store.game_scripts.COMMIT_LUA`): it checks the
expected version, writes the state, appends the events with trimming, writes finished-hand records, the
outbox's records and the idempotency record, and sets the expiry of every key — all or nothing, so two
racing moves can never both apply, and a finished hand is in the outbox exactly when its commit is. Its
arguments are named fields (:mod:`ginrummy.store.game_scripts`), written in one place and read by name.

The store knows nothing about Gin Rummy; the use cases (:mod:`ginrummy.app.playing.unit_of_work`) decide
what the doc and the events contain.

Why a list and not a Redis stream for the events: a stream preallocates its first node
(``stream-node-max-bytes``, 4 KB), which alone would exceed the memory budget of a live game. A long
poll therefore cannot ``XREAD BLOCK``: the commit script publishes the new version on ``gin:{G}:n``
and the process's one :class:`~ginrummy.store.notify.Notifier` wakes the requests waiting on that
game, which then read the list (see :mod:`ginrummy.store.notify`).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis
import redis.exceptions

from .cursor import Cursor
from .game_scripts import COMMIT_LUA, CREATE_LUA, SCRIPT_FIELDS
from .notify import Notifier, wait_until

# A finished match whose records are all in PostgreSQL leaves Redis after ARGV[1] seconds: its state,
# events, kept hands and idempotency records (KEYS: state, events, hands, idempotency set, outbox).
# Refused (0) while the outbox holds records; 1: done.
RETIRE_LUA = """
if redis.call('HLEN', KEYS[5]) > 0 then return 0 end
local grace = tonumber(ARGV[1])
for _, key in ipairs(redis.call('SMEMBERS', KEYS[4])) do redis.call('EXPIRE', key, grace) end
for k = 1, 4 do redis.call('EXPIRE', KEYS[k], grace) end
return 1
"""

# Takes games off the archive's pending set (ARGV: game, score, game, score, …), each only if nobody
# announced it again since (its score is still the one given): a commit announced after the caller read the
# outbox keeps it listed. Returns how many were taken off.
SETTLE_LUA = """
local settled = 0
for i = 1, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) == tonumber(ARGV[i + 1]) then
    settled = settled + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return settled
"""

# The archive's drainer of one process holds the deployment's drain lock (ARGV[1]: its owner id) for
# ARGV[2] ms: taken when free, extended when it is the holder's; 0 when another holds it.
DRAIN_LOCK_LUA = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
return 1
"""

# Counts the live games of one scope (a client, or all of them) in a sorted set scored by expiry: drops
# the expired, refuses (0) when the set is full, else adds the game (1). One key: fine on a Cluster.
LIVE_LUA = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return 1
"""


class StoreError(Exception):
    """Base class of the store's own failures."""


class TooManyLiveGames(StoreError):
    """A new game would pass a bound on live games (``scope``: ``"client"`` or ``"all"``)."""

    def __init__(self, scope: str) -> None:
        super().__init__(f"too many live games ({scope})")
        self.scope = scope


class StaleVersion(StoreError):
    """The game changed since the caller loaded it (``current`` is its version now)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current


class GameMissing(StoreError):
    """The game does not exist (never created, or expired)."""


class GameExists(StoreError):
    """A game with this id already exists."""


class IdempotencyKeyUsed(StoreError):
    """The request's idempotency key was used before; ``record`` is what that request stored."""

    def __init__(self, record: str) -> None:
        super().__init__("idempotency key already used")
        self.record = record  # decompressed text


@dataclass(frozen=True)
class Stored:
    """A game as loaded: its version (1 on creation, +1 per commit) and its opaque doc."""

    version: int
    doc: str
    archived: bool = False  # read back from the archive (PostgreSQL), not from Redis


@dataclass(frozen=True)
class Idempotency:
    """An idempotency record to write with a commit, under ``key`` (already hashed by the caller)."""

    key: str
    record: str


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _pack(text: str) -> bytes:
    return zlib.compress(text.encode(), 6)


def _unpack(raw: bytes) -> str:
    return zlib.decompress(raw).decode()


class GameStore:
    """Games in Redis. ``client`` is any redis-py client (single, Sentinel master or Cluster)."""

    def __init__(
        self,
        client: Any,
        *,
        live_ttl: int = 7 * 24 * 3600,
        events_maxlen: int = 16,
        hands_kept: int = 1,
        idempotency_ttl: int = 24 * 3600,
    ) -> None:
        self.client = client
        self.live_ttl = live_ttl
        self.events_maxlen = events_maxlen
        self.hands_kept = max(1, hands_kept)
        self.idempotency_ttl = idempotency_ttl
        self._commit = client.register_script(COMMIT_LUA)
        self._create = client.register_script(CREATE_LUA)
        self._live = client.register_script(LIVE_LUA)
        self._settle = client.register_script(SETTLE_LUA)
        self._drain_lock = client.register_script(DRAIN_LOCK_LUA)
        self.notifier = Notifier(client)

    # --- keys -------------------------------------------------------------------------------------
    @staticmethod
    def state_key(game_id: str) -> str:
        return f"gin:{{{game_id}}}:s"

    @staticmethod
    def events_key(game_id: str) -> str:
        return f"gin:{{{game_id}}}:e"

    @staticmethod
    def hands_key(game_id: str) -> str:
        return f"gin:{{{game_id}}}:h"

    @staticmethod
    def idempotency_key(game_id: str, key: str) -> str:
        return f"gin:{{{game_id}}}:i:{key}"

    @staticmethod
    def idempotency_set_key(game_id: str) -> str:
        return f"gin:{{{game_id}}}:k"

    @staticmethod
    def outbox_key(game_id: str) -> str:
        return f"gin:{{{game_id}}}:o"

    PENDING = "gin:archive:pending"
    DRAIN_LOCK = "gin:archive:lock"

    def keys_of(self, game_id: str) -> list[str]:
        """Every key the game has now (for tests, memory figures and operators)."""
        pattern = f"gin:{{{game_id}}}:*"
        return sorted(_text(k) for k in self.client.scan_iter(match=pattern, count=1000))

    # --- reads ------------------------------------------------------------------------------------
    def load(self, game_id: str) -> Stored | None:
        """The game's current version and doc, or None when there is no such game."""
        raw = self.client.get(self.state_key(game_id))
        return None if raw is None else self._parse(raw)

    def load_many(self, game_ids: Sequence[str]) -> list[Stored | None]:
        """Several games in one round trip per node (a pipeline: their keys are in many slots)."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(self.state_key(game_id))
        return [None if raw is None else self._parse(raw) for raw in pipe.execute()]

    def load_with_record(self, game_id: str, idem_key: str) -> tuple[Stored | None, str | None]:
        """The game and an idempotency record in one round trip (both keys are in one slot)."""
        raw, record = self.client.mget([self.state_key(game_id), self.idempotency_key(game_id, idem_key)])
        stored = None if raw is None else self._parse(raw)
        return stored, None if record is None else _unpack(record)

    @staticmethod
    def _parse(raw: bytes | str) -> Stored:
        text = _text(raw)
        head, _, doc = text.partition("\n")
        return Stored(int(head), doc)

    def hand_record(self, game_id: str, number: int) -> str | None:
        raw = self.client.hget(self.hands_key(game_id), str(number))
        return None if raw is None else _unpack(raw)

    def read_events(
        self, game_id: str, after: str | None, *, count: int = 200, wait_ms: int = 0, also: str | None = None
    ) -> list[tuple[str, str]]:
        """Events after the cursor ``after`` (exclusive; None: from the oldest kept), as
        ``(id, payload)``. With ``wait_ms`` > 0 and nothing new, wait up to that long for more — or, with
        ``also`` (another notifier key: the game's chat), until that key is announced (then none)."""
        key = self.events_key(game_id)
        if wait_ms <= 0:
            return self._events_after(key, after, count)
        deadline = time.monotonic() + wait_ms / 1000
        # Registered before the first read: a commit between that read and the wait still wakes us.
        with self.notifier.watch(game_id, *([also] if also else [])) as changed:
            woken = False
            while True:
                rows = self._events_after(key, after, count)
                if rows or time.monotonic() >= deadline or (woken and also):
                    return rows
                woken = wait_until(changed, deadline, self.notifier.recheck_interval())

    def _events_after(self, key: str, after: str | None, count: int) -> list[tuple[str, str]]:
        rows = []
        start = None if after is None else Cursor.parse(after)
        for raw in self.client.lrange(key, 0, -1):
            cursor, _, payload = _text(raw).partition("\t")
            if start is None or Cursor.parse(cursor) > start:
                rows.append((cursor, payload))
        return rows[:count]

    def first_event_id(self, game_id: str) -> str | None:
        """The oldest event still kept (older ones were trimmed away)."""
        first = self.client.lindex(self.events_key(game_id), 0)
        return None if first is None else _text(first).partition("\t")[0]

    def ping(self) -> bool:
        try:
            return bool(self.client.ping())
        except redis.exceptions.RedisError:
            return False

    # --- bounds on live games ---------------------------------------------------------------------------
    LIVE_ALL = "gin:live:all"

    @staticmethod
    def live_key(client_key: str) -> str:
        return f"gin:live:c:{client_key}"

    LIVE_PUBLIC = "gin:live:public"

    def reserve_live_game(
        self, game_id: str, client_key: str, *, per_client: int, overall: int, public: bool = False
    ) -> None:
        """Count a new game as live for ``live_ttl`` (until it finishes, see :meth:`release_live_game`);
        raises :class:`TooManyLiveGames` when the client or everyone together has too many. A game that
        goes on longer than ``live_ttl`` after its creation is no longer counted (bounds, not ledgers)."""
        now = time.time()
        args = [now, now + self.live_ttl, game_id]
        if not self._live(keys=[self.live_key(client_key)], args=[*args, per_client, self.live_ttl]):
            raise TooManyLiveGames("client")
        if not self._live(keys=[self.LIVE_ALL], args=[*args, overall, self.live_ttl]):
            self.client.zrem(self.live_key(client_key), game_id)
            raise TooManyLiveGames("all")
        if public:
            self.client.zadd(self.LIVE_PUBLIC, {game_id: now})
            self.client.zremrangebyscore(self.LIVE_PUBLIC, "-inf", now - self.live_ttl)

    def release_live_game(self, game_id: str, client_key: str) -> None:
        """A game is over (or was never made): it no longer counts."""
        self.client.zrem(self.live_key(client_key), game_id)
        self.client.zrem(self.LIVE_ALL, game_id)
        self.client.zrem(self.LIVE_PUBLIC, game_id)

    def public_games(self, limit: int) -> list[str]:
        """The public games in play, newest first (an expired one is dropped by the caller's forget)."""
        return [_text(g) for g in self.client.zrevrange(self.LIVE_PUBLIC, 0, limit - 1)]

    def forget_public(self, game_id: str) -> None:
        self.client.zrem(self.LIVE_PUBLIC, game_id)

    # --- writes -----------------------------------------------------------------------------------
    def _script_args(
        self,
        game_id: str,
        doc: str,
        events: Sequence[str],
        idempotency: Idempotency | None,
        ttl: int,
        *,
        expected_version: int = 0,
        hand_records: Mapping[int, str] | None = None,
        outbox: Mapping[str, str] | None = None,
    ) -> tuple[list[str], list[Any]]:
        """The keys and the arguments of the creation's and the commit's scripts: the named fields in
        their order (:data:`~ginrummy.store.game_scripts.SCRIPT_FIELDS`), then each part. ``ttl`` 0: the
        keys keep their expiry (an idempotency record then lives at most ``live_ttl``)."""
        idem = idempotency.key if idempotency else "-"
        keys = [
            self.state_key(game_id),
            self.events_key(game_id),
            self.hands_key(game_id),
            self.idempotency_key(game_id, idem),
            self.outbox_key(game_id),
            self.idempotency_set_key(game_id),
        ]
        hands = [(str(number), _pack(record)) for number, record in (hand_records or {}).items()]
        records = [(name, _pack(record)) for name, record in (outbox or {}).items()]
        fields: dict[str, Any] = {
            "idempotent": "1" if idempotency else "0",
            "expected_version": expected_version,
            "doc": doc,
            "ttl": ttl,
            "events_maxlen": self.events_maxlen,
            "hands_kept": self.hands_kept,
            "idempotency_record": _pack(idempotency.record) if idempotency else "",
            "idempotency_ttl": min(self.idempotency_ttl, ttl or self.live_ttl),
            "event_count": len(events),
            "hand_count": len(hands),
            "outbox_count": len(records),
        }
        args = [fields[name] for name in SCRIPT_FIELDS]
        return keys, [*args, *events, *(part for pair in hands + records for part in pair)]

    def create(
        self,
        game_id: str,
        doc: str,
        events: Sequence[str] = (),
        *,
        idempotency: Idempotency | None = None,
        ttl: int | None = None,
        outbox: Mapping[str, str] | None = None,
    ) -> int:
        """Create the game at version 1. Raises :class:`GameExists`, or :class:`IdempotencyKeyUsed`
        when the game exists and this request's idempotency record with it. ``outbox``: as for
        :meth:`commit` (a bot's first move may end the first hand)."""
        ttl = ttl or self.live_ttl
        keys, args = self._script_args(game_id, doc, events, idempotency, ttl, outbox=outbox)
        status, value = self._create(keys=keys, args=args)
        if status == 2:
            raise IdempotencyKeyUsed(_unpack(value))
        if status == 0:
            raise GameExists(game_id)
        return int(value)

    def commit(
        self,
        game_id: str,
        expected_version: int,
        doc: str,
        events: Sequence[str] = (),
        *,
        hand_records: Mapping[int, str] | None = None,
        idempotency: Idempotency | None = None,
        outbox: Mapping[str, str] | None = None,
        keep_ttl: bool = False,
    ) -> int:
        """Write the new doc if the game is still at ``expected_version``; returns the new version.

        Raises :class:`StaleVersion` (someone else committed first), :class:`GameMissing`, or
        :class:`IdempotencyKeyUsed` (a request with the same key committed first).
        ``outbox``: records for the archive (``h:<n>``, ``m``), written to the game's outbox with the
        commit — :meth:`announce` the game first. ``keep_ttl``: the keys keep their expiry (a change of a
        match that is over: its expiry is the archive's to set, :meth:`retire`); else they expire
        ``live_ttl`` after this change.
        """
        ttl = 0 if keep_ttl else self.live_ttl
        keys, args = self._script_args(
            game_id,
            doc,
            events,
            idempotency,
            ttl,
            expected_version=expected_version,
            hand_records=hand_records,
            outbox=outbox,
        )
        status, value = self._commit(keys=keys, args=args)
        if status == 2:
            raise IdempotencyKeyUsed(_unpack(value))
        if status == 0:
            if int(value) < 0:
                raise GameMissing(game_id)
            raise StaleVersion(int(value))
        return int(value)

    # --- the archive's outbox -----------------------------------------------------------------------
    def announce(self, game_id: str) -> float:
        """List the game as pending for the archive, BEFORE a commit that writes to its outbox; returns
        the score to :meth:`settle` it with. A commit that then fails leaves an empty outbox listed,
        which the drainer settles later (``ginrummy.app.archive.writing``)."""
        score = time.time()
        self.client.zadd(self.PENDING, {game_id: score})
        return score

    def has_outbox(self, game_id: str) -> bool:
        """Whether records of the game still wait for the archive (its outbox key exists)."""
        return bool(self.client.exists(self.outbox_key(game_id)))

    def outbox(self, game_id: str) -> dict[str, str]:
        """The records waiting in the game's outbox, by field (``h:<n>``, ``m``)."""
        return self.outboxes([game_id])[0]

    def outboxes(self, game_ids: Sequence[str]) -> list[dict[str, str]]:
        """The outboxes of several games, in one round trip per node (a pipeline: many slots)."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(self.outbox_key(game_id))
        return [{_text(name): _unpack(value) for name, value in raw.items()} for raw in pipe.execute()]

    def clear_outboxes(self, written: Mapping[str, Iterable[str]]) -> None:
        """Drop records that PostgreSQL now has, by game (a key goes with its last field); one round trip
        per node."""
        pipe = self.client.pipeline(transaction=False)
        for game_id, names in written.items():
            names = list(names)
            if names:
                pipe.hdel(self.outbox_key(game_id), *names)
        pipe.execute()

    def pending(self, announced_before: float, limit: int) -> list[tuple[str, float]]:
        """Games announced before that time (oldest first) with their scores."""
        rows = self.client.zrangebyscore(
            self.PENDING, "-inf", announced_before, start=0, num=limit, withscores=True
        )
        return [(_text(game_id), float(score)) for game_id, score in rows]

    def settle(self, announcements: Iterable[tuple[str, float]]) -> int:
        """Take games off the pending set, each unless it was announced again after its score; returns
        how many were. One round trip."""
        args = [part for game_id, score in announcements for part in (game_id, repr(score))]
        return int(self._settle(keys=[self.PENDING], args=args)) if args else 0

    def pending_summary(self) -> tuple[int, float | None]:
        """How many games are pending and when the oldest was announced (None: none is)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zcard(self.PENDING)
        pipe.zrange(self.PENDING, 0, 0, withscores=True)
        count, oldest = pipe.execute()
        return int(count), (float(oldest[0][1]) if oldest else None)

    def hold_drain_lock(self, owner: str, ms: int) -> bool:
        """Take or extend the deployment's drain lock for ``owner``; False while another holds it."""
        return bool(self._drain_lock(keys=[self.DRAIN_LOCK], args=[owner, ms]))

    def retire(self, game_ids: Sequence[str], grace: int) -> list[bool]:
        """Finished matches whose records PostgreSQL has: every key of each expires after ``grace``
        seconds. Refused (False) for a game whose outbox still holds records. One round trip per node
        (the script's text travels with each game: a Cluster's pipeline cannot load it first)."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            keys = [
                self.state_key(game_id),
                self.events_key(game_id),
                self.hands_key(game_id),
                self.idempotency_set_key(game_id),
                self.outbox_key(game_id),
            ]
            pipe.execute_command("EVAL", RETIRE_LUA, len(keys), *keys, grace)  # (a Cluster's has no eval())
        return [bool(done) for done in pipe.execute()]


# The store's "Redis is down / refused" failure, under a name the HTTP layer can catch without importing
# redis itself.
StoreUnavailable = redis.exceptions.RedisError
# Every failure of reaching Redis, a Cluster whose nodes all refuse included (not a RedisError).
STORE_FAILURES = (redis.exceptions.RedisError, redis.exceptions.RedisClusterException)
# … and the one of a Redis that does not answer in time (hung, or far too busy).
StoreTimeout = redis.exceptions.TimeoutError
