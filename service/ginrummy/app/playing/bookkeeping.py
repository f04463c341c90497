"""Bookkeeping around a match's life: the bounds on games in play (counted at creation, released at the
end), each player's index of its games in play (written when a seat is tied to the player, cleared at
the end), the ``gameStart`` and ``gameFinish`` of the players' account streams, and the count of finished
matches."""

from __future__ import annotations

import hashlib
from typing import Any

from ginrummy.store import GameStore, TooManyLiveGames
from ginrummy.store.account_live import AccountLive

from .. import metrics
from ..config import Config
from ..errors import ServiceError
from ..players.feed import AccountFeed
from ..players.relations import Relations
from .match import Match
from .seats import players_json

SERVICE_FULL_RETRY = 60  # seconds a client is told to wait when the service holds all the games it may


def game_event(kind: str, match: Match, seat: int) -> dict[str, Any]:
    """A ``gameStart`` / ``gameFinish`` event of a match, for the account feed of the player in ``seat``
    (the account stream, opened afresh, starts with the ``gameStart`` of each match in play)."""
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
            "tournament": meta.tournament,
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


class Bookkeeping:
    """Counts games in play and records finished ones."""

    def __init__(
        self, store: GameStore, live: AccountLive, feed: AccountFeed, relations: Relations, config: Config
    ) -> None:
        self.store = store
        self.live = live
        self.feed = feed
        self.relations = relations
        self.config = config

    def tied(self, match: Match, players: list[str | None]) -> None:
        """Seats of the game are tied to these players: it is in play for them (``GET /v1/account/games``)
        and starts on their account streams (``gameStart``)."""
        people = [p for p in players if p and not p.startswith("bot-")]
        self.live.tie(match.game_id, people)
        for seat, person in enumerate(match.meta.seats):
            if person.player and person.player in people and not person.is_bot:
                started = game_event("gameStart", match, seat)
                self.feed.publish(person.player, started)
                if not match.meta.private:
                    self._tell_followers(person.player, started["game"], people)

    def _tell_followers(self, player: str, game: dict[str, Any], seated: list[str]) -> None:
        """``followedGameStart`` on the streams of the player's followers that asked for it (not the
        game's own players: they have their gameStart)."""
        event = {"type": "followedGameStart", "player": player, "game": game}
        here = {name.casefold() for name in seated}
        for follower in self.relations.followers_listening(player):
            if follower.casefold() not in here:
                self.feed.publish(follower, event)

    def reserve(self, game_id: str, client: str, *, public: bool = False) -> str:
        """Count a new game against the bounds on games in play; returns the client's key (a digest of
        its address, kept in the game's metadata to release it at the end)."""
        client_key = hashlib.sha256(f"gin-client\n{client}".encode()).hexdigest()[:24]
        config = self.config
        try:
            self.store.reserve_live_game(
                game_id,
                client_key,
                per_client=config.max_live_games_per_client,
                overall=config.max_live_games,
                public=public,
            )
        except TooManyLiveGames as error:
            if error.scope == "client":
                raise ServiceError(
                    "too_many_games",
                    f"this client has {config.max_live_games_per_client} games in play: finish some first",
                ) from None
            raise ServiceError(
                "service_full",
                "the service holds as many games as it may; try again later",
                retry_after=SERVICE_FULL_RETRY,
            ) from None
        return client_key

    def finished(self, match: Match) -> None:
        """After the commit that ended the match: counts and bounds. (Its players' records and ratings
        are the archive's to write, with the match: :mod:`ginrummy.app.archive.writing`.)"""
        metrics.record_game_finished()
        self.live.untie(match.game_id, [seat.player for seat in match.meta.seats if seat.player])
        for seat, person in enumerate(match.meta.seats):
            if person.player and not person.is_bot:
                self.feed.publish(person.player, game_event("gameFinish", match, seat))
        if match.meta.client_key is not None:
            self.store.release_live_game(match.game_id, match.meta.client_key)
