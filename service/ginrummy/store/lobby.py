"""The lobby: players' seeks of an opponent, and the matching of two compatible seeks.

Every key lives in the one Cluster hash slot ``{lobby}``, so that matching is ONE Lua script on every
topology (single server, Sentinel, Cluster):

``gin:{lobby}:s:<id>``      hash — one seek (its fields: :meth:`Lobby.get`); expires
``gin:{lobby}:o``           sorted set — the open seeks by creation time (server clock), all families
``gin:{lobby}:o:<family>``  sorted set — the same, of one rules family (what a quick match scans)
``gin:{lobby}:c``           sorted set — the claimed seeks by the time of their claim

A seek's life: ``open`` (in the indexes) → ``claimed`` by a taker (out of the open indexes) →
``matched`` once the service made the game (:meth:`Lobby.complete` publishes on
``gin:{seek-<id>}:n``, so the owner waiting with ``notifier.watch("seek-" + id)`` is woken) — or
``cancelled`` by its owner. Two seeks are compatible when they have the same family, rules text and
``rated`` flag, are not of the same player (names compared case-insensitively) and each player's rating
(:data:`DEFAULT_RATING` when it has none) lies in the other's ``[min_rating, max_rating]``.

Expiry — everything expires:

- an open seek after ``seek_ttl`` seconds (its hash expires; its index entries are pruned by the next
  scripts that meet them, and the indexes themselves expire when nothing was added for longer than any
  member can live);
- a claim is a lease of ``claim_timeout`` seconds (30): a seek claimed longer ago whose game was never
  made (the service died between the claim and :meth:`Lobby.complete`) becomes open again at the next
  :meth:`~Lobby.post`, :meth:`~Lobby.take`, :meth:`~Lobby.get`, :meth:`~Lobby.cancel` or
  :meth:`~Lobby.open_seeks` — by anyone. Until then the late :meth:`~Lobby.complete` still succeeds.
  A claim keeps the seek alive for at least ``claim_timeout + matched_ttl`` seconds;
- a matched or cancelled seek lives ``matched_ttl`` seconds more (120), for its owner to pick it up.

The seek scripts read the server's clock (``TIME``), never a service's. They build the keys of the
seeks they find in an index from a prefix: those keys are in the same slot, which Redis allows.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Collection, Mapping
from typing import Any

from .games import StoreError, _text
from .notify import channel_of

SEEK_TTL = 600  # seconds an open seek waits for an opponent
CLAIM_TIMEOUT = 30.0  # seconds a claim holds without its game being made
MATCHED_TTL = 120  # seconds a matched or cancelled seek is kept for its owner
DEFAULT_RATING = 1500.0  # the rating of a seeker without one, for the range checks
SCAN_LIMIT = 500  # open seeks of a family a quick match looks at (the oldest first)
PRUNE_LIMIT = 100  # expired index entries (and lapsed claims) one script cleans up at most

# Shared by every lobby script. KEYS[1]: the open index, KEYS[2]: the claimed index.
# ARGV[1]: seek key prefix, [2]: family index prefix, [3]: claim timeout, [4]: index TTL,
# [5]: the least TTL of a claimed seek, [6]: the default rating, [7]: prune limit; the script's own from 8.
PRELUDE_LUA = """
local SEEK, FAMILY, CLAIM_TIMEOUT = ARGV[1], ARGV[2], tonumber(ARGV[3])
local INDEX_TTL, CLAIM_HOLD, DEFAULT = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local PRUNE = tonumber(ARGV[7])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local stamp = string.format('%.6f', now)

local function num(value)
  if value then return tonumber(value) end
  return nil
end

local function accepts(low, high, rating)
  return (not low or rating >= tonumber(low)) and (not high or rating <= tonumber(high))
end

local function index_open(id, family, created)
  for _, index in ipairs({KEYS[1], FAMILY .. family}) do
    redis.call('ZADD', index, created, id)
    redis.call('EXPIRE', index, INDEX_TTL)
  end
end

local function unindex(id, family)
  redis.call('ZREM', KEYS[1], id)
  if family then redis.call('ZREM', FAMILY .. family, id) end
end

local function reopen(id)
  redis.call('ZREM', KEYS[2], id)
  local seek = redis.call('HMGET', SEEK .. id, 'status', 'family', 'created')
  if seek[1] ~= 'claimed' then return end
  redis.call('HSET', SEEK .. id, 'status', 'open')
  redis.call('HDEL', SEEK .. id, 'taker', 'taker_key', 'taker_rating', 'claimed_at')
  index_open(id, seek[2], seek[3])
end

local function reopen_lapsed()
  local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - CLAIM_TIMEOUT, 'LIMIT', 0, PRUNE)
  for _, id in ipairs(lapsed) do reopen(id) end
end

local function prune(index, seek_ttl)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', now - seek_ttl, 'LIMIT', 0, PRUNE)) do
    if redis.call('EXISTS', SEEK .. id) == 0 then redis.call('ZREM', index, id) end
  end
end

local function claim(id, taker, taker_key, taker_rating)
  local key = SEEK .. id
  redis.call('HSET', key, 'status', 'claimed', 'taker', taker, 'taker_key', taker_key, 'claimed_at', stamp)
  if taker_rating then redis.call('HSET', key, 'taker_rating', taker_rating) end
  unindex(id, redis.call('HGET', key, 'family'))
  redis.call('ZADD', KEYS[2], now, id)
  redis.call('EXPIRE', KEYS[2], INDEX_TTL)
  if redis.call('TTL', key) < CLAIM_HOLD then redis.call('EXPIRE', key, CLAIM_HOLD) end
  return redis.call('HGETALL', key)
end
"""

# KEYS[3]: the family index, KEYS[4]: the new seek. ARGV[8]: '1' for a quick match, [9]: scan limit,
# [10]: seek TTL, [11]: the id, [12]: the players whose seeks a quick match skips (folded names, one a
# line), then the seek's fields (name, value, …). Returns {1, claimed seek} or {0}.
POST_LUA = """
reopen_lapsed()
if redis.call('EXISTS', KEYS[4]) == 1 then return {0} end  -- posted already (a retried call)
local skip = {}
for name in string.gmatch(ARGV[12], '[^\\n]+') do skip[name] = true end
local me, fields = {}, {}
for i = 13, #ARGV, 2 do
  me[ARGV[i]] = ARGV[i + 1]
  fields[#fields + 1] = ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
end
local seek_ttl = tonumber(ARGV[10])
prune(KEYS[1], seek_ttl)
prune(KEYS[3], seek_ttl)
if ARGV[8] == '1' then
  local my_rating = num(me.rating) or DEFAULT
  for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[9]) - 1)) do
    local other = redis.call('HMGET', SEEK .. id, 'status', 'player_key', 'rules', 'rated', 'rating',
                             'min_rating', 'max_rating')
    if other[1] ~= 'open' then
      unindex(id, me.family)
    elseif other[2] ~= me.player_key and not skip[other[2]] and other[3] == me.rules and other[4] == me.rated
        and accepts(me.min_rating, me.max_rating, num(other[5]) or DEFAULT)
        and accepts(other[6], other[7], my_rating) then
      return {1, claim(id, me.player, me.player_key, me.rating)}
    end
  end
end
redis.call('HSET', KEYS[4], 'status', 'open', 'created', stamp, unpack(fields))
redis.call('EXPIRE', KEYS[4], seek_ttl)
index_open(ARGV[11], me.family, stamp)
return {0}
"""

# KEYS[3]: the seek. ARGV[8]: its id, [9]: taker, [10]: taker's folded name, [11]: taker's rating or ''.
# Returns {1, claimed seek} or {0, why, status}.
TAKE_LUA = """
reopen_lapsed()
local seek = redis.call('HMGET', KEYS[3], 'status', 'player_key', 'min_rating', 'max_rating')
if not seek[1] then return {0, 'not_found'} end
if seek[1] ~= 'open' then return {0, 'not_open', seek[1]} end
if seek[2] == ARGV[10] then return {0, 'own_seek'} end
if not accepts(seek[3], seek[4], num(ARGV[11]) or DEFAULT) then return {0, 'rating'} end
local rating = ARGV[11]
if rating == '' then rating = nil end
return {1, claim(ARGV[8], ARGV[9], ARGV[10], rating)}
"""

# KEYS[3]: the seek. ARGV[8]: its id, [9]: game id, [10]: sealed, [11]: matched TTL, [12]: channel.
COMPLETE_LUA = """
local seek = redis.call('HMGET', KEYS[3], 'status', 'game_id')
if not seek[1] then return {0, 'not_found'} end
if seek[1] == 'matched' and seek[2] == ARGV[9] then return {1} end  -- a retried call
if seek[1] ~= 'claimed' then return {0, 'not_open', seek[1]} end
redis.call('HSET', KEYS[3], 'status', 'matched', 'game_id', ARGV[9], 'sealed', ARGV[10], 'matched_at', stamp)
redis.call('ZREM', KEYS[2], ARGV[8])
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[11]))
redis.call('PUBLISH', ARGV[12], 'matched')
return {1}
"""

# ARGV[8]: the seek's id.
RELEASE_LUA = """
reopen(ARGV[8])
return 1
"""

# KEYS[3]: the seek. ARGV[8]: its id, [9]: the owner's secret hash, [10]: matched TTL, [11]: channel.
CANCEL_LUA = """
reopen_lapsed()
local seek = redis.call('HMGET', KEYS[3], 'status', 'secret_hash', 'family')
if seek[2] ~= ARGV[9] then return 0 end
if seek[1] == 'cancelled' then return 1 end  -- a retried call
if seek[1] ~= 'open' then return 0 end
redis.call('HSET', KEYS[3], 'status', 'cancelled')
unindex(ARGV[8], seek[3])
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[10]))
redis.call('PUBLISH', ARGV[11], 'cancelled')
return 1
"""

# KEYS[3]: the seek.
GET_LUA = """
reopen_lapsed()
return redis.call('HGETALL', KEYS[3])
"""

# KEYS[3]: the index to list. ARGV[8]: how many at most, [9]: seek TTL.
OPEN_LUA = """
reopen_lapsed()
prune(KEYS[3], tonumber(ARGV[9]))
local seeks = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[8]) - 1)) do
  local seek = redis.call('HGETALL', SEEK .. id)
  if #seek > 0 then seeks[#seeks + 1] = seek end
end
return seeks
"""


class SeekNotFound(StoreError):
    """There is no such seek (never posted, or expired)."""


class SeekNotOpen(StoreError):
    """The seek is no longer open (``status``: claimed, matched or cancelled)."""

    def __init__(self, status: str) -> None:
        super().__init__(f"the seek is {status}")
        self.status = status


class SeekIncompatible(StoreError):
    """The seek cannot be taken by this player (``reason``: ``"own_seek"`` or ``"rating"``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the seek cannot be taken ({reason})")
        self.reason = reason


def new_seek_id() -> str:
    """A random, url-safe seek id that starts with a letter.

    >>> new_seek_id()[0], len(new_seek_id())
    ('s', 17)
    """
    return "s" + secrets.token_urlsafe(12)


# What a caller may put in a posted seek (the store adds status and the rest). A ``created`` given is
# ignored: a seek's creation time is the Redis server's, the clock its lapses are measured by.
SEEK_INPUT = (
    "id", "player", "rating", "family", "rules", "rated", "min_rating", "max_rating", "secret_hash",
    "created",
)  # fmt: skip
_FLOATS = ("rating", "taker_rating", "created", "claimed_at", "matched_at")
_INTS = ("min_rating", "max_rating")
_TEXTS = ("taker", "game_id", "sealed", "secret_hash")


def _fields(seek: Mapping[str, Any]) -> list[str]:
    """The seek's hash fields as ``name, value, …`` (absent optional values are left out)."""
    unknown = set(seek) - set(SEEK_INPUT)
    if unknown:
        raise ValueError(f"unknown seek fields: {', '.join(sorted(unknown))}")
    for name in ("player", "family", "rules"):
        if not isinstance(seek.get(name), str) or not seek[name]:
            raise ValueError(f"a seek needs a {name}")
    values = {
        "player": seek["player"],
        "player_key": seek["player"].casefold(),
        "family": seek["family"],
        "rules": seek["rules"],
        "rated": "1" if seek.get("rated") else "0",
    }
    if seek.get("rating") is not None:
        values["rating"] = repr(float(seek["rating"]))
    for name in _INTS:
        if seek.get(name) is not None:
            values[name] = str(int(seek[name]))
    if seek.get("secret_hash"):
        values["secret_hash"] = str(seek["secret_hash"])
    return [item for pair in values.items() for item in pair]


def _seek(flat: list[Any]) -> dict[str, Any]:
    """A seek as the lobby returns it, from its hash as HGETALL lists it."""
    raw = {_text(flat[i]): _text(flat[i + 1]) for i in range(0, len(flat), 2)}
    seek: dict[str, Any] = {
        "id": raw["id"],
        "player": raw["player"],
        "family": raw["family"],
        "rules": raw["rules"],
        "rated": raw["rated"] == "1",
        "status": raw["status"],
    }
    seek.update({name: float(raw[name]) if name in raw else None for name in _FLOATS})
    seek.update({name: int(raw[name]) if name in raw else None for name in _INTS})
    seek.update({name: raw.get(name) for name in _TEXTS})
    return seek


class Lobby:
    """Seeks in Redis. ``client`` is any redis-py client (single, Sentinel master or Cluster)."""

    OPEN = "gin:{lobby}:o"
    CLAIMED = "gin:{lobby}:c"
    SEEK_PREFIX = "gin:{lobby}:s:"
    FAMILY_PREFIX = "gin:{lobby}:o:"

    def __init__(
        self,
        client: Any,
        seek_ttl: int = SEEK_TTL,
        *,
        claim_timeout: float = CLAIM_TIMEOUT,
        matched_ttl: int = MATCHED_TTL,
        default_rating: float = DEFAULT_RATING,
        scan_limit: int = SCAN_LIMIT,
    ) -> None:
        self.client = client
        self.seek_ttl = seek_ttl
        self.claim_timeout = claim_timeout
        self.matched_ttl = matched_ttl
        self.default_rating = default_rating
        self.scan_limit = scan_limit
        hold = math.ceil(claim_timeout) + matched_ttl
        # An index outlives every seek in it: an open one (seek_ttl) and a claimed one (hold).
        self._header = [
            self.SEEK_PREFIX,
            self.FAMILY_PREFIX,
            repr(float(claim_timeout)),
            max(seek_ttl, hold) + 1,
            hold,
            repr(float(default_rating)),
            PRUNE_LIMIT,
        ]
        self._post = client.register_script(PRELUDE_LUA + POST_LUA)
        self._take = client.register_script(PRELUDE_LUA + TAKE_LUA)
        self._complete = client.register_script(PRELUDE_LUA + COMPLETE_LUA)
        self._release = client.register_script(PRELUDE_LUA + RELEASE_LUA)
        self._cancel = client.register_script(PRELUDE_LUA + CANCEL_LUA)
        self._get = client.register_script(PRELUDE_LUA + GET_LUA)
        self._open = client.register_script(PRELUDE_LUA + OPEN_LUA)

    # --- keys -------------------------------------------------------------------------------------
    @classmethod
    def seek_key(cls, seek_id: str) -> str:
        return cls.SEEK_PREFIX + seek_id

    @classmethod
    def family_key(cls, family: str) -> str:
        return cls.FAMILY_PREFIX + family

    def _run(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        return script(keys=[self.OPEN, self.CLAIMED, *keys], args=[*self._header, *args])

    # --- seeking ----------------------------------------------------------------------------------
    def post(self, seek: dict[str, Any], *, quick: bool, skip: Collection[str] = ()) -> dict[str, Any] | None:
        """Post a seek: ``player``, ``family``, ``rules`` (text), ``rated``, and optionally ``id`` (when
        missing, a new one is written into ``seek``), ``rating``, ``min_rating``, ``max_rating``,
        ``secret_hash`` (``created`` is allowed, and replaced by the Redis server's time).

        ``quick``: first look for the oldest compatible open seek (among the family's :data:`SCAN_LIMIT`
        oldest, leaving out those of the players named in ``skip``, any case): when there is one, it is
        claimed by this seek's player and returned (status ``claimed``), and this seek is not stored.
        Otherwise this seek is stored, open, and the result is None. A seek whose id exists already is
        not posted again (None).
        """
        fields = _fields(seek)
        seek_id = seek.setdefault("id", new_seek_id())
        keys = [self.family_key(seek["family"]), self.seek_key(seek_id)]
        skipped = "\n".join(name.casefold() for name in skip)
        args = [int(quick), self.scan_limit, self.seek_ttl, seek_id, skipped, "id", seek_id, *fields]
        found = self._run(self._post, keys, args)
        return _seek(found[1]) if found[0] == 1 else None

    def take(self, seek_id: str, taker: str, taker_rating: float | None) -> dict[str, Any]:
        """Claim the open seek ``seek_id`` for ``taker``; returns it (status ``claimed``). Raises
        :class:`SeekNotFound`, :class:`SeekNotOpen`, or :class:`SeekIncompatible` (the taker's own seek,
        or the taker's rating out of the seek's range)."""
        rating = "" if taker_rating is None else repr(float(taker_rating))
        args = [seek_id, taker, taker.casefold(), rating]
        return _seek(self._answer(self._run(self._take, [self.seek_key(seek_id)], args))[1])

    def complete(self, seek_id: str, game_id: str, sealed: str) -> None:
        """The game of a claimed seek exists: the seek becomes ``matched`` with ``game_id`` and the
        owner's ``sealed`` seat token, is kept :data:`MATCHED_TTL` seconds more, and its owner is
        notified. Raises :class:`SeekNotFound` or :class:`SeekNotOpen` (not claimed: lapsed, cancelled,
        matched with another game)."""
        args = [seek_id, game_id, sealed, self.matched_ttl, self.channel(seek_id)]
        self._answer(self._run(self._complete, [self.seek_key(seek_id)], args))

    def release(self, seek_id: str) -> None:
        """The game of a claimed seek could not be made: the seek is open again (anything else: no-op)."""
        self._run(self._release, [self.seek_key(seek_id)], [seek_id])

    def cancel(self, seek_id: str, secret_hash: str) -> bool:
        """The owner withdraws an open seek (True, also when it was cancelled already); False when it is
        claimed or matched, unknown, or the secret does not match."""
        if not secret_hash:
            return False
        args = [seek_id, secret_hash, self.matched_ttl, self.channel(seek_id)]
        return bool(self._run(self._cancel, [self.seek_key(seek_id)], args))

    # --- reading ----------------------------------------------------------------------------------
    def get(self, seek_id: str) -> dict[str, Any] | None:
        """The seek with every field (``id``, ``player``, ``rating``, ``family``, ``rules``, ``rated``,
        ``min_rating``, ``max_rating``, ``created``, ``secret_hash``, ``status``, ``taker``,
        ``taker_rating``, ``claimed_at``, ``game_id``, ``sealed``, ``matched_at``; None where unset),
        or None when there is no such seek."""
        flat = self._run(self._get, [self.seek_key(seek_id)], [])
        return _seek(flat) if flat else None

    def open_seeks(self, limit: int = 100, family: str | None = None) -> list[dict[str, Any]]:
        """The open seeks (of one family, or all), oldest first, with every field: strip the secrets."""
        if limit <= 0:
            return []
        index = self.OPEN if family is None else self.family_key(family)
        found = self._run(self._open, [index], [limit, self.seek_ttl])
        return [seek for seek in map(_seek, found) if seek["status"] == "open"]

    @staticmethod
    def channel(seek_id: str) -> str:
        """Where the seek's match is announced: waiters use ``notifier.watch("seek-" + seek_id)``."""
        return channel_of("seek-" + seek_id)

    @staticmethod
    def _answer(answer: list[Any]) -> list[Any]:
        if answer[0] == 1:
            return answer
        why = _text(answer[1])
        if why == "not_found":
            raise SeekNotFound(why)
        if why == "not_open":
            raise SeekNotOpen(_text(answer[2]))
        raise SeekIncompatible(why)
