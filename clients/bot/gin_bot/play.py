"""Playing one game with a bot function, as ``gin-bot`` does in every mode: the bot's answers checked
(:func:`decide`), the opponent awaited on the game's event stream (:class:`Table`: one stream a game, held
open, never a request per move), abandonment claimed, the service's outages waited out (:class:`Patience`),
and each finished game written down (:func:`record_of`, :class:`Results`) and counted (:class:`Tally`).

What the modes share lives here; how a seat is found (a house bot, an invitation, the lobby, an account's
challenges) is theirs: :mod:`gin_bot.harness` and :mod:`gin_bot.botaccount`.
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import json
import logging
import os
import queue
import statistics
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ginrummy_client import (
    ApiError,
    ChatLine,
    Client,
    Conflict,
    ConnectionFailed,
    Event,
    Forbidden,
    Game,
    GameOver,
    GinClientError,
    NotFound,
    NothingToClaim,
    RateLimited,
    ServiceUnavailable,
    StaleVersion,
    TooEarly,
    ValidationError,
    View,
    is_play,
    listed,
)
from ginrummy_client.events import Following

from .chat import ChatHook, Greeting, TableChat

log = logging.getLogger("gin_bot")

Chooser = Callable[[dict[str, Any]], Any]
"""A bot: given a view, an element of its ``legal_actions`` (anything else is replaced, never sent)."""

PATIENCE = 300.0
"""Seconds a game waits for an unreachable or overloaded service before it is given up as an error."""
MAX_PAUSE = 30.0
MAX_REFUSALS = 3
"""Refusals in a row of moves that were listed as legal (a service bug, or a game moving under us) before
the game is given up."""
STREAM_WAIT = 300.0
"""Seconds each connection of a game's event stream is asked to stay open (the service ends it sooner
when its ``GIN_STREAM_MAX`` is lower): one request a game per such stretch, however many moves."""
CLAIM_PROBE = 5.0
"""Seconds without news, while the opponent is to move, before asking whether the game may be claimed;
the service answers how long is left (``GIN_ABANDON_AFTER``, or the opponent's clock), the next ask is
then."""
MAX_PROBE = 300.0
GRACE = 5.0
"""Seconds the running games get to stop after Ctrl-C before the summary is printed anyway."""
STOP_POLL = 0.5
"""Seconds between two looks at the stop flag while a game waits."""
RATING_WAIT = 10.0
"""Seconds a rated game's result waits for the archive to tell its rating change (else it is left out)."""
TRANSIENT = (ConnectionFailed, ServiceUnavailable, RateLimited)
"""What is waited out: the SDK retried already, and the game goes on once the service answers again (a 500
is a bug of the service, not an outage: the game ends as an error)."""
REFUSED = (ValidationError, Forbidden, NotFound, Conflict)
"""Refusals of what the run asks for (a game, a challenge) that every other request would meet too: the
rules, the bot, the seed, the invitation, the opponent."""


class GameFailed(Exception):
    """A game cannot be played on: the service stayed away, or keeps refusing legal moves."""


class Stopped(Exception):
    """The run is being stopped (Ctrl-C, or --strict after a bad answer): the game is left as it is."""


class BadAnswer(Exception):
    """With ``--strict``: the bot answered something that is not a legal action, or raised."""


# --- the bot's answers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """The move to play: the bot's answer, or (``problem`` says why) the first move of the play instead;
    ``error``: the exception the bot raised; ``seconds``: how long the bot took."""

    action: Mapping[str, Any]
    problem: str | None = None
    error: Exception | None = None
    seconds: float = 0.0


def decide(choose: Chooser, view: View) -> Decision | None:
    """What to play from ``view``: ``choose``'s answer when it is one of the legal actions, else the first
    move of the play. None (``choose`` is not called) when the seat has no move of the play to make.

    >>> resign = {"type": "resign", "kind": "match"}
    >>> draw = {"type": "draw", "source": "stock", "kind": "play"}
    >>> decide(lambda view: {"type": "resign"}, {"legal_actions": [resign, draw]}).action
    {'type': 'resign', 'kind': 'match'}
    >>> decide(lambda view: "knock!", {"legal_actions": [resign, draw]}).action
    {'type': 'draw', 'source': 'stock', 'kind': 'play'}
    >>> decide(lambda view: 1 / 0, {"legal_actions": [resign, draw]}).problem
    'raised ZeroDivisionError: division by zero'
    >>> decide(lambda view: {"type": "resign"}, {"legal_actions": [resign]}) is None
    True
    """
    legal = list(view.get("legal_actions") or [])
    # Resign, abort and rematch are sent only when the bot returns them; a seat with only those waits.
    moves = [action for action in legal if is_play(action)]
    if not moves:
        return None
    legal = copy.deepcopy(legal)  # what the bot may not change
    started = time.perf_counter()
    try:
        answer = choose(copy.deepcopy(dict(view)))
        took = time.perf_counter() - started
        chosen = listed(answer, legal)
        if chosen is not None:
            return Decision(chosen, seconds=took)
        problem = f"answered {short(answer)}, which is not one of the legal actions"
        return Decision(moves[0], problem, seconds=took)
    except Exception as error:  # the bot's bug must not end the game: the first legal move is played
        return Decision(
            moves[0], f"raised {type(error).__name__}: {error}", error, time.perf_counter() - started
        )


def short(value: Any) -> str:
    """A bot's answer for a log line: compact JSON, cut at 200 characters.

    >>> short({"type": "discard", "card": "7H"})
    '{"type":"discard","card":"7H"}'
    """
    try:
        text = json.dumps(value, separators=(",", ":"), default=repr)
    except ValueError:  # a circular structure
        text = repr(value)
    return text if len(text) <= 200 else text[:199] + "…"


def bot_traceback(error: BaseException) -> str:
    """The traceback of an error in the bot's code, from its first frame outside gin-bot and importlib."""
    frames = error.__traceback__
    while frames is not None and _ours(frames.tb_frame.f_code.co_filename):
        frames = frames.tb_next  # None for a SyntaxError: its text says where
    return "".join(traceback.format_exception(type(error), error, frames)).rstrip()


def _ours(filename: str) -> bool:
    return (
        Path(filename).parent == Path(__file__).parent
        or "importlib" in filename
        or filename.startswith("<frozen")
    )


# --- waiting --------------------------------------------------------------------------------------------


class Patience:
    """Waits between attempts while the service is away (a ``Retry-After``, else a doubling pause) and
    gives up once it has been away ``limit`` seconds; :meth:`reset` after every answer."""

    def __init__(self, stop: threading.Event, limit: float = PATIENCE) -> None:
        self.stop = stop
        self.limit = limit
        self.failures = 0
        self.since: float | None = None

    def reset(self) -> None:
        self.failures, self.since = 0, None

    def wait(self, label: str, error: GinClientError) -> None:
        """Wait before the next attempt at what ``label`` names (logged with ``error``); :class:`Stopped`
        when the run stops meanwhile, :class:`GameFailed` once the service has been away too long."""
        now = time.monotonic()
        self.since = now if self.since is None else self.since
        if now - self.since > self.limit:
            raise GameFailed(f"the service has been away for {now - self.since:.0f} s ({error})")
        retry_after = error.retry_after if isinstance(error, ApiError) else None
        delay = retry_after or min(MAX_PAUSE, 0.5 * 2.0**self.failures)
        self.failures += 1
        log.warning("%s: %s; trying again in %.1f s", label, error, delay)
        if self.stop.wait(delay):
            raise Stopped


END = object()
"""What a :class:`Follow` hands over once its feed has ended."""


class Follow:
    """A stream (a game's events, an account's) read on a thread of its own, so that another thread can
    wait for what comes with a timeout (to look at the stop flag, to claim an abandoned game, …)."""

    def __init__(self, feed: Following[Any], name: str) -> None:
        self.feed = feed
        self._queue: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._read, name=name, daemon=True).start()

    def _read(self) -> None:
        try:
            for event in self.feed:
                self._queue.put(event)
        except Exception as error:  # handed to the game's thread, which decides
            self._queue.put(error)
        finally:
            self._queue.put(END)

    def next(self, timeout: float) -> list[Any]:
        """What came (events, an exception, :data:`END`), waiting up to ``timeout`` seconds for the first
        of it; empty when nothing came."""
        try:
            first = self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return []
        got = [first]
        while True:
            try:
                got.append(self._queue.get_nowait())
            except queue.Empty:
                return got

    def close(self) -> None:
        self.feed.close()


# --- one game -------------------------------------------------------------------------------------------


@dataclass
class Played:
    """A game played to its end: its last full view, the seat, how long each of the bot's decisions took
    (seconds) and how many of its answers were replaced."""

    game: Game
    view: View
    seat: int
    decisions: list[float] = field(default_factory=list)
    bad_answers: int = 0
    claimed: bool = False


class Table:
    """Plays ``game`` to its end with ``choose``: the bot is asked whenever the seat has a move of the
    play, its move posted (If-Match, Idempotency-Key); the opponent is awaited on the game's event stream,
    held open the whole game (one request per :data:`STREAM_WAIT`, not per move); the opponent's draw
    alone is no reason to read the view again, its next move is. An opponent that sits on its move is
    claimed (``claim-victory``) once the service says it may be. A lost connection, a 503 or a 429 is
    waited out (``patience``), a 412 means reading the view again and choosing again.

    ``full_view``: the bot is shown full views (with ``history`` and ``stats``). ``strict``: a bad answer
    raises :class:`BadAnswer` instead of being replaced. ``replaced`` is told of every replaced answer.
    ``stop`` set: :class:`Stopped` within :data:`STOP_POLL` seconds. ``chat``: the table's chat — the
    greetings, and the lines of the other seat handed to the bot's ``on_chat`` while it waits, from the
    stream held open from the start then (:mod:`gin_bot.chat`)."""

    def __init__(
        self,
        game: Game,
        choose: Chooser,
        *,
        stop: threading.Event,
        patience: Patience,
        replaced: Callable[[Game, Decision], None],
        full_view: bool = False,
        strict: bool = False,
        chat: TableChat | None = None,
    ) -> None:
        self.game = game
        self.choose = choose
        self.chat = chat
        self.stop = stop
        self.patience = patience
        self.replaced = replaced
        self.full_view = full_view
        self.strict = strict
        self.played = Played(game, game.view, game.seat or 0)
        self._follow: Follow | None = None
        self._own: set[str] = set()  # the ids of the events our own moves answered with
        self._current = True  # whether game.view may be chosen from, or must be read again first
        self._probe_at = 0.0
        self._probe_every = CLAIM_PROBE

    def play(self) -> Played:
        """Play until the match is over; what was played (its last view a full view)."""
        try:
            if self.chat is not None:
                self.chat.start()
                if self.chat.listens:
                    self._open()  # the chat from the start, not only once the opponent is awaited
            self._play()
            if self.chat is not None:
                if self._follow is not None:
                    self._news_of(self._follow.next(0))  # lines said while the bot made its last moves
                self.chat.end()
            while True:  # the full view: the match's statistics
                try:
                    self.played.view = self.game.refresh()
                    return self.played
                except TRANSIENT as error:
                    self.patience.wait(f"game {self.game.game_id}", error)
        finally:
            if self._follow is not None:
                self._follow.close()

    def _play(self) -> None:
        game, refusals = self.game, 0
        self._news()
        while True:
            if self.stop.is_set():
                raise Stopped
            try:
                if not self._current or (self.full_view and "history" not in game.view):
                    game.refresh()
                    self._current = True
                if game.match_over:
                    return
                decision = decide(self.choose, game.view)
                if decision is None:  # the opponent's turn, or waiting for the join
                    self._wait()
                    self.patience.reset()
                    continue
                self.played.decisions.append(decision.seconds)
                if decision.problem is not None:
                    self.played.bad_answers += 1
                    if self.strict:
                        raise BadAnswer(
                            f"game {game.game_id}: the bot {decision.problem}"
                        ) from decision.error
                    self.replaced(game, decision)
                action = decision.action
                try:
                    result = game.act(action)
                    self._own.update(event["id"] for event in result["events"])
                    refusals = 0
                except StaleVersion:  # the game moved on since this view: read it again, choose again
                    self._current = False
                except Conflict as refusal:  # listed yet refused: the game changed (or the service erred)
                    refusals += 1
                    if refusals > MAX_REFUSALS:
                        raise GameFailed(f"legal moves keep being refused ({refusal})") from refusal
                    log.warning("game %s: %s refused: %s", game.game_id, short(action), refusal)
                    self._current = False
                self._news()
                self.patience.reset()
            except TRANSIENT as error:
                self.patience.wait(f"game {game.game_id}", error)
                self._current = False  # a move may or may not have been applied: the view will tell

    def _news(self) -> None:
        """Something happened: the next claim is asked after :data:`CLAIM_PROBE` quiet seconds again."""
        self._probe_every = CLAIM_PROBE
        self._probe_at = time.monotonic() + CLAIM_PROBE

    def _open(self) -> Follow:
        """The game's event stream, read on a thread of its own (with its chat when the bot listens)."""
        game = self.game
        # From the view's own cursor (what follows the view), else the newest event seen.
        after = game.view.get("cursor") or game.cursor
        chat = self.chat is not None and self.chat.listens
        feed = game.events(after=after, wait=STREAM_WAIT, chat=chat)
        self._follow = Follow(feed, f"gin-bot-events-{game.game_id}")
        return self._follow

    def _news_of(self, got: list[Any]) -> list[Any]:
        """What a :class:`Follow` handed over, its chat lines told to the table's chat: the rest."""
        rest = []
        for item in got:
            if isinstance(item, dict) and item.get("type") == "chatLine":
                assert self.chat is not None
                self.chat.heard(cast(ChatLine, item))
            else:
                rest.append(item)
        return rest

    def _wait(self) -> None:
        """Until the opponent's next move (or the join, or the end), looking at the stop flag meanwhile;
        a claim when the opponent has sat on its move long enough. Chat lines that come meanwhile are
        told to the table's chat."""
        follow = self._follow or self._open()
        while not self.stop.is_set():
            got = follow.next(min(STOP_POLL, self._probe_at - time.monotonic()))
            said = bool(got)
            got = self._news_of(got)
            if said and not got:
                continue  # only chat: still waiting for the opponent
            if not got:
                if time.monotonic() >= self._probe_at and self._claim():
                    return
                continue
            for item in got:
                if item is END or isinstance(item, Exception):
                    follow.close()
                    self._follow = None
                    if isinstance(item, Exception):
                        raise item
                    return
            if self._moved(got):
                self._current = False
                self._news()
                return
        raise Stopped

    def _moved(self, events: Iterable[Event]) -> bool:
        """Whether these events may have changed what the seat can do: any but our own moves' and the
        opponent's draw (after which the same player must discard or knock)."""
        seat = self.played.seat
        return any(
            event["id"] not in self._own and not (event.get("type") == "draw" and event.get("seat") != seat)
            for event in events
        )

    def _claim(self) -> bool:
        """Ask to win the game on the opponent's abandonment (or flag): True when the game is over."""
        game = self.game
        try:
            game.claim_victory()
        except TooEarly as early:
            left = early.seconds_left if early.seconds_left is not None else self._probe_every
            self._probe_at = time.monotonic() + max(1.0, left + 0.5)
            return False
        except NothingToClaim:  # not the opponent's move after all (or waiting for the join)
            self._probe_every = min(MAX_PROBE, self._probe_every * 2)
            self._probe_at = time.monotonic() + self._probe_every
            self._current = False
            return True
        except GameOver:
            self._current = False
            return True
        log.info("game %s: the opponent left its move; the victory is claimed", game.game_id)
        self.played.claimed = True
        self._current = False
        return True


# --- what became of the games -----------------------------------------------------------------------------


def outcome(view: View, seat: int) -> tuple[str, int, int]:
    """How the match of ``view`` ended for ``seat``: won, lost or aborted (no winner), and the points of
    both (summed over the match's games), the seat's first.

    >>> outcome({"scores": {"match_winner": 1, "games": [{"grand_totals": [20, 131]}]}}, 1)
    ('won', 131, 20)
    """
    scores: Mapping[str, Any] = view.get("scores") or {}
    winner = scores.get("match_winner")
    result = "aborted" if winner is None else "won" if winner == seat else "lost"
    totals = [sum(game.get("grand_totals", [0, 0])[s] for game in scores.get("games", [])) for s in (0, 1)]
    return result, totals[seat], totals[1 - seat]


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank), 0.0 for none.

    >>> percentile([3.0, 1.0, 2.0, 10.0], 0.5), percentile([3.0, 1.0, 2.0, 10.0], 0.99), percentile([], 0.5)
    (2.0, 10.0, 0.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


def record_of(played: Played, rating: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The result line of a finished game (``--results``): who, how it ended, the points, the hands and
    the seat's gins, knocks and undercuts, whether rated and the rating change, and the bot's decision
    times in milliseconds."""
    view, seat = played.view, played.seat
    result, mine, theirs = outcome(view, seat)
    end_reason = view.get("end_reason")
    if result == "aborted" and end_reason != "aborted":
        result = "drawn"
    by_seat = view.get("stats")  # the full view's
    stats: Mapping[str, Any] = by_seat[seat] if by_seat else {}
    players = view.get("players") or []
    other: Mapping[str, Any] = players[1 - seat] if len(players) == 2 else {}
    times = [round(seconds * 1000, 3) for seconds in played.decisions]
    return {
        "game_id": view.get("game_id", played.game.game_id),
        "seat": seat,
        "opponent": other.get("player")
        or (f"bot-{other['bot']}" if other.get("type") == "bot" and other.get("bot") else other.get("name")),
        "result": result,
        "end_reason": end_reason or ("claimed" if played.claimed else "finished"),
        "points": [mine, theirs],
        "hands": view.get("hand_number", 0),
        "hands_won": stats.get("hands_won", 0),
        "gins": stats.get("gins", 0) + stats.get("big_gins", 0),
        "knocks": stats.get("knocks", 0),
        "undercuts": stats.get("undercuts_given", 0),
        "undercuts_suffered": stats.get("undercuts_suffered", 0),
        "rated": bool(view.get("rated")),
        "rating": dict(rating) if rating is not None else None,
        "decisions": len(times),
        "decision_ms": {
            "p50": percentile(times, 0.5),
            "p99": percentile(times, 0.99),
            "max": max(times, default=0.0),
            "mean": round(statistics.fmean(times), 3) if times else 0.0,
        },
        "bad_answers": played.bad_answers,
        "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
    }


def rating_change(client: Client, played: Played, stop: threading.Event) -> dict[str, Any] | None:
    """The rating before and after a rated game, from the seat's player's list of games in the archive
    (which has it a moment after the end): ``{"family", "before", "after", "change"}``; None for a casual
    game, an anonymous seat, or when the archive has not told it within :data:`RATING_WAIT` seconds."""
    view = played.view
    players = view.get("players") or []
    me = players[played.seat].get("player") if len(players) == 2 else None
    if not view.get("rated") or not me:
        return None
    deadline = time.monotonic() + RATING_WAIT
    while True:
        try:
            for entry in itertools.islice(client.archive.games(me, limit=20), 20):
                change = entry.get("rating")
                if entry.get("game_id") == played.game.game_id and change is not None:
                    shown = change.get("before")
                    before = None if shown is None else shown["rating"]
                    after = change["after"]["rating"]
                    return {
                        "family": entry.get("family"),
                        "before": before,
                        "after": after,
                        "change": None if before is None else after - before,
                    }
        except GinClientError as error:
            log.debug("game %s: no rating yet (%s)", played.game.game_id, error)
        if time.monotonic() > deadline or stop.wait(0.5):
            log.info("game %s: the archive did not tell the rating change in time", played.game.game_id)
            return None


class Results:
    """The JSON-lines file of ``--results``: one line a finished game, appended and flushed at once (a
    run killed keeps every line written). A game already in the file (a run started again after a
    crash) is not written twice."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.written: set[str] = set()
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    game_id = json.loads(line).get("game_id")
                except (ValueError, AttributeError):
                    continue
                if isinstance(game_id, str):
                    self.written.add(game_id)
        self._file = path.open("a", encoding="utf-8")

    def __contains__(self, game_id: object) -> bool:
        return game_id in self.written

    def write(self, record: Mapping[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n"
        with self._lock:
            if record["game_id"] in self.written or self._file.closed:
                return
            self.written.add(record["game_id"])
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        with self._lock:
            self._file.close()


@dataclass
class Tally:
    """What became of the games of the run; ``bad_answers``: the bot's answers replaced by a legal move."""

    started: int = 0
    won: int = 0
    lost: int = 0
    aborted: int = 0
    errors: int = 0
    unfinished: int = 0
    bad_answers: int = 0

    def summary(self) -> str:
        """One line; the results add up to the games started (a drawn match counts as aborted: no winner).

        >>> Tally(started=3, won=2, lost=1).summary()
        'summary: games 3, won 2, lost 1, aborted 0, errors 0, unfinished 0, bad answers 0'
        """
        return (
            f"summary: games {self.started}, won {self.won}, lost {self.lost}, aborted {self.aborted}, "
            f"errors {self.errors}, unfinished {self.unfinished}, bad answers {self.bad_answers}"
        )


# --- a run: many games ------------------------------------------------------------------------------------

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_STRICT, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130


class Refused(Exception):
    """The service refuses the settings of the run (creating, joining or challenging): no game can be
    played so."""


@dataclass(frozen=True)
class Settings:
    """What every run is given: the bot (``choose``), the service and the token it plays with (a player's
    or an account's: never logged), how the bot's answers are treated (``full_view``, ``strict``), where
    the results go, and the table chat: the bot's ``on_chat`` and the ``greeting`` (:mod:`gin_bot.chat`)."""

    choose: Chooser
    server: str
    token: str | None = field(default=None, repr=False)
    full_view: bool = False
    strict: bool = False
    results: Results | None = None
    on_chat: ChatHook | None = None
    greeting: Greeting | None = None


class Run:
    """What every ``gin-bot`` run shares, whatever finds its seats: the :class:`Settings`, the games'
    :class:`Tally`, the stop flag (Ctrl-C, or ``--strict`` after a bad answer) and the ``--results`` file.
    :meth:`play_game` plays one game on a thread of the run's; :meth:`conclude` prints the summary and
    says the exit status."""

    refused_what = "the game"
    """What the service refuses when it refuses the run's settings (for the message)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.choose = settings.choose
        self.server = settings.server
        self.results = settings.results
        self.tally = Tally()
        self.stop = threading.Event()
        self.interrupted = False
        self.refused: str | None = None
        self.failure: str | None = None  # --strict: the bad answer that ended the run
        # Reentrant: the Ctrl-C handler runs on the main thread, which may hold it at that moment.
        self._lock = threading.RLock()
        self._raised = False  # whether the bot has raised an exception yet (its traceback is logged once)

    def interrupt(self) -> None:
        """Stop: start no game, end the waits (each game sees the flag within :data:`STOP_POLL` seconds).
        The SIGINT handler calls it on the main thread, which never waits on ``stop`` itself."""
        self.interrupted = True
        self.stop.set()

    def count(self, result: str) -> None:
        with self._lock:
            setattr(self.tally, result, getattr(self.tally, result) + 1)

    def refuse(self, refusal: Exception) -> None:
        """The service refuses what the run asks for: stop, exit 2."""
        with self._lock:
            self.refused = self.refused or str(refusal)
        self.stop.set()

    def replaced(self, game: Game, decision: Decision) -> None:
        """Log (and count) a bot's answer that was replaced; the traceback of its first exception."""
        error = decision.error
        with self._lock:
            self.tally.bad_answers += 1
            show_where = error is not None and not self._raised  # once: the same bug would fill the log
            self._raised = self._raised or error is not None
        played = short(decision.action)
        log.warning("game %s: the bot %s; playing %s", game.game_id, decision.problem, played)
        if error is not None and show_where:
            log.warning("the bot's traceback:\n%s", bot_traceback(error))

    def play_game(self, client: Client, game: Game, patience: Patience) -> None:
        """Play ``game`` to its end (or to the stop) and count it; a game that fails is an error, not the
        end of the run (but a bad answer under ``--strict`` is)."""
        table = Table(
            game,
            self.choose,
            stop=self.stop,
            patience=patience,
            replaced=self.replaced,
            full_view=self.settings.full_view,
            strict=self.settings.strict,
            chat=self.table_chat(game),
        )
        try:
            played = table.play()
        except Stopped:
            log.info("game %s: unfinished (stopped)", game.game_id)
        except BadAnswer as bad:
            with self._lock:
                self.tally.bad_answers += 1
                self.failure = self.failure or str(bad)
            log.error("%s; --strict: stopping the run", bad)
            if bad.__cause__ is not None:
                log.error("the bot's traceback:\n%s", bot_traceback(bad.__cause__))
            self.stop.set()
        except (GameFailed, GinClientError) as error:
            self.count("errors")
            log.error("game %s: error, %s", game.game_id, error)
        except Exception:  # a bug of gin-bot's own: this game is lost, not the thread and the other games
            self.count("errors")
            log.exception("game %s: error in gin-bot", game.game_id)
        else:
            self.finished(client, played)

    def table_chat(self, game: Game) -> TableChat | None:
        """The chat at ``game``'s table, when the run listens to it or greets (else None: not read)."""
        settings = self.settings
        if settings.on_chat is None and settings.greeting is None:
            return None
        return TableChat(game, settings.on_chat, settings.greeting)

    def finished(self, client: Client, played: Played) -> None:
        """A game played to its end: counted, logged, and written to the results."""
        result, mine, theirs = outcome(played.view, played.seat)
        self.count(result)
        hands = played.view.get("hand_number", 0)
        plural = "" if hands == 1 else "s"
        log.info(
            "game %s: %s, score %d–%d, %d hand%s", played.game.game_id, result, mine, theirs, hands, plural
        )
        if self.results is not None:
            self.results.write(record_of(played, rating_change(client, played, self.stop)))

    def conclude(self) -> int:
        """Print the summary; the exit status."""
        with self._lock:
            tally = self.tally
            tally.unfinished = tally.started - (tally.won + tally.lost + tally.aborted + tally.errors)
        print(tally.summary(), flush=True)
        if self.results is not None:
            self.results.close()
        if self.failure is not None:
            print(f"gin-bot: --strict: {self.failure}", file=sys.stderr)
            return EXIT_STRICT
        if self.interrupted:
            return EXIT_INTERRUPTED
        if self.refused is not None:
            print(f"gin-bot: the service refused {self.refused_what}: {self.refused}", file=sys.stderr)
            return EXIT_USAGE
        return EXIT_ERRORS if tally.errors else EXIT_OK
