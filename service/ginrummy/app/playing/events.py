"""Reading a match's events as a seat may see them: a page after a cursor, waiting up to a while for the
first one (a long poll), or the rows a stream sends as they come.

The cursor of an event is its id (:class:`~ginrummy.store.cursor.Cursor`). When the first event after a
cursor does not follow it, older events were trimmed away and the page says ``"truncated": true`` (the
client should GET the view). A wait on a match with a clock also looks at the match at the running seat's
deadline, to commit the loss on time (:class:`ClockWatch`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from ginrummy.store import GameStore
from ginrummy.store.cursor import Cursor

from .. import clocks
from ..config import Config
from ..errors import ServiceError
from .forfeits import Life
from .match import Match, claim_after
from .render import seat_event
from .seats import Seating
from .unit_of_work import UnitOfWork

PAGE_SIZE = 200
GONE_AFTER = 60.0  # seconds a person may sit on its move before the other is told it seems gone …
GONE_SHARE = 5  # … or this share of GIN_ABANDON_AFTER when that is shorter


def gone_after(abandon_after: int) -> float:
    """Seconds of idleness on its move after which a person counts as gone (``opponentGone``).

    >>> gone_after(300), gone_after(10)
    (60.0, 2.0)
    """
    return min(GONE_AFTER, abandon_after / GONE_SHARE)


Row = tuple[str, str]  # a stored event: its cursor and its row


def check_cursor(text: str) -> str:
    """A cursor sent back by a client (e.g. SSE's ``Last-Event-ID``); refused when it is none."""
    if not Cursor.valid(text):
        raise ServiceError("bad_cursor", "Last-Event-ID must be an event id such as 12-3")
    return text


@dataclass
class ClockWatch:
    """When a wait on a game with a clock looks at the game again: at the running seat's deadline (to
    commit the loss on time, so that a client that only follows events learns of it), and once after new
    events (a move may have started or moved a clock). Waiting costs no Redis command before then."""

    clocked: bool
    due_ms: int | None  # None: no clock runs

    def wait(self, left: float) -> float:
        """Seconds to wait for events: ``left``, or less when a deadline comes first."""
        if self.due_ms is None:
            return left
        return min(left, max(0.0, (self.due_ms - clocks.now_ms()) / 1000))

    def moved(self) -> None:
        if self.clocked:
            self.due_ms = clocks.now_ms()

    def look(self, life: Life, game_id: str) -> bool:
        """At a deadline: commit a passed one (its events are then in the list); True if it looked."""
        if self.due_ms is None or clocks.now_ms() < self.due_ms:
            return False
        now = clocks.now_ms()
        try:
            self.due_ms = life.expire_if_due(game_id)
        except ServiceError:  # a refusal here is another request's business
            self.due_ms = now
        if self.due_ms is not None and self.due_ms <= now:  # not settled yet: look again in a second
            self.due_ms = now + 1000
        return True


@dataclass
class Reader:
    """One reader of a game's events: its seat (None: a spectator) and its clock watch."""

    game_id: str
    seat: int | None
    watch: ClockWatch


class EventReader:
    """Pages and waits over a game's events."""

    def __init__(
        self, store: GameStore, work: UnitOfWork, seating: Seating, life: Life, config: Config
    ) -> None:
        self.store = store
        self.work = work
        self.seating = seating
        self.life = life
        self.config = config

    def open(self, game_id: str, token: str | None) -> Reader:
        """The reader of a game's events: its seat, and when to look at the clock. Only the game's
        metadata is decoded: waiting for events is not a reason to load the engine's state."""
        meta = self.work.load_meta(game_id)
        seat = self.seating.seat_in(meta, token)
        due = self.life.expire_clock(game_id, meta.clock)
        return Reader(game_id, seat, ClockWatch(meta.clock is not None, due))

    def read(self, reader: Reader, after: str | None, wait: float, *, also: str | None = None) -> list[Row]:
        """Events after ``after``, waiting up to ``wait`` seconds for one (see :class:`ClockWatch`) — or
        until the notifier key ``also`` (the game's chat) is announced: then none."""
        end = time.monotonic() + wait
        watch = reader.watch
        while True:
            left = max(0.0, end - time.monotonic())
            wait_ms = int(watch.wait(left) * 1000)
            rows = self.store.read_events(reader.game_id, after, count=PAGE_SIZE, wait_ms=wait_ms, also=also)
            if rows:
                watch.moved()
                return rows
            if not watch.look(self.life, reader.game_id) and (also is not None or time.monotonic() >= end):
                return rows

    def page(self, reader: Reader, after: str | None, wait: float) -> dict[str, Any]:
        """A page of events after ``after`` (a long poll when ``wait`` > 0); with none, whether the
        opponent seems gone (``opponent_gone``)."""
        rows = self.read(reader, after, min(wait, self.config.max_wait))
        events = [seat_event(cursor, row, reader.seat) for cursor, row in rows]
        truncated = (
            bool(rows) and after is not None and not Cursor.parse(rows[0][0]).follows(Cursor.parse(after))
        )
        page: dict[str, Any] = {"events": events, "cursor": rows[-1][0] if rows else after}
        page["truncated"] = truncated
        page["opponent_gone"] = None if rows else self.opponent_gone(reader)
        return page

    def opponent_gone(self, reader: Reader) -> dict[str, Any] | None:
        """``{"type": "opponentGone", "gone": true, "claim_in": seconds}`` when the reader's opponent seems
        to have left — it is its move in a game without a clock, and it has not moved for
        :func:`gone_after` seconds —, ``claim_in`` being when the reader may claim the game (0: now, with
        ``POST …/claim-victory``); None otherwise, and for a spectator (lichess's ``opponentGone``). What
        it costs: one read of the game; its engine state is decoded only once the opponent is idle."""
        if reader.seat is None:
            return None
        abandon_after = self.config.abandon_after
        try:
            stored = self.work.stored(reader.game_id)
        except ServiceError:  # gone from the store meanwhile: nothing to say
            return None
        meta = Match.decode_meta(stored.doc)
        last = meta.last_change_ms
        if meta.clock is not None or meta.bot_seat is not None or last is None:
            return None
        if clocks.now_ms() - last < gone_after(abandon_after) * 1000:
            return None
        match = Match.decode(reader.game_id, stored.version, stored.doc)
        left = claim_after(match, reader.seat, abandon_after, clocks.now_ms())
        if left is None:
            return None
        return {"type": "opponentGone", "gone": True, "claim_in": math.ceil(left)}
