"""What Redis keeps for accounts: each player's games in play, and the counters of failed sign-ins.

Keys (each its own Cluster slot; every operation touches one key):

``gin:acct:{<p>}:live``   sorted set ``game id -> time the seat was tied`` of player ``<p>`` (a digest of
                          the case-folded name), expiring ``live_ttl`` after its last write — as a game
                          in play does
``gin:signin:{<k>}``      a counter of failed sign-ins of one account or one address (``<k>``: a digest),
                          expiring at the end of its window

Games in play live in Redis, so their index does too: it is written in the same breath as the game (a
seat tied to a player at creation, join or a lobby match) and cleared when the match ends, and reading it
never waits on PostgreSQL, which only learns of a match once it is over.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any


def _tag(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


class AccountLive:
    """Per-player indexes of live games, and sign-in failure counters."""

    def __init__(self, client: Any, *, live_ttl: int) -> None:
        self.client = client
        self.live_ttl = live_ttl

    @staticmethod
    def live_key(player: str) -> str:
        return "gin:acct:{" + _tag("player\n" + player.casefold()) + "}:live"

    def tie(self, game_id: str, players: list[str]) -> None:
        """The game is in play for each of ``players`` (seats tied to them)."""
        now = time.time()
        for player in players:
            key = self.live_key(player)
            self.client.zadd(key, {game_id: now}, nx=True)
            self.client.expire(key, self.live_ttl)

    def untie(self, game_id: str, players: list[str]) -> None:
        """The game is over for each of ``players``."""
        for player in players:
            self.client.zrem(self.live_key(player), game_id)

    def live_games(self, player: str, limit: int) -> list[str]:
        """The player's games in play, newest first."""
        raw = self.client.zrevrange(self.live_key(player), 0, limit - 1)
        return [item.decode() if isinstance(item, bytes) else str(item) for item in raw]

    # --- failed sign-ins --------------------------------------------------------------------------
    @staticmethod
    def attempts_key(scope: str) -> str:
        return "gin:signin:{" + _tag(scope) + "}"

    def failures(self, scope: str) -> tuple[int, int]:
        """(failures counted in the current window, seconds until it ends) for ``scope``."""
        key = self.attempts_key(scope)
        pipe = self.client.pipeline(transaction=False)
        pipe.get(key)
        pipe.ttl(key)
        count, ttl = pipe.execute()
        return int(count or 0), max(int(ttl), 0)

    def fail(self, scope: str, window: int) -> None:
        """Count one failure for ``scope``; the window starts at its first failure."""
        key = self.attempts_key(scope)
        pipe = self.client.pipeline(transaction=False)
        pipe.set(key, 0, ex=window, nx=True)  # (EXPIRE … NX needs Redis 7)
        pipe.incr(key)
        pipe.execute()
