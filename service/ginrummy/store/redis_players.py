"""The player store: accounts, career counters and statistics, ratings per rules family, leaderboards.

Every key lives in the one Cluster hash slot ``{players}``, so a script or a transaction may touch the
records of both players of a game (and the leaderboard) at once, on every topology:

``gin:{players}:p:<folded>``     hash — ``name`` (as typed), ``created``, ``token`` (its hash),
                                 ``played``/``won``/``lost``/``drawn``, ``s:<stat>`` (summed per-seat
                                 statistics), ``r:<family>`` (JSON ``{"mu", "sigma", "games"}``)
``gin:{players}:t:<token_hash>`` string — the folded name of the token's player
``gin:{players}:g:<folded>``     list — the player's last :data:`RECENT_GAMES` games (JSON), newest first
``gin:{players}:lb:<family>``    sorted set — folded name scored by the ratings' ordinal (``mu - 3 * sigma``)
``gin:{players}:a:<game_id>``    string — the game was applied to the records (expires after
                                 :data:`APPLIED_TTL`: a finished game is recorded within minutes)

``<folded>`` is ``name.casefold()``: names are unique whatever their case.

Players do NOT expire, nor do their leaderboard entries: an account is kept until it is deleted (there
is no deletion yet; the profile keeps its token's hash so that a deletion can find the token's key).
What grows with play is bounded: the recent games are capped, counters and ratings are a few fields.

The store computes no rating: :meth:`PlayerStore.record_game` hands the current ratings to a callback of
the service and writes what it returns, in one script that first checks that the ratings it read are
still there — when another game of the same player was recorded meanwhile, it reads and rates again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from ginrummy.engine.game import MatchEnd

from .games import StoreError, _text

RECENT_GAMES = 20  # games kept in a player's "recent games"
APPLIED_TTL = 30 * 24 * 3600  # seconds a game is remembered as applied (so it is applied once)
MAX_ATTEMPTS = 100  # rating rounds of one record_game before it gives up (RatingContention)

Rating = tuple[float, float]  # (mu, sigma)
RateFunction = Callable[[tuple[Rating | None, Rating | None]], tuple[Rating, Rating]]
Ordinal = Callable[[float, float], float]  # the score a leaderboard ranks (mu, sigma) by

CREATE_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'created', ARGV[2], 'token', ARGV[3],
           'played', 0, 'won', 0, 'lost', 0, 'drawn', 0)
redis.call('SET', KEYS[2], ARGV[4])
return 1
"""

# The token's player's display name, in one round trip (the profile's key is derived from the token's
# value: the same slot, so this is fine on a Cluster).
BY_TOKEN_LUA = """
local folded = redis.call('GET', KEYS[1])
if not folded then return false end
return redis.call('HGET', ARGV[1] .. folded, 'name')
"""

# KEYS: applied marker, leaderboard, then (profile, recent games) of each recorded seat.
# ARGV: marker TTL, recent games kept, rating field, '1' when rated, seats, then per seat: display name,
# created (for a new profile), counter ('won'/'lost'/'drawn'/''), recent-game JSON, expected rating
# (the field as read, '' for none), new rating, leaderboard score, leaderboard member, n stats, n pairs.
# Returns 0: already applied (nothing changed), 1: applied, 2: a rating changed since it was read.
RECORD_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local rated = ARGV[4] == '1'
local seats = {}
local i = 6
for s = 1, tonumber(ARGV[5]) do
  seats[s] = {name = ARGV[i], created = ARGV[i + 1], counter = ARGV[i + 2], recent = ARGV[i + 3],
              expected = ARGV[i + 4], rating = ARGV[i + 5], score = ARGV[i + 6], member = ARGV[i + 7],
              stats = i + 9, n = tonumber(ARGV[i + 8])}
  i = i + 9 + 2 * seats[s].n
end
if rated then
  for s, seat in ipairs(seats) do
    if (redis.call('HGET', KEYS[1 + 2 * s], ARGV[3]) or '') ~= seat.expected then return 2 end
  end
end
for s, seat in ipairs(seats) do
  local profile, recent = KEYS[1 + 2 * s], KEYS[2 + 2 * s]
  if redis.call('EXISTS', profile) == 0 then
    redis.call('HSET', profile, 'name', seat.name, 'created', seat.created,
               'played', 0, 'won', 0, 'lost', 0, 'drawn', 0)
  end
  if seat.counter ~= '' then
    redis.call('HINCRBY', profile, 'played', 1)
    redis.call('HINCRBY', profile, seat.counter, 1)
  end
  for j = 0, seat.n - 1 do
    redis.call('HINCRBY', profile, 's:' .. ARGV[seat.stats + 2 * j], ARGV[seat.stats + 2 * j + 1])
  end
  redis.call('LPUSH', recent, seat.recent)
  redis.call('LTRIM', recent, 0, tonumber(ARGV[2]) - 1)
  if rated then
    redis.call('HSET', profile, ARGV[3], seat.rating)
    redis.call('ZADD', KEYS[2], seat.score, seat.member)
  end
end
redis.call('SET', KEYS[1], '1', 'EX', tonumber(ARGV[1]))
return 1
"""


class NameTaken(StoreError):
    """A player with this name (in any case) exists already."""


class RatingContention(StoreError):
    """A game's ratings could not be written: other games of its players kept changing them."""


def _rating_field(family: str) -> str:
    return f"r:{family}"


def _parse_rating(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    value = json.loads(_text(raw))
    return {"mu": float(value["mu"]), "sigma": float(value["sigma"]), "games": int(value["games"])}


def _mu_sigma(rating: dict[str, Any] | None) -> Rating | None:
    return None if rating is None else (rating["mu"], rating["sigma"])


def _result(seat: int, winner: int | None, aborted: bool) -> str:
    if aborted:
        return MatchEnd.ABORTED.value
    if winner is None:
        return "drawn"
    return "won" if winner == seat else "lost"


def _rating_args(
    ordinal: Ordinal, recent: dict[str, Any], raw: Any, before: dict[str, Any] | None, after: Rating | None
) -> list[Any]:
    """A seat's recent-game entry, expected rating field, new field and leaderboard score for RECORD_LUA
    (the rating change is the ordinal's, None without a rating before or after)."""
    change = None
    if before is not None and after is not None:
        change = round(ordinal(*after) - ordinal(before["mu"], before["sigma"]), 6)
    entry = json.dumps(dict(recent, rating_change=change))
    if after is None:
        return [entry, raw or "", "", ""]
    games = 1 + (before["games"] if before is not None else 0)
    new = json.dumps({"mu": after[0], "sigma": after[1], "games": games})
    return [entry, raw or "", new, repr(ordinal(*after))]


class PlayerStore:
    """Players in Redis. ``client`` is any redis-py client (single, Sentinel master or Cluster)."""

    def __init__(
        self,
        client: Any,
        *,
        ordinal: Ordinal,
        recent_games: int = RECENT_GAMES,
        applied_ttl: int = APPLIED_TTL,
        max_attempts: int = MAX_ATTEMPTS,
    ) -> None:
        self.client = client
        self.ordinal = ordinal  # the ratings' own (ginrummy.app.ratings.ordinal)
        self.recent_games = max(1, recent_games)
        self.applied_ttl = applied_ttl
        self.max_attempts = max_attempts
        self._create = client.register_script(CREATE_LUA)
        self._by_token = client.register_script(BY_TOKEN_LUA)
        self._record = client.register_script(RECORD_LUA)

    # --- keys -------------------------------------------------------------------------------------
    PROFILE_PREFIX = "gin:{players}:p:"

    @classmethod
    def profile_key(cls, name: str) -> str:
        return cls.PROFILE_PREFIX + name.casefold()

    @staticmethod
    def token_key(token_hash: str) -> str:
        return f"gin:{{players}}:t:{token_hash}"

    @staticmethod
    def recent_key(name: str) -> str:
        return f"gin:{{players}}:g:{name.casefold()}"

    @staticmethod
    def leaderboard_key(family: str) -> str:
        return f"gin:{{players}}:lb:{family}"

    @staticmethod
    def applied_key(game_id: str) -> str:
        return f"gin:{{players}}:a:{game_id}"

    # --- accounts ---------------------------------------------------------------------------------
    def create(self, name: str, token_hash: str) -> None:
        """A new player ``name`` (kept as typed for display) signing in with the token of ``token_hash``.
        Raises :class:`NameTaken` when the name is used in any case."""
        if not name or not token_hash:
            raise ValueError("a player needs a name and a token hash")
        keys = [self.profile_key(name), self.token_key(token_hash)]
        if not self._create(keys=keys, args=[name, repr(time.time()), token_hash, name.casefold()]):
            raise NameTaken(name)

    def by_token(self, token_hash: str) -> str | None:
        """The display name of the player of this token, or None."""
        name = self._by_token(keys=[self.token_key(token_hash)], args=[self.PROFILE_PREFIX])
        return None if name is None else _text(name)

    def exists(self, name: str) -> bool:
        return bool(self.client.exists(self.profile_key(name)))

    def get(self, name: str) -> dict[str, Any] | None:
        """The public profile: ``name``, ``created``, ``played``/``won``/``lost``/``drawn``, ``stats``
        (summed counters), ``ratings`` (``{family: {"mu", "sigma", "games"}}``) and ``recent_games``
        (newest first); None when there is no such player."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hgetall(self.profile_key(name))
        pipe.lrange(self.recent_key(name), 0, -1)
        fields, recent = pipe.execute()
        if not fields:
            return None
        profile = {_text(k): _text(v) for k, v in fields.items()}
        stats = {k[2:]: int(v) for k, v in profile.items() if k.startswith("s:")}
        ratings = {k[2:]: _parse_rating(v) for k, v in profile.items() if k.startswith("r:")}
        return {
            "name": profile["name"],
            "created": float(profile["created"]),
            **{counter: int(profile.get(counter, 0)) for counter in ("played", "won", "lost", "drawn")},
            "stats": stats,
            "ratings": ratings,
            "recent_games": [json.loads(_text(entry)) for entry in recent],
        }

    def rating(self, name: str, family: str) -> Rating | None:
        """The player's (mu, sigma) in the family, or None before the first rated game in it."""
        rating = _parse_rating(self.client.hget(self.profile_key(name), _rating_field(family)))
        return None if rating is None else (rating["mu"], rating["sigma"])

    # --- finished games ---------------------------------------------------------------------------
    def record_game(
        self,
        game_id: str,
        family: str,
        rated: bool,
        seats: tuple[str | None, str | None],
        winner: int | None,
        stats: tuple[Mapping[str, int], Mapping[str, int]],
        reason: str | None,
        finished_at: float,
        rate: RateFunction | None,
    ) -> dict[str, Any] | None:
        """Apply a finished game to its players' records, once per ``game_id`` however often it is called.

        ``seats`` are player names (None: an anonymous seat, nothing is recorded for it; a name without
        a profile gets one — that is how the bots' fixed names get theirs). ``winner`` is the seat that
        won, None for a draw — or for an aborted game when ``reason`` is ``MatchEnd.ABORTED``: it counts as
        neither played nor drawn and is never rated. ``stats`` are added to each seat's counters.

        When ``rated``, both seats are (different) players and ``rate`` is given, ``rate((before0,
        before1))`` returns both new (mu, sigma); ``before`` is None for a player without a rating in the
        family yet. It may be called more than once (when another game of a player is recorded at the
        same moment): it must only compute. Returns ``{"before": [...], "after": [...]}`` (one entry a
        seat), or None when nothing was rated or the game had been applied already.
        """
        if winner not in (None, 0, 1):
            raise ValueError(f"winner must be 0, 1 or None, not {winner!r}")
        if seats[0] is not None and seats[1] is not None and seats[0].casefold() == seats[1].casefold():
            return None  # one player on both seats: there is nothing to win or lose
        aborted = winner is None and reason == MatchEnd.ABORTED
        rating_applies = rated and rate is not None and None not in seats and not aborted
        field = _rating_field(family)
        game = {"game_id": game_id, "family": family, "rated": rated, "reason": reason}
        for _ in range(self.max_attempts):
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(self.applied_key(game_id))
            for seat in seats:
                if seat is not None:
                    pipe.hget(self.profile_key(seat), field)
            applied, *found = pipe.execute()
            if applied:
                return None
            raw = [None if seat is None else found.pop(0) for seat in seats]
            before = [_parse_rating(value) for value in raw]
            after: tuple[Rating | None, Rating | None] = (None, None)
            if rate is not None and rating_applies:
                new0, new1 = rate((_mu_sigma(before[0]), _mu_sigma(before[1])))
                after = ((float(new0[0]), float(new0[1])), (float(new1[0]), float(new1[1])))
            keys = [self.applied_key(game_id), self.leaderboard_key(family)]
            args: list[Any] = [self.applied_ttl, self.recent_games, field, int(rating_applies), 0]
            for index, seat in enumerate(seats):
                if seat is not None:
                    args[4] += 1
                    keys += [self.profile_key(seat), self.recent_key(seat)]
                    result = _result(index, winner, aborted)
                    recent = dict(game, opponent=seats[1 - index], result=result, finished_at=finished_at)
                    args += [seat, repr(finished_at), "" if aborted else result]
                    args += _rating_args(self.ordinal, recent, raw[index], before[index], after[index])
                    args += [seat.casefold(), len(stats[index])]
                    args += [item for name, value in stats[index].items() for item in (name, int(value))]
            status = self._record(keys=keys, args=args)
            if status == 0:
                return None
            if status == 1:
                if not rating_applies:
                    return None
                return {"before": [_mu_sigma(rating) for rating in before], "after": list(after)}
        raise RatingContention(f"the ratings of game {game_id} kept changing; gave up")

    # --- leaderboards -----------------------------------------------------------------------------
    def leaderboard(self, family: str, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """The best players of the family by ordinal, from rank ``offset + 1``: ``rank``, ``name``,
        ``mu``, ``sigma``, ``ordinal``, ``games``."""
        if limit <= 0:
            return []
        members = self.client.zrevrange(
            self.leaderboard_key(family), offset, offset + limit - 1, withscores=True
        )
        pipe = self.client.pipeline(transaction=False)
        for member, _ in members:
            pipe.hmget(self.PROFILE_PREFIX + _text(member), ["name", _rating_field(family)])
        rows = []
        for rank, ((_, score), (name, raw)) in enumerate(zip(members, pipe.execute(), strict=True), 1):
            rating = _parse_rating(raw)
            if name is None or rating is None:
                continue
            rows.append(
                {
                    "rank": offset + rank,
                    "name": _text(name),
                    "mu": rating["mu"],
                    "sigma": rating["sigma"],
                    "ordinal": float(score),
                    "games": rating["games"],
                }
            )
        return rows

    def rank(self, name: str, family: str) -> int | None:
        """The player's place on the family's leaderboard (1 is the best), or None when unrated."""
        place = self.client.zrevrank(self.leaderboard_key(family), name.casefold())
        return None if place is None else int(place) + 1
