"""The account feed: what happens to a player's account, as it happens — its matches starting and
finishing, challenges received, cancelled and declined — so that a client or a bot on any device finds its
matches without polling them (lichess's ``/api/stream/event`` is the anchor).

Events are kept per player in Redis (:class:`~ginrummy.store.account_live.AccountLive`, the last 200)
with ids that order them; a stream resumed from the last id it saw (``Last-Event-ID`` or ``?since=``)
gets what it missed, if still kept. A stream opened afresh starts with the present: a ``gameStart`` for
every match in play and a ``challenge`` for every open challenge received, then what comes
(:mod:`ginrummy.app.accounts.stream`).

Event types: ``gameStart``, ``gameFinish`` (published by a match's bookkeeping,
:mod:`ginrummy.app.playing.bookkeeping`), ``challenge``, ``challengeCanceled``, ``challengeDeclined``
(by the challenges, :mod:`ginrummy.app.meeting.challenges`), ``followedGameStart`` (a player followed
started a game: only for a stream that asked, ``?follows=true``) and, on the wire, ``keepalive``.
"""

from __future__ import annotations

from typing import Any

from ginrummy.store.account_live import AccountLive

from ..encoding import compact

ONLINE_WITHIN = 60.0  # seconds since a bot account's stream was last seen for it to be listed online


class AccountFeed:
    """Publishes account events and reads them back for the account stream."""

    def __init__(self, live: AccountLive) -> None:
        self.live = live

    def publish(self, player: str | None, event: dict[str, Any]) -> None:
        if player:
            self.live.publish([player], compact(event))

    def last_id(self, player: str) -> str:
        return self.live.last_event_id(player)

    def read(self, player: str, after: str, wait: float) -> list[tuple[str, str]]:
        """Events after ``after`` as ``(id, JSON text)``, waiting up to ``wait`` seconds for one."""
        return self.live.events(player, after, wait=wait)

    def seen(self, player: str, *, following: bool = False) -> None:
        self.live.seen(player, following=following)

    def is_online(self, player: str) -> bool:
        return self.live.is_online(player, ONLINE_WITHIN)

    def following_now(self, players: list[str]) -> list[str]:
        """Those of ``players`` with a stream open now that asked for the games of players they follow."""
        return self.live.following_now(players, ONLINE_WITHIN)

    def online(self) -> list[str]:
        return self.live.online(ONLINE_WITHIN)
