"""Time and forfeits, the match's life beyond its moves: time (every change settles the clock; a passed
deadline is a loss on time, committed by the first request that finds it) and forfeits — a loss on time,
or a seat idle so long that the other may claim the win."""

from __future__ import annotations

import dataclasses

from ginrummy.engine import MatchEnd

from .. import clocks, security
from ..calls import Caller, Result
from ..clocks import Clock
from ..config import Config
from ..errors import ServiceError
from .bookkeeping import Bookkeeping
from .match import Match, claim_after
from .seats import Seating
from .unit_of_work import UnitOfWork


def tick(match: Match) -> None:
    """At every change: note the time, and settle the clock (the seat to act next, if a human)."""
    meta, game = match.meta, match.game
    now = clocks.now_ms()
    clock = meta.clock
    if clock is not None:
        # Nobody's clock runs before the invited player has joined, nor for a bot, nor at the end.
        to_act = game.to_act
        human = to_act is not None and not meta.seats[to_act].is_bot and not game.match_over
        running = to_act if human and not meta.waiting_for_opponent else None
        clock = clocks.settle(clock, running, now_ms=now, increment=not game.match_over)
    match.meta = dataclasses.replace(meta, last_change_ms=now, clock=clock)


class Life:
    """Clocks, forfeits and claims."""

    def __init__(self, work: UnitOfWork, seating: Seating, books: Bookkeeping, config: Config) -> None:
        self.work = work
        self.seating = seating
        self.books = books
        self.config = config

    def expire_if_due(self, game_id: str) -> int | None:
        """Commit the loss on time of a seat whose deadline has passed (see :meth:`enforce_clock`);
        returns the deadline that runs now (unix ms), or None."""
        return self.expire_clock(game_id, self.work.load_meta(game_id).clock)

    def expire_clock(self, game_id: str, clock: Clock | None) -> int | None:
        """:meth:`expire_if_due` for a game whose clock the caller has read already."""
        if clock is None:
            return None
        if clocks.expired(clock, now_ms=clocks.now_ms()) is None:
            return clocks.deadline_ms(clock)
        clock = self.enforce_clock(self.work.load(game_id)).meta.clock
        return clocks.deadline_ms(clock) if clock else None

    def enforce_clock(self, match: Match) -> Match:
        """The loss on time of a seat whose deadline has passed, committed by the first request that
        finds it (any read or move); the version check makes it happen once. Returns the match as it is."""
        for _ in range(3):
            seat = clocks.expired(match.meta.clock, now_ms=clocks.now_ms())
            if seat is None or match.game.match_over:
                return match
            try:
                self.forfeit(match, seat, MatchEnd.TIMEOUT)
                return match
            except ServiceError as error:
                if error.code != "stale_version":
                    raise
                match = self.work.load(match.game_id)  # another request applied it first
        return match

    def time_is_up(self, match: Match, seat: int) -> None:
        """A change after a seat's time ran out is refused: the loss on time is committed instead."""
        loser = clocks.expired(match.meta.clock, now_ms=clocks.now_ms())
        if loser is not None:
            self.enforce_clock(match)
            detail = "your time ran out" if loser == seat else "the opponent's time ran out: you won"
            raise ServiceError("game_over", f"{detail} (the match is over, lost on time)")

    def forfeit(self, match: Match, seat: int, reason: MatchEnd) -> Result:
        """Commit a seat's loss (time, abandonment) as the service's own change of the game."""
        events = match.game.forfeit(seat, reason)
        tick(match)
        result = self.work.commit(match, events, Caller(), seat=1 - seat, idem_key=None)
        self.books.finished(match)
        return result

    def claim_victory(self, game_id: str, caller: Caller) -> Result:
        """The waiting seat claims the game: the opponent's time is up, or (without a time control) it
        has not moved for ``GIN_ABANDON_AFTER`` seconds."""
        match = self.work.load(game_id)
        seat = self.seating.require_seat(match.meta, security.require_token(caller.token))
        if match.game.match_over:
            raise ServiceError("game_over", "the match is over")
        meta, game = match.meta, match.game
        other = 1 - seat
        if game.to_act != other or meta.seats[other].is_bot or meta.waiting_for_opponent:
            raise ServiceError("nothing_to_claim", "it is not the opponent's move")
        now = clocks.now_ms()
        if meta.clock is not None:
            if clocks.expired(meta.clock, now_ms=now) != other:
                deadline = clocks.deadline_ms(meta.clock) or now
                raise ServiceError(
                    "too_early", "the opponent still has time", seconds_left=(deadline - now) / 1000
                )
            return self.forfeit(match, other, MatchEnd.TIMEOUT)
        abandon_after = self.config.abandon_after
        left = claim_after(match, seat, abandon_after, now)  # (the view's claim_after: the same rule)
        if left is None:
            raise ServiceError("nothing_to_claim", "it is not the opponent's move")
        if left > 0:
            idle = abandon_after - left
            raise ServiceError(
                "too_early",
                f"the opponent has been idle {idle:.0f} s; it may be claimed after {abandon_after} s",
                seconds_left=left,
            )
        return self.forfeit(match, other, MatchEnd.ABANDONED)
