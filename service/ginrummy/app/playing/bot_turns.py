"""A searching bot's turns, and the master's hints, worked out by the bot workers (``ginrummy-bots``),
never in a web request.

A master's decision costs tens of milliseconds of CPU, up to a few hundred; in a gevent web worker that
would stall every request of the worker meanwhile. So a commit after which such a bot is to act queues
its turn (:meth:`~ginrummy.app.playing.unit_of_work.UnitOfWork.commit` →
:class:`~ginrummy.store.bot_jobs.BotQueue`), and a bot worker takes the job and calls
:meth:`BotTurns.play`: load the match, check that it is still at the job's version with the bot to act,
let the bot act until it is the other seat's turn, commit at that version. The human sees the bot's moves
through the match's events, as an opponent's.

The commit is a compare-and-set on the version: a change made meanwhile (the human resigned, a second
worker played the same job) makes the play a no-op, never a second move.

A hint (:meth:`BotTurns.hint`) is found the same way, for a seat's view at a version, and kept where the
request that asked for it waits (:meth:`ginrummy.store.bot_jobs.BotQueue.hint`).
"""

from __future__ import annotations

from typing import Literal

import orjson

from ginrummy import bots
from ginrummy.engine import Event, seat_view

from ..calls import Caller
from ..errors import ServiceError
from . import dealing
from .bookkeeping import Bookkeeping
from .forfeits import tick
from .match import Match
from .render import BOT_VIEW_OMITS
from .unit_of_work import UnitOfWork

Outcome = Literal["played", "hinted", "stale", "gone"]

WORKER = Caller(client="bot-worker")
"""The caller of a bot worker's commits (no token: the worker is the service itself)."""


class BotTurns:
    """Plays a searching bot's turn of a game."""

    def __init__(self, work: UnitOfWork, books: Bookkeeping) -> None:
        self.work = work
        self.books = books

    def play(self, game_id: str, version: int) -> Outcome:
        """The bot's moves in ``game_id`` if it is still at ``version`` with the bot to act: ``played``;
        ``stale`` when the game moved on (nothing to do), ``gone`` when it is no longer in play."""
        try:
            match = self.work.load(game_id)
        except ServiceError:
            return "gone"
        if match.archived or match.version != version or not dealing.awaits_bot_worker(match):
            return "stale"
        seat = dealing.bot_to_act(match)
        assert seat is not None
        return self._commit(match, dealing.bot_replies(match, search=True), seat)

    def next_hand(self, game_id: str) -> Outcome:
        """Deal the next hand of two house bots (a tournament's match) and let them play it, up to its end
        or a searching bot's turn (queued for the workers): ``played``; ``stale`` when they are not between
        hands (or another step dealt it meanwhile)."""
        match = self.work.load(game_id)
        if match.archived or not dealing.bots_between_hands(match):
            return "stale"
        return self._commit(match, dealing.deal(match) + dealing.bot_replies(match), 0)

    def _commit(self, match: Match, events: list[Event], seat: int) -> Outcome:
        """Commit the bots' moves as the service's own change: ``played``, or ``stale`` when the game
        moved on (or ended, or left Redis) meanwhile."""
        tick(match)
        try:
            self.work.commit(match, events, WORKER, seat=seat, idem_key=None)
        except ServiceError as error:
            if error.code in ("stale_version", "game_not_found", "game_archived"):
                return "stale"
            raise
        if match.game.match_over:
            self.books.finished(match)
        return "played"

    def hint(self, game_id: str, version: int, seat: int) -> Outcome:
        """The master's hint to ``seat`` at ``version``, kept for the request waiting for it: ``hinted``;
        ``stale`` when the game moved on, the seat has no move or the hint is there already."""
        try:
            match = self.work.load(game_id)
        except ServiceError:
            return "gone"
        queue = self.work.bots
        if match.version != version or match.archived or queue.hint(game_id, version, seat) is not None:
            return "stale"
        seen = seat_view(match.game, seat, BOT_VIEW_OMITS)
        if not bots.play_actions(seen):
            return "stale"
        queue.put_hint(game_id, version, seat, orjson.dumps(bots.master_hint(seen)).decode())
        return "hinted"
