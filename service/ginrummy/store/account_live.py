"""What Redis keeps for accounts: each player's games in play, and the counters of failed sign-ins.

Keys (each its own Cluster slot; every operation touches one key):

``gin:acct:{<p>}:live``   sorted set ``game id -> time the seat was tied`` of player ``<p>`` (a digest of
                          the case-folded name), expiring ``live_ttl`` after its last write — as a game
                          in play does
``gin:acct:{<p>}:ev``     stream: the player's account events (``gameStart``, ``gameFinish``,
                          ``challenge``, …), the last :data:`EVENTS_KEPT`, expiring ``live_ttl`` after
                          the last; each one announced on the channel ``gin:{acct:<p>}:n`` (the commit
                          notifications' pattern: :mod:`ginrummy.store.notify` wakes the waiting streams)
``gin:acct:online``       sorted set ``folded name -> last seen``: accounts with an account stream open
                          (bots are listed as online from it)
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

from .notify import Notifier, wait_until

EVENTS_KEPT = 200  # account events kept per player (a stream resumed from an older one starts afresh)


def _tag(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _field(fields: dict[Any, Any]) -> str:
    """The event of a stream entry (its one field ``e``)."""
    return _text(fields[b"e"] if b"e" in fields else fields["e"])


class AccountLive:
    """Per-player indexes of live games, and sign-in failure counters."""

    def __init__(self, client: Any, *, live_ttl: int, notifier: Notifier | None = None) -> None:
        self.client = client
        self.live_ttl = live_ttl
        self.notifier = notifier or Notifier(client)

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
        return [_text(item) for item in raw]

    # --- account events -----------------------------------------------------------------------------
    @staticmethod
    def events_key(player: str) -> str:
        return "gin:acct:{" + _tag("player\n" + player.casefold()) + "}:ev"

    @staticmethod
    def _watched(player: str) -> str:
        """What :class:`Notifier` watches for a player's events (its channel is ``gin:{<this>}:n``)."""
        return "acct:" + _tag("player\n" + player.casefold())

    def publish(self, players: list[str], event: str) -> None:
        """Append the event (JSON text) to each player's account events and wake their streams."""
        if not players:
            return
        pipe = self.client.pipeline(transaction=False)
        for player in players:
            key = self.events_key(player)
            pipe.xadd(key, {"e": event}, maxlen=EVENTS_KEPT, approximate=True)
            pipe.expire(key, self.live_ttl)
        pipe.execute()
        for player in players:  # (a Cluster's pipeline takes no PUBLISH)
            self.client.publish("gin:{" + self._watched(player) + "}:n", "1")

    def last_event_id(self, player: str) -> str:
        """The id of the player's newest account event ("0-0": none)."""
        rows = self.client.xrevrange(self.events_key(player), count=1)
        return _text(rows[0][0]) if rows else "0-0"

    def events(
        self, player: str, after: str, *, wait: float = 0.0, count: int = 100
    ) -> list[tuple[str, str]]:
        """The player's account events after the id ``after`` (exclusive), as ``(id, JSON text)``; with
        ``wait`` > 0 and none, wait up to that many seconds for one."""
        key = self.events_key(player)
        deadline = time.monotonic() + wait
        with self.notifier.watch(self._watched(player)) as changed:
            while True:
                rows = self.client.xrange(key, min="(" + after, count=count)
                if rows or time.monotonic() >= deadline:
                    return [(_text(event_id), _field(fields)) for event_id, fields in rows]
                wait_until(changed, deadline, self.notifier.recheck_interval())

    ONLINE = "gin:acct:online"
    FOLLOWING = "gin:acct:following"  # … and those of them whose stream asked for followed players' games

    def seen(self, player: str, *, following: bool = False) -> None:
        """The player has an account stream open now (``following``: one that asked for the games the
        players it follows start)."""
        now = time.time()
        self.client.zadd(self.ONLINE, {player.casefold(): now})
        if following:
            self.client.zadd(self.FOLLOWING, {player.casefold(): now})

    def is_online(self, player: str, within: float) -> bool:
        """Whether the player was seen in the last ``within`` seconds."""
        at = self.client.zscore(self.ONLINE, player.casefold())
        return at is not None and float(at) >= time.time() - within

    def following_now(self, players: list[str], within: float) -> list[str]:
        """Those of ``players`` whose stream asking for followed players' games was seen in the last
        ``within`` seconds (older entries are dropped)."""
        if not players:
            return []
        now = time.time()
        pipe = self.client.pipeline(transaction=False)
        pipe.zremrangebyscore(self.FOLLOWING, "-inf", now - max(within, 3600))
        for player in players:
            pipe.zscore(self.FOLLOWING, player.casefold())
        scores = pipe.execute()[1:]
        return [p for p, at in zip(players, scores, strict=True) if at is not None and at >= now - within]

    def online(self, within: float) -> list[str]:
        """The (case-folded) players seen in the last ``within`` seconds; older entries are dropped."""
        now = time.time()
        pipe = self.client.pipeline(transaction=False)
        pipe.zremrangebyscore(self.ONLINE, "-inf", now - max(within, 3600))
        pipe.zrangebyscore(self.ONLINE, now - within, "+inf")
        return [_text(name) for name in pipe.execute()[1]]

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
