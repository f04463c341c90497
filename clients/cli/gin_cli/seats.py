"""The player's seats: the games saved here (``gin resume`` comes back to them) and the account's games in
play on any machine; a seat taken, found, opened and played, with the rematches asked for at its end.

:class:`Seats` also remembers the game a command is about, for ``main`` to say how to resume it when the
command fails, and the move ``gin act`` sends, to explain a refusal of it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
from collections.abc import Iterator
from typing import Any

from ginrummy_client import ApiError, Game

from .context import Connection, Output
from .errors import UsageError
from .play import GameSession, plain
from .saved import SavedGame, SavedGames
from .table import player_names


class Seats:
    """The seats of the player ``connection`` logs in as, kept in ``saved``; ``out`` says what is done."""

    def __init__(self, connection: Connection, out: Output, saved: SavedGames) -> None:
        self.connection = connection
        self.out = out
        self.saved = saved
        self.game: SavedGame | None = None  # the game the command is about
        self.acting: tuple[dict[str, Any], dict[str, Any]] | None = None  # gin act: the move and its view

    @property
    def game_id(self) -> str:
        return self.game.game_id if self.game is not None else ""

    def unfinished(self) -> SavedGame | None:
        """The game being played, while it is saved as unfinished (``gin resume`` can continue it)."""
        return self.saved.load().get(self.game.game_id) if self.game is not None else None

    # --- taking a seat, and playing it ---------------------------------------------------------------

    def take_seat(
        self, seat: Game, kind: str, text: str, *, opponent: str = "", invitation: str = "", name: str = ""
    ) -> None:
        """Save a seat just taken (``gin resume`` comes back to it) and say so: ``text``, or with
        ``--json`` a line ``{"type": kind, "game_id", "seat"}`` (and the invitation, when there is one).
        ``name``: the player's name at the table, as given. A seat played with the login's own token (an
        account's game) is saved without it: ``gin resume`` plays it with the login's."""
        client = self.connection.client
        self.game = SavedGame(
            game_id=seat.game_id,
            server=client.server,
            seat=seat.seat if seat.seat is not None else 0,
            token="" if seat.token == client.token else seat.token or "",
            opponent=opponent,
            name=name,
            invitation=invitation,
        )
        self.saved.save(self.game)
        if self.out.json_mode:
            line: dict[str, Any] = {"type": kind, "game_id": seat.game_id, "seat": self.game.seat}
            if invitation:
                line["invitation"] = invitation
            self.out.event(line)
        else:
            self.out.screen.line(text)

    def matched(self, game: Game, *, name: str = "", rematch: bool = True) -> int:
        """Play a game someone else started with us, or we with them (a seek taken, a challenge
        accepted, a tournament's pairing: no ``rematch`` offered); ``game`` holds its full view."""
        view = plain(game.view)
        seat = game.seat or 0
        opponent = player_names(view)[1 - seat]
        players = view.get("players") or []
        bot = str(players[1 - seat].get("bot") or "") if len(players) == 2 else ""
        said = f"Playing {opponent}: game {game.game_id} (quit leaves; gin resume comes back)."
        self.take_seat(game, "matched", said, opponent=bot, name=name)
        return self.play(game, fetch=False, rematch=rematch)

    def play(self, seat: Game, *, fetch: bool, rematch: bool = True) -> int:
        """Play ``seat`` from its view (``fetch``: read the full view first), and the rematches the
        player asks for at the end (``rematch``: offered)."""
        while True:
            assert self.game is not None
            session = GameSession(
                seat,
                self.out.screen,
                self.saved,
                self.game,
                json_mode=self.out.json_mode,
                offer_rematch=rematch,
            )
            status = session.run(None if fetch else plain(seat.view))
            if session.rematch is None:
                return status
            seat, fetch = session.rematch, False
            self.rematch_started(seat)

    def rematch_started(self, seat: Game) -> None:
        """Switch to the rematch of the game played: the same seat and token, a new game id."""
        assert self.game is not None
        self.game = dataclasses.replace(self.game, game_id=seat.game_id, invitation="")
        self.saved.save(self.game)
        if self.out.json_mode:
            self.out.event({"type": "rematch", "game_id": seat.game_id, "seat": seat.seat})
        else:
            self.out.screen.line(f"Rematch: game {seat.game_id} started.")

    # --- finding a saved seat, and opening it ----------------------------------------------------------

    def saved_game(self, game_id: str | None) -> SavedGame | None:
        """A game saved here (``game_id``, or the one played last), else one of the account's games in
        play (from any machine: played with the login's token)."""
        named = self.connection.named_server
        found = self.saved.load().get(game_id) if game_id else self.saved.latest(named)
        if found is not None or self.connection.login is None:
            return found
        return next(self.account_games(game_id), None)

    def finished_game(self, game_id: str | None) -> SavedGame | None:
        """A finished game saved here (``game_id``, or the one finished last)."""
        if game_id:
            return self.saved.load_finished().get(game_id) or self.saved.load().get(game_id)
        return self.saved.latest_finished(self.connection.named_server)

    def account_games(self, game_id: str | None = None) -> Iterator[SavedGame]:
        """The account's games in play, newest first (only ``game_id``, when given), as games to resume:
        with no seat token of their own, they are played with the login's."""
        client = self.connection.client
        for game in client.account.games():
            if game_id not in (None, game["game_id"]):
                continue
            seat = int(game.get("seat") or 0)
            players = game.get("players") or []
            other = players[1 - seat] if len(players) == 2 else None
            yield SavedGame(
                game_id=game["game_id"],
                server=client.server,
                seat=seat,
                token="",
                opponent=str(other.get("bot") or "") if other else "",
            )

    def use(self, game: SavedGame) -> None:
        """Take up a saved game: talk to the server it was saved with, unless one was named."""
        self.game = game
        self.connection.follow(game.server)

    def read_seat(self, game: SavedGame | None, missing: str) -> Game | None:
        """The seat of a saved game, its view read from the server it was saved with; None (and
        ``missing`` said) when there is no such saved game."""
        if game is None:
            self.out.screen.error(missing)
            return None
        self.use(game)
        return self.open_seat(game)

    def open_seat(self, game: SavedGame) -> Game:
        """``game``'s seat, its view read. An account's game refused (401, 403) may be the session's
        fault (ended elsewhere, expired): then that is the error raised, for main to say so."""
        client = self.connection.client
        try:
            return client.games.get(game.game_id, self._seat_token(game))
        except ApiError as exc:
            if not game.token and exc.status in (401, 403):
                client.account.get()  # raises when the session itself is refused
            raise

    def _seat_token(self, game: SavedGame) -> str:
        """The token that plays ``game``: its seat token, or for an account's game the login's."""
        token = game.token or self.connection.client.token
        if not token:
            raise UsageError(
                f"game {game.game_id} is played by your account: gin login NAME first, on {game.server}"
            )
        return token


def _interrupt(signum: int, frame: object) -> None:
    """A signal handled as Ctrl-C is."""
    raise KeyboardInterrupt


@contextlib.contextmanager
def leaving_withdraws() -> Iterator[None]:
    """While a seek or a challenge waits for an opponent: a closed terminal (SIGHUP) or a kill (SIGTERM)
    withdraws it as Ctrl-C does — one left behind would pair the next seeker with nobody, or start a
    game nobody plays. Entered before the waiting line is shown."""
    leaving = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in leaving.items():
            signal.signal(sig, handler)
