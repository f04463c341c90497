"""A game's events as gin follows them: the long poll's wait, a move event told as a history entry, and
:class:`EventWatch`, the events followed on a thread of their own to wake a prompt."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from typing import Any

from ginrummy_client import Client, Game

from . import __version__

EVENT_WAIT = 25.0
"""Seconds one long poll may block on the server."""
MOVE_TYPES = frozenset({"draw", "pass", "discard", "knock", "layoff"})
"""The events that are moves of the hand (what a view's history lists)."""


def as_history(event: dict[str, Any]) -> dict[str, Any]:
    """A move event in the shape of a view's history entry (a big gin's knock has no discard)."""
    item = {k: v for k, v in event.items() if k != "id"}
    if item.get("type") == "knock" and item.get("big_gin"):
        item["discard"] = None
    return item


class EventWatch:
    """Follows a game's events on a thread of its own, with a client (and connection) of its own, from
    the view of ``version`` on: :attr:`readable` (a pipe) turns readable when one comes. A watch that
    fails (the service away) only means no early wake-up: the prompt goes on as it would have."""

    def __init__(self, seat: Game, after: str | None) -> None:
        self.readable, self._writable = os.pipe()
        self._lock = threading.Lock()
        self._closed = False
        self._client = Client(seat.client.server, user_agent=f"gin-cli/{__version__}")
        game = Game(self._client, seat.game_id, token=seat.token)
        # ``after``: the cursor of the view on screen (cursors are opaque: the service makes them).
        self._feed = game.events(after=after, wait=EVENT_WAIT, until=lambda event: True)
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        with contextlib.suppress(Exception):
            for _ in self._feed:
                with self._lock:
                    if not self._closed:  # a closed descriptor's number may belong to another file now
                        os.write(self._writable, b"!")
                return

    def close(self) -> None:
        """Stop following (the stream is cut at once; a request still connecting is left to end on
        its daemon thread, which writes nothing any more)."""
        self._feed.close()
        with self._lock:
            self._closed = True
            os.close(self.readable)
            os.close(self._writable)
        self._thread.join(1.0)
        if not self._thread.is_alive():
            self._client.close()


@contextlib.contextmanager
def no_watch() -> Iterator[None]:
    """No watch: a prompt that only the player's line (or a deadline) ends."""
    yield None
