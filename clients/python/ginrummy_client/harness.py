"""``gin-bot``: plays whole matches with any Python function that chooses moves — a harness for bot authors.

A bot is a function ``choose(view: dict) -> dict``: it is given its seat's view (docs/api.md, *Views*)
and answers with one element of ``view["legal_actions"]``, as is. ``gin-bot run`` imports it and plays::

    gin-bot run my_bot:choose --bot simple --games 20 --concurrency 4   # against a house bot
    gin-bot run path/to/bot.py:choose --host          # prints GAME:INVITATION, waits for the join
    gin-bot run other_bot:choose --join GAME:INVITATION
    GIN_PLAYER_TOKEN=… gin-bot run my_bot:choose --seek --rated --games 5   # quick match in the lobby
    gin-bot run my_bot:choose --bot expert --rated --player-token …   # rated, against a house bot

Each match is played to ``match_over`` through the SDK (If-Match and Idempotency-Key on every move, event
feeds that resume). The bot can never break a game: an answer that is not one of the legal actions (or an
exception) is logged and replaced by the first legal move of the play; resign, abort and rematch are sent
only when the bot itself returns them. A lost connection, a 503 or a 429 is waited out and the same game
resumed from a fresh view; a 412 (the game moved on) means reading the view again and choosing again.

How a seat is found is a :class:`Seating` (:class:`AgainstBot`, :class:`Host`, :class:`Join`,
:class:`Seeking`). A player's token (``--player-token`` or ``GIN_PLAYER_TOKEN``) makes every game of the
run that player's, in any mode: they count in its profile, and with ``--rated`` (a preset without
options) in its rating — against a house bot, a person or in the lobby. ``--seek`` needs a player: without
a token a new one named ``--name`` is made for the run. Each ``--seek`` game is a quick match in the
lobby — paired at once with a waiting seek, or waiting until someone takes the bot's. Only what the
service would refuse is refused up front: ``--rated`` without a player (but for ``--seek``), and
``--rated`` with ``--join`` (the host decides).

Exit statuses: 0 every match was played to its end; 1 some could not be (``errors`` in the summary);
2 a bad command line, a bot that cannot be imported, or settings the service refuses (rules, bot name,
seed, invitation); 3 the service cannot be reached; 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, Protocol

from ._version import __version__
from .client import Client, parse_invitation, parse_options
from .errors import (
    ApiError,
    Conflict,
    ConnectionFailed,
    Forbidden,
    GinClientError,
    NotFound,
    RateLimited,
    ServiceUnavailable,
    StaleVersion,
    ValidationError,
)
from .events import EventFeed
from .game import Game, is_play, listed
from .models import View

log = logging.getLogger("ginrummy_client.harness")

Chooser = Callable[[dict[str, Any]], Any]
"""A bot: given a view, an element of its ``legal_actions`` (anything else is replaced, never sent)."""

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
DEFAULT_SERVER = "http://127.0.0.1:8000"
EVENT_WAIT = 30.0
"""Seconds each connection of the event feed stays open while the opponent thinks."""
PATIENCE = 300.0
"""Seconds a game waits for an unreachable or overloaded service before it is given up as an error."""
MAX_PAUSE = 30.0
MAX_REFUSALS = 3
"""Refusals in a row of moves that were listed as legal (a service bug, or a game moving under us) before
the game is given up."""
GRACE = 5.0
"""Seconds the running games get to stop after Ctrl-C before the summary is printed anyway."""
TRANSIENT = (ConnectionFailed, ServiceUnavailable, RateLimited)
"""What is waited out: the SDK retried already, and the game goes on once the service answers again (a 500
is a bug of the service, not an outage: the game ends as an error)."""
REFUSED = (ValidationError, Forbidden, NotFound, Conflict)
"""Refusals of a seat that every other game would meet too: rules, bot, seed, invitation."""


class BotNotFound(Exception):
    """The bot named on the command line cannot be imported, or is not a function."""


class Refused(Exception):
    """The service refuses the settings of the run (creating or joining a game): no game can be played."""


class GameFailed(Exception):
    """A game cannot be played on: the service stayed away, or keeps refusing legal moves."""


class Stopped(Exception):
    """The run is being stopped (Ctrl-C): the game is left as it is."""


# --- the command line's values --------------------------------------------------------------------------


def load_bot(spec: str) -> Chooser:
    """The function ``spec`` names: ``module:function`` (imported as ``python -m`` would, the current
    directory first on the path) or ``path/to/file.py:function``; without ``:function``, ``choose``.

    >>> load_bot("json:dumps")({"type": "pass"})
    '{"type": "pass"}'
    >>> load_bot("json:no_such_thing")
    Traceback (most recent call last):
    ...
    ginrummy_client.harness.BotNotFound: json has no no_such_thing
    """
    target, _, name = spec.rpartition(":") if ":" in spec else (spec, ":", "choose")
    if not target or not name:
        raise BotNotFound(f"a bot is MODULE:FUNCTION or path/to/file.py:FUNCTION, not {spec!r}")
    is_file = target.endswith(".py") or "/" in target or os.sep in target
    module = _import_file(Path(target)) if is_file else _import_module(target)
    found: Any = module
    for part in name.split("."):
        if not hasattr(found, part):
            raise BotNotFound(f"{target} has no {name}")
        found = getattr(found, part)
    if not callable(found):
        raise BotNotFound(f"{target}:{name} is not a function but the {type(found).__name__} {found!r:.60}")
    chooser: Chooser = found
    return chooser


def _import_module(name: str) -> ModuleType:
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and (name == error.name or name.startswith(error.name + ".")):
            raise BotNotFound(
                f"no module named {name!r} in {os.getcwd()}: run gin-bot in the folder that holds it, "
                f"or name its file (path/to/{name.replace('.', '/')}.py:choose)"
            ) from None
        raise BotNotFound(f"cannot import {name}:\n{_traceback(error)}") from error
    except Exception as error:  # the bot's own code failed while loading: show the author where
        raise BotNotFound(f"cannot import {name}:\n{_traceback(error)}") from error


def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise BotNotFound(f"no file {str(path)!r}")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise BotNotFound(f"{str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    # As under `python path/to/file.py`: the modules beside it can be imported.
    sys.path.insert(0, str(path.resolve().parent))
    sys.modules[path.stem] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the bot's own code failed while loading: show the author where
        raise BotNotFound(f"cannot import {path}:\n{_traceback(error)}") from error
    return module


def _traceback(error: BaseException) -> str:
    """The traceback of an error in the bot's code, from its first frame outside the harness and importlib."""
    frames = error.__traceback__
    while frames is not None and _ours(frames.tb_frame.f_code.co_filename):
        frames = frames.tb_next  # None for a SyntaxError: its text says where
    return "".join(traceback.format_exception(type(error), error, frames)).rstrip()


def _ours(filename: str) -> bool:
    return filename == __file__ or "importlib" in filename or filename.startswith("<frozen")


# --- how a seat is found ----------------------------------------------------------------------------------


class Seating(Protocol):
    """How the harness gets its seat in game number ``number`` (0, 1, …) of the run."""

    single: bool
    """Whether only one game can be seated this way."""

    def seat(self, client: Client, number: int) -> Game: ...


@dataclass(frozen=True)
class Rules:
    """The rules the created games are played under, and the deals: game ``n`` gets ``seed + n``."""

    preset: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None

    def seed_of(self, number: int) -> int | None:
        return None if self.seed is None else self.seed + number


@dataclass(frozen=True)
class AgainstBot:
    """Each game is a new one against the house bot ``bot``; ``rated`` (the client's token is a player's):
    the result changes that player's rating."""

    bot: str
    rules: Rules
    name: str | None = None
    rated: bool = False
    single = False

    def seat(self, client: Client, number: int) -> Game:
        rules, seed = self.rules, self.rules.seed_of(number)
        return client.create_game(
            bot=self.bot,
            name=self.name,
            preset=rules.preset,
            options=rules.options,
            seed=seed,
            rated=self.rated,
        )


@dataclass(frozen=True)
class Host:
    """Each game is a new one against a person (or another harness), who joins with the invitation
    ``GAME:INVITATION`` handed to ``announce`` (printed: it is meant to be shared)."""

    rules: Rules
    announce: Callable[[str], None]
    name: str | None = None
    rated: bool = False
    single = False

    def seat(self, client: Client, number: int) -> Game:
        rules = self.rules
        game = client.create_game(
            human=True,
            name=self.name,
            preset=rules.preset,
            options=rules.options,
            seed=rules.seed_of(number),
            rated=self.rated,
        )
        assert game.invitation_code is not None
        self.announce(game.invitation_code)
        log.info("game %s: waiting for the other player to join with the invitation printed", game.game_id)
        return game


@dataclass(frozen=True)
class Seeking:
    """Each game is a quick match in the lobby (``POST /v1/seeks``): the client's token is a player's."""

    rules: Rules
    rated: bool = False
    single = False

    def seat(self, client: Client, number: int) -> Game:
        found = client.seek(preset=self.rules.preset, options=self.rules.options or None, rated=self.rated)
        if isinstance(found, Game):
            return found
        log.info("seek %s: waiting in the lobby for an opponent", found.id)
        while True:
            game = found.wait(timeout=30)
            if game is not None:
                return game
            if found.status == "cancelled":
                raise GameFailed(f"seek {found.id} was cancelled")


@dataclass(frozen=True)
class Join:
    """The one game of the invitation ``code`` (``GAME:INVITATION``), which works once."""

    code: str = field(repr=False)
    name: str | None = None
    single = True

    def seat(self, client: Client, number: int) -> Game:
        return client.join_game(self.code, name=self.name)


# --- playing ----------------------------------------------------------------------------------------------


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
        """One line; the results add up to the games started.

        >>> Tally(started=3, won=2, lost=1).summary()
        'summary: games 3, won 2, lost 1, aborted 0, errors 0, unfinished 0, bad answers 0'
        """
        return (
            f"summary: games {self.started}, won {self.won}, lost {self.lost}, aborted {self.aborted}, "
            f"errors {self.errors}, unfinished {self.unfinished}, bad answers {self.bad_answers}"
        )


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


@dataclass(frozen=True)
class Decision:
    """The move to play: the bot's answer, or (``problem`` says why) the first move of the play instead;
    ``error``: the exception the bot raised."""

    action: Mapping[str, Any]
    problem: str | None = None
    error: Exception | None = None


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
    try:
        answer = choose(copy.deepcopy(dict(view)))
        chosen = listed(answer, legal)
        if chosen is not None:
            return Decision(chosen)
        problem = f"answered {_short(answer)}, which is not one of the legal actions"
        return Decision(moves[0], problem)
    except Exception as error:  # the bot's bug must not end the game: the first legal move is played
        return Decision(moves[0], f"raised {type(error).__name__}: {error}", error)


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
        now = time.monotonic()
        self.since = now if self.since is None else self.since
        if now - self.since > self.limit:
            raise GameFailed(f"the service has been away for {now - self.since:.0f} s ({error})")
        retry_after = error.retry_after if isinstance(error, ApiError) else None
        delay = retry_after or min(MAX_PAUSE, 0.5 * 2.0**self.failures)
        self.failures += 1
        log.warning("game %s: %s; trying again in %.1f s", label, error, delay)
        if self.stop.wait(delay):
            raise Stopped


class Harness:
    """Plays ``games`` matches (0: until stopped), ``concurrency`` at a time (threads, one SDK client
    each), with ``choose`` on the seats ``seating`` finds. :meth:`run` returns the exit status;
    :meth:`interrupt` (the Ctrl-C handler) stops it promptly from the main thread."""

    def __init__(
        self,
        choose: Chooser,
        seating: Seating,
        *,
        server: str,
        token: str | None = None,
        games: int = 1,
        concurrency: int = 1,
        full_view: bool = False,
    ) -> None:
        self.choose = choose
        self.seating = seating
        self.server = server
        self._token = token  # a player's, for --seek (never logged)
        self.games = games
        self.concurrency = concurrency
        self.full_view = full_view
        self.tally = Tally()
        self.stop = threading.Event()
        self.interrupted = False
        self.refused: str | None = None
        # Reentrant: the Ctrl-C handler runs on the main thread, which may hold it at that moment.
        self._lock = threading.RLock()
        self._feeds: set[EventFeed] = set()
        self._raised = False  # whether the bot has raised an exception yet (its traceback is logged once)

    # --- the run -----------------------------------------------------------------------------------------

    def run(self) -> int:
        threads = 1 if self.seating.single else min(self.concurrency, self.games or self.concurrency)
        workers = [
            threading.Thread(target=self._worker, name=f"gin-bot-{n}", daemon=True) for n in range(threads)
        ]
        for worker in workers:
            worker.start()
        deadline: float | None = None
        try:
            # Polled: a wait on the Event the Ctrl-C handler sets could deadlock in that handler.
            while any(worker.is_alive() for worker in workers):
                if self.stop.is_set():
                    deadline = deadline or time.monotonic() + GRACE
                    if time.monotonic() > deadline:
                        break
                    # Again and again: a feed still connecting when it was closed has a stream to cut now.
                    self._close_feeds()
                time.sleep(0.05)
        except KeyboardInterrupt:  # a second Ctrl-C: do not wait for the games any longer
            self.interrupted = True
        with self._lock:
            tally = self.tally
            tally.unfinished = tally.started - (tally.won + tally.lost + tally.aborted + tally.errors)
        print(tally.summary(), flush=True)
        if self.interrupted:
            return EXIT_INTERRUPTED
        if self.refused is not None:
            print(f"gin-bot: the service refused the game: {self.refused}", file=sys.stderr)
            return EXIT_USAGE
        return EXIT_ERRORS if tally.errors else EXIT_OK

    def interrupt(self) -> None:
        """Stop: start no game, end the waits (feeds are closed, pauses cut short). The SIGINT handler
        calls it on the main thread, which never waits on ``stop`` itself."""
        self.interrupted = True
        self.stop.set()
        self._close_feeds()

    def _close_feeds(self) -> None:
        with self._lock:
            feeds = list(self._feeds)
        for feed in feeds:
            feed.close()

    def _next_number(self) -> int | None:
        with self._lock:
            done = self.games and self.tally.started >= self.games
            if self.stop.is_set() or done or (self.seating.single and self.tally.started):
                return None
            self.tally.started += 1
            return self.tally.started - 1

    def _count(self, result: str) -> None:
        with self._lock:
            setattr(self.tally, result, getattr(self.tally, result) + 1)

    def _worker(self) -> None:
        with Client(self.server, token=self._token) as client:
            while (number := self._next_number()) is not None:
                self._play_one(client, number)

    def _play_one(self, client: Client, number: int) -> None:
        label = f"#{number + 1}"
        patience = Patience(self.stop)
        try:
            game = self._seat(client, number, patience)
            label = game.game_id
            view = self._play(game, patience)
        except Stopped:
            log.info("game %s: unfinished (stopped)", label)
        except Refused as refusal:
            with self._lock:
                self.refused = self.refused or str(refusal)
            self.stop.set()
        except (GameFailed, GinClientError) as error:
            self._count("errors")
            log.error("game %s: error, %s", label, error)
        except Exception:  # a bug of gin-bot's own: this game is lost, not the thread and the other games
            self._count("errors")
            log.exception("game %s: error in gin-bot", label)
        else:
            result, mine, theirs = outcome(view, game.seat or 0)
            self._count(result)
            hands = view.get("hand_number", 0)
            plural = "" if hands == 1 else "s"
            log.info("game %s: %s, score %d–%d, %d hand%s", label, result, mine, theirs, hands, plural)

    def _seat(self, client: Client, number: int, patience: Patience) -> Game:
        while True:
            if self.stop.is_set():
                raise Stopped
            try:
                return self.seating.seat(client, number)
            except REFUSED as refusal:
                raise Refused(str(refusal)) from refusal
            except TRANSIENT as error:
                patience.wait(f"#{number + 1}", error)

    # --- one game ----------------------------------------------------------------------------------------

    def _play(self, game: Game, patience: Patience) -> View:
        """Play ``game`` until the match is over; its last view."""
        current = True  # whether game.view may be chosen from, or must be read again first
        refusals = 0
        while True:
            if self.stop.is_set():
                raise Stopped
            try:
                if not current or (self.full_view and "history" not in game.view):
                    game.refresh()
                    current = True
                view = game.view
                if view.get("phase") == "match_over":
                    return view
                decision = decide(self.choose, view)
                if decision is None:  # the opponent's turn, or waiting for the join
                    self._wait_for_opponent(game)
                    current = False
                    patience.reset()
                    continue
                if decision.problem is not None:
                    self._replaced(game, decision)
                action = decision.action
                try:
                    game.act(action)
                    refusals = 0
                except StaleVersion:  # the game moved on since this view: read it again, choose again
                    current = False
                except Conflict as refusal:  # listed yet refused: the game changed (or the service erred)
                    refusals += 1
                    if refusals > MAX_REFUSALS:
                        raise GameFailed(f"legal moves keep being refused ({refusal})") from refusal
                    log.warning("game %s: %s refused: %s", game.game_id, _short(action), refusal)
                    current = False
                patience.reset()
            except TRANSIENT as error:
                patience.wait(game.game_id, error)
                current = False  # a move may or may not have been applied: the view will tell

    def _replaced(self, game: Game, decision: Decision) -> None:
        """Log (and count) a bot's answer that was replaced; the traceback of its first exception."""
        error = decision.error
        with self._lock:
            self.tally.bad_answers += 1
            show_where = error is not None and not self._raised  # once: the same bug would fill the log
            self._raised = self._raised or error is not None
        played = _short(decision.action)
        log.warning("game %s: the bot %s; playing %s", game.game_id, decision.problem, played)
        if error is not None and show_where:
            log.warning("the bot's traceback:\n%s", _traceback(error))

    def _wait_for_opponent(self, game: Game) -> None:
        """Until the next event of the game (the opponent's move, a join, the end), however long."""
        feed = game.events(after=game.cursor, wait=EVENT_WAIT, until=lambda event: True)
        with self._watching(feed):
            if not self.stop.is_set():  # checked once registered: interrupt() closes it, or we see the flag
                for _ in feed:
                    pass

    @contextlib.contextmanager
    def _watching(self, feed: EventFeed) -> Iterator[None]:
        with self._lock:
            self._feeds.add(feed)
        try:
            yield
        finally:
            with self._lock:
                self._feeds.discard(feed)
            feed.close()


def _short(value: Any) -> str:
    """A bot's answer for a log line: compact JSON, cut at 200 characters.

    >>> _short({"type": "discard", "card": "7H"})
    '{"type":"discard","card":"7H"}'
    """
    try:
        text = json.dumps(value, separators=(",", ":"), default=repr)
    except ValueError:  # a circular structure
        text = repr(value)
    return text if len(text) <= 200 else text[:199] + "…"


# --- the command ------------------------------------------------------------------------------------------

EPILOG = """\
exit status: 0 every match played to its end · 1 some could not be (errors) ·
2 bad command line, bot not importable, or settings refused by the service ·
3 service unreachable · 130 interrupted (Ctrl-C)

environment: GIN_SERVER (default http://127.0.0.1:8000), GIN_PLAYER_TOKEN.
How to write a bot, from nothing to a match, with a 20-line example:
gin-bot guide (the "Write a bot" section of this package's README)."""

DISTRIBUTION = "ginrummy-client"
GUIDE_HEADING = "## Write a bot: `gin-bot`"


def guide() -> str:
    """The guide ``gin-bot guide`` prints: the "Write a bot" section of the distribution's README, which is
    its long description, so an installed package has it (``importlib.metadata``); run from a checkout,
    the README beside the package. HTML comments (the test's file marks) are left out.

    >>> text = guide()
    >>> text.startswith(GUIDE_HEADING) and "def choose(view: dict) -> dict:" in text
    True
    """
    checkout = Path(__file__).resolve().parent.parent
    pyproject = checkout / "pyproject.toml"
    if (checkout / "README.md").is_file() and f'name = "{DISTRIBUTION}"' in _read(pyproject):
        readme = _read(checkout / "README.md")
    else:
        # The METADATA file: headers, a blank line, then the long description (the README).
        metadata = importlib.metadata.distribution(DISTRIBUTION).read_text("METADATA") or ""
        readme = metadata.replace("\r\n", "\n").partition("\n\n")[2]
    start = readme.find(GUIDE_HEADING + "\n")
    if start < 0:
        raise LookupError(f"the {DISTRIBUTION} README has no section {GUIDE_HEADING!r}")
    section = readme[start:]
    end = section.find("\n## ", len(GUIDE_HEADING))
    section = section if end < 0 else section[: end + 1]
    lines = [line for line in section.splitlines() if not line.strip().startswith("<!--")]
    return "\n".join(lines).rstrip() + "\n"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gin-bot",
        description="Play Gin Rummy matches with a bot function of yours, through the gin service.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gin-bot {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    run = commands.add_parser(
        "run",
        help="play matches with BOT",
        description="Play matches with BOT, a function choose(view) -> one of view['legal_actions'].",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands.add_parser(
        "guide",
        help="how to write a bot: from nothing to a match, with a 20-line example (this package's README)",
    )
    run.add_argument("bot_function", metavar="BOT", help="MODULE:FUNCTION or path/to/file.py:FUNCTION")
    run.add_argument("--server", metavar="URL", help=f"the service (GIN_SERVER; default {DEFAULT_SERVER})")
    mode = run.add_mutually_exclusive_group()
    mode.add_argument("--bot", metavar="NAME", help="play the house bot NAME (the default mode: simple)")
    mode.add_argument("--host", action="store_true", help="create games against a person; prints invitations")
    mode.add_argument("--join", metavar="GAME:INVITATION", help="join the game of this invitation (one game)")
    mode.add_argument("--seek", action="store_true", help="quick match in the lobby, as a player")
    run.add_argument(
        "--player-token",
        metavar="TOKEN",
        help="play as this player (GIN_PLAYER_TOKEN): the games count for it (--seek without: a new one)",
    )
    run.add_argument(
        "--rated", action="store_true",
        help="rated games (a preset without -o; a player: --player-token, or --seek's new one)",
    )  # fmt: skip
    run.add_argument("--games", type=int, default=1, metavar="N", help="matches to play in all (0: forever)")
    run.add_argument("--concurrency", type=int, default=1, metavar="K", help="matches at once (default 1)")
    run.add_argument("--preset", metavar="NAME", help="rules preset (GET /v1/rules; default standard)")
    run.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                     help="a rule option, e.g. -o target=50 (repeatable)")  # fmt: skip
    run.add_argument("--seed", type=int, help="game n deals from SEED + n (services with GIN_ALLOW_SEED=1)")
    run.add_argument("--name", help="the bot's name at the table")
    run.add_argument("--full-view", action="store_true", help="give the bot full views (with history, stats)")
    run.add_argument("--verbose", "-v", action="store_true", help="log every request and retry")
    return parser


def seating_of(args: argparse.Namespace, announce: Callable[[str], None]) -> Seating:
    """The :class:`Seating` of the parsed command line; ValueError for a combination that cannot be."""
    if args.join is not None:
        if args.preset is not None or args.option or args.seed is not None:
            raise ValueError("--join plays the host's rules: no --preset, --option or --seed")
        if args.rated:
            raise ValueError("--join plays the host's game: the host chose whether it is rated (no --rated)")
        if args.games != 1:
            raise ValueError("--join plays the one game of the invitation: no --games")
        parse_invitation(args.join)
        return Join(args.join, name=args.name)
    rules = Rules(args.preset or "standard", parse_options(args.option), args.seed)
    if args.host:
        return Host(rules, announce, name=args.name, rated=args.rated)
    if args.seek:
        return Seeking(rules, rated=args.rated)
    return AgainstBot((args.bot or "simple").strip().lower(), rules, name=args.name, rated=args.rated)


def main(argv: list[str] | None = None) -> int:
    """``gin-bot``: see the module docstring and ``gin-bot run --help``."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as leaving:  # --help, --version, or a usage error argparse has printed
        return leaving.code if isinstance(leaving.code, int) else EXIT_USAGE
    if args.command == "guide":
        print(guide(), end="")
        return EXIT_OK
    printing = threading.Lock()

    def announce(code: str) -> None:
        with printing:
            print(code, flush=True)

    token = args.player_token or os.environ.get("GIN_PLAYER_TOKEN") or None
    try:
        if args.games < 0 or args.concurrency < 1:
            raise ValueError("--games is 0 (forever) or more, --concurrency 1 or more")
        seating = seating_of(args, announce)
        if args.rated and token is None and not args.seek:
            # The service refuses it (player_required): say so before any game is made.
            raise ValueError(
                "a rated game is played by a player: give its token with --player-token TOKEN or "
                "GIN_PLAYER_TOKEN (a player is made once with POST /v1/players, or gin login)"
            )
        choose = load_bot(args.bot_function)
        server = args.server or os.environ.get("GIN_SERVER") or DEFAULT_SERVER
        client = Client(server)
    except (ValueError, BotNotFound) as error:
        print(f"gin-bot: {error}", file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
        datefmt="%H:%M:%S",
        stream=sys.stderr,
    )
    with client:
        try:
            client.bots()
            if args.seek and token is None:
                name = args.name or f"gin-bot-{os.getpid()}-{int(time.time()) % 100000}"
                token = client.create_player(name).token
                log.info(
                    "playing as the new player %s for this run (its token is not kept: to play as one player "
                    "again, make it once — POST /v1/players or gin login — and pass its token)",
                    name,
                )
        except ApiError as error:
            hint = (
                "; to play as an existing player, give its token: --player-token or GIN_PLAYER_TOKEN"
                if error.code == "name_taken"
                else ""
            )
            print(f"gin-bot: {error}{hint}", file=sys.stderr)
            return EXIT_USAGE
        except GinClientError as error:
            print(f"gin-bot: no gin service answers at {server} ({error})", file=sys.stderr)
            return EXIT_UNREACHABLE
    harness = Harness(
        choose,
        seating,
        server=server,
        token=token,
        games=args.games,
        concurrency=args.concurrency,
        full_view=args.full_view,
    )
    return _with_ctrl_c(harness)


def _with_ctrl_c(harness: Harness) -> int:
    """Run with Ctrl-C stopping the harness (a second one stops waiting for the games). A SIGINT ignored
    by whoever started us (a background job) stays ignored."""
    ignored = signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, None)
    if ignored or threading.current_thread() is not threading.main_thread():
        return harness.run()

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        log.info("interrupted: stopping the running games")
        harness.interrupt()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        return harness.run()
    finally:
        signal.signal(signal.SIGINT, previous)
