"""``gin-bot``: plays whole matches with any Python function that chooses moves — a harness for bot authors.

A bot is a function ``choose(view: dict) -> dict``: it is given its seat's view (docs/api.md, *Views*)
and answers with one element of ``view["legal_actions"]``, as is. ``gin-bot run`` imports it and plays::

    gin-bot run my_bot:choose --bot simple --games 20 --concurrency 4   # against a house bot
    gin-bot run path/to/bot.py:choose --host          # prints GAME:INVITATION, waits for the join
    gin-bot run other_bot:choose --join GAME:INVITATION
    GIN_PLAYER_TOKEN=… gin-bot run my_bot:choose --seek --rated --games 5   # quick match in the lobby
    gin-bot run my_bot:choose --bot expert --rated --player-token …   # rated, against a house bot
    GIN_TOKEN=… gin-bot run my_bot:choose --account --accept-family standard   # a bot account at work
    GIN_TOKEN=… gin-bot run my_bot:choose --challenge bot-expert --games 10 --rated   # challenges sent
    GIN_TOKEN=… gin-bot run my_bot:choose --tournament ID    # join a tournament, play its pairings

Each match is played to ``match_over`` through the SDK (If-Match and Idempotency-Key on every move, one
event stream a game, held open while the opponent thinks). By default the bot can never break a game: an
answer that is not one of the legal actions (or an exception) is logged, counted and replaced by the first
legal move of the play; with ``--strict`` it stops the run (exit 4). Resign, abort and rematch are sent
only when the bot itself returns them. A lost connection, a 503 or a 429 is waited out and the same game
resumed from a fresh view; a 412 (the game moved on) means reading the view again and choosing again; an
opponent that sits on its move is claimed once the service allows it. ``--results FILE`` writes a JSON
line for each finished game (:func:`~gin_bot.play.record_of`).

How a seat is found is a :class:`Seating` (:class:`AgainstBot`, :class:`Host`, :class:`Join`,
:class:`Seeking`), or the account's challenges and tournaments (``--account``, ``--challenge``,
``--tournament``: :mod:`gin_bot.botaccount`, with the account's API token from ``GIN_TOKEN`` or
``--token-file``). A player's token (``--player-token`` or ``GIN_PLAYER_TOKEN``; an account's session or API
token too) makes every game of the run that player's, in the other modes: they count in its profile, and
with ``--rated`` (a preset without options) in its rating — against a house bot, a person or in the lobby.
``--seek`` needs a player: without a token a new one named ``--name`` is made for the run. Each ``--seek``
game is a quick match in the lobby — paired at once with a waiting seek, or waiting until someone takes the
bot's. Only what the service would refuse is refused up front: ``--rated`` without a player (but for
``--seek``), and ``--rated`` with ``--join`` (the host decides); and what would otherwise be ignored.

The table chat (:mod:`gin_bot.chat`): ``--on-chat MODULE:FUNCTION`` calls ``FUNCTION(line, table)`` with
each line the other player says (``table.say(text=None, preset=None)`` answers), and ``--greet`` says a
preset phrase at the start of each game and one at its end (``good_luck,good_game``; nothing by default: a
bot speaks when its author wants it to).

Exit statuses: 0 every match was played to its end; 1 some could not be (``errors`` in the summary, or
challenges declined); 2 a bad command line, a bot that cannot be imported, or settings the service refuses
(rules, bot name, seed, invitation, challenge); 3 the service cannot be reached; 4 ``--strict`` and the
bot answered an illegal move or raised; 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any, Protocol, cast

from ginrummy_client import ApiError, Client, ClockSpec, Game, GinClientError, parse_invitation, parse_options

from . import __version__
from .botaccount import Acceptance, AccountBot, ChallengePlan, families, names, parse_clock
from .chat import ChatHook, Greeting
from .play import (
    EXIT_ERRORS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_STRICT,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    GRACE,
    REFUSED,
    TRANSIENT,
    Chooser,
    GameFailed,
    Patience,
    Refused,
    Results,
    Run,
    Settings,
    Stopped,
    Tally,
    bot_traceback,
    decide,
    outcome,
)

log = logging.getLogger("gin_bot")

DEFAULT_SERVER = "http://127.0.0.1:8000"
DEFAULT_MAX_GAMES = 4
"""Games in play at once in the account mode, unless ``--max-games`` says otherwise."""

__all__ = [
    "EXIT_ERRORS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_STRICT",
    "EXIT_UNREACHABLE",
    "EXIT_USAGE",
    "GRACE",
    "AgainstBot",
    "BotNotFound",
    "Harness",
    "Host",
    "Join",
    "Refused",
    "Rules",
    "Seating",
    "Seeking",
    "Tally",
    "decide",
    "guide",
    "load_bot",
    "main",
    "outcome",
]


class BotNotFound(Exception):
    """The bot named on the command line cannot be imported, or is not a function."""


# --- the command line's values --------------------------------------------------------------------------


def load_bot(spec: str) -> Chooser:
    """The function ``spec`` names: ``module:function`` (imported as ``python -m`` would, the current
    directory first on the path) or ``path/to/file.py:function``; without ``:function``, ``choose``.

    >>> load_bot("json:dumps")({"type": "pass"})
    '{"type": "pass"}'
    >>> load_bot("json:no_such_thing")
    Traceback (most recent call last):
    ...
    gin_bot.harness.BotNotFound: json has no no_such_thing
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
        raise BotNotFound(f"cannot import {name}:\n{bot_traceback(error)}") from error
    except Exception as error:  # the bot's own code failed while loading: show the author where
        raise BotNotFound(f"cannot import {name}:\n{bot_traceback(error)}") from error


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
        raise BotNotFound(f"cannot import {path}:\n{bot_traceback(error)}") from error
    return module


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
    clock: ClockSpec | None = None

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
        return client.games.create(
            bot=self.bot,
            name=self.name,
            preset=rules.preset,
            options=rules.options,
            seed=seed,
            rated=self.rated,
            clock=rules.clock,
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
        game = client.games.create(
            human=True,
            name=self.name,
            preset=rules.preset,
            options=rules.options,
            seed=rules.seed_of(number),
            rated=self.rated,
            clock=rules.clock,
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
        rules = self.rules
        found = client.lobby.seek(
            preset=rules.preset, options=rules.options or None, rated=self.rated, clock=rules.clock
        )
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
        return client.games.join(self.code, name=self.name)


# --- playing ----------------------------------------------------------------------------------------------


class Harness(Run):
    """Plays ``games`` matches (0: until stopped), ``concurrency`` at a time (threads, one SDK client
    each), with ``choose`` on the seats ``seating`` finds. :meth:`run` returns the exit status;
    :meth:`interrupt` (the Ctrl-C handler) stops it promptly from the main thread."""

    def __init__(self, settings: Settings, seating: Seating, *, games: int = 1, concurrency: int = 1) -> None:
        super().__init__(settings)
        self.seating = seating
        self.games = games
        self.concurrency = concurrency

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
                time.sleep(0.05)
        except KeyboardInterrupt:  # a second Ctrl-C: do not wait for the games any longer
            self.interrupted = True
        return self.conclude()

    def _next_number(self) -> int | None:
        with self._lock:
            done = self.games and self.tally.started >= self.games
            if self.stop.is_set() or done or (self.seating.single and self.tally.started):
                return None
            self.tally.started += 1
            return self.tally.started - 1

    def _worker(self) -> None:
        with Client(self.server, token=self.settings.token) as client:
            while (number := self._next_number()) is not None:
                self._play_one(client, number)

    def _play_one(self, client: Client, number: int) -> None:
        patience = Patience(self.stop)
        try:
            game = self._seat(client, number, patience)
        except Stopped:
            log.info("game #%d: unfinished (stopped)", number + 1)
        except Refused as refusal:
            self.refuse(refusal)
        except (GameFailed, GinClientError) as error:
            self.count("errors")
            log.error("game #%d: error, %s", number + 1, error)
        else:
            self.play_game(client, game, patience)

    def _seat(self, client: Client, number: int, patience: Patience) -> Game:
        while True:
            if self.stop.is_set():
                raise Stopped
            try:
                return self.seating.seat(client, number)
            except REFUSED as refusal:
                raise Refused(str(refusal)) from refusal
            except TRANSIENT as error:
                patience.wait(f"game #{number + 1}", error)


# --- the command ------------------------------------------------------------------------------------------

EPILOG = """\
exit status: 0 every match played to its end · 1 some could not be (errors, challenges declined) ·
2 bad command line, bot not importable, or settings refused by the service ·
3 service unreachable · 4 --strict: the bot answered an illegal move or raised ·
130 interrupted (Ctrl-C)

environment: GIN_SERVER (default http://127.0.0.1:8000), GIN_PLAYER_TOKEN, GIN_TOKEN (--account).
How to write a bot, from nothing to a match, with a 20-line example:
gin-bot guide (the "Write a bot" section of this package's README)."""

DISTRIBUTION = "ginrummy-bot"
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
    mode.add_argument(
        "--account", action="store_true",
        help="a bot account at work: accept the challenges that pass the --accept-… filter, decline the "
        "others, play the account's games (its API token: GIN_TOKEN or --token-file)",
    )  # fmt: skip
    run.add_argument(
        "--challenge", metavar="NAME",
        help="as the account, challenge NAME (a player, a bot account, or a house bot: bot-expert) to "
        "--games games and play them (with --account: also accept challenges)",
    )  # fmt: skip
    run.add_argument(
        "--tournament", metavar="ID",
        help="as the account, join this tournament and play its pairings until it is over (with --account: "
        "also accept challenges); Ctrl-C pauses",
    )  # fmt: skip
    run.add_argument(
        "--player-token",
        metavar="TOKEN",
        help="play as this player (GIN_PLAYER_TOKEN): the games count for it (--seek without: a new one)",
    )
    run.add_argument(
        "--token-file", metavar="FILE",
        help="--account/--challenge: the file holding the account's API token (else GIN_TOKEN)",
    )  # fmt: skip
    run.add_argument(
        "--rated", action="store_true",
        help="rated games (a preset without -o; a player: --player-token, or --seek's new one)",
    )  # fmt: skip
    run.add_argument("--games", type=int, metavar="N",
                     help="matches to play in all (default 1; 0: forever; --account alone: 0)")  # fmt: skip
    run.add_argument(
        "--concurrency", "--max-games", type=int, metavar="K", dest="concurrency",
        help=f"matches at once (default 1; --account/--challenge: {DEFAULT_MAX_GAMES})",
    )  # fmt: skip
    run.add_argument("--preset", metavar="NAME", help="rules preset (GET /v1/rules; default standard)")
    run.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                     help="a rule option, e.g. -o target=50 (repeatable)")  # fmt: skip
    run.add_argument("--clock", metavar="CLOCK",
                     help="a time control: a preset (blitz, rapid, classical, eaai), BANK+INCREMENT seconds, "
                     "or per_move=S")  # fmt: skip
    run.add_argument("--seed", type=int, help="game n deals from SEED + n (services with GIN_ALLOW_SEED=1)")
    run.add_argument("--name", help="the bot's name at the table")
    run.add_argument("--full-view", action="store_true", help="give the bot full views (with history, stats)")
    run.add_argument("--results", metavar="FILE",
                     help="append a JSON line for each finished game (result, points, hands, gins, knocks, "
                     "undercuts, decision times, rating change)")  # fmt: skip
    run.add_argument("--strict", action="store_true",
                     help="an illegal answer or an exception of the bot stops the run (exit 4) instead of "
                     "being replaced by a legal move")  # fmt: skip
    run.add_argument("--verbose", "-v", action="store_true", help="log every request and retry")
    chat = run.add_argument_group("the table chat (off by default)")
    chat.add_argument(
        "--on-chat", metavar="MODULE:FUNCTION",
        help="call FUNCTION(line, table) with each chat line the other player says; table.say(text=None, "
        "preset=None) answers (free text: an account's)",
    )  # fmt: skip
    chat.add_argument(
        "--greet", nargs="?", const="good_luck,good_game", metavar="HELLO,GOODBYE",
        help="say a preset phrase at the start of each game and one at its end (default good_luck,good_game)",
    )  # fmt: skip
    accepting = run.add_argument_group("--account: which challenges are accepted (the others are declined)")
    accepting.add_argument("--accept-family", action="append", default=[], metavar="FAMILY[,FAMILY…]",
                           help="only these rules presets (declined: rules)")  # fmt: skip
    accepting.add_argument("--accept-rated", action="store_true",
                           help="rated games (given alone: only rated; declined: rated)")  # fmt: skip
    accepting.add_argument("--accept-casual", action="store_true",
                           help="casual games (given alone: only casual; declined: casual)")  # fmt: skip
    accepting.add_argument("--accept-clock-min", type=float, metavar="SECONDS",
                           help="clocks of at least this many seconds a player: bank + 40 increments "
                           "(declined: too_fast)")  # fmt: skip
    accepting.add_argument("--accept-clock-max", type=float, metavar="SECONDS",
                           help="clocks of at most this (declined: too_slow; no clock: "
                           "time_control)")  # fmt: skip
    accepting.add_argument("--accept-from", nargs="+", action="extend", default=[], metavar="NAME",
                           help="only these players (declined: generic)")  # fmt: skip
    return parser


def seating_of(args: argparse.Namespace, announce: Callable[[str], None]) -> Seating:
    """The :class:`Seating` of the parsed command line; ValueError for a combination that cannot be."""
    if args.join is not None:
        if args.preset is not None or args.option or args.seed is not None or args.clock is not None:
            raise ValueError("--join plays the host's rules: no --preset, --option, --clock or --seed")
        if args.rated:
            raise ValueError("--join plays the host's game: the host chose whether it is rated (no --rated)")
        if args.games not in (None, 1):
            raise ValueError("--join plays the one game of the invitation: no --games")
        parse_invitation(args.join)
        return Join(args.join, name=args.name)
    rules = Rules(args.preset or "standard", parse_options(args.option), args.seed, clock_of(args))
    if args.host:
        return Host(rules, announce, name=args.name, rated=args.rated)
    if args.seek:
        return Seeking(rules, rated=args.rated)
    return AgainstBot((args.bot or "simple").strip().lower(), rules, name=args.name, rated=args.rated)


def clock_of(args: argparse.Namespace) -> ClockSpec | None:
    return None if args.clock is None else parse_clock(args.clock)


ACCEPT_OPTIONS = (
    "accept_family", "accept_rated", "accept_casual", "accept_clock_min", "accept_clock_max", "accept_from",
)  # fmt: skip


def account_settings(args: argparse.Namespace) -> tuple[Acceptance | None, ChallengePlan | None]:
    """What the account mode accepts and sends; ValueError for options it would ignore."""
    if args.player_token is not None:
        raise ValueError(
            "--account and --challenge play as the account of their API token (GIN_TOKEN or --token-file), "
            "not as --player-token"
        )
    if args.seed is not None or args.name is not None:
        raise ValueError("--account and --challenge play the account's games: no --seed or --name")
    accept = None
    if args.account:
        rated, casual = args.accept_rated, args.accept_casual
        accept = Acceptance(
            families=families(args.accept_family),
            rated=rated or not casual,
            casual=casual or not rated,
            clock_min=args.accept_clock_min,
            clock_max=args.accept_clock_max,
            players=names(args.accept_from),
        )
    plan = None
    if args.challenge is not None:
        rules: dict[str, Any] = {"preset": args.preset or "standard"}
        if args.option:
            rules["options"] = parse_options(args.option)
        games = 1 if args.games is None else args.games
        plan = ChallengePlan(args.challenge, games, rules, clock_of(args), args.rated)
    else:
        if args.preset is not None or args.option or args.clock is not None or args.rated:
            raise ValueError(
                "--account plays the rules of the challenges it accepts: --preset, -o, --clock and --rated "
                "go with --challenge (filter with --accept-…)"
            )
    return accept, plan


def account_token(args: argparse.Namespace) -> str:
    """The account's API token: ``--token-file`` (its first line), else ``GIN_TOKEN``."""
    if args.token_file is not None:
        try:
            text = Path(args.token_file).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise ValueError(f"cannot read the token file {args.token_file!r}: {error.strerror}") from None
        token = text.splitlines()[0].strip() if text else ""
        if not token:
            raise ValueError(f"the token file {args.token_file!r} is empty")
        return token
    token = os.environ.get("GIN_TOKEN", "").strip()
    if not token:
        raise ValueError(
            "--account and --challenge play with the account's API token: put it in GIN_TOKEN or in a file "
            "named by --token-file (make one, scope bot: POST /v1/account/tokens) — never a password"
        )
    return token


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

    account = args.account or args.challenge is not None or args.tournament is not None
    token = args.player_token or os.environ.get("GIN_PLAYER_TOKEN") or None
    try:
        if (args.games is not None and args.games < 0) or (
            args.concurrency is not None and args.concurrency < 1
        ):
            raise ValueError("--games is 0 (forever) or more, --concurrency 1 or more")
        if not args.account and any(
            getattr(args, option) not in (None, False, []) for option in ACCEPT_OPTIONS
        ):
            raise ValueError("the --accept-… options say which challenges --account accepts: add --account")
        if account:
            if args.bot is not None or args.host or args.join is not None or args.seek:
                raise ValueError(
                    "--challenge and --tournament play the account's games: no --bot, --host, --join or "
                    "--seek"
                )
            if args.tournament is not None and args.challenge is not None:
                raise ValueError("--tournament plays the tournament's pairings: no --challenge")
            accept, plan = account_settings(args)
            token = account_token(args)
        else:
            seating = seating_of(args, announce)
            if args.token_file is not None:
                raise ValueError("--token-file is the account's API token, for --account or --challenge")
            if args.rated and token is None and not args.seek:
                # The service refuses it (player_required): say so before any game is made.
                raise ValueError(
                    "a rated game is played by a player: give its token with --player-token TOKEN or "
                    "GIN_PLAYER_TOKEN (a player is made once with POST /v1/players, or gin login)"
                )
        choose = load_bot(args.bot_function)
        on_chat = None if args.on_chat is None else cast(ChatHook, load_bot(args.on_chat))
        greeting = None if args.greet is None else Greeting.parse(args.greet)
        server = args.server or os.environ.get("GIN_SERVER") or DEFAULT_SERVER
        client = Client(server)
        results = Results(Path(args.results)) if args.results is not None else None
    except (ValueError, BotNotFound) as error:
        print(f"gin-bot: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"gin-bot: cannot write the results to {args.results!r}: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
        datefmt="%H:%M:%S",
        stream=sys.stderr,
    )
    with client:
        try:
            client.service.bots()
            if greeting is not None:
                known = {preset["id"] for preset in client.service.chat_presets()["presets"]}
                unknown = [phrase for phrase in greeting.phrases() if phrase not in known]
                if unknown:
                    print(
                        f"gin-bot: --greet takes preset phrases ({', '.join(sorted(known))}), not "
                        f"{', '.join(unknown)}",
                        file=sys.stderr,
                    )
                    return EXIT_USAGE
            if args.seek and token is None:
                name = args.name or f"gin-bot-{os.getpid()}-{int(time.time()) % 100000}"
                token = client.players.create(name).token
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
    if account and os.environ.get("GIN_PLAYER_TOKEN"):
        log.warning("GIN_PLAYER_TOKEN is not used: --account and --challenge play as the API token's account")
    settings = Settings(choose, server, token, args.full_view, args.strict, results, on_chat, greeting)
    harness: Harness | AccountBot
    if account:
        games = (args.games or 0) if plan is None else 0
        max_games = args.concurrency or DEFAULT_MAX_GAMES
        harness = AccountBot(
            settings, accept=accept, plan=plan, games=games, max_games=max_games, tournament=args.tournament
        )
    else:
        games = 1 if args.games is None else args.games
        harness = Harness(settings, seating, games=games, concurrency=args.concurrency or 1)
    return _with_ctrl_c(harness)


def _with_ctrl_c(harness: Harness | AccountBot) -> int:
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
