"""The ``gin`` command line.

Exit statuses (also in ``gin --help`` and docs/cli.md):

====  ===============================================================================
0     done: the command succeeded, or the game was played to its end
2     bad command line (unknown option, malformed ``--option``), or a command that needs a player login
      without one (``gin login NAME``) or another login on that server (``gin logout`` first); no
      password given, or the two typed differ; ``resign`` and ``abort`` of the game played last without
      a terminal to confirm on and without ``--yes``
3     the service cannot be reached
4     the service refused the request (the problem's code and detail are printed): a wrong password,
      too many failed sign-ins (``try again in N s``), a session ended elsewhere, a game not in the
      archive (``gin replay``, ``gin review``)…; or the service's review of the match failed
5     the player left an unfinished game (quit, end of input); ``gin resume`` continues it
6     nothing to resume (no saved game, or the saved game no longer exists); for ``resign``, ``abort``,
      ``rematch`` and ``replay``: no such saved game
7     ``gin challenge``: the challenge was not accepted — declined (the reason is printed), expired
      unanswered, or withdrawn from elsewhere
8     ``gin review`` (and ``gin replay --review``): the review was still being computed after ``--wait``
      seconds; it goes on in the service
130   interrupted with Ctrl-C; an unfinished game can be resumed (``gin review``: waiting stops, the
      review goes on in the service)
====  ===============================================================================
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import json
import math
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any

from ginrummy_client import (
    DECLINE_REASONS,
    ApiError,
    Challenge,
    ChallengeClosed,
    Client,
    ConnectionFailed,
    Game,
    GameFilters,
    GinClientError,
    Seek,
    SeekTaken,
    parse_invitation,
    parse_options,
)

from . import __version__
from .accounts import AccountCommands, render_live_games
from .challenges import not_accepted, reasons_help, render_challenges, terms, until, wait_for_answer
from .commands import InputError, parse_line
from .errors import UsageError
from .people import parse_clock, rating_words, render_leaderboard, render_lobby, render_profile
from .play import EXIT_OK, GameSession, plain, start_rematch
from .records import parse_when, render_games
from .replay import Keys, Replay, print_replay, step_through
from .review import Judged, await_review
from .saved import API_TOKEN, SESSION, Login, Logins, SavedGame, SavedGames
from .screen import (
    Screen,
    end_text,
    finished_by_last_hand,
    moves_line,
    player_names,
    render_game_over,
    render_result,
    render_table,
)
from .watch import Spectator
from .words import lower_first, refusal

EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_REFUSED = 4
EXIT_NOTHING_TO_RESUME = 6
EXIT_NOT_ACCEPTED = 7
EXIT_STILL_PENDING = 8
EXIT_INTERRUPTED = 130

REVIEW_EXITS = {
    "done": EXIT_OK,
    "failed": EXIT_REFUSED,
    "pending": EXIT_STILL_PENDING,
    "stopped": EXIT_INTERRUPTED,
}
"""The exit status of each way a wait for a review ends."""

DEFAULT_SERVER = "http://127.0.0.1:8000"

EPILOG = """\
exit status: 0 done · 2 bad command line · 3 service unreachable ·
4 request refused by the service · 5 left an unfinished game (gin resume) ·
6 nothing to resume · 7 challenge declined, expired or withdrawn ·
8 review still being computed (gin review --wait) · 130 interrupted (Ctrl-C)

environment: GIN_SERVER (default http://127.0.0.1:8000), GIN_TOKEN (an API token
to act with instead of the saved session, e.g. in CI), NO_COLOR, XDG_CONFIG_HOME
(saved games: $XDG_CONFIG_HOME/gin/games.json, sessions and player logins:
$XDG_CONFIG_HOME/gin/players.json, both owner-only)

passwords are never arguments or environment variables: gin asks for them at
the terminal (no echo), and reads them from stdin, one a line, when stdin is
not a terminal (a script)"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; common options work before or after the command."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--server", default=argparse.SUPPRESS, metavar="URL",
        help=f"service URL (env GIN_SERVER, default {DEFAULT_SERVER})",
    )  # fmt: skip
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS,
        help="machine-readable output (one JSON document; JSON lines while playing)",
    )  # fmt: skip
    common.add_argument(
        "--no-color", action="store_true", default=argparse.SUPPRESS,
        help="plain text: no colour, canonical card names (also when not a terminal)",
    )  # fmt: skip

    parser = argparse.ArgumentParser(
        prog="gin",
        description="Play Gin Rummy in a terminal against a bot or another person, through the gin service.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"gin {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def rules_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (see gin rules)")
        sub.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                         help="override one rule option, e.g. -o target=50 (repeatable)")  # fmt: skip
        sub.add_argument("--rated", action="store_true",
                         help="a rated game: it changes ratings (gin login; a preset, no -o)")  # fmt: skip
        sub.add_argument("--clock", type=parse_clock, metavar="PRESET|SECONDS|BANK+INC",
                         help="a time control: a preset the service knows (e.g. rapid), "
                              "SECONDS a move, or BANK+INCREMENT seconds (600+5)")  # fmt: skip

    def game_options(sub: argparse.ArgumentParser) -> None:
        rules_options(sub)
        sub.add_argument("--name", help="your name at the table (default: your login's)")
        sub.add_argument("--seed", type=int, help="fixed deal (only services started with GIN_ALLOW_SEED=1)")

    def saved_game(sub: argparse.ArgumentParser, default: str) -> None:
        sub.add_argument("game_id", nargs="?", help=f"which game (default: {default})")

    play = commands.add_parser("play", parents=[common], help="play a whole game against a bot")
    play.add_argument("--bot", default="simple", help="the computer opponent (see gin bots; default simple)")
    game_options(play)
    host = commands.add_parser(
        "host", parents=[common], help="start a game against a person; prints an invitation"
    )
    game_options(host)
    join = commands.add_parser("join", parents=[common], help="join a person's game with their invitation")
    join.add_argument("invitation", help="the text printed by gin host")
    join.add_argument("--name", help="your name at the table")
    resume = commands.add_parser("resume", parents=[common], help="continue an unfinished game")
    resume.add_argument("game_id", nargs="?", help="which game (default: the one played last)")
    resume.add_argument("--list", action="store_true", help="list the saved games instead")
    show = commands.add_parser("show", parents=[common], help="show a saved game's table once")
    show.add_argument("game_id", nargs="?", help="which game (default: the one played last)")
    act = commands.add_parser(
        "act", parents=[common], help="make one move in a saved game, e.g. gin act draw"
    )
    act.add_argument("--game", dest="game_id", help="which game (default: the one played last)")
    act.add_argument("move", nargs="+", help="the move, as typed at the game prompt")
    for name, what in (
        ("resign", "resign a saved game: the opponent wins"),
        ("abort", "abort a saved game before its first draw"),
    ):
        ending = commands.add_parser(name, parents=[common], help=what)
        saved_game(ending, "the one played last")
        ending.add_argument(
            "--yes", "-y", action="store_true",
            help="do not ask first (without a terminal: needed unless GAME_ID is given)",
        )  # fmt: skip
    saved_game(
        commands.add_parser("rematch", parents=[common], help="ask for a rematch of a finished game"),
        "the one finished last",
    )
    account_commands(commands, common)
    challenge_commands(commands, common, rules_options)
    seek = commands.add_parser(
        "seek", parents=[common], help="quick match: play the next player who seeks the same game"
    )
    rules_options(seek)
    seek.add_argument("--min-rating", type=int, metavar="N", help="only opponents rated N or more")
    seek.add_argument("--max-rating", type=int, metavar="N", help="only opponents rated N or less")
    accept = commands.add_parser("accept", parents=[common], help="take a seek of the lobby and play it")
    accept.add_argument("seek_id", help="the seek's id, as gin lobby lists it")
    commands.add_parser("lobby", parents=[common], help="the open seeks and the public games in play")
    profile = commands.add_parser("profile", parents=[common], help="a player's games, ratings, recent games")
    profile.add_argument("name", nargs="?", help="the player (default: your login)")
    board = commands.add_parser("leaderboard", parents=[common], help="the best rated players")
    board.add_argument("--family", default="standard", metavar="PRESET", help="rules family (standard)")
    board.add_argument("--limit", type=int, default=20, metavar="N", help="how many (default 20)")

    def game_filters(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("name", nargs="?", help="the player (default: your login)")
        sub.add_argument(
            "--since",
            type=parse_when,
            metavar="TIME",
            help="games finished at or after TIME (ISO 8601: 2026-11-24, 2026-11-24T17:00; UTC)",
        )
        sub.add_argument("--until", type=parse_when, metavar="TIME", help="games finished before TIME")
        sub.add_argument("--opponent", metavar="NAME", help="only the games against this player")
        rated = sub.add_mutually_exclusive_group()
        rated.add_argument("--rated", dest="rated", action="store_const", const=True, help="only rated games")
        rated.add_argument(
            "--casual", dest="rated", action="store_const", const=False, help="only unrated games"
        )
        sub.add_argument("--family", metavar="PRESET", help="only games of this rules family (or casual)")
        sub.add_argument("--result", metavar="RESULT", help="only the games won, lost, drawn or aborted")

    games = commands.add_parser("games", parents=[common], help="a player's finished games, newest first")
    game_filters(games)
    games.add_argument("--limit", type=int, default=20, metavar="N", help="how many (default 20)")
    games.add_argument(
        "--live", action="store_true",
        help="your account's games in play instead (from any machine: gin resume GAME plays one)",
    )  # fmt: skip
    export = commands.add_parser(
        "export", parents=[common], help="write a player's finished games to stdout as NDJSON"
    )
    game_filters(export)
    export.add_argument("--limit", type=int, metavar="N", help="at most N games (default: all)")
    replay = commands.add_parser(
        "replay", parents=[common], help="step through a finished match, hand by hand, move by move"
    )
    saved_game(replay, "the one finished last")
    replay.add_argument(
        "--no-interactive", action="store_true",
        help="print the whole replay as text (also when stdout is not a terminal)",
    )  # fmt: skip
    replay.add_argument(
        "--review", action="store_true",
        help="with the master's review: each judged move's verdict and the better move (see gin review)",
    )  # fmt: skip
    review_wait(replay)
    review = commands.add_parser(
        "review", parents=[common],
        help="the master's review of a finished match: accuracy, inaccuracies, mistakes, blunders",
    )  # fmt: skip
    saved_game(review, "the one finished last")
    review.add_argument(
        "--all", action="store_true", help="every judged move (default: only the marked ones: ?! ? ??)"
    )
    review_wait(review)
    watch = commands.add_parser("watch", parents=[common], help="follow a game live, as a spectator")
    watch.add_argument("game_id", help="the game (gin lobby lists the public games in play)")
    analyze = commands.add_parser(
        "analyze", parents=[common], help="melds, deadwood and best discards of a hand"
    )
    analyze.add_argument("cards", nargs="+", metavar="CARD", help="10 or 11 cards, e.g. 7h 8h 9h KS …")
    commands.add_parser("rules", parents=[common], help="rules presets and options")
    commands.add_parser("bots", parents=[common], help="the computer opponents")
    return parser


def review_wait(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--wait", type=float, default=300.0, metavar="SECONDS",
        help="how long to wait for the review to be computed (default 300; 0: not at all)",
    )  # fmt: skip


def account_commands(commands: Any, common: argparse.ArgumentParser) -> None:
    """The commands of the account: signing up, in and out, the password, sessions, API tokens."""
    signup = commands.add_parser(
        "signup", parents=[common], help="make an account (a name and a password) and sign in"
    )
    signup.add_argument("name", nargs="?", help="the account's name (unique on the service)")
    signup.add_argument(
        "--claim", action="store_true",
        help="give a password to the player without one that gin keeps for this server",
    )  # fmt: skip
    login = commands.add_parser(
        "login", parents=[common], help="sign in to your account (the password is asked): your games count"
    )
    login.add_argument("name", help="the account's name")
    logout = commands.add_parser("logout", parents=[common], help="sign out: this machine's session ends")
    logout.add_argument("--everywhere", action="store_true", help="end every session of the account")
    logout.add_argument("--session", metavar="ID", help="end another session (gin sessions lists them)")
    commands.add_parser("passwd", parents=[common], help="change your password (the other sessions end)")
    commands.add_parser("whoami", parents=[common], help="the account you are signed in to, here")
    commands.add_parser("sessions", parents=[common], help="the account's sessions, this one marked")
    token = commands.add_parser("token", parents=[common], help="personal API tokens (for programs, CI)")
    tokens = token.add_subparsers(dest="token_command", metavar="ACTION", required=True)
    create = tokens.add_parser(
        "create", parents=[common], help="make an API token: printed once, never shown again"
    )
    create.add_argument("description", help="what it is for, e.g. 'ci bot'")
    create.add_argument(
        "--scope", action="append", choices=("play", "bot", "read"), default=[], dest="scopes",
        help="what it may do: play, bot or read (repeatable; default play)",
    )  # fmt: skip
    tokens.add_parser("list", parents=[common], help="the API tokens (never the tokens themselves)")
    revoke = tokens.add_parser("revoke", parents=[common], help="revoke an API token: refused at once")
    revoke.add_argument("token_id", metavar="ID", help="the token's id, as gin token list shows it")


CHALLENGE_HELP = """\
Challenge a player, a bot account or a house bot (bot-expert: gin bots lists
them) to a game under these rules. A house bot accepts at once, and the game is
played here as gin play plays it. A person is told on their account stream (gin
challenges lists it for them); gin waits for the answer: accepted, the game is
played here (quit leaves; gin resume comes back), declined or expired, gin says
why and exits 7. Ctrl-C withdraws the challenge (exit 130).

Signed in (gin login), the challenge and the game are the account's; without an
account anyone may challenge under a --name, casual only."""

CHALLENGES_HELP = """\
Without ACTION: your account's open challenges, received (to you) and sent (from
you), with the rules, the clock, rated or casual, when each was sent and when it
expires. accept ID plays the game here (you are the second seat), decline ID
tells the challenger why (--reason), cancel ID withdraws one you sent."""


def challenge_commands(
    commands: Any, common: argparse.ArgumentParser, rules_options: Callable[[argparse.ArgumentParser], None]
) -> None:
    """``gin challenge NAME`` and ``gin challenges [accept|decline|cancel ID]``."""
    challenge = commands.add_parser(
        "challenge", parents=[common], description=CHALLENGE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="challenge a player or a house bot (bot-expert) to a game; play it once accepted",
    )  # fmt: skip
    challenge.add_argument(
        "opponent", metavar="NAME", help="whom: a player (any case), a bot account, or bot-NAME (a house bot)"
    )
    rules_options(challenge)
    challenge.add_argument("--name", help="your name at the table when not signed in (else: your account's)")
    challenges = commands.add_parser(
        "challenges", parents=[common], description=CHALLENGES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="your open challenges, received and sent; accept, decline or cancel one",
    )  # fmt: skip
    actions = challenges.add_subparsers(dest="challenge_command", metavar="ACTION")
    which = "the challenge's id, as gin challenges lists it"
    accept = actions.add_parser("accept", parents=[common], help="accept a challenge to you; play the game")
    accept.add_argument("challenge_id", metavar="ID", help=which)
    decline = actions.add_parser(
        "decline", parents=[common], epilog=reasons_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="decline a challenge to you: the challenger is told why",
    )  # fmt: skip
    decline.add_argument("challenge_id", metavar="ID", help=which)
    decline.add_argument(
        "--reason", choices=DECLINE_REASONS, default="generic", metavar="REASON",
        help="why, as the challenger is told: one of the reasons below (default generic)",
    )  # fmt: skip
    cancel = actions.add_parser("cancel", parents=[common], help="withdraw a challenge you sent")
    cancel.add_argument("challenge_id", metavar="ID", help=which)


GAME_ID_ARG = re.compile(r"-[A-Za-z0-9_-]{7,63}(:[A-Za-z0-9_-]+)?")
"""A game id or invitation that begins with a dash (base64url text may): not an option."""

VALUE_OPTIONS = {
    "--server", "--rules", "--option", "-o", "--name", "--seed", "--bot", "--game",
    "--clock", "--min-rating", "--max-rating", "--family", "--limit",
    "--since", "--until", "--opponent", "--result", "--scope", "--session", "--reason", "--wait",
}  # fmt: skip


def protect_ids(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """Keep argparse from reading ``gin join -x7…:…`` or ``gin resume -x7…`` as an unknown option.

    Such a word (not an option of ``gin``, not an option's value) gets a leading space, which argparse
    takes for a positional argument and the commands strip off.

    >>> protect_ids(build_parser(), ["join", "-i0PJ9CuEnqcqteCHIrA:B8Pmy", "--name", "-x"])
    ['join', ' -i0PJ9CuEnqcqteCHIrA:B8Pmy', '--name', '-x']
    >>> protect_ids(build_parser(), ["challenges", "decline", "-k2Qb1xZ9aTrE0wq5", "--reason", "later"])
    ['challenges', 'decline', ' -k2Qb1xZ9aTrE0wq5', '--reason', 'later']
    """
    known = _option_strings(parser)
    protected: list[str] = []
    for i, word in enumerate(argv):
        after_value_option = i > 0 and argv[i - 1] in VALUE_OPTIONS and argv[i - 1] != "--game"
        if word not in known and not after_value_option and GAME_ID_ARG.fullmatch(word):
            word = " " + word
        protected.append(word)
    return protected


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    strings: set[str] = set()
    for action in parser._actions:
        strings.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                strings |= _option_strings(sub)
    return strings


def _interrupt(signum: int, frame: object) -> None:
    """A signal handled as Ctrl-C is."""
    raise KeyboardInterrupt


@contextlib.contextmanager
def _leaving_withdraws() -> Iterator[None]:
    """While a seek or a challenge waits for an opponent: a closed terminal (SIGHUP) or a kill (SIGTERM)
    withdraws it as Ctrl-C does — one left behind would pair the next seeker with nobody, or start a
    game nobody plays. Entered before the waiting line is shown."""
    leaving = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in leaving.items():
            signal.signal(sig, handler)


def main(argv: list[str] | None = None) -> int:
    """Run ``gin``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(protect_ids(parser, sys.argv[1:] if argv is None else list(argv)))
    for name in ("game_id", "invitation", "seek_id", "challenge_id", "opponent", "name"):
        if isinstance(getattr(args, name, None), str):
            setattr(args, name, getattr(args, name).strip())
    json_mode = bool(getattr(args, "json", False))
    color = _want_color(no_color=bool(getattr(args, "no_color", False)), json_mode=json_mode)
    screen = Screen(color=color)
    saved = SavedGames()
    logins = Logins()
    explicit_server = getattr(args, "server", None) or os.environ.get("GIN_SERVER")
    server = explicit_server or DEFAULT_SERVER
    try:
        client = Client(server, user_agent=f"gin-cli/{__version__}")
    except ValueError as exc:  # not an http:// or https:// URL
        screen.error(str(exc))
        return EXIT_USAGE
    with client:
        runner = _Runner(args, client, screen, saved, logins, json_mode, explicit_server)
        try:
            return runner.run()
        except UsageError as exc:
            screen.error(str(exc))
            return EXIT_USAGE
        except ConnectionFailed as exc:
            screen.error(
                f"cannot reach the service at {client.server}: {exc.reason or exc}."
                " Is the service running? (set --server URL or GIN_SERVER)"
            )
            if runner.unfinished() is not None:
                screen.error(f"your game is saved: gin resume {runner.game_id}")
            return EXIT_UNREACHABLE
        except ApiError as exc:
            remedy = runner.refused_login(exc)
            _report_api_error(screen, exc, json_mode, runner.acting, hint=remedy is None)
            if remedy is not None and not json_mode:
                screen.error(remedy)
            if runner.game is not None and exc.status in (401, 403, 404, 410):
                saved.forget(runner.game.game_id)
            return EXIT_REFUSED
        except BrokenPipeError:
            # The reader went away (`gin rules | head`): not an error of ours, and no traceback.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_OK
        except KeyboardInterrupt:
            screen.out.write("\n")
            if runner.unfinished() is not None:
                screen.error(f"interrupted. Resume with: gin resume {runner.game_id}")
            else:
                screen.error("interrupted")
            return EXIT_INTERRUPTED


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # closed, or replaced by something without a file
        return False


def _score_words(view: dict[str, Any], names: list[str]) -> str:
    """``, hand 3, You 45 · Bob 12``: where the game stands (empty when the view does not say)."""
    games = (view.get("scores") or {}).get("games") or []
    points = (games[-1].get("points") if games else None) or None
    if not isinstance(points, list) or len(points) != 2:
        return ""
    return f", hand {view.get('hand_number', '?')}, {names[0]} {points[0]} · {names[1]} {points[1]}"


def _want_color(*, no_color: bool, json_mode: bool) -> bool:
    if no_color or json_mode or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    if not sys.stdout.isatty():
        return False
    return (sys.stdout.encoding or "").lower().replace("-", "") in ("utf8", "utf16")


LOOK_UP = {
    "unknown_bot": "gin bots lists the bots",
    "bad_rules": "gin rules lists the presets and options",
    "player_required": "rated games are between players: gin login NAME first",
    "rated_needs_preset": "a rated game uses a preset as it is (--rules PRESET, no -o)",
    "unknown_player": "the service does not know your login: gin logout, then gin login NAME",
    "own_game": "both seats would be the same player (the same gin login)",
    "seek_taken": "gin lobby lists the open seeks",
    "name_taken": "choose another name",
    "account_exists": "gin login NAME, if the account is yours; else choose another name",
    "session_required": "this needs a signed-in session (gin login NAME): an API token cannot do it",
    "session_expired": "gin login NAME signs in again",
    "player_not_found": "names ignore case; a house bot is bot-NAME (gin bots lists them)",
    "challenge_not_found": "gin challenges lists your open challenges",
}
"""Where a player finds the right name when the service refuses one (its detail speaks of HTTP paths)."""

REFUSED_LOGIN = ("unknown_player", "session_expired")
"""The codes of a credential refused as such: a session ended or expired, a token revoked."""


def _report_api_error(
    screen: Screen,
    exc: ApiError,
    json_mode: bool,
    acting: tuple[dict[str, Any], dict[str, Any]] | None = None,
    *,
    hint: bool = True,
) -> None:
    """A refusal of the service on stderr: in words (``--json``: its body, with the code). ``acting``: the
    move (``gin act``) and the view it was made from; ``hint``: say where to look (``LOOK_UP``)."""
    if json_mode:
        error = {"status": exc.status, **exc.problem}
        if exc.retry_after is not None:
            error["retry_after"] = exc.retry_after
        print(json.dumps({"error": error}), file=sys.stderr)
        return
    action, view = acting or (None, None)
    names = player_names(view) if view is not None else None
    said = refusal(exc.code, exc.detail, action=action, view=view, names=names, problem=exc.problem)
    if exc.retry_after is not None and "try again" not in said:
        said = f"{said.rstrip('.')}: try again in {math.ceil(exc.retry_after)} s."
    screen.error(lower_first(said))
    if hint and exc.code in LOOK_UP:
        screen.error(LOOK_UP[exc.code])


def rule_options(pairs: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as rule options (the SDK's :func:`parse_options`)."""
    try:
        return parse_options(pairs)
    except ValueError as error:
        raise UsageError(f"--option needs KEY=VALUE: {error}") from None


def split_invitation(text: str) -> tuple[str, str]:
    """``GAME_ID:SECRET`` (what ``gin host`` prints) into its two parts."""
    try:
        return parse_invitation(text)
    except ValueError:
        raise UsageError(
            f"an invitation looks like GAME_ID:SECRET (as printed by gin host), not {text!r}"
        ) from None


class _Runner:
    """Carries out one parsed command line."""

    def __init__(
        self,
        args: argparse.Namespace,
        client: Client,
        screen: Screen,
        saved: SavedGames,
        logins: Logins,
        json_mode: bool,
        explicit_server: str | None,
    ) -> None:
        self.args = args
        self.client = client
        self.screen = screen
        self.saved = saved
        self.logins = logins
        self.json_mode = json_mode
        self.explicit_server = explicit_server
        self.game: SavedGame | None = None
        self.login: Login | None = None
        self.acting: tuple[dict[str, Any], dict[str, Any]] | None = None  # gin act: the move and its view
        self.home_server = client.server  # GIN_TOKEN's: the server named (or the default)
        self._connect(client.server)

    def _connect(self, server: str) -> None:
        """Talk to ``server`` as the player logged in there (a token goes to its server only): with the
        token of ``GIN_TOKEN`` on the server gin was pointed at, else with the login kept for it."""
        self.client.server = server.rstrip("/")
        self.login = self._env_login() or self.logins.get(self.client.server)
        self.client.token = self.login.token if self.login is not None else None

    def _env_login(self) -> Login | None:
        token = os.environ.get("GIN_TOKEN", "").strip()
        return Login("", token, API_TOKEN) if token and self.client.server == self.home_server else None

    def _my_name(self) -> str | None:
        """The name of the player logged in (asked of the service for a token from the environment)."""
        if self.login is not None and not self.login.name:
            self.login = dataclasses.replace(self.login, name=str(self.client.account().get("name", "")))
        return self.login.name if self.login is not None else None

    def refused_login(self, exc: ApiError) -> str | None:
        """When ``exc`` refuses the credential itself rather than the request — the session kept here
        ended elsewhere or expired (then forgotten: it will never work again), or the token of
        ``GIN_TOKEN`` revoked —, what to do about it."""
        if exc.code not in REFUSED_LOGIN:
            return None
        env = self._env_login()
        if env is not None and self.client.token == env.token:
            return "the token in GIN_TOKEN is refused (revoked, or not this service's): unset it, or make one"
        kept = self.logins.get(self.client.server)
        if kept is None or kept.kind != SESSION or self.client.token != kept.token:
            return None
        self.logins.forget(self.client.server)
        return (
            f"you are no longer signed in as {kept.name} on {self.client.server} (the session was ended"
            f" elsewhere or has expired): gin login {kept.name} signs in again"
        )

    @property
    def game_id(self) -> str:
        return self.game.game_id if self.game is not None else ""

    def unfinished(self) -> SavedGame | None:
        """The game being played, while it is saved as unfinished (``gin resume`` can continue it)."""
        return self.saved.load().get(self.game.game_id) if self.game is not None else None

    def run(self) -> int:
        handler = getattr(self, "cmd_" + self.args.command)
        return int(handler())

    def output(self, data: Any) -> None:
        print(json.dumps(data, ensure_ascii=False, indent=2))

    # --- games -------------------------------------------------------------------------------------

    def cmd_play(self) -> int:
        return self._start(bot=self.args.bot.strip().lower())  # bot names are lower case: "Expert" works

    def cmd_host(self) -> int:
        return self._start(bot=None)

    def _start(self, *, bot: str | None) -> int:
        created = self.client.create_game(
            preset=self.args.rules.strip().lower(),
            options=rule_options(self.args.option),
            bot=bot,
            human=bot is None,
            name=self.args.name or None,
            seed=self.args.seed,
            rated=self.args.rated,
            clock=self.args.clock,
        )
        invitation = created.invitation_code or ""
        self._take_seat(
            created,
            "created",
            f"Game {created.game_id} started (quit leaves; gin resume comes back).",
            opponent=bot or "",
            invitation=invitation,
        )
        if invitation and not self.json_mode:
            self.screen.line("Invite your opponent: ", (f"gin join {invitation}", "bold"))
        return self._play(created, fetch=True)

    def cmd_join(self) -> int:
        game_id, secret = split_invitation(self.args.invitation)
        joined = self.client.join_game(game_id, secret, name=self.args.name or None)
        self._take_seat(joined, "joined", f"Joined game {joined.game_id}.")
        return self._play(joined, fetch=True)

    def _take_seat(
        self, seat: Game, kind: str, text: str, *, opponent: str = "", invitation: str = ""
    ) -> None:
        """Save a seat just taken (``gin resume`` comes back to it) and say so: ``text``, or with
        ``--json`` a line ``{"type": kind, "game_id", "seat"}`` (and the invitation, when there is one)."""
        self.game = SavedGame(
            game_id=seat.game_id,
            server=self.client.server,
            seat=seat.seat if seat.seat is not None else 0,
            token=seat.token or "",
            opponent=opponent,
            name=getattr(self.args, "name", None) or "",
            invitation=invitation,
        )
        self.saved.save(self.game)
        if self.json_mode:
            line: dict[str, Any] = {"type": kind, "game_id": seat.game_id, "seat": self.game.seat}
            if invitation:
                line["invitation"] = invitation
            print(json.dumps(line), flush=True)
        else:
            self.screen.line(text)

    def _saved_game(self, game_id: str | None) -> SavedGame | None:
        """A game saved here (``game_id``, or the one played last), else one of the account's games in
        play (from any machine: played with the login's token)."""
        if game_id:
            found = self.saved.load().get(game_id)
        else:
            found = self.saved.latest(self.explicit_server.rstrip("/") if self.explicit_server else None)
        if found is not None or self.login is None:
            return found
        return next(self._account_games(game_id), None)

    def _account_games(self, game_id: str | None = None) -> Iterator[SavedGame]:
        """The account's games in play, newest first (only ``game_id``, when given), as games to resume:
        with no seat token of their own, they are played with the login's."""
        for game in self.client.account_games():
            if game_id not in (None, game["game_id"]):
                continue
            seat = int(game.get("seat") or 0)
            players = game.get("players") or []
            other = players[1 - seat] if len(players) == 2 else None
            yield SavedGame(
                game_id=game["game_id"],
                server=self.client.server,
                seat=seat,
                token="",
                opponent=str(other.get("bot") or "") if other else "",
            )

    def _seat_token(self, game: SavedGame) -> str:
        """The token that plays ``game``: its seat token, or for an account's game the login's."""
        token = game.token or self.client.token
        if not token:
            raise UsageError(
                f"game {game.game_id} is played by your account: gin login NAME first, on {game.server}"
            )
        return token

    def _read_seat(self, game: SavedGame | None, missing: str) -> Game | None:
        """The seat of a saved game, its view read from the server it was saved with; None (and
        ``missing`` said) when there is no such saved game."""
        if game is None:
            self.screen.error(missing)
            return None
        self._use(game)
        return self._open_seat(game)

    def _open_seat(self, game: SavedGame) -> Game:
        """``game``'s seat, its view read. An account's game refused (401, 403) may be the session's
        fault (ended elsewhere, expired): then that is the error raised, for main to say so."""
        try:
            return self.client.game(game.game_id, self._seat_token(game))
        except ApiError as exc:
            if not game.token and exc.status in (401, 403):
                self.client.account()  # raises when the session itself is refused
            raise

    def _use(self, game: SavedGame) -> None:
        """Talk to the server the game was saved with, unless one was given explicitly."""
        self.game = game
        if not self.explicit_server:
            self._connect(game.server)

    def cmd_resume(self) -> int:
        if self.args.list:
            return self._resume_list()
        game = self._saved_game(self.args.game_id)
        if game is None:
            which = f"game {self.args.game_id}" if self.args.game_id else "unfinished game"
            self.screen.error(f"no saved {which} to resume (gin play starts one)")
            return EXIT_NOTHING_TO_RESUME
        self._use(game)
        try:
            seat = self._open_seat(game)
        except ApiError as exc:
            if exc.code in REFUSED_LOGIN:
                raise  # the login is what was refused, not the game: main says what to do
            if exc.status in (401, 403, 404, 410):
                self.saved.forget(game.game_id)
                self.screen.error(f"game {game.game_id} can no longer be resumed: {exc.detail}")
                return EXIT_NOTHING_TO_RESUME
            raise
        if not self.json_mode:
            self.screen.line(f"Resuming game {game.game_id}.")
        return self._play(seat, fetch=False)

    def _resume_list(self) -> int:
        """``gin resume --list``: the games saved here, then the account's other games in play."""
        games = sorted(self.saved.load().values(), key=lambda g: -g.updated)
        account: list[SavedGame] = []
        if self.login is not None:
            try:
                here = {g.game_id for g in games}
                account = [g for g in self._account_games() if g.game_id not in here]
            except GinClientError as exc:  # the list saved here is still worth showing
                self.screen.error(f"the account's games in play could not be read: {exc}")
        if self.json_mode:

            def row(g: SavedGame, **more: bool) -> dict[str, Any]:
                return {"game_id": g.game_id, "server": g.server, "seat": g.seat, **more}

            self.output([row(g) for g in games] + [row(g, account=True) for g in account])
            return EXIT_OK
        for g in games:
            self.screen.line(f"{g.game_id}  seat {g.seat}  {g.opponent or 'human'}  {g.server}")
        for g in account:
            self.screen.line(f"{g.game_id}  seat {g.seat}  {g.opponent or 'human'}  {g.server}  (account)")
        if not games and not account:
            self.screen.line("No saved games.")
        return EXIT_OK

    def _play(self, seat: Game, *, fetch: bool) -> int:
        """Play ``seat`` from its view (``fetch``: read the full view first), and the rematches the
        player asks for at the end."""
        while True:
            assert self.game is not None
            session = GameSession(seat, self.screen, self.saved, self.game, json_mode=self.json_mode)
            status = session.run(None if fetch else plain(seat.view))
            if session.rematch is None:
                return status
            seat, fetch = session.rematch, False
            self._rematch_started(seat)

    def _rematch_started(self, seat: Game) -> None:
        """Switch to the rematch of the game played: the same seat and token, a new game id."""
        assert self.game is not None
        self.game = dataclasses.replace(self.game, game_id=seat.game_id, invitation="")
        self.saved.save(self.game)
        if self.json_mode:
            print(json.dumps({"type": "rematch", "game_id": seat.game_id, "seat": seat.seat}), flush=True)
        else:
            self.screen.line(f"Rematch: game {seat.game_id} started.")

    def cmd_show(self) -> int:
        seat = self._read_seat(self._saved_game(self.args.game_id), "no saved game to show")
        if seat is None:
            return EXIT_NOTHING_TO_RESUME
        view = plain(seat.view)
        if self.json_mode:
            self.output(view)
            return EXIT_OK
        names = player_names(view)
        if view.get("result"):
            render_result(self.screen, view, names)
            if view.get("phase") in ("game_over", "match_over"):
                render_game_over(self.screen, view, names, all_games=True)
            elif finished_by_last_hand(view):  # Hollywood: a game ended, the others go on
                render_game_over(self.screen, view, names, numbers=finished_by_last_hand(view))
        else:
            render_table(self.screen, view, names)
        moves_line(self.screen, view)
        return EXIT_OK

    def cmd_act(self) -> int:
        game = self._saved_game(self.args.game_id)
        seat = self._read_seat(game, "no saved game to play in")
        if game is None or seat is None:
            return EXIT_NOTHING_TO_RESUME
        view = plain(seat.view)
        try:
            command = parse_line(" ".join(self.args.move), view)
        except InputError as exc:
            raise UsageError(str(exc)) from None
        if command.kind not in ("move", "resign") or command.action is None:
            raise UsageError(
                "gin act makes a move (draw, pile, pass, discard CARD, knock CARD, layoff, deal)"
            )
        self.acting = (command.action, view)
        reply = plain(seat.act(command.action))  # on top of the view the line was read against
        if self.json_mode:
            self.output(reply)
        else:
            new_view = reply.get("view") or {}
            render_table(self.screen, new_view, player_names(new_view))
            moves_line(self.screen, new_view)
        if ((reply.get("view") or {}).get("scores") or {}).get("match_over"):
            self.saved.finish(game)
        return EXIT_OK

    # --- ending a match, and after it --------------------------------------------------------------

    def cmd_resign(self) -> int:
        return self._end_match("resign")

    def cmd_abort(self) -> int:
        return self._end_match("abort")

    def _end_match(self, how: str) -> int:
        """``gin resign`` / ``gin abort``: asked first at a terminal (``--yes``: not asked). Without one
        (a script, ``--json``) nobody can answer, so the game must be named or ``--yes`` given: the game
        played last may not be the one meant."""
        game = self._saved_game(self.args.game_id)
        interactive = not self.json_mode and _isatty(sys.stdin)
        if game is not None and not (self.args.yes or interactive or self.args.game_id):
            raise UsageError(
                f"gin {how} ends the game played last ({game.game_id}) only when told so: name the game "
                f"(gin {how} {game.game_id}) or add --yes"
            )
        seat = self._read_seat(game, f"no saved unfinished game to {how}")
        if game is None or seat is None:
            return EXIT_NOTHING_TO_RESUME
        if interactive and not self.args.yes and not self._sure(how, game, plain(seat.view)):
            self.screen.line("Nothing was done: the game goes on (gin resume).")
            return EXIT_OK
        reply = plain(seat.resign() if how == "resign" else seat.abort())
        self.saved.finish(game)
        if self.json_mode:
            self.output(reply)
            return EXIT_OK
        view = plain(seat.view)
        self.screen.line(end_text(view, player_names(view)) or f"Game {game.game_id} is over.")
        if any(a.get("type") == "rematch" for a in view.get("legal_actions") or []):  # only when on offer
            self.screen.line(f"A rematch: gin rematch {game.game_id}")
        return EXIT_OK

    def _sure(self, how: str, game: SavedGame, view: dict[str, Any]) -> bool:
        """Ask whether to resign (abort) ``game``, saying which game it is."""
        names = player_names(view)
        opponent = names[1 - int(view.get("seat") or 0)]
        score = _score_words(view, names)
        what = "You lose the match." if how == "resign" else "It ends with no result."
        question = f"{how.capitalize()} your game against {opponent} ({game.game_id}{score})? {what}"
        try:
            return self.screen.confirm(question)
        except EOFError:
            self.screen.line("")
            return False

    def cmd_rematch(self) -> int:
        missing = "no saved finished game to rematch (gin play starts a game)"
        seat = self._read_seat(self._finished_game(self.args.game_id), missing)
        if seat is None:
            return EXIT_NOTHING_TO_RESUME
        names = player_names(plain(seat.view))
        again = start_rematch(seat, self.screen, names[1 - (seat.seat or 0)], json_mode=self.json_mode)
        self._rematch_started(again)
        return self._play(again, fetch=False)

    def _finished_game(self, game_id: str | None) -> SavedGame | None:
        if game_id:
            return self.saved.load_finished().get(game_id) or self.saved.load().get(game_id)
        server = self.explicit_server.rstrip("/") if self.explicit_server else None
        return self.saved.latest_finished(server)

    # --- players and the lobby ---------------------------------------------------------------------

    def _need_login(self, what: str) -> Login:
        if self.login is None:
            raise UsageError(
                f"{what} is for players: gin login NAME first (or gin signup NAME), on {self.client.server}"
            )
        return self.login

    def _account(self) -> AccountCommands:
        """The account commands, on the server gin was pointed at."""
        return AccountCommands(
            self.client,
            self.screen,
            self.logins,
            json_mode=self.json_mode,
            output=self.output,
            env_login=self._env_login(),
        )

    def cmd_signup(self) -> int:
        return self._account().signup(self.args.name or None, claim=self.args.claim)

    def cmd_login(self) -> int:
        return self._account().login(self.args.name)

    def cmd_logout(self) -> int:
        session = self.args.session.strip() if self.args.session else None
        return self._account().logout(everywhere=self.args.everywhere, session_id=session)

    def cmd_passwd(self) -> int:
        return self._account().passwd()

    def cmd_whoami(self) -> int:
        return self._account().whoami()

    def cmd_sessions(self) -> int:
        return self._account().sessions()

    def cmd_token(self) -> int:
        account, args = self._account(), self.args
        if args.token_command == "create":
            return account.token_create(args.description, args.scopes)
        if args.token_command == "revoke":
            return account.token_revoke(args.token_id.strip())
        return account.token_list()

    def cmd_lobby(self) -> int:
        seeks, games = plain(self.client.lobby())["seeks"], plain(self.client.live_games())["games"]
        return self._present(
            {"seeks": seeks, "games": games},
            lambda screen, data: render_lobby(screen, data["seeks"], data["games"]),
        )

    def cmd_seek(self) -> int:
        self._need_login("gin seek")
        found = self.client.seek(
            preset=self.args.rules.strip().lower(),
            options=rule_options(self.args.option),
            rated=self.args.rated,
            clock=self.args.clock,
            min_rating=self.args.min_rating,
            max_rating=self.args.max_rating,
        )
        game = self._wait_for_opponent(found) if isinstance(found, Seek) else found
        if game is None:
            self.screen.error("the seek was cancelled")
            return EXIT_REFUSED
        return self._matched(game)

    def _wait_for_opponent(self, seek: Seek) -> Game | None:
        """Wait in the lobby until someone takes the seek; Ctrl-C withdraws it."""
        with _leaving_withdraws():
            return self._wait_in_lobby(seek)

    def _wait_in_lobby(self, seek: Seek) -> Game | None:
        try:  # from the first line shown: an interrupt right after it still withdraws the seek
            if self.json_mode:
                print(json.dumps({"type": "seeking", "seek_id": seek.id}), flush=True)
            else:
                self.screen.line(f"Seek {seek.id} is in the lobby (gin lobby lists it).")
                self.screen.line(("Waiting for an opponent… (Ctrl-C cancels the seek)", "dim"))
            return seek.wait()
        except KeyboardInterrupt:
            try:
                seek.cancel()
            except SeekTaken:  # taken as we left: the opponent is already at the table
                game = seek.game()
                if game is not None:
                    self._take_seat(game, "matched", f"An opponent took the seek: game {game.game_id}.")
            else:
                self.screen.error("your seek is withdrawn")
            raise

    def cmd_accept(self) -> int:
        self._need_login("gin accept")
        return self._matched(self.client.accept_seek(self.args.seek_id))

    def _matched(self, game: Game) -> int:
        """Play a game someone else started with us, or we with them (a seek taken, a challenge
        accepted); ``game`` holds its full view."""
        view = plain(game.view)
        seat = game.seat or 0
        opponent = player_names(view)[1 - seat]
        players = view.get("players") or []
        bot = str(players[1 - seat].get("bot") or "") if len(players) == 2 else ""
        said = f"Playing {opponent}: game {game.game_id} (quit leaves; gin resume comes back)."
        self._take_seat(game, "matched", said, opponent=bot)
        return self._play(game, fetch=False)

    # --- challenges ----------------------------------------------------------------------------------

    def cmd_challenge(self) -> int:
        options = rule_options(self.args.option)
        rules = {"preset": self.args.rules.strip().lower(), **({"options": options} if options else {})}
        # Signed in, the answer comes on the account stream: its mark, taken before the challenge is
        # sent, so that no answer can come before gin waits for it.
        mark = self.client.account_events()["last_id"] if self.login is not None else None
        made = self.client.challenge(
            self.args.opponent,
            rules=rules,
            clock=self.args.clock,
            rated=self.args.rated,
            name=self.args.name or None,
        )
        game_id = made.game_id or self._wait_for_answer(made, mark)  # a house bot's game is made at once
        if game_id is None:
            return EXIT_NOT_ACCEPTED
        # The challenge's token is the challenger's seat token: saved with the game (gin resume).
        return self._matched(self.client.game(game_id, made.token))

    def _wait_for_answer(self, made: Challenge, mark: str | None) -> str | None:
        """Wait for the answer to a challenge sent to a person; Ctrl-C (or a closed terminal) withdraws
        it. The game's id once accepted; None, and why said, when declined, expired or withdrawn."""
        info = made.info
        who = str((info.get("opponent") or {}).get("name") or self.args.opponent)
        with _leaving_withdraws():
            try:  # from the first line shown: an interrupt right after it still withdraws the challenge
                if self.json_mode:
                    print(json.dumps({"type": "challenged", "challenge": info}), flush=True)
                else:
                    left = until(info.get("expires"))
                    expires = f"; it expires in {left}" if left not in ("", "now") else ""
                    self.screen.line(f"Challenge {made.id} sent to {who} ({terms(info)}){expires}.")
                    waiting = f"Waiting for {who} to answer… (Ctrl-C withdraws the challenge)"
                    self.screen.line((waiting, "dim"))
                info = wait_for_answer(self.client, made, mark)
            except KeyboardInterrupt:
                self._withdraw(made, who)
                raise
        if info.get("status") == "accepted" and info.get("game_id"):
            return str(info["game_id"])
        if self.json_mode:
            print(json.dumps({"type": info.get("status"), "challenge": info}), flush=True)
        else:
            self.screen.error(not_accepted(info))
        return None

    def _withdraw(self, made: Challenge, who: str) -> None:
        """Cancel a challenge the player no longer waits for, and say so; should it have been accepted
        at that very moment, the game is saved (``gin resume`` plays it)."""
        try:
            self.client.cancel_challenge(made.id, token=made.token)
        except ChallengeClosed:
            info = self.client.challenge_status(made.id, token=made.token)
            game_id = info.get("game_id")
            if info.get("status") != "accepted" or not game_id:
                self.screen.error(not_accepted(info))
                return
            game = self.client.game(game_id, made.token)
            self._take_seat(game, "matched", f"{who} accepted the challenge as you left: game {game_id}.")
        else:
            self.screen.error(f"your challenge to {who} is withdrawn")

    def cmd_challenges(self) -> int:
        self._need_login("gin challenges")
        action = self.args.challenge_command
        if action == "accept":
            return self._matched(self.client.accept_challenge(self.args.challenge_id))
        if action == "decline":
            reason = self.args.reason
            info = plain(self.client.decline_challenge(self.args.challenge_id, reason))
            who = (info.get("challenger") or {}).get("name") or "the challenger"
            said = f"Challenge {info.get('id')} from {who} declined ({reason}): {who} is told."
        elif action == "cancel":
            info = plain(self.client.cancel_challenge(self.args.challenge_id))
            who = (info.get("opponent") or {}).get("name") or "the opponent"
            said = f"Challenge {info.get('id')} to {who} withdrawn: {who} is told."
        else:
            me = self._my_name() or "?"
            listing = plain(self.client.challenges())
            return self._present(listing, lambda screen, data: render_challenges(screen, me, data))
        if self.json_mode:
            self.output(info)
        else:
            self.screen.line(said)
        return EXIT_OK

    def cmd_profile(self) -> int:
        name = self.args.name or self._my_name()
        if not name:
            raise UsageError("gin profile NAME, or gin login NAME first to see your own")
        return self._present(plain(self.client.player(name)), render_profile)

    def cmd_leaderboard(self) -> int:
        board = self.client.leaderboard(self.args.family.strip().lower(), self.args.limit)
        return self._present(plain(board), render_leaderboard)

    # --- the archive: finished games --------------------------------------------------------------

    def _player_name(self, command: str) -> str:
        name = self.args.name or self._my_name()
        if not name:
            raise UsageError(f"gin {command} NAME, or gin login NAME first to see your own")
        return str(name)

    def _filters(self) -> GameFilters:
        """The filters of ``gin games`` and ``gin export``, as given."""
        family, result = self.args.family, self.args.result
        return {
            "since": self.args.since,
            "until": self.args.until,
            "opponent": self.args.opponent,
            "rated": self.args.rated,
            "family": family.strip().lower() if family else None,
            "result": result.strip().lower() if result else None,
        }

    def _limit(self) -> int | None:
        limit: int | None = self.args.limit
        if limit is not None and limit < 1:
            raise UsageError("--limit is a number of games: 1 or more")
        return limit

    def cmd_games(self) -> int:
        if self.args.live:
            return self._live_games()
        name = self._player_name("games")
        limit = self._limit() or 20
        filters = self._filters()
        # One more than shown tells whether there are more; a page asks for them all at once (≤ 100).
        found = list(
            itertools.islice(self.client.player_games(name, limit=min(limit + 1, 100), **filters), limit + 1)
        )
        games, more = found[:limit], len(found) > limit
        if self.json_mode:
            self.output({"player": name, "games": games, "more": more})
        else:
            filtered = any(value is not None for value in filters.values())
            render_games(self.screen, name, [plain(game) for game in games], more=more, filtered=filtered)
        return EXIT_OK

    def _live_games(self) -> int:
        """``gin games --live``: the account's games in play, from any machine."""
        if self.args.name:
            raise UsageError("gin games --live lists your own games in play: it takes no NAME")
        self._need_login("gin games --live")
        games = [dict(game) for game in self.client.account_games()]
        if self.json_mode:
            self.output({"games": games})
        else:
            render_live_games(self.screen, self._my_name() or "?", games)
        return EXIT_OK

    def cmd_export(self) -> int:
        name = self._player_name("export")
        limit = self._limit()
        written = 0
        with contextlib.closing(self.client.export_games(name, **self._filters())) as exports:
            try:
                for document in itertools.islice(exports, limit):
                    sys.stdout.write(json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")
                    written += 1
                    if written % 10 == 0:
                        self.screen.progress(f"{written} games of {name} exported…")
            except GinClientError:
                if written:  # the lines written are whole documents: say how many, then what broke
                    self.screen.progress(
                        f"Exported {written} games of {name}, then it broke off:", final=True
                    )
                raise
            finally:
                sys.stdout.flush()
        self.screen.progress(f"Exported {written} game{'' if written == 1 else 's'} of {name}.", final=True)
        return EXIT_OK

    def _finished_game_id(self) -> str | None:
        """The finished match ``replay`` and ``review`` are about: the one named, else the one finished
        last here (read from the server it was played on), else the account's, wherever it was played."""
        game_id: str | None = self.args.game_id
        finished = None if game_id else self._finished_game(None)
        if finished is not None:
            game_id = finished.game_id
            if not self.explicit_server:
                self._connect(finished.server)
        elif not game_id and self.login is not None:  # the account's last game, played anywhere
            last = next(self.client.player_games(self._my_name() or "", limit=1), None)
            game_id = last["game_id"] if last is not None else None
        if not game_id:
            command = self.args.command
            self.screen.error(f"no finished game saved here: gin {command} GAME_ID (gin games lists them)")
        return game_id or None

    def _review(self, game_id: str) -> tuple[dict[str, Any] | None, int]:
        """The review of a finished match, asked for and waited for (:func:`await_review`), and the exit
        status it comes with: 0 done, 4 failed, 8 still pending after ``--wait``, 130 Ctrl-C."""
        status, outcome = await_review(
            self.client, self.screen, game_id, self.args.wait, quiet=self.json_mode
        )
        return status, REVIEW_EXITS[outcome]

    def cmd_review(self) -> int:
        game_id = self._finished_game_id()
        if game_id is None:
            return EXIT_NOTHING_TO_RESUME
        export = None if self.json_mode else plain(self.client.export(game_id))  # not archived: said here
        status, code = self._review(game_id)
        if self.json_mode and status is not None:
            self.output(status)
        if export is None or status is None or code != EXIT_OK:
            return code
        Judged(self.screen, Replay(export), status.get("review") or {}).render(every=self.args.all)
        return EXIT_OK

    def cmd_replay(self) -> int:
        game_id = self._finished_game_id()
        if game_id is None:
            return EXIT_NOTHING_TO_RESUME
        export = plain(self.client.export(game_id))
        status, code = self._review(game_id) if self.args.review else (None, EXIT_OK)
        if code == EXIT_INTERRUPTED:
            return code
        if self.json_mode:
            self.output({"export": export, "review": status} if self.args.review else export)
            return code
        if code != EXIT_OK:
            return code
        replay = Replay(export)
        if status is not None:
            replay.notes.update(Judged(self.screen, replay, status.get("review") or {}).notes())
        if self.args.no_interactive or not _isatty(sys.stdout):
            print_replay(self.screen, replay)
            return EXIT_OK
        keys = Keys(sys.stdin.fileno())
        try:
            step_through(self.screen, replay, keys)
        finally:
            keys.close()
        return EXIT_OK

    def cmd_watch(self) -> int:
        # No token: what anyone may see (a seated player's token would show that seat's hand instead).
        spectator = Spectator(Game(self.client, self.args.game_id), self.screen, json_mode=self.json_mode)
        try:
            return spectator.run()
        except KeyboardInterrupt:
            if not self.json_mode:
                self.screen.line("")
                self.screen.line(f"Stopped watching game {self.args.game_id}.")
            return EXIT_INTERRUPTED

    def _present(self, data: dict[str, Any], render: Callable[[Screen, dict[str, Any]], None]) -> int:
        """Show an answer of the service: as it is with ``--json``, else drawn by ``render``."""
        if self.json_mode:
            self.output(data)
        else:
            render(self.screen, data)
        return EXIT_OK

    # --- reference ---------------------------------------------------------------------------------

    def cmd_analyze(self) -> int:
        analysis = plain(self.client.analyze(list(self.args.cards)))
        if self.json_mode:
            self.output(analysis)
            return EXIT_OK
        self._show_analysis(analysis)
        return EXIT_OK

    def _show_analysis(self, analysis: dict[str, Any]) -> None:
        s = self.screen
        s.line("Cards: ", *s.cards(analysis.get("cards") or []))
        melds = analysis.get("melds") or []
        dead = analysis.get("deadwood_cards") or []
        s.line("Melds: ", *(s.melds(melds) if melds else ["none"]))
        s.line(
            f"Deadwood: {analysis.get('deadwood', '?')}",
            " (" if dead else "",
            *s.cards(dead),
            ")" if dead else "",
        )
        count = analysis.get("arrangements")
        if isinstance(count, int) and count > 1:
            s.line(f"({count} arrangements leave this deadwood)")
        discards = analysis.get("discards") or []
        if discards:
            s.line("Deadwood after discarding:")
            for row in range(0, len(discards), 6):
                parts: list[Any] = [" "]
                for option in discards[row : row + 6]:
                    card = s.card(option["card"])
                    pad = " " * (3 - len(card if isinstance(card, str) else card[0]))  # 10♥ is wider
                    parts += ["  ", card, f"{pad} {option['deadwood']:>2}"]
                s.line(*parts)
        verdicts = [
            f"{label}: {'yes' if analysis[key] else 'no'}"
            for key, label in (("can_knock", "knock"), ("can_gin", "gin"), ("big_gin", "big gin"))
            if analysis.get(key) is not None  # no verdict on fewer than 10 cards
        ]
        if verdicts:
            s.line(" · ".join(verdicts))

    def cmd_rules(self) -> int:
        rules: Any = self.client.rules()
        if self.json_mode:
            self.output(rules)
            return EXIT_OK
        presets = rules.get("presets") if isinstance(rules, dict) else None
        options = rules.get("options") if isinstance(rules, dict) else None
        if isinstance(presets, dict):
            self.screen.rule("Presets (gin play --rules PRESET)")
            for name, value in presets.items():
                self.screen.para(_preset_summary(value), first=f"  {name:<12} ", indent=15)
        elif isinstance(presets, list):
            self.screen.rule("Presets (gin play --rules PRESET)")
            for preset in presets:
                if isinstance(preset, dict):
                    label = preset.get("name", "?")
                    self.screen.para(str(preset.get("description", "")), first=f"  {label:<12} ", indent=15)
                else:
                    self.screen.line(f"  {preset}")
        if options:
            self.screen.rule("Options (gin play -o KEY=VALUE)")
            items = options.items() if isinstance(options, dict) else ((o.get("name"), o) for o in options)
            for name, doc in items:
                doc = doc if isinstance(doc, dict) else {"description": doc}
                choices = doc.get("choices")
                default = json.dumps(doc.get("default"))
                extra = f" ({' | '.join(map(str, choices))})" if choices else ""
                self.screen.line((f"  {name}", "bold"), f" = {default}{extra}")
                if doc.get("description"):
                    self.screen.para(str(doc["description"]), first="      ", indent=6)
        return EXIT_OK

    def cmd_bots(self) -> int:
        bots: Any = self.client.bots()
        if self.json_mode:
            self.output(bots)
            return EXIT_OK
        entries = bots.get("bots", bots) if isinstance(bots, dict) else bots
        self.screen.rule("Bots (gin play --bot NAME · gin challenge bot-NAME)")
        for bot in entries or []:
            if isinstance(bot, dict):
                level = f" (level {bot['level']})" if bot.get("level") is not None else ""
                self.screen.line((f"  {bot.get('name', '?')}", "bold"), level)
                self.screen.para(str(bot.get("description", "")), first="      ", indent=6)
            else:
                self.screen.line(f"  {bot}")
        accounts = bots.get("accounts") if isinstance(bots, dict) else None
        if accounts:  # the bot accounts whose program is running now: they answer challenges
            self.screen.rule("Bot accounts online (gin challenge NAME)")
            for account in accounts:
                ratings = account.get("ratings") or {}
                rated = " · ".join(f"{family} {rating_words(r)}" for family, r in ratings.items())
                self.screen.line((f"  {account.get('name', '?')}", "bold"), f"  {rated or 'unrated'}")
        return EXIT_OK


def _preset_summary(value: Any) -> str:
    if isinstance(value, dict):
        if "description" in value:
            return str(value["description"])
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


if __name__ == "__main__":  # pragma: no cover - `python -m gin_cli.main`
    sys.exit(main())
