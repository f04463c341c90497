"""Bookkeeping around a match's life: the bounds on games in play (counted at creation, released at the
end), and a finished match applied to its players' records and ratings — exactly once per game."""

from __future__ import annotations

import hashlib
import logging
import time

from ginrummy.engine import MatchEnd
from ginrummy.store import GameStore, StoreError, TooManyLiveGames
from ginrummy.store.players import PlayerStore

from . import metrics, ratings
from .config import Config
from .errors import ServiceError
from .match import Match

log = logging.getLogger(__name__)

SERVICE_FULL_RETRY = 60  # seconds a client is told to wait when the service holds all the games it may


class Bookkeeping:
    """Counts games in play and records finished ones."""

    def __init__(self, store: GameStore, players: PlayerStore, config: Config) -> None:
        self.store = store
        self.players = players
        self.config = config

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
        """After the commit that ended the match: counts, bounds, players' records and ratings."""
        metrics.record_game_finished()
        if match.meta.client_key is not None:
            self.store.release_live_game(match.game_id, match.meta.client_key)
        self.record(match)

    def record(self, match: Match) -> None:
        """Apply a finished match to its players' records and ratings: exactly once per game (the player
        store keeps which games it applied), so any later read may safely try again."""
        meta, game = match.meta, match.game
        seats = tuple(seat.player for seat in meta.seats)
        if not any(seats) or game.end_reason == MatchEnd.ABORTED:
            return
        winner = game.match_winner
        family = meta.rating_family or "casual"
        rated = meta.rated and all(seats) and winner is not None
        stats = tuple({k: v for k, v in s.items() if isinstance(v, int)} for s in game.stats())
        rate = (lambda before: ratings.rate(before, winner)) if rated and winner is not None else None
        try:
            self.players.record_game(
                match.game_id,
                family,
                rated,
                (seats[0], seats[1]),
                winner,
                (stats[0], stats[1]),
                game.end_reason,
                time.time(),
                rate,
            )
        except StoreError:  # the game's end is committed and stands; a later read of the game retries
            log.exception("recording the finished game %s for its players failed", match.game_id)
