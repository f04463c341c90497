"""``gin watch GAME``: a game followed live as a spectator sees it, until its match is over.

Anyone may read a game's public view (``GET /v1/games/{id}`` without a token: both hands' sizes and the
cards known of them, the piles, the scores, the clocks) and its events (``GET …/events?after=&wait=``,
each event as a spectator may see it: no card drawn from the stock). gin sends no token here — a
seated player's token would show that seat's hand instead — and follows the game with the events long
poll, as the play loop waits for an opponent: each move is told in words, with the play's own screen
code — the whole table when a hand starts and once it is knocked, the piles after each discard, both
arrangements and the points when a hand is over. With a clock
running, the view is also read when the running side's time is up (reading it settles a loss on time).

With ``--json``: one JSON object a line — ``{"type": "view", "view"}`` whenever the game changed,
``{"type": "event", "event"}`` for each event, ``{"type": "over", …}`` at the end.
"""

from __future__ import annotations

import json
import time
from typing import Any

from ginrummy_client import Game, ValidationError

from .events import EVENT_WAIT, MOVE_TYPES, as_history
from .exits import EXIT_OK
from .play import over_line, plain
from .results import render_hand_end, render_match_end
from .screen import Screen
from .table import describe_move, pile_parts, player_names, render_table


def running_time_left(view: dict[str, Any]) -> float | None:
    """Seconds the side whose clock runs has left for its move (None: no clock runs).

    >>> running_time_left({"clock": {"running": 1, "move_remaining": 12.5}})
    12.5
    >>> running_time_left({"clock": {"running": None}}), running_time_left({})
    (None, None)
    """
    clock = view.get("clock")
    if not isinstance(clock, dict) or clock.get("running") not in (0, 1):
        return None
    left = clock.get("move_remaining")
    return float(left) if isinstance(left, int | float) else None


def match_over(view: dict[str, Any]) -> bool:
    return view.get("phase") == "match_over" or bool((view.get("scores") or {}).get("match_over"))


class Spectator:
    """Follows ``game`` (a :class:`Game` without a token) on ``screen`` until the match is over."""

    def __init__(
        self, game: Game, screen: Screen, *, json_mode: bool = False, event_wait: float = EVENT_WAIT
    ) -> None:
        self.game = game
        self.screen = screen
        self.json_mode = json_mode
        self.event_wait = event_wait
        self.names = ["Player 1", "Player 2"]
        self._shown: Any = None  # the version of the view on screen
        self._result_shown: Any = None  # the hand whose end is on screen
        self._table: Any = None  # (hand number, knocked) of the last table drawn
        self._waiting_said = False

    def run(self) -> int:
        """Watch to the end of the match (exit 0); Ctrl-C (KeyboardInterrupt) stops it sooner."""
        view = self.read()
        if self.json_mode:
            self.emit({"type": "watching", "game_id": self.game.game_id})
        else:
            second = "(not joined yet)" if view.get("waiting_for_opponent") else self.names[1]
            self.screen.line(
                f"Watching game {self.game.game_id}: {self.names[0]} vs {second} (Ctrl-C stops watching)."
            )
        self.show(view)
        cursor = view.get("cursor")
        while not match_over(view):
            left = running_time_left(view)
            page = self._page(cursor, left)
            cursor = page["cursor"] or cursor
            if not page["events"] and left is None:
                continue  # nothing happened: wait again
            view = self.read()
            self.tell(page["events"], view)
            self.show(view, page["events"])
        self.show_end(view)
        return EXIT_OK

    def read(self) -> dict[str, Any]:
        view = plain(self.game.refresh())
        self.names = player_names(view)
        return view

    def _page(self, cursor: str | None, left: float | None) -> dict[str, Any]:
        """The next events (a long poll); with a clock running, no later than its time is up."""
        wait = self.event_wait if left is None else max(1.0, min(self.event_wait, left + 0.5))
        started = time.monotonic()
        try:
            page = plain(self.game.events_page(cursor, wait=wait))
        except ValidationError:  # a cursor this service does not take: go on from the view's
            if cursor is None:
                raise
            return {"events": [], "cursor": self.read().get("cursor")}
        if not page["events"] and time.monotonic() - started < 1.0:
            time.sleep(1.0)  # a service that ignores `wait` must not make this a busy loop
        return page

    def emit(self, obj: dict[str, Any]) -> None:
        self.screen.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.screen.out.flush()

    def tell(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        """What happened, in words: the moves, the deals, a player joining."""
        for event in events:
            if self.json_mode:
                self.emit({"type": "event", "event": event})
                continue
            kind, seat = event.get("type"), event.get("seat")
            name = self.names[seat] if seat in (0, 1) else "?"
            if kind in MOVE_TYPES:
                self.screen.line(*describe_move(self.screen, as_history(event), name, view), ".")
            elif kind == "deal" and event.get("dealer") in (0, 1):
                self.screen.line(f"{self.names[event['dealer']]} dealt hand {event.get('hand', '?')}.")
            elif kind == "joined":
                self.screen.line(f"{event.get('name') or name} joined the game.")

    def show(self, view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        """The game as it stands, once per version: the whole table when a hand starts (and once it is
        knocked), the piles after each discard, the end of a hand when it is over."""
        if self._shown == view.get("version"):
            return
        self._shown = view.get("version")
        if self.json_mode:
            self.emit({"type": "view", "view": view})
            return
        if match_over(view):
            return  # the end is shown by show_end
        if view.get("waiting_for_opponent"):
            if not self._waiting_said:
                self.screen.line("Waiting for the second player to join.")
            self._waiting_said = True
            return
        table = (view.get("hand_number"), view.get("phase") == "layoff")
        if view.get("result") is not None:
            if self._result_shown != view.get("hand_number"):
                self._result_shown = view.get("hand_number")
                render_hand_end(self.screen, view, self.names)
        elif table != self._table:
            self._table = table
            render_table(self.screen, view, self.names)
        elif any(event.get("type") == "discard" for event in events or ()):
            pile = pile_parts(self.screen, view.get("discard_pile") or [], view.get("stock_size", "?"))
            self.screen.line("  ", *pile)

    def show_end(self, view: dict[str, Any]) -> None:
        if self.json_mode:
            self.emit(over_line(view))
            return
        shown = self._result_shown == view.get("hand_number")
        render_match_end(self.screen, view, self.names, result_shown=shown, closing="The match is over.")
