"""The account stream: what happens to an account, as it happens — its games starting and finishing,
challenges received, cancelled and declined — so that a client or a bot on any device finds its games
without polling them (lichess's ``/api/stream/event`` is the anchor).

Events are kept per player in Redis (:class:`~ginrummy.store.account_live.AccountLive`, the last 200)
with ids that order them; a stream resumed from the last id it saw (``Last-Event-ID`` or ``?since=``)
gets what it missed, if still kept. A stream opened afresh starts with the present: a ``gameStart`` for
every game in play and a ``challenge`` for every open challenge received, then what comes.

Event types: ``gameStart``, ``gameFinish``, ``challenge``, ``challengeCanceled``, ``challengeDeclined``
(and, on the wire, ``keepalive``).
"""

from __future__ import annotations

from typing import Any

from ginrummy.store.account_live import AccountLive

from .match import Match, compact
from .seats import players_json

ONLINE_WITHIN = 60.0  # seconds since a bot account's stream was last seen for it to be listed online


def game_event(kind: str, match: Match, seat: int) -> dict[str, Any]:
    """A ``gameStart`` / ``gameFinish`` event of a game for the player in ``seat``."""
    meta, game = match.meta, match.game
    other = meta.seats[1 - seat]
    event: dict[str, Any] = {
        "type": kind,
        "game": {
            "game_id": match.game_id,
            "seat": seat,
            "players": players_json(meta),
            "opponent": {"name": other.name, "player": other.player, "bot": other.bot},
            "rated": meta.rated,
            "rules": game.rules.to_dict(),
            "game": f"/v1/games/{match.game_id}",
        },
    }
    if kind == "gameFinish":
        winner = game.match_winner
        reason = game.end_reason.value if game.end_reason else "finished"
        result = (
            "aborted"
            if reason == "aborted"
            else "drawn"
            if winner is None
            else "won"
            if winner == seat
            else "lost"
        )
        event["game"].update(winner=winner, result=result, end_reason=reason)
    return event


class AccountFeed:
    """Publishes account events and reads them back for the account stream."""

    def __init__(self, live: AccountLive) -> None:
        self.live = live

    def publish(self, player: str | None, event: dict[str, Any]) -> None:
        if player:
            self.live.publish([player], compact(event))

    def game_started(self, match: Match, players: list[str | None]) -> None:
        """The game is in play for these players (its seats tied to them at creation, join, a match)."""
        for seat, person in enumerate(match.meta.seats):
            if person.player and person.player in players and not person.is_bot:
                self.publish(person.player, game_event("gameStart", match, seat))

    def game_finished(self, match: Match) -> None:
        for seat, person in enumerate(match.meta.seats):
            if person.player and not person.is_bot:
                self.publish(person.player, game_event("gameFinish", match, seat))

    def last_id(self, player: str) -> str:
        return self.live.last_event_id(player)

    def read(self, player: str, after: str, wait: float) -> list[tuple[str, str]]:
        """Events after ``after`` as ``(id, JSON text)``, waiting up to ``wait`` seconds for one."""
        return self.live.events(player, after, wait=wait)

    def seen(self, player: str) -> None:
        self.live.seen(player)

    def online(self) -> list[str]:
        return self.live.online(ONLINE_WITHIN)
