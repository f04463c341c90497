"""Relations (lila's ``relation``): an account follows players — people and bots — and sees who of them is
online and playing; or blocks one. A block is the blocker's alone and is never shown to the blocked: a
blocked player's challenge is declined as any challenge may be, and the two are never paired in an
arena's wave."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ginrummy.store.account_live import AccountLive
from ginrummy.store.relations import Kind, RelationStore

from .. import security
from ..calls import Result
from ..errors import ServiceError
from .feed import AccountFeed
from .identity import Identities, Identity

PLAYING_SHOWN = 5  # the games in play listed for each player followed


class Relations:
    """Follows and blocks."""

    def __init__(
        self, store: RelationStore, identities: Identities, feed: AccountFeed, live: AccountLive
    ) -> None:
        self.store = store
        self.identities = identities
        self.feed = feed
        self.live = live

    def _me(self, token: str | None) -> Identity:
        me = self.identities.of(security.require_token(token))
        if me is None or me.player_id is None:
            raise ServiceError("account_required", "follows and blocks are an account's: sign in first")
        return me

    def _set(self, kind: Kind, name: str, token: str | None, on: bool) -> str:
        me = self._me(token)
        if on:
            me.require_play()  # (a read-only token only reads)
        if name.casefold() == me.name.casefold():
            raise ServiceError("forbidden", "you cannot follow or block yourself")
        assert me.player_id is not None
        found = self.store.relate(kind, me.player_id, name, on)
        if found is None:
            raise ServiceError("player_not_found", f"there is no player {name!r}")
        return found

    def follow(self, name: str, token: str | None, on: bool = True) -> Result:
        return Result({"player": self._set("follows", name, token, on), "following": on})

    def block(self, name: str, token: str | None, on: bool = True) -> Result:
        return Result({"player": self._set("blocks", name, token, on), "blocking": on})

    def following(self, token: str | None) -> Result:
        """The players the caller follows: whether each is online (its account stream open) and its
        games in play (to watch, or to challenge the one who is free)."""
        me = self._me(token)
        assert me.player_id is not None
        online = set(self.feed.online())
        players: list[dict[str, Any]] = []
        for name, bot in self.store.of("follows", me.player_id):
            players.append(
                {
                    "name": name,
                    "bot": bot,
                    "online": name.casefold() in online,
                    "playing": self.live.live_games(name, PLAYING_SHOWN),
                }
            )
        return Result({"players": players})

    def blocking(self, token: str | None) -> Result:
        """The players the caller blocks (only the caller sees this list)."""
        me = self._me(token)
        assert me.player_id is not None
        return Result({"players": [name for name, _ in self.store.of("blocks", me.player_id)]})

    def blocks(self, blocker: str, blocked: str) -> bool:
        return self.store.blocks(blocker, blocked)

    def blocked_pairs(self, names: Sequence[str]) -> set[frozenset[str]]:
        """The pairs (case-folded names) of these players of which one blocks the other."""
        return self.store.blocked_pairs(names)

    def followers(self, name: str) -> int:
        return self.store.followers(name)

    def online(self, name: str) -> bool:
        """Whether the player has its account stream open now (a profile's online dot)."""
        return self.feed.is_online(name)

    def followers_listening(self, name: str) -> list[str]:
        """Those who follow ``name`` (and whom it does not block) with a stream open now that asked for
        the games of players they follow: whom to tell that it starts one."""
        return self.feed.following_now(self.store.followers_of(name))
