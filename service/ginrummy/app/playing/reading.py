"""Reading a match: a seat's (or a spectator's) view, a finished hand revealed (from Redis while the match
lives, else from the archive), a hint, and the list of public matches in play. A read also commits a loss
on time whose deadline has passed."""

from __future__ import annotations

from typing import Any

import orjson

from ginrummy import bots

from .. import clocks
from ..calls import Result
from ..config import Config
from ..errors import ServiceError
from . import dealing
from .bookkeeping import Bookkeeping
from .forfeits import Life
from .match import Match
from .render import view
from .seats import Seating, players_json
from .unit_of_work import UnitOfWork

REQUEUE_AFTER_MS = 30_000
"""A searching bot's turn still not played this long after the last change is queued again when read."""
HINT_WAIT = 10.0
"""Seconds a hint request waits for a bot worker's master hint before it answers with the expert's."""


class Reading:
    """Views, hands, hints and the public list of games in play."""

    def __init__(
        self, work: UnitOfWork, seating: Seating, life: Life, books: Bookkeeping, config: Config
    ) -> None:
        self.work = work
        self.seating = seating
        self.life = life
        self.books = books
        self.config = config

    def get_view(self, game_id: str, token: str | None) -> Result:
        match = self.life.enforce_clock(self.work.load(game_id))
        seat = self.seating.seat_in(match.meta, token)
        self._requeue_if_stalled(match)
        body = view(match, seat, abandon_after=self.config.abandon_after)
        if match.game.match_over and not match.archived:
            # Its keys stay in Redis a while (GIN_FINISHED_TTL) after the archive has it: the view says
            # "archived" as soon as its outbox is drained, so readers find its replay at once.
            body["archived"] = not self.work.store.has_outbox(game_id)
        return Result(body, version=match.version)

    def _requeue_if_stalled(self, match: Match) -> None:
        """A searching bot still to act long after the last change (its job was lost: the web process
        that committed died before queueing it) is queued again — at most once a while per game."""
        changed = match.meta.last_change_ms
        if changed is None or clocks.now_ms() - changed < REQUEUE_AFTER_MS:
            return
        if dealing.awaits_bot_worker(match):
            self.work.bots.nudge(match.game_id, match.version)

    def hand(self, game_id: str, number: int, token: str | None) -> Result:
        match = self.work.load(game_id)
        self.seating.seat_in(match.meta, token)  # a bad token is refused even here
        game = match.game
        record = None if match.archived else self.work.store.hand_record(game_id, number)
        finished = any(summary.number == number for summary in game.summaries)  # as the engine scored it
        if record is None and finished:  # Redis keeps the last hands of a game in play; PostgreSQL all
            archiving = self.work.archiving
            record = archiving.read(archiving.archive.hand, game_id, number)
        if record is None:
            if number == game.hand_number and not game.hand_over and not game.match_over:
                detail = f"hand {number} is still being played; it is revealed once it is over"
            elif number == game.hand_number and not game.hand_over:
                detail = (
                    f"hand {number} was not played to its end (the match ended early): it is never revealed"
                )
            else:
                detail = f"there is no finished hand {number} in this match (it has {game.hand_number})"
            raise ServiceError("hand_not_found", detail)
        return Result(orjson.loads(record), version=match.version)

    def hint(self, game_id: str, token: str | None) -> Result:
        match = self.life.enforce_clock(self.work.load(game_id))
        seat = self.seating.require_seat(match.meta, token)
        if match.meta.rated:
            raise ServiceError("rated_game", "a rated game offers no hints")
        if not match.meta.assisted:
            raise ServiceError(
                "hint_not_allowed", "hints are offered only in games against a bot, outside tournaments"
            )
        seen = view(match, seat, abandon_after=self.config.abandon_after)
        if not seen["your_move"]:
            raise ServiceError("nothing_to_do", "this seat has no move to make now", turn=seen["turn"])
        queue, version = self.work.bots, match.version
        if queue.alive():  # the master's hint, found by a bot worker while this request waits (no CPU)
            found = queue.hint(game_id, version, seat)
            if found is None:
                queue.ask_hint(game_id, version, seat)
                found = queue.hint(game_id, version, seat, wait=HINT_WAIT)
            if found is not None:
                return Result(orjson.loads(found), version=version)
        # No bot worker runs, or none answered in time: the expert's hint, worked out here (milliseconds).
        return Result(dict(bots.hint(seen)), version=version)

    def live_games(self, limit: int) -> Result:
        """The public games in play, newest first."""
        store = self.work.store
        out: list[dict[str, Any]] = []
        game_ids = store.public_games(limit)
        for game_id, stored in zip(game_ids, store.load_many(game_ids), strict=True):
            if stored is None:
                store.forget_public(game_id)
                continue
            match = Match.decode(game_id, stored.version, stored.doc)
            if match.game.match_over:
                continue
            out.append(
                {
                    "game_id": game_id,
                    "players": players_json(match.meta),
                    "rated": match.meta.rated,
                    "rules": match.game.rules.to_dict(),
                    "hand_number": match.game.hand_number,
                    "spectate": f"/v1/games/{game_id}",
                }
            )
        return Result({"games": out})
