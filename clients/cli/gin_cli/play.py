"""The interactive game loop: show the table, read a move, send it, follow the opponent.

One :class:`GameSession` plays one seat of one game until the match is over or the player leaves.
Every move is posted with ``If-Match`` (the version of the view it answers) and an ``Idempotency-Key``;
on ``412`` the view is fetched again and shown. While the opponent is to move, the session blocks on the
events long poll (``GET /v1/games/{id}/events?after=…&wait=…``): no busy polling.

With ``--json`` the same loop prints one JSON object per line instead of the table: ``{"type": "view",
"view": …}`` whenever the game changes, ``{"type": "prompt", "legal_actions": […]}`` before reading a
line, ``{"type": "refused", …}`` for a refused line and ``{"type": "over", "scores": …}`` at the end.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from .client import ApiError, GinClient
from .commands import HELP, InputError, action_words, parse_line
from .saved import SavedGame, SavedGames
from .screen import (
    Screen,
    describe_move,
    finished_by_last_hand,
    moves_line,
    player_names,
    render_game_over,
    render_result,
    render_table,
)

EXIT_OK = 0
EXIT_LEFT = 5
EVENT_WAIT = 25.0
"""Seconds one long poll may block on the server."""

OVER_PHASES = ("match_over",)
RECAP = 6
"""How many moves of the hand to retell when a game is resumed."""
MOVE_TYPES = frozenset({"draw", "pass", "discard", "knock", "layoff"})
"""The events that are moves of the hand (what a view's history lists)."""


class LeaveGame(Exception):
    """The player typed quit or closed the input: the game stays saved for ``gin resume``."""


class GameSession:
    """Plays one seat of one game through the HTTP API."""

    def __init__(
        self,
        client: GinClient,
        screen: Screen,
        saved: SavedGames,
        game: SavedGame,
        *,
        json_mode: bool = False,
        event_wait: float = EVENT_WAIT,
    ) -> None:
        self.client = client
        self.screen = screen
        self.saved = saved
        self.game = game
        self.json_mode = json_mode
        self.event_wait = event_wait
        self.cursor: str | None = None
        self.names = ["Player 1", "Player 2"]
        self._seen: tuple[Any, int] = (None, 0)  # (hand number, history entries already told)
        self._result_shown: Any = None
        self._shown_version: Any = None
        self._waited = False  # the opponent moved while we waited: keys typed meanwhile are stale
        self._announced: tuple[bool, Any] | None = None  # what "Waiting for…" line is on screen
        self._hand_on_screen: Any = None  # the cards of the last table drawn
        self._opponent_joined: bool | None = None
        self._reply_moves: list[dict[str, Any]] = []  # the moves in the last move's response

    # --- the loop ----------------------------------------------------------------------------------

    def run(self, view: dict[str, Any] | None = None) -> int:
        """Play until the match is over (exit 0) or the player leaves (exit 5)."""
        if view is None:
            view = self.fetch()
        self.saved.save(self.game)
        while True:
            self.names = player_names(view, "You")
            self.tell_join(view)
            self.tell_moves(view)
            if self.finished(view):
                self.show_end(view)
                self.saved.forget(self.game.game_id)
                return EXIT_OK
            if view.get("result") and self._result_shown != view.get("hand_number"):
                self._result_shown = view.get("hand_number")
                self.show_result(view)
            if not view.get("legal_actions"):
                self.wait_for_opponent(view)
                view = self.fetch()
                continue
            if self._shown_version != view.get("version"):
                self.show(view)
            try:
                view = self.turn(view)
            except LeaveGame:
                self.say_goodbye()
                return EXIT_LEFT

    def turn(self, view: dict[str, Any]) -> dict[str, Any]:
        """Read one line and carry it out; returns the view to go on with."""
        line = self.read_line(view)
        try:
            command = parse_line(line, view)
        except InputError as exc:
            self.refuse(str(exc), "bad_input")
            return view
        if command.kind == "quit":
            raise LeaveGame
        if command.kind == "help":
            if not self.json_mode:
                self.screen.line(HELP)
            return view
        if command.kind == "show":
            self._shown_version = self._result_shown = None
            return view
        if command.kind == "hint":
            self.hint()
            return view
        if command.kind == "undo":
            return self.post(view, None)
        assert command.action is not None
        return self.post(view, command.action)

    def post(self, view: dict[str, Any], action: dict[str, Any] | None) -> dict[str, Any]:
        """Send a move (or an undo, when ``action`` is None) on top of ``view``."""
        game_id, token = self.game.game_id, self.game.token
        try:
            if action is None:
                reply = self.client.undo(game_id, token, view["version"])
            else:
                reply = self.client.act(game_id, token, action, view["version"])
        except ApiError as exc:
            if exc.status == 412:
                self.refuse("the game moved on meanwhile; here it is again", exc.code)
                self._shown_version = None
                return self.fetch()
            if exc.status in (401, 403, 404, 410):
                raise
            self.refuse(f"not possible: {exc.detail}", exc.code)
            return view
        if action is None:
            if not self.json_mode:
                self.screen.note("Your last move is taken back.")
            return self.fetch()  # the hand's history got shorter: take the whole view again
        # A move's response holds no history; its events are the moves since (docs/api.md, "Views").
        self._reply_moves = [_as_history(e) for e in reply.get("events") or [] if e.get("type") in MOVE_TYPES]
        new_view = dict(reply.get("view") or {})
        if "version" not in new_view:
            new_view["version"] = reply.get("version")
        return new_view if new_view.get("legal_actions") is not None else self.fetch()

    def fetch(self) -> dict[str, Any]:
        return self.client.view(self.game.game_id, self.game.token)

    def finished(self, view: dict[str, Any]) -> bool:
        scores = view.get("scores") or {}
        return view.get("phase") in OVER_PHASES or bool(scores.get("match_over"))

    def wait_for_opponent(self, view: dict[str, Any]) -> None:
        """Block until something happens in the game (a move, a join), through the events long poll."""
        opponent = self.names[1 - int(view.get("seat", 0))]
        joined = self.opponent_joined(view)
        if self.json_mode:
            if self._shown_version != view.get("version"):
                self.show(view)  # "view whenever it changed", the opponent's turns included
            if self._announced != (joined, view.get("hand_number")):
                self.emit({"type": "waiting", "for": opponent if joined else None})
        elif self._announced != (joined, view.get("hand_number")):
            # A new stretch of waiting: show the table (your hand after your move) once, then wait.
            if self._hand_on_screen != _hand_cards(view) and view.get("result") is None:
                self._shown_version = view.get("version")
                self._hand_on_screen = _hand_cards(view)
                render_table(self.screen, view, self.names)
            if joined:
                self.screen.line((f"Waiting for {opponent}… (Ctrl-C leaves; gin resume comes back)", "dim"))
            else:
                self.screen.line(
                    (f"Waiting for the opponent to join: gin join {self.game.invitation}", "dim")
                )
        self._announced = (joined, view.get("hand_number"))
        version = view.get("version")
        if isinstance(version, int):
            # An event's cursor is "<version>-<n>": wait for anything after the version on screen.
            self.cursor = f"{version}-999999"
        while True:
            started = time.monotonic()
            try:
                reply = self.client.events(
                    self.game.game_id, self.game.token, after=self.cursor, wait=self.event_wait
                )
            except ApiError as exc:
                if exc.status != 422 or self.cursor is None:
                    raise
                self.cursor = None  # a cursor this service does not understand: start from its oldest
                continue
            self.cursor = reply.get("cursor") or self.cursor
            if reply.get("events"):
                self._waited = True
                return
            if time.monotonic() - started < 1.0:
                # A server that ignores `wait` must not turn this into a busy loop.
                time.sleep(1.0)

    def opponent_joined(self, view: dict[str, Any]) -> bool:
        players = view.get("players")
        if isinstance(players, list) and len(players) == 2:
            other = players[1 - int(view.get("seat", 0))]
            return other is not None and not (isinstance(other, dict) and other.get("joined") is False)
        return True

    # --- input and output --------------------------------------------------------------------------

    def read_line(self, view: dict[str, Any]) -> str:
        self._announced = None
        if self._waited:
            self._waited = False
            _drop_typeahead()
        if self.json_mode:
            self.emit({"type": "prompt", "legal_actions": view.get("legal_actions") or []})
        try:
            return self.screen.ask("" if self.json_mode else "> ")
        except EOFError:
            if not self.json_mode:
                self.screen.line("")  # end the prompt's line (Ctrl-D) before saying goodbye
            raise LeaveGame from None

    def emit(self, obj: dict[str, Any]) -> None:
        """One JSON line (``--json``)."""
        self.screen.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.screen.out.flush()

    def refuse(self, message: str, code: str) -> None:
        if self.json_mode:
            self.emit({"type": "refused", "code": code, "detail": message})
        else:
            self.screen.note(message[:1].upper() + message[1:] + ".")

    def show(self, view: dict[str, Any]) -> None:
        self._shown_version = view.get("version")
        self._hand_on_screen = _hand_cards(view)
        if self.json_mode:
            self.emit({"type": "view", "view": view})
            return
        if view.get("result") is None:
            render_table(self.screen, view, self.names)
        moves_line(self.screen, view)

    def show_result(self, view: dict[str, Any]) -> None:
        if self.json_mode:
            return  # the view line carries "result"
        render_result(self.screen, view, self.names)
        # Normally the phase is game_over; in Hollywood a game may end while the others go on.
        ended = finished_by_last_hand(view)
        if ended:
            render_game_over(self.screen, view, self.names, numbers=ended)

    def show_end(self, view: dict[str, Any]) -> None:
        if self.json_mode:
            self.emit({"type": "view", "view": view})
            self.emit({"type": "over", "scores": view.get("scores"), "hands": view.get("hands")})
            return
        if view.get("result") and self._result_shown != view.get("hand_number"):
            render_result(self.screen, view, self.names)
        render_game_over(self.screen, view, self.names, numbers=finished_by_last_hand(view) or None)
        self.screen.line(("Game over.", "bold"))

    def tell_join(self, view: dict[str, Any]) -> None:
        """Say so when the invited opponent takes their seat."""
        joined = self.opponent_joined(view)
        if self._opponent_joined is False and joined and not self.json_mode:
            self.screen.line(f"{self.names[1 - int(view.get('seat', 0))]} joined the game.")
        self._opponent_joined = joined

    def tell_moves(self, view: dict[str, Any]) -> None:
        """Say what happened since the last look: the opponent's moves and your own stock draws."""
        if self.json_mode:
            return
        hand_number = view.get("hand_number")
        seen_hand, seen = self._seen
        if seen_hand != hand_number:
            seen = 0
        # A move's response has no history: the moves it made come after the ones already told.
        history: list[dict[str, Any]] = (
            view["history"] or [] if "history" in view else [{}] * seen + self._reply_moves
        )
        self._reply_moves = []
        seat = view.get("seat")
        if seen_hand is None and len(history) > RECAP:
            # Coming back to a game (resume): a short recap rather than the whole hand.
            self.screen.line(f"… {len(history) - RECAP} earlier moves in this hand")
            seen = len(history) - RECAP
        for item in history[seen:]:
            if item.get("seat") != seat:
                name = self.names[item.get("seat", 1 - int(seat or 0))]
                self.screen.line(*describe_move(self.screen, item, name, view), ".")
            elif item.get("type") == "draw" and item.get("source") == "stock" and item.get("card"):
                self.screen.line("You drew ", self.screen.card(item["card"]), " from the stock.")
        self._seen = (hand_number, len(history))

    def hint(self) -> None:
        try:
            hint = self.client.hint(self.game.game_id, self.game.token)
        except ApiError as exc:
            if exc.status in (401, 403):
                raise
            self.refuse(f"no hint available: {exc.detail}", exc.code)
            return
        if self.json_mode:
            self.emit({"type": "hint", "hint": hint})
            return
        action = hint.get("action")
        words = action_words(action) if isinstance(action, dict) else "?"
        explanation = hint.get("explanation")
        self.screen.note(f"Hint: {words}" + (f" — {explanation}" if explanation else ""))

    def say_goodbye(self) -> None:
        message = f"Left game {self.game.game_id}. Resume with: gin resume {self.game.game_id}"
        if self.json_mode:
            self.emit({"type": "left", "game_id": self.game.game_id})
            print(message, file=sys.stderr)
        else:
            self.screen.line(message)


def _as_history(event: dict[str, Any]) -> dict[str, Any]:
    """A move event in the shape of a view's history entry (a big gin's knock has no discard)."""
    item = {k: v for k, v in event.items() if k != "id"}
    if item.get("type") == "knock" and item.get("big_gin"):
        item["discard"] = None
    return item


def _hand_cards(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view.get("hand_number"), tuple((view.get("hand") or {}).get("cards") or ()))


def _drop_typeahead() -> None:
    """Forget what was typed at a terminal while the opponent was moving (it answered an old screen)."""
    if not sys.stdin.isatty():
        return
    try:
        import termios
    except ImportError:  # pragma: no cover - not a POSIX terminal
        return
    termios.tcflush(sys.stdin, termios.TCIFLUSH)
