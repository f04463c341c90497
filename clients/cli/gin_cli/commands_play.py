"""The commands of a game: ``gin play`` (against a bot), ``host`` and ``join`` (two people), ``resume``,
``show`` and ``act`` (a saved game: play it on, show its table, make one move), ``resign``, ``abort`` and
``rematch``; and its table chat: ``chat`` (the lines one reads) and ``say``. The game loop itself is
:class:`play.GameSession`'s, the seats kept :class:`seats.Seats`', the chat's screens :mod:`chat`'s."""

from __future__ import annotations

import sys
from typing import Any, Literal

from ginrummy_client import ApiError, ChatLine, Game, GinClientError, parse_invitation

from .chat import render_chat, render_phrases, said_parts
from .commands import InputError, parse_chat, parse_line
from .context import REFUSED_LOGIN, PlayerCommands
from .errors import UsageError
from .exits import EXIT_NOTHING_TO_RESUME, EXIT_OK
from .people import rule_options
from .play import plain, start_rematch
from .results import end_text, finished_by_last_hand, render_game_over, render_result
from .saved import SavedGame
from .screen import isatty
from .table import moves_line, player_names, render_table

COMMANDS = ("play", "host", "join", "resume", "show", "act", "resign", "abort", "rematch", "chat", "say")
"""The commands carried out here, each by the method of its name."""


class PlayCommands(PlayerCommands):
    """The commands of a game, as ``args`` gives them, on the player's ``seats``."""

    # --- a new game ----------------------------------------------------------------------------------

    def play(self) -> int:
        return self._start(bot=self.args.bot.strip().lower())  # bot names are lower case: "Expert" works

    def host(self) -> int:
        return self._start(bot=None)

    def _start(self, *, bot: str | None) -> int:
        created = self.client.games.create(
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
        self.seats.take_seat(
            created,
            "created",
            f"Game {created.game_id} started (quit leaves; gin resume comes back).",
            opponent=bot or "",
            invitation=invitation,
            name=self.args.name or "",
        )
        if invitation and not self.out.json_mode:
            self.screen.line("Invite your opponent: ", (f"gin join {invitation}", "bold"))
        return self.seats.play(created, fetch=True)

    def join(self) -> int:
        game_id, secret = split_invitation(self.args.invitation)
        joined = self.client.games.join(game_id, secret, name=self.args.name or None)
        self.seats.take_seat(joined, "joined", f"Joined game {joined.game_id}.", name=self.args.name or "")
        return self.seats.play(joined, fetch=True)

    # --- a saved game ----------------------------------------------------------------------------------

    def resume(self) -> int:
        if self.args.list:
            return self._resume_list()
        game = self.seats.saved_game(self.args.game_id)
        if game is None:
            which = f"game {self.args.game_id}" if self.args.game_id else "unfinished game"
            self.screen.error(f"no saved {which} to resume (gin play starts one)")
            return EXIT_NOTHING_TO_RESUME
        self.seats.use(game)
        try:
            seat = self.seats.open_seat(game)
        except ApiError as exc:
            if exc.code in REFUSED_LOGIN:
                raise  # the login is what was refused, not the game: main says what to do
            if exc.status in (401, 403, 404, 410):
                self.seats.saved.forget(game.game_id)
                self.screen.error(f"game {game.game_id} can no longer be resumed: {exc.detail}")
                return EXIT_NOTHING_TO_RESUME
            raise
        if not self.out.json_mode:
            self.screen.line(f"Resuming game {game.game_id}.")
        return self.seats.play(seat, fetch=False)

    def _resume_list(self) -> int:
        """``gin resume --list``: the games saved here, then the account's other games in play."""
        games = sorted(self.seats.saved.load().values(), key=lambda g: -g.updated)
        account: list[SavedGame] = []
        if self.connection.login is not None:
            try:
                here = {g.game_id for g in games}
                account = [g for g in self.seats.account_games() if g.game_id not in here]
            except GinClientError as exc:  # the list saved here is still worth showing
                self.screen.error(f"the account's games in play could not be read: {exc}")
        if self.out.json_mode:

            def row(g: SavedGame, **more: bool) -> dict[str, Any]:
                return {"game_id": g.game_id, "server": g.server, "seat": g.seat, **more}

            self.out.document([row(g) for g in games] + [row(g, account=True) for g in account])
            return EXIT_OK
        for g in games:
            self.screen.line(f"{g.game_id}  seat {g.seat}  {g.opponent or 'human'}  {g.server}")
        for g in account:
            self.screen.line(f"{g.game_id}  seat {g.seat}  {g.opponent or 'human'}  {g.server}  (account)")
        if not games and not account:
            self.screen.line("No saved games.")
        return EXIT_OK

    def show(self) -> int:
        seat = self.seats.read_seat(self.seats.saved_game(self.args.game_id), "no saved game to show")
        if seat is None:
            return EXIT_NOTHING_TO_RESUME
        view = plain(seat.view)
        if self.out.json_mode:
            self.out.document(view)
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

    def act(self) -> int:
        game = self.seats.saved_game(self.args.game_id)
        seat = self.seats.read_seat(game, "no saved game to play in")
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
        self.seats.acting = (command.action, view)
        reply = plain(seat.act(command.action))  # on top of the view the line was read against
        if self.out.json_mode:
            self.out.document(reply)
        else:
            new_view = reply.get("view") or {}
            render_table(self.screen, new_view, player_names(new_view))
            moves_line(self.screen, new_view)
        if ((reply.get("view") or {}).get("scores") or {}).get("match_over"):
            self.seats.saved.finish(game)
        return EXIT_OK

    # --- ending a match, and after it ------------------------------------------------------------------

    def resign(self) -> int:
        return self._end_match("resign")

    def abort(self) -> int:
        return self._end_match("abort")

    def _end_match(self, how: str) -> int:
        """``gin resign`` / ``gin abort``: asked first at a terminal (``--yes``: not asked). Without one
        (a script, ``--json``) nobody can answer, so the game must be named or ``--yes`` given: the game
        played last may not be the one meant."""
        game = self.seats.saved_game(self.args.game_id)
        interactive = not self.out.json_mode and isatty(sys.stdin)
        if game is not None and not (self.args.yes or interactive or self.args.game_id):
            raise UsageError(
                f"gin {how} ends the game played last ({game.game_id}) only when told so: name the game "
                f"(gin {how} {game.game_id}) or add --yes"
            )
        seat = self.seats.read_seat(game, f"no saved unfinished game to {how}")
        if game is None or seat is None:
            return EXIT_NOTHING_TO_RESUME
        if interactive and not self.args.yes and not self._sure(how, game, plain(seat.view)):
            self.screen.line("Nothing was done: the game goes on (gin resume).")
            return EXIT_OK
        reply = plain(seat.resign() if how == "resign" else seat.abort())
        self.seats.saved.finish(game)
        if self.out.json_mode:
            self.out.document(reply)
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
        score = score_words(view, names)
        what = "You lose the match." if how == "resign" else "It ends with no result."
        question = f"{how.capitalize()} your game against {opponent} ({game.game_id}{score})? {what}"
        try:
            return self.screen.confirm(question)
        except EOFError:
            self.screen.line("")
            return False

    def rematch(self) -> int:
        missing = "no saved finished game to rematch (gin play starts a game)"
        seat = self.seats.read_seat(self.seats.finished_game(self.args.game_id), missing)
        if seat is None:
            return EXIT_NOTHING_TO_RESUME
        names = player_names(plain(seat.view))
        again = start_rematch(seat, self.screen, names[1 - (seat.seat or 0)], json_mode=self.out.json_mode)
        self.seats.rematch_started(again)
        return self.seats.play(again, fetch=False)

    # --- the table chat --------------------------------------------------------------------------------

    def chat(self) -> int:
        table = self._table(self.args.game_id)
        page = plain(table.chat())
        lines: list[ChatLine] = list(page["lines"])
        while page["lines"]:  # a page holds 200 lines at most
            page = plain(table.chat(after=page["last"]))
            lines += page["lines"]
        whole = {"game_id": table.game_id, "lines": lines, "rooms": page["rooms"], "muted": page["muted"]}
        return self.out.present(whole, lambda screen, data: render_chat(screen, table.game_id, data))

    def say(self) -> int:
        text = " ".join(self.args.words).strip()
        try:
            command = parse_chat(text if text.startswith("/") else f"say {text}")
        except InputError as exc:
            raise UsageError(str(exc)) from None
        if command is None or command.kind not in ("say", "phrases"):
            raise UsageError("gin say GAME TEXT says TEXT, gin say GAME /gg a phrase (/mute is the prompt's)")
        if command.kind == "phrases":
            presets = plain(self.client.service.chat_presets())
            return self.out.present(presets, lambda screen, data: render_phrases(screen, data["presets"]))
        table = self._table(self.args.game_id)
        if table.token is None:
            raise UsageError(
                f"gin say speaks as a player of the game or one who watches: gin login NAME first, on "
                f"{self.client.server}"
            )
        room: Literal["player", "spectator"] = "player" if "player" in table.chat()["rooms"] else "spectator"
        assert command.said is not None
        line = plain(table.say(command.said.get("text"), preset=command.said.get("preset"), room=room))
        return self.out.present(line, lambda screen, data: screen.line(*said_parts(data)))

    def _table(self, game_id: str) -> Game:
        """The game whose chat is read or said in, as the player takes part in it: the seat saved here
        (its own server and token), else the login's (a seat of the account, or one who watches), else
        anyone's (the spectators' room)."""
        saved = self.seats.saved.load().get(game_id) or self.seats.saved.load_finished().get(game_id)
        if saved is not None:
            self.connection.follow(saved.server)
        token = (saved.token if saved is not None else "") or self.client.token
        return Game(self.client, game_id, token=token or None)


def score_words(view: dict[str, Any], names: list[str]) -> str:
    """``, hand 3, You 45 · Bob 12``: where the game stands (empty when the view does not say).

    >>> view = {"hand_number": 3, "scores": {"games": [{"points": [45, 12]}]}}
    >>> score_words(view, ["You", "Bob"]), score_words({}, ["You", "Bob"])
    (', hand 3, You 45 · Bob 12', '')
    """
    games = (view.get("scores") or {}).get("games") or []
    points = (games[-1].get("points") if games else None) or None
    if not isinstance(points, list) or len(points) != 2:
        return ""
    return f", hand {view.get('hand_number', '?')}, {names[0]} {points[0]} · {names[1]} {points[1]}"


def split_invitation(text: str) -> tuple[str, str]:
    """``GAME_ID:SECRET`` (what ``gin host`` prints) into its two parts."""
    try:
        return parse_invitation(text)
    except ValueError:
        raise UsageError(
            f"an invitation looks like GAME_ID:SECRET (as printed by gin host), not {text!r}"
        ) from None
