"""The ``gin`` command line.

Exit statuses (also in ``gin --help`` and docs/cli.md):

====  ===============================================================================
0     done: the command succeeded, or the game was played to its end
2     bad command line (unknown option, malformed ``--option``)
3     the service cannot be reached
4     the service refused the request (the problem's code and detail are printed)
5     the player left an unfinished game (quit, end of input); ``gin resume`` continues it
6     nothing to resume (no saved game, or the saved game no longer exists)
130   interrupted with Ctrl-C; an unfinished game can be resumed
====  ===============================================================================
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any

import requests

from . import __version__
from .client import ApiError, GinClient, ServiceUnreachable
from .commands import InputError, parse_line
from .play import EXIT_OK, GameSession
from .saved import SavedGame, SavedGames
from .screen import (
    Screen,
    finished_by_last_hand,
    moves_line,
    player_names,
    render_game_over,
    render_result,
    render_table,
)

EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_REFUSED = 4
EXIT_NOTHING_TO_RESUME = 6
EXIT_INTERRUPTED = 130

DEFAULT_SERVER = "http://127.0.0.1:8000"

EPILOG = """\
exit status: 0 done · 2 bad command line · 3 service unreachable ·
4 request refused by the service · 5 left an unfinished game (gin resume) ·
6 nothing to resume · 130 interrupted (Ctrl-C)

environment: GIN_SERVER (default http://127.0.0.1:8000), NO_COLOR,
XDG_CONFIG_HOME (saved games: $XDG_CONFIG_HOME/gin/games.json, owner-only)"""


class UsageError(Exception):
    """A command-line value the parser could not check by itself."""


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

    def game_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--rules", default="standard", metavar="PRESET", help="rules preset (see gin rules)")
        sub.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                         help="override one rule option, e.g. -o target=50 (repeatable)")  # fmt: skip
        sub.add_argument("--name", help="your name at the table")
        sub.add_argument("--seed", type=int, help="fixed deal (only services started with GIN_ALLOW_SEED=1)")

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
    analyze = commands.add_parser(
        "analyze", parents=[common], help="melds, deadwood and best discards of a hand"
    )
    analyze.add_argument("cards", nargs="+", metavar="CARD", help="10 or 11 cards, e.g. 7h 8h 9h KS …")
    commands.add_parser("rules", parents=[common], help="rules presets and options")
    commands.add_parser("bots", parents=[common], help="the computer opponents")
    return parser


GAME_ID_ARG = re.compile(r"-[A-Za-z0-9_-]{7,63}(:[A-Za-z0-9_-]+)?")
"""A game id or invitation that begins with a dash (base64url text may): not an option."""

VALUE_OPTIONS = {"--server", "--rules", "--option", "-o", "--name", "--seed", "--bot", "--game"}


def protect_ids(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """Keep argparse from reading ``gin join -x7…:…`` or ``gin resume -x7…`` as an unknown option.

    Such a word (not an option of ``gin``, not an option's value) gets a leading space, which argparse
    takes for a positional argument and the commands strip off.

    >>> protect_ids(build_parser(), ["join", "-i0PJ9CuEnqcqteCHIrA:B8Pmy", "--name", "-x"])
    ['join', ' -i0PJ9CuEnqcqteCHIrA:B8Pmy', '--name', '-x']
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
    for name in ("game_id", "invitation"):
        if isinstance(getattr(args, name, None), str):
            setattr(args, name, getattr(args, name).strip())
    json_mode = bool(getattr(args, "json", False))
    color = _want_color(no_color=bool(getattr(args, "no_color", False)), json_mode=json_mode)
    screen = Screen(color=color)
    saved = SavedGames()
    explicit_server = getattr(args, "server", None) or os.environ.get("GIN_SERVER")
    server = explicit_server or DEFAULT_SERVER
    with requests.Session() as session:
        session.headers["User-Agent"] = f"gin-cli/{__version__}"
        client = GinClient(server, session)
        runner = _Runner(args, client, screen, saved, json_mode, explicit_server)
        try:
            return runner.run()
        except UsageError as exc:
            screen.error(str(exc))
            return EXIT_USAGE
        except ServiceUnreachable as exc:
            screen.error(f"{exc}. Is the service running? (set --server URL or GIN_SERVER)")
            if runner.game is not None:
                screen.error(f"your game is saved: gin resume {runner.game.game_id}")
            return EXIT_UNREACHABLE
        except ApiError as exc:
            _report_api_error(screen, exc, json_mode)
            if runner.game is not None and exc.status in (401, 403, 404, 410):
                saved.forget(runner.game.game_id)
            return EXIT_REFUSED
        except BrokenPipeError:
            # The reader went away (`gin rules | head`): not an error of ours, and no traceback.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_OK
        except KeyboardInterrupt:
            screen.out.write("\n")
            if runner.game is not None:
                screen.error(f"interrupted. Resume with: gin resume {runner.game.game_id}")
            else:
                screen.error("interrupted")
            return EXIT_INTERRUPTED


def _want_color(*, no_color: bool, json_mode: bool) -> bool:
    if no_color or json_mode or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    if not sys.stdout.isatty():
        return False
    return (sys.stdout.encoding or "").lower().replace("-", "") in ("utf8", "utf16")


LOOK_UP = {"unknown_bot": "gin bots lists the bots", "bad_rules": "gin rules lists the presets and options"}
"""Where a player finds the right name when the service refuses one (its detail speaks of HTTP paths)."""


def _report_api_error(screen: Screen, exc: ApiError, json_mode: bool) -> None:
    if json_mode:
        print(json.dumps({"error": {"status": exc.status, **exc.problem}}), file=sys.stderr)
    else:
        screen.error(f"{exc.detail} ({exc.code})")
        if exc.code in LOOK_UP:
            screen.error(LOOK_UP[exc.code])


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs as rule options; values are JSON when they parse (numbers, true, null).

    >>> parse_options(["target=50", "big_gin=false", "next_dealer=alternate"])
    {'target': 50, 'big_gin': False, 'next_dealer': 'alternate'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option needs KEY=VALUE, not {pair!r}")
        try:
            options[key.strip()] = json.loads(value)
        except ValueError:
            options[key.strip()] = value
    return options


def split_invitation(text: str) -> tuple[str, str]:
    """``GAME_ID:SECRET`` (what ``gin host`` prints) into its two parts."""
    game_id, sep, secret = text.strip().partition(":")
    if not sep or not game_id or not secret:
        raise UsageError(f"an invitation looks like GAME_ID:SECRET (as printed by gin host), not {text!r}")
    return game_id, secret


class _Runner:
    """Carries out one parsed command line."""

    def __init__(
        self,
        args: argparse.Namespace,
        client: GinClient,
        screen: Screen,
        saved: SavedGames,
        json_mode: bool,
        explicit_server: str | None,
    ) -> None:
        self.args = args
        self.client = client
        self.screen = screen
        self.saved = saved
        self.json_mode = json_mode
        self.explicit_server = explicit_server
        self.game: SavedGame | None = None

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
            options=parse_options(self.args.option),
            bot=bot,
            name=self.args.name,
            seed=self.args.seed,
        )
        invitation = ""
        if created.get("invitation"):
            invitation = f"{created['game_id']}:{created['invitation']}"
        self.game = SavedGame(
            game_id=created["game_id"],
            server=self.client.base_url,
            seat=int(created.get("seat", 0)),
            token=created["token"],
            opponent=bot or "",
            name=self.args.name or "",
            invitation=invitation,
        )
        self.saved.save(self.game)
        if self.json_mode:
            started = {"type": "created", "game_id": self.game.game_id, "seat": self.game.seat}
            if invitation:
                started["invitation"] = invitation
            print(json.dumps(started), flush=True)
        else:
            self.screen.line(f"Game {self.game.game_id} started (quit leaves; gin resume comes back).")
            if invitation:
                self.screen.line("Invite your opponent: ", (f"gin join {invitation}", "bold"))
        return self._play(None)

    def cmd_join(self) -> int:
        game_id, secret = split_invitation(self.args.invitation)
        joined = self.client.join(game_id, secret, self.args.name)
        self.game = SavedGame(
            game_id=joined.get("game_id", game_id),
            server=self.client.base_url,
            seat=int(joined.get("seat", 1)),
            token=joined["token"],
            name=self.args.name or "",
        )
        self.saved.save(self.game)
        if self.json_mode:
            print(
                json.dumps({"type": "joined", "game_id": self.game.game_id, "seat": self.game.seat}),
                flush=True,
            )
        else:
            self.screen.line(f"Joined game {self.game.game_id}.")
        return self._play(None)

    def _saved_game(self, game_id: str | None) -> SavedGame | None:
        if game_id:
            return self.saved.load().get(game_id)
        return self.saved.latest(self.explicit_server.rstrip("/") if self.explicit_server else None)

    def _use(self, game: SavedGame) -> None:
        """Talk to the server the game was saved with, unless one was given explicitly."""
        self.game = game
        if not self.explicit_server:
            self.client.base_url = game.server.rstrip("/")

    def cmd_resume(self) -> int:
        if self.args.list:
            games = sorted(self.saved.load().values(), key=lambda g: -g.updated)
            if self.json_mode:
                self.output([{"game_id": g.game_id, "server": g.server, "seat": g.seat} for g in games])
                return EXIT_OK
            for g in games:
                self.screen.line(f"{g.game_id}  seat {g.seat}  {g.opponent or 'human'}  {g.server}")
            if not games:
                self.screen.line("No saved games.")
            return EXIT_OK
        game = self._saved_game(self.args.game_id)
        if game is None:
            which = f"game {self.args.game_id}" if self.args.game_id else "unfinished game"
            self.screen.error(f"no saved {which} to resume (gin play starts one)")
            return EXIT_NOTHING_TO_RESUME
        self._use(game)
        try:
            view = self.client.view(game.game_id, game.token)
        except ApiError as exc:
            if exc.status in (401, 403, 404, 410):
                self.saved.forget(game.game_id)
                self.screen.error(f"game {game.game_id} can no longer be resumed: {exc.detail}")
                return EXIT_NOTHING_TO_RESUME
            raise
        if not self.json_mode:
            self.screen.line(f"Resuming game {game.game_id}.")
        return self._play(view)

    def _play(self, view: dict[str, Any] | None) -> int:
        assert self.game is not None
        session = GameSession(self.client, self.screen, self.saved, self.game, json_mode=self.json_mode)
        return session.run(view)

    def cmd_show(self) -> int:
        game = self._saved_game(self.args.game_id)
        if game is None:
            self.screen.error("no saved game to show")
            return EXIT_NOTHING_TO_RESUME
        self._use(game)
        view = self.client.view(game.game_id, game.token)
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
        if game is None:
            self.screen.error("no saved game to play in")
            return EXIT_NOTHING_TO_RESUME
        self._use(game)
        view = self.client.view(game.game_id, game.token)
        try:
            command = parse_line(" ".join(self.args.move), view)
        except InputError as exc:
            raise UsageError(str(exc)) from None
        if command.kind != "move" or command.action is None:
            raise UsageError(
                "gin act makes a move (draw, pile, pass, discard CARD, knock CARD, layoff, deal)"
            )
        reply = self.client.act(game.game_id, game.token, command.action, view["version"])
        if self.json_mode:
            self.output(reply)
        else:
            new_view = reply.get("view") or {}
            render_table(self.screen, new_view, player_names(new_view))
            moves_line(self.screen, new_view)
        if ((reply.get("view") or {}).get("scores") or {}).get("match_over"):
            self.saved.forget(game.game_id)
        return EXIT_OK

    # --- reference ---------------------------------------------------------------------------------

    def cmd_analyze(self) -> int:
        analysis = self.client.analyze(list(self.args.cards))
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
        rules = self.client.rules()
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
        bots = self.client.bots()
        if self.json_mode:
            self.output(bots)
            return EXIT_OK
        entries = bots.get("bots", bots) if isinstance(bots, dict) else bots
        self.screen.rule("Bots (gin play --bot NAME)")
        for bot in entries or []:
            if isinstance(bot, dict):
                level = f" (level {bot['level']})" if bot.get("level") is not None else ""
                self.screen.line((f"  {bot.get('name', '?')}", "bold"), level)
                self.screen.para(str(bot.get("description", "")), first="      ", indent=6)
            else:
                self.screen.line(f"  {bot}")
        return EXIT_OK


def _preset_summary(value: Any) -> str:
    if isinstance(value, dict):
        if "description" in value:
            return str(value["description"])
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)


if __name__ == "__main__":  # pragma: no cover - `python -m gin_cli.main`
    sys.exit(main())
