"""The ``gin`` command line: the argument parser (every command and its options), and :func:`main`, which
has the command carried out by its group and turns what went wrong into an exit status (:mod:`exits`).

Each group of commands has a module, whose class carries out each command in the method named after it:
``commands_play`` (play, host, join, resume, show, act, resign, abort, rematch, chat, say),
``commands_account``
(signup, login, logout, passwd, whoami, sessions, token), ``commands_challenge`` (challenge, challenges),
``commands_tournament`` (tournaments, tournament), ``commands_people`` (lobby, seek, accept, watch, profile,
leaderboard, follow, unfollow, following, block, unblock, blocking), ``commands_records`` (games, export,
replay, review) and ``commands_reference`` (analyze, rules, bots).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable
from typing import Any

from ginrummy_client import DECLINE_REASONS, ApiError, Client, ConnectionFailed

from . import (
    __version__,
    commands_account,
    commands_challenge,
    commands_people,
    commands_play,
    commands_records,
    commands_reference,
    commands_tournament,
)
from .challenges import reasons_help
from .context import Connection, Output, PlayerCommands
from .errors import UsageError
from .exits import EXIT_INTERRUPTED, EXIT_OK, EXIT_REFUSED, EXIT_UNREACHABLE, EXIT_USAGE
from .people import parse_clock
from .records import parse_when
from .saved import Logins, SavedGames
from .screen import Screen
from .seats import Seats
from .table import player_names
from .words import lower_first, refusal

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
    chat = commands.add_parser(
        "chat", parents=[common], help="a game's table chat (in play or finished): the lines you read"
    )
    chat.add_argument("game_id", help="the game")
    say = commands.add_parser(
        "say",
        parents=[common],
        help="say a line in a game's chat: gin say GAME good game, or gin say GAME /gg",
    )
    say.add_argument("game_id", help="the game (yours, or one you watch: signed in)")
    say.add_argument(
        "words", nargs="+", metavar="TEXT", help="what to say, or /WORD: a phrase (/ lists them)"
    )
    account_commands(commands, common)
    challenge_commands(commands, common, rules_options)
    tournament_commands(commands, common, rules_options)
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
    relation_commands(commands, common)

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


def relation_commands(commands: Any, common: argparse.ArgumentParser) -> None:
    """The account's follows and blocks: ``gin follow|unfollow|block|unblock NAME``, ``gin following``
    and ``gin blocking``."""
    for name, what in (
        ("follow", "follow a player: gin following shows when they are online and what they play"),
        ("unfollow", "stop following a player"),
        ("block", "block a player: their challenges to you are declined (they are never told)"),
        ("unblock", "stop blocking a player"),
    ):
        relation = commands.add_parser(name, parents=[common], help=what)
        relation.add_argument("name", metavar="NAME", help="the player (any case): a person or a bot account")
    commands.add_parser(
        "following", parents=[common],
        help="the players you follow: who is online, who plays which game (gin watch it, or gin challenge)",
    )  # fmt: skip
    commands.add_parser("blocking", parents=[common], help="the players you block (only you see them)")


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


TOURNAMENT_HELP = """\
Tournaments: arenas (a fixed time; players are paired again as soon as they are
free), Swiss (a number of rounds, everyone paired each round) and round robins
(everyone meets everyone). create makes one (you organise it); join enters it and
PLAYS: each match paired for you is played here, one after another, with the
standings between them, until the tournament is over (Ctrl-C pauses: join again
to come back; quit in a game leaves it for gin resume, and pauses too). show
reads one (its standings, the games to watch); pause leaves before the start,
pauses an arena, withdraws from a Swiss or round robin."""


def tournament_commands(
    commands: Any, common: argparse.ArgumentParser, rules_options: Callable[[argparse.ArgumentParser], None]
) -> None:
    """``gin tournaments`` and ``gin tournament create|join|show|pause``."""
    commands.add_parser(
        "tournaments", parents=[common], help="the tournaments: upcoming, running and recently finished"
    )
    tournament = commands.add_parser(
        "tournament", parents=[common], description=TOURNAMENT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="create, join (and play), show or pause a tournament",
    )  # fmt: skip
    actions = tournament.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)
    which = "the tournament's id, as gin tournaments lists it"
    create = actions.add_parser("create", parents=[common], help="a new tournament, organised by you")
    create.add_argument("name", help="its name, as lists show it")
    create.add_argument("--format", required=True, choices=("arena", "swiss", "round-robin"),
                        help="arena (--minutes), swiss (--rounds) or round-robin")  # fmt: skip
    create.add_argument("--minutes", type=float, metavar="M", help="an arena: how long it lasts")
    create.add_argument("--rounds", type=int, metavar="N", help="a Swiss: its rounds")
    create.add_argument(
        "--round-interval", type=int, metavar="SECONDS",
        help="a Swiss: seconds from a round's end to the next (default: you start each)",
    )  # fmt: skip
    rules_options(create)
    create.add_argument("--starts-in", type=float, metavar="SECONDS",
                        help="seconds from now to its start (default 60)")  # fmt: skip
    create.add_argument("--bots", action="store_true", help="bot accounts may join")
    create.add_argument("--private", action="store_true", help="not listed: joined with its entry code")
    create.add_argument("--min-rated-games", type=int, metavar="N",
                        help="rated matches of its rules a player must have played to join")  # fmt: skip
    create.add_argument("--no-berserk", action="store_true", help="an arena: nobody may berserk")
    create.add_argument("--duplicate", action="store_true",
                        help="a round robin of bots: each pairing plays twice on the same deals")  # fmt: skip
    create.add_argument("--description", metavar="TEXT", help="a few words about it")
    join = actions.add_parser(
        "join", parents=[common], help="enter a tournament (or come back) and play its pairings here"
    )
    join.add_argument("tournament_id", metavar="ID", help=which)
    join.add_argument("--code", metavar="CODE", help="a private tournament's entry code")
    show = actions.add_parser("show", parents=[common], help="a tournament: its standings and games in play")
    show.add_argument("tournament_id", metavar="ID", help=which)
    show.add_argument("--page", type=int, default=1, metavar="N", help="the page of the standings")
    pause = actions.add_parser(
        "pause", parents=[common], help="pause in an arena, withdraw from a Swiss or round robin, or leave"
    )
    pause.add_argument("tournament_id", metavar="ID", help=which)


GAME_ID_ARG = re.compile(r"-[A-Za-z0-9_-]{7,63}(:[A-Za-z0-9_-]+)?")
"""A game id or invitation that begins with a dash (base64url text may): not an option."""

VALUE_OPTIONS = {
    "--server", "--rules", "--option", "-o", "--name", "--seed", "--bot", "--game",
    "--clock", "--min-rating", "--max-rating", "--family", "--limit",
    "--since", "--until", "--opponent", "--result", "--scope", "--session", "--reason", "--wait",
    "--format", "--minutes", "--rounds", "--round-interval", "--starts-in", "--min-rated-games",
    "--description", "--code", "--page",
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


def main(argv: list[str] | None = None) -> int:
    """Run ``gin``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(protect_ids(parser, sys.argv[1:] if argv is None else list(argv)))
    for name in ("game_id", "invitation", "seek_id", "challenge_id", "opponent", "name", "tournament_id"):
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
        connection = Connection(client, logins, explicit_server)
        seats = Seats(connection, Output(screen, json_mode), saved)
        try:
            return carry_out(args, connection, seats)
        except UsageError as exc:
            screen.error(str(exc))
            return EXIT_USAGE
        except ConnectionFailed as exc:
            screen.error(
                f"cannot reach the service at {client.server}: {exc.reason or exc}."
                " Is the service running? (set --server URL or GIN_SERVER)"
            )
            if seats.unfinished() is not None:
                screen.error(f"your game is saved: gin resume {seats.game_id}")
            return EXIT_UNREACHABLE
        except ApiError as exc:
            remedy = connection.refused_login(exc)
            _report_api_error(screen, exc, json_mode, seats.acting, hint=remedy is None)
            if remedy is not None and not json_mode:
                screen.error(remedy)
            if seats.game is not None and exc.status in (401, 403, 404, 410):
                saved.forget(seats.game.game_id)
            return EXIT_REFUSED
        except BrokenPipeError:
            # The reader went away (`gin rules | head`): not an error of ours, and no traceback.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_OK
        except KeyboardInterrupt:
            screen.out.write("\n")
            if seats.unfinished() is not None:
                screen.error(f"interrupted. Resume with: gin resume {seats.game_id}")
            else:
                screen.error("interrupted")
            return EXIT_INTERRUPTED


PLAYER_GROUPS: dict[str, type[PlayerCommands]] = {
    **dict.fromkeys(commands_play.COMMANDS, commands_play.PlayCommands),
    **dict.fromkeys(commands_challenge.COMMANDS, commands_challenge.ChallengeCommands),
    **dict.fromkeys(commands_people.COMMANDS, commands_people.PeopleCommands),
    **dict.fromkeys(commands_records.COMMANDS, commands_records.RecordsCommands),
    **dict.fromkeys(commands_tournament.COMMANDS, commands_tournament.TournamentCommands),
}
"""The groups of commands that act for the player, each under the names of its commands."""


def carry_out(args: argparse.Namespace, connection: Connection, seats: Seats) -> int:
    """Carry out the command ``args`` names: its group's class, given what that group needs (the client,
    the output, the logins, the seats), runs the method named after the command."""
    command, out = args.command, seats.out
    group: object
    if command in commands_account.COMMANDS:
        env_login = connection.env_login()
        group = commands_account.AccountCommands(
            args, connection.client, connection.logins, out, env_login=env_login
        )
    elif command in commands_reference.COMMANDS:
        group = commands_reference.ReferenceCommands(args, connection.client, out)
    else:
        group = PLAYER_GROUPS[command](args, connection, out, seats)
    return int(getattr(group, command)())


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
    "player_blocked": "gin blocking lists the players you block; gin unblock NAME",
    "chat_presets_only": "say a phrase instead: gin say GAME /gg (gin say GAME / lists them)",
}
"""Where a player finds the right name when the service refuses one (its detail speaks of HTTP paths)."""


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


if __name__ == "__main__":  # pragma: no cover - `python -m gin_cli.main`
    sys.exit(main())
