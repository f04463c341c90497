"""Challenges in Redis: one player's offer of a game to another, named player, until it is accepted,
declined, cancelled or expires. Live data: a challenge lives a while after it ends (its two sides may
still look at how it ended), then expires.

Keys:

``gin:ch:{<id>}``         hash ``status`` (``open``, ``accepted``, ``declined``, ``canceled``) and
                          ``doc`` (the challenge, JSON); expires :data:`KEPT_AFTER` seconds after the
                          challenge's own expiry
``gin:acct:{<p>}:ch``     sorted set ``challenge id -> its expiry`` of each side (``<p>``: a digest of the
                          case-folded name, as :mod:`~ginrummy.store.account_live`'s keys)

A change of status is a compare-and-set on the challenge's one key (:meth:`ChallengeStore.move`): of two
answers at once (an accept and a cancel), one wins.
"""

from __future__ import annotations

import time
from typing import Any

import orjson

from .account_live import _tag, _text

KEPT_AFTER = 3600  # seconds a challenge is kept after its expiry (its sides may look at how it ended)

MOVE_LUA = """
if redis.call('HGET', KEYS[1], 'status') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'doc', ARGV[3])
return 1
"""


class ChallengeStore:
    """Challenges and each player's list of them."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._move = client.register_script(MOVE_LUA)

    @staticmethod
    def key(challenge_id: str) -> str:
        return f"gin:ch:{{{challenge_id}}}"

    @staticmethod
    def index_key(player: str) -> str:
        return "gin:acct:{" + _tag("player\n" + player.casefold()) + "}:ch"

    def create(
        self,
        challenge_id: str,
        doc: dict[str, Any],
        expires_at: float,
        sides: list[str],
        status: str = "open",
    ) -> None:
        """A new challenge (``open``; a house bot's is ``accepted`` at once), listed for each of ``sides``
        (the players' names)."""
        key = self.key(challenge_id)
        ttl = max(1, int(expires_at - time.time())) + KEPT_AFTER
        pipe = self.client.pipeline(transaction=False)  # one round trip per node (the keys' many slots)
        pipe.hset(key, mapping={"status": status, "doc": orjson.dumps(doc)})
        pipe.expire(key, ttl)
        for side in sides:
            index = self.index_key(side)
            pipe.zadd(index, {challenge_id: expires_at})
            pipe.zremrangebyscore(index, "-inf", time.time() - KEPT_AFTER)
            pipe.expire(index, ttl)
        pipe.execute()

    def get(self, challenge_id: str) -> tuple[str, dict[str, Any]] | None:
        """(status, doc) of the challenge; None when there is none (or it is long gone)."""
        return self.get_many([challenge_id])[0]

    def move(self, challenge_id: str, status: str, to: str, doc: dict[str, Any]) -> bool:
        """Set the challenge's status ``to`` (and its doc) if it is ``status`` now; False otherwise."""
        return bool(self._move(keys=[self.key(challenge_id)], args=[status, to, orjson.dumps(doc)]))

    def of_player(self, player: str, limit: int = 100) -> list[str]:
        """The ids of the player's challenges (sent and received) not long expired, newest expiry first."""
        raw = self.client.zrevrangebyscore(
            self.index_key(player), "+inf", time.time() - KEPT_AFTER, start=0, num=limit
        )
        return [_text(item) for item in raw]

    def get_many(self, challenge_ids: list[str]) -> list[tuple[str, dict[str, Any]] | None]:
        """Several challenges in one round trip per node."""
        pipe = self.client.pipeline(transaction=False)
        for challenge_id in challenge_ids:
            pipe.hgetall(self.key(challenge_id))
        out: list[tuple[str, dict[str, Any]] | None] = []
        for raw in pipe.execute():
            fields = {_text(k): v for k, v in raw.items()}
            out.append((_text(fields["status"]), orjson.loads(fields["doc"])) if fields else None)
        return out
