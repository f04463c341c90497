"""The interactive game loop: show the table, read a move, send it, follow the opponent.

One :class:`GameSession` plays one seat of one game, through that seat's ``ginrummy_client.Game``,
until the match is over or the player leaves. Every move is posted with ``If-Match`` (the version of the
view it answers) and an ``Idempotency-Key``, both added by the SDK; on ``412`` (``StaleVersion``) the
view is fetched again and shown. While the opponent is to move, the session blocks on the
events long poll (``GET /v1/games/{id}/events?after=…&wait=…``): no busy polling.

The table chat (:mod:`chat`): at the prompt ``say TEXT`` or a phrase (``/gg``) says a line, ``/mute`` and
``/unmute`` stop or start reading the other seat's; against anyone but a house bot the other seat's lines
are followed on a thread of their own (:class:`chat.ChatWatch`) and shown as they come, the prompt drawn
again below them.

Whose move it is comes from the view's ``your_move`` (its ``legal_actions`` also list resign and abort,
which are allowed on the opponent's move too). With a time control the clocks run on screen (on a
terminal the running one ticks: above the prompt, below the waiting line) and a flag fall is acted on at
once: the prompt gives up at the player's own deadline and a wait at the opponent's, and the view is read
then (reading it settles a loss on time) and the end shown, without waiting for a line. Between hands,
when nobody's clock runs, a prompt against a person also follows the game's events (on a thread with a
client of its own): the opponent's deal may start the player's clock. When the match is over the player
is offered a rematch (against a person: until the other accepts).

With ``--json`` the same loop prints one JSON object per line instead of the table: ``{"type": "view",
"view": …}`` whenever the game changes, ``{"type": "prompt", "legal_actions": […]}`` before reading a
line, ``{"type": "refused", …}`` for a refused line, ``{"type": "chat", "line": …}`` for each chat line
said (the player's as said, the other's as it comes) and ``{"type": "over", "scores": …}`` at the end
(and no rematch is offered: ``gin rematch`` asks for one).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Iterator, Mapping
from typing import Any, cast

from ginrummy_client import (
    ApiError,
    ChatLine,
    Game,
    GinClientError,
    RematchExists,
    RematchOffered,
    StaleVersion,
    ValidationError,
    your_move,
)

from .chat import ChatWatch, line_parts, render_phrases, said_parts
from .commands import HELP, Command, InputError, action_words, parse_line
from .events import EVENT_WAIT, MOVE_TYPES, EventWatch, as_history, no_watch
from .exits import EXIT_LEFT, EXIT_OK
from .results import render_hand_end, render_match_end
from .saved import SavedGame, SavedGames
from .screen import Screen, TimeUp, Woken
from .table import clock_text, describe_move, moves_line, player_names, render_table
from .words import lower_first, not_on_offer, refusal, sentence

OVER_PHASES = ("match_over",)
RECAP = 6
"""How many moves of the hand to retell when a game is resumed."""
FLAG_MARGIN = 0.05
"""Seconds after a deadline before the view is read: the service's clock must see the time passed."""
MIN_REREAD = 0.5
"""Seconds at least between two reads of the view at a deadline (a clock that stood at 0 already)."""


class LeaveGame(Exception):
    """The player typed quit or closed the input: the game stays saved for ``gin resume``."""


def plain(data: Mapping[str, Any]) -> dict[str, Any]:
    """An answer of the SDK (a ``TypedDict``, a plain dict at run time) as the dict the screens read."""
    return cast(dict[str, Any], data)


class GameSession:
    """Plays one seat of one game through the SDK: ``seat`` is that seat's :class:`Game`, ``game`` its
    entry in the saved-games file."""

    def __init__(
        self,
        seat: Game,
        screen: Screen,
        saved: SavedGames,
        game: SavedGame,
        *,
        json_mode: bool = False,
        event_wait: float = EVENT_WAIT,
        offer_rematch: bool = True,
    ) -> None:
        self.seat = seat
        self.screen = screen
        self.saved = saved
        self.game = game
        self.json_mode = json_mode
        self.event_wait = event_wait
        self.offer_rematch = offer_rematch  # not in a tournament: its next match is paired by the director
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
        self._read_at = time.monotonic()  # when the view being played was read: its clock's "now"
        self.rematch: Game | None = None  # the rematch to play next, once the match is over

    # --- the loop ----------------------------------------------------------------------------------

    def run(self, view: dict[str, Any] | None = None) -> int:
        """Play until the match is over (exit 0) or the player leaves (exit 5)."""
        if view is None:
            view = self.fetch()
        else:
            self._read_at = time.monotonic()
        self.saved.save(self.game)
        after = view.get("cursor")
        chat = None if house_bot_opponent(view) else ChatWatch(self.seat, self.show_chat, after=after)
        try:
            return self._play(view)
        finally:
            if chat is not None:
                chat.close()

    def _play(self, view: dict[str, Any]) -> int:
        while True:
            self.names = player_names(view, "You")
            self.tell_join(view)
            self.tell_moves(view)
            if self.finished(view):
                self.show_end(view)
                self.saved.finish(self.game)
                self.rematch = self.after_match(view)
                return EXIT_OK
            if view.get("result") and self._result_shown != view.get("hand_number"):
                self._result_shown = view.get("hand_number")
                self.show_result(view)
            if not your_move(view):
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
        try:
            line = self.read_line(view)
        except (TimeUp, Woken):
            # A deadline passed (reading the view settles the loss on time), or the opponent did
            # something meanwhile: the view as it is now, shown without waiting for a line.
            if not self.json_mode:
                self.screen.line("")  # end the prompt's line
            _drop_typeahead()
            return self.fetch()
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
        if command.kind in ("say", "mute", "unmute", "phrases"):
            self.chat(command)
            return view
        if command.kind == "undo":
            return self.post(view, None)
        assert command.action is not None
        why = None if command.offered else not_on_offer(command.action, view)
        if why is not None:  # nothing of its kind is on offer: not sent, the moves that are shown again
            self.refuse(why, "not_on_offer")
            if not self.json_mode:
                moves_line(self.screen, view)
            return view
        # With --json a line is meant as typed; a person confirms a resignation.
        if command.kind == "resign" and not (self.json_mode or self.confirm("Resign? You lose the match.")):
            return view
        return self.post(view, command.action)

    def confirm(self, question: str) -> bool:
        """A yes/no question (no unless answered y or yes; no at the end of input)."""
        try:
            return self.screen.confirm(question)
        except EOFError:
            self.screen.line("")
            return False

    def after_match(self, view: dict[str, Any]) -> Game | None:
        """Offer a rematch (not with ``--json``, nor in a tournament): the rematch's game once it starts,
        else None."""
        offered = any(a.get("type") == "rematch" for a in view.get("legal_actions") or [])
        if self.json_mode or not self.offer_rematch or not offered:
            return None
        seat = int(view.get("seat") or 0)
        opponent = self.names[1 - seat]
        offers = (view.get("rematch") or {}).get("offered_by") or []
        question = f"{opponent} offers a rematch. Accept?" if 1 - seat in offers else "Play a rematch?"
        if not self.confirm(question):
            return None
        return start_rematch(self.seat, self.screen, opponent, json_mode=False)

    def post(self, view: dict[str, Any], action: dict[str, Any] | None) -> dict[str, Any]:
        """Send a move (or an undo, when ``action`` is None) on top of ``view``, the view on screen: the
        SDK sends it with If-Match set to the version of the last view it read, which is that one."""
        try:
            reply = plain(self.seat.undo() if action is None else self.seat.act(action))
        except ApiError as exc:
            if isinstance(exc, StaleVersion):
                self.refuse("the game moved on meanwhile; here it is again", exc.code)
                self._shown_version = None
                return self.fetch()
            if exc.status in (401, 403, 404, 410):
                raise
            said = refusal(
                exc.code, exc.detail, action=action, view=view, names=self.names, problem=exc.problem
            )
            self.refuse(said, exc.code)
            # The match ended meanwhile (a loss on time, the opponent resigned): read how.
            return self.fetch() if exc.code == "game_over" else view
        if action is None:
            if not self.json_mode:
                self.screen.note("Your last move is taken back.")
            return self.fetch()  # the hand's history got shorter: take the whole view again
        # A move's response holds no history; its events are the moves since (docs/api.md, "Views").
        self._reply_moves = [as_history(e) for e in reply.get("events") or [] if e.get("type") in MOVE_TYPES]
        new_view = dict(reply.get("view") or {})
        if "version" not in new_view:
            new_view["version"] = reply.get("version")
        self._read_at = time.monotonic()
        return new_view if new_view.get("legal_actions") is not None else self.fetch()

    def fetch(self) -> dict[str, Any]:
        view = plain(self.seat.refresh())
        self._read_at = time.monotonic()
        return view

    # --- the clocks --------------------------------------------------------------------------------

    def deadline(self, view: dict[str, Any], seat: int) -> float | None:
        """When ``seat``'s time is up (a :func:`time.monotonic` time), while its clock runs; else None."""
        clock = view.get("clock")
        if not isinstance(clock, dict) or clock.get("running") != seat:
            return None
        left = clock.get("move_remaining")
        if not isinstance(left, int | float):
            return None
        return self._read_at + max(float(left) + FLAG_MARGIN, MIN_REREAD)

    def clock_now(self, view: dict[str, Any]) -> str:
        """The clock line of ``view`` as of now (the running clock's time since the view was read off)."""
        return clock_text(view, self.names, time.monotonic() - self._read_at) or ""

    def own_clock_runs(self, view: dict[str, Any]) -> bool:
        return self.deadline(view, int(view.get("seat") or 0)) is not None

    def watching_needed(self, view: dict[str, Any]) -> bool:
        """Whether a prompt should follow the game's events: against a person, in a game with a clock,
        while nobody's clock runs (between hands: the opponent's deal may start the player's)."""
        clock = view.get("clock")
        return (
            isinstance(clock, dict)
            and clock.get("running") is None
            and self.opponent_joined(view)
            and not _against_bot(view)
        )

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
                # On a terminal the opponent's running clock ticks below the waiting line instead.
                ticks = self.screen.live and opponent_time_left(view) is not None
                render_table(self.screen, view, self.names, clock=not ticks)
            if joined:
                self.screen.line((f"Waiting for {opponent}… (Ctrl-C leaves; gin resume comes back)", "dim"))
            else:
                self.screen.line(
                    (f"Waiting for the opponent to join: gin join {self.game.invitation}", "dim")
                )
        self._announced = (joined, view.get("hand_number"))
        if view.get("cursor"):
            self.cursor = view["cursor"]  # the view's own cursor: anything after the view on screen
        # The events do not tell when the opponent's time runs out: only reading the view settles that.
        left = opponent_time_left(view)
        ticking = not self.json_mode and self.screen.live and left is not None
        with self.screen.ticking(lambda: self.clock_now(view)) if ticking else contextlib.nullcontext():
            self._wait_for_events(left)

    def _wait_for_events(self, left: float | None) -> None:
        """Long polls until an event comes, or (``left`` seconds on the opponent's clock) its time is up."""
        while True:
            started = time.monotonic()
            wait = self.event_wait if left is None else max(1.0, min(self.event_wait, left + 0.5))
            try:
                page = self.seat.events_page(self.cursor, wait=wait)
            except ValidationError:  # 422: the cursor (or the wait) is refused
                if self.cursor is None:
                    raise
                self.cursor = None  # a cursor this service does not understand: start from its oldest
                continue
            self.cursor = page["cursor"] or self.cursor
            if page["events"]:
                self._waited = True
                return
            if left is not None:
                return  # the opponent's time may be up: the caller reads the view again
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
        """One line typed at the prompt. :class:`TimeUp` when the player's clock runs out first,
        :class:`Woken` when the game changes first (followed between hands of a clocked game)."""
        self._announced = None
        if self._waited:
            self._waited = False
            _drop_typeahead()
        if self.json_mode:
            self.emit({"type": "prompt", "legal_actions": view.get("legal_actions") or []})
        deadline = self.deadline(view, int(view.get("seat") or 0))
        status = None if deadline is None or self.json_mode else (lambda: self.clock_now(view))
        try:
            with self.watching(view) if self.watching_needed(view) else no_watch() as wake:
                return self.screen.ask(
                    "" if self.json_mode else "> ", deadline=deadline, wake=wake, status=status
                )
        except EOFError:
            if not self.json_mode:
                self.screen.line("")  # end the prompt's line (Ctrl-D) before saying goodbye
            raise LeaveGame from None

    @contextlib.contextmanager
    def watching(self, view: dict[str, Any]) -> Iterator[int]:
        """A descriptor that turns readable when an event of the game comes after ``view``."""
        watch = EventWatch(self.seat, view.get("cursor"))
        try:
            yield watch.readable
        finally:
            watch.close()

    def emit(self, obj: Mapping[str, Any]) -> None:
        """One JSON line (``--json``), whole even when the chat watch writes one at the same time."""
        with self.screen.lock:
            self.screen.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
            self.screen.out.flush()

    def refuse(self, message: str, code: str) -> None:
        """Say why a line is not carried out (``code``: shown with ``--json`` only)."""
        if self.json_mode:
            self.emit({"type": "refused", "code": code, "detail": sentence(message)})
        else:
            self.screen.note(sentence(message))

    def show(self, view: dict[str, Any]) -> None:
        self._shown_version = view.get("version")
        self._hand_on_screen = _hand_cards(view)
        if self.json_mode:
            self.emit({"type": "view", "view": view})
            return
        if view.get("result") is None:
            # While the player's own clock runs it is shown above the prompt, as of then.
            render_table(self.screen, view, self.names, clock=not self.own_clock_runs(view))
        moves_line(self.screen, view)

    def show_result(self, view: dict[str, Any]) -> None:
        if self.json_mode:
            return  # the view line carries "result"
        render_hand_end(self.screen, view, self.names)

    def show_end(self, view: dict[str, Any]) -> None:
        if self.json_mode:
            self.emit({"type": "view", "view": view})
            self.emit(over_line(view))
            return
        shown = self._result_shown == view.get("hand_number")
        render_match_end(self.screen, view, self.names, result_shown=shown, closing="Game over.")

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
        # The first look at a game (resume): a recap of the hand so far, the player's own moves too
        # (typed in another session, they are news here); later only what the player did not type.
        recap = seen_hand is None
        if recap and len(history) > RECAP:
            self.screen.line(f"… {len(history) - RECAP} earlier moves in this hand")
            seen = len(history) - RECAP
        for item in history[seen:]:
            mine = item.get("seat") == seat
            stock_draw = item.get("type") == "draw" and item.get("source") == "stock" and item.get("card")
            if mine and not (recap or stock_draw):
                continue  # the player's own move, just typed
            name = self.names[item.get("seat", 1 - int(seat or 0))]
            self.screen.line(*describe_move(self.screen, item, name, view), ".")
        self._seen = (hand_number, len(history))

    def hint(self) -> None:
        try:
            hint = plain(self.seat.hint())
        except ApiError as exc:
            if exc.status in (401, 403):
                raise
            said = refusal(exc.code, exc.detail, problem=exc.problem)
            self.refuse(f"no hint available: {lower_first(said)}", exc.code)
            return
        if self.json_mode:
            self.emit({"type": "hint", "hint": hint})
            return
        action = hint.get("action")
        words = action_words(action) if isinstance(action, dict) else "?"
        explanation = hint.get("explanation")
        self.screen.note(f"Hint: {words}" + (f" — {explanation}" if explanation else ""))

    # --- the table chat ------------------------------------------------------------------------------

    def chat(self, command: Command) -> None:
        """Say a line, mute or unmute the other seat, or list the phrases; a refusal is said."""
        try:
            if command.kind == "phrases":
                presets = plain(self.seat.client.service.chat_presets())["presets"]
                if self.json_mode:
                    self.emit({"type": "phrases", "presets": presets})
                else:
                    render_phrases(self.screen, presets)
            elif command.kind == "say":
                assert command.said is not None
                line = self.seat.say(command.said.get("text"), preset=command.said.get("preset"))
                if self.json_mode:
                    self.emit({"type": "chat", "line": line})
                else:
                    self.screen.line(*said_parts(line))
            else:
                muted = plain(self.seat.mute() if command.kind == "mute" else self.seat.unmute())
                if not self.json_mode:
                    self.screen.note(muted_text(muted))
        except ApiError as exc:
            if exc.status == 401:
                raise
            said = refusal(exc.code, exc.detail, problem=exc.problem)
            if exc.code == "chat_presets_only":
                said += " Say a phrase instead: /gg, /gl, /ty … (/ lists them)."
            self.refuse(said, exc.code)
        except GinClientError as exc:  # the service away: the game goes on, the line is not said
            self.refuse(f"nothing was said: {exc}", "unreachable")

    def show_chat(self, line: ChatLine) -> None:
        """A line the other seat said (on the chat watch's thread): shown at once, the prompt below it."""
        if self.json_mode:
            self.emit({"type": "chat", "line": line})
        else:
            self.screen.interject(*line_parts(line))

    def say_goodbye(self) -> None:
        message = f"Left game {self.game.game_id}. Resume with: gin resume {self.game.game_id}"
        if self.json_mode:
            self.emit({"type": "left", "game_id": self.game.game_id})
            print(message, file=sys.stderr)
        else:
            self.screen.line(message)


def over_line(view: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` line of a match's end: ``{"type": "over", "scores", "hands", "end_reason",
    "forfeited_by"}``."""
    return {
        "type": "over",
        "scores": view.get("scores"),
        "hands": view.get("hands"),
        "end_reason": view.get("end_reason"),
        "forfeited_by": view.get("forfeited_by"),
    }


def start_rematch(seat: Game, screen: Screen, opponent: str, *, json_mode: bool) -> Game:
    """Offer a rematch of ``seat``'s finished match, or accept the opponent's, and wait for the other to
    accept if need be (Ctrl-C stops waiting): the rematch's game, played with the same seat token."""
    try:
        seat.rematch()
    except RematchExists as exists:  # both asked at once: it was made by the other
        if exists.game_id is None:
            raise
        return seat.client.games.get(exists.game_id, seat.token)
    except RematchOffered:
        pass  # offered before (gin rematch, again): wait for the answer
    again = seat.rematch_game()
    if again is not None:
        return again
    if json_mode:
        print(json.dumps({"type": "waiting", "for": opponent, "rematch": True}), flush=True)
    else:
        screen.line((f"Rematch offered. Waiting for {opponent} to accept… (Ctrl-C leaves)", "dim"))
    while again is None:
        again = seat.wait_rematch(wait=EVENT_WAIT)
    return again


def muted_text(answer: Mapping[str, Any]) -> str:
    """What ``/mute`` and ``/unmute`` say of the service's answer.

    >>> muted_text({"muted": True, "player": "Bob"})
    "You no longer read Bob's lines in this game (/unmute: again); Bob is not told."
    """
    player = answer.get("player") or "your opponent"
    if answer.get("muted"):
        return f"You no longer read {player}'s lines in this game (/unmute: again); {player} is not told."
    return f"You read {player}'s lines again."


def house_bot_opponent(view: Mapping[str, Any]) -> bool:
    """Whether the other seat is a house bot (which says nothing: no chat to follow), not a person or a
    bot account.

    >>> house_bot_opponent({"seat": 0, "players": [{"type": "human"}, {"type": "bot", "player": None}]})
    True
    >>> house_bot_opponent({"seat": 0, "players": [{"type": "human"}, {"type": "bot", "player": "Botty"}]})
    False
    """
    players = view.get("players")
    if not isinstance(players, list) or len(players) != 2:
        return False
    other = players[1 - int(view.get("seat") or 0)]
    if not isinstance(other, dict) or other.get("type") != "bot":
        return False
    player = other.get("player")
    return player is None or str(player).startswith("bot-")


def _against_bot(view: dict[str, Any]) -> bool:
    players = view.get("players")
    if not isinstance(players, list):
        return False
    return any(isinstance(p, dict) and (p.get("bot") or p.get("type") == "bot") for p in players)


def opponent_time_left(view: dict[str, Any]) -> float | None:
    """Seconds the opponent's move has left on its clock (None: no clock runs for it).

    >>> opponent_time_left({"seat": 0, "clock": {"running": 1, "move_remaining": 12.5}})
    12.5
    >>> opponent_time_left({"seat": 0, "clock": None})
    >>> opponent_time_left({"seat": 1, "clock": {"running": 1}})
    """
    clock = view.get("clock")
    if not isinstance(clock, dict) or clock.get("running") != 1 - int(view.get("seat") or 0):
        return None
    left = clock.get("move_remaining")
    return float(left) if isinstance(left, int | float) else None


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
