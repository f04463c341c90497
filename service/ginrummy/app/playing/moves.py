"""A seat's change of a match — an action of ``legal_actions`` or an undo — in one pipeline, written
once (:meth:`Moves.change`), after boardgame.io's ``Master``:

1. load — the match and, with an Idempotency-Key, its record (one round trip); a request already
   applied is answered from its record and nothing else happens;
2. check — the caller's seat, the version the change was chosen from, both seats taken, time left;
3. engine — one :data:`Step` applies the seat's action (or undo) and returns the engine's events;
4. bots — while the house bot is to act, it acts, in this same request;
5. commit — state, events, a finished hand's record and the idempotency record in ONE atomic store call
   (:class:`~ginrummy.app.playing.unit_of_work.UnitOfWork`), answered with what the seat may see.

A refusal at any step before the commit changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ginrummy.engine import Action, Event, Game
from ginrummy.engine.actions import REMATCH
from ginrummy.engine.errors import GinRummyError

from .. import clocks, metrics, security
from ..calls import Caller, Result
from ..errors import ActionRefused, ServiceError, stale
from . import dealing
from .bookkeeping import Bookkeeping
from .forfeits import Life, tick
from .match import Match
from .seats import Seating
from .starting import Matches
from .unit_of_work import Replay, UnitOfWork

# Step 3 of a change: change the loaded match for the seat; return the events it made.
Step = Callable[[Match, int], list[Event]]


class Moves:
    """Actions and undo."""

    def __init__(
        self, work: UnitOfWork, seating: Seating, life: Life, books: Bookkeeping, matches: Matches
    ) -> None:
        self.work = work
        self.seating = seating
        self.life = life
        self.books = books
        self.matches = matches

    def act(self, game_id: str, action: dict[str, Any], caller: Caller) -> Result:
        """Any element of the caller's ``legal_actions``: a move of the play, resign, abort or rematch."""
        if action.get("type") == REMATCH:
            if set(action) - {"type", "kind"} or action.get("kind", "match") != "match":
                raise ServiceError("bad_action", "rematch takes no field but its type")
            caller.precondition.wanted()  # as every action posted here (a rematch's own endpoint needs none)
            return self.matches.rematch(game_id, caller)
        parsed = Action.from_json(action)  # its shape is refused before any state is looked at
        return self.change(game_id, caller, lambda match, seat: self._apply(match, seat, parsed))

    def undo(self, game_id: str, caller: Caller) -> Result:
        return self.change(game_id, caller, self._undo)

    def change(self, game_id: str, caller: Caller, step: Step) -> Result:
        """A seat's change of the game: the steps of the module docstring."""
        token = security.require_token(caller.token)
        key = caller.idempotency_key
        idem_key = security.scoped_key(token, key) if key else None
        match = self.work.load_for_write(game_id, idem_key)
        if isinstance(match, Replay):
            return self.work.replay(match, caller)
        seat = self.seating.require_seat(match.meta, token)
        wanted = caller.precondition.wanted()
        if wanted is not None and wanted != match.version:
            raise stale(
                match.version,
                f"the game is at version {match.version}, not {wanted}: GET it and choose again",
            )
        if match.meta.waiting_for_opponent:
            raise ServiceError("waiting_for_opponent", "the second player has not joined yet")
        self.life.time_is_up(match, seat)
        events = step(match, seat)
        events += dealing.bot_replies(match)
        tick(match)
        result = self.work.commit(match, events, caller, seat=seat, idem_key=idem_key)
        if match.game.match_over and not result.replayed:
            self.books.finished(match)
        return result

    @staticmethod
    def _apply(match: Match, seat: int, action: Action) -> list[Event]:
        game = match.game
        try:
            events = dealing.deal(match) if action.type == "deal" else game.apply(seat, action)
        except GinRummyError as error:
            raise refused(error, match, seat) from None
        metrics.record_action(action.type)
        return events

    def berserk(self, game_id: str, caller: Caller) -> Result:
        return self.change(game_id, caller, self._berserk)

    @staticmethod
    def _berserk(match: Match, seat: int) -> list[Event]:
        """An arena's player halves its bank and gives up its increment, before its first move; a win
        then scores one point more (:mod:`ginrummy.app.tournaments.scoring`)."""
        meta = match.meta
        refused = match.berserk_refused(seat)
        if refused is not None or meta.clock is None:
            raise ServiceError("berserk_not_allowed", refused or "berserk needs a clock")
        match.meta = dataclasses.replace(
            meta, berserked=(*meta.berserked, seat), clock=clocks.berserked(meta.clock, seat)
        )
        return [Event("berserk", seat, {}, {})]

    @staticmethod
    def _undo(match: Match, seat: int) -> list[Event]:
        if match.meta.rated:
            raise ServiceError("rated_game", "a rated game offers no undo")
        if not match.meta.assisted:
            # Undoing a stock draw would show the next stock card; between humans that is cheating.
            raise ServiceError(
                "undo_not_allowed", "undo is only allowed in a game against a bot, outside tournaments"
            )
        taken = match.game.undo(seat)
        metrics.record_action("undo")
        return [Event("undo", seat, {"actions_undone": taken}, {})]


def refused(error: GinRummyError, match: Match, seat: int) -> ActionRefused:
    """The engine's refusal with the caller's legal actions (they help and reveal nothing new)."""
    game: Game = match.game
    return ActionRefused(error, match.legal_actions(seat), game.to_act)
