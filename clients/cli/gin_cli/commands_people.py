"""The commands of people playing people: ``gin lobby`` (the open seeks and the public games in play),
``seek`` (quick match: wait in the lobby for an opponent), ``accept`` (take a seek), ``watch`` (follow a
game as a spectator), ``profile`` and ``leaderboard``; and the account's follows and blocks: ``follow``,
``unfollow``, ``following`` (who is online, who plays which game), ``block``, ``unblock``, ``blocking``.
The screens are :mod:`people`'s and :mod:`relations`'."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ginrummy_client import Game, Seek, SeekTaken

from .context import PlayerCommands
from .errors import UsageError
from .exits import EXIT_INTERRUPTED, EXIT_REFUSED
from .people import render_leaderboard, render_lobby, render_profile, rule_options
from .play import plain
from .relations import done, render_blocking, render_following
from .seats import leaving_withdraws
from .watch import Spectator

COMMANDS = (
    "lobby", "seek", "accept", "watch", "profile", "leaderboard",
    "follow", "unfollow", "following", "block", "unblock", "blocking",
)  # fmt: skip
"""The commands carried out here, each by the method of its name."""


class PeopleCommands(PlayerCommands):
    """The commands of the lobby and the players, as ``args`` gives them: ``connection`` asks the
    service, a game found is played on the player's ``seats``."""

    def lobby(self) -> int:
        seeks, games = plain(self.client.lobby.get())["seeks"], plain(self.client.games.live())["games"]
        return self.out.present(
            {"seeks": seeks, "games": games},
            lambda screen, data: render_lobby(screen, data["seeks"], data["games"]),
        )

    def seek(self) -> int:
        self.connection.need_login("gin seek")
        found = self.client.lobby.seek(
            preset=self.args.rules.strip().lower(),
            options=rule_options(self.args.option),
            rated=self.args.rated,
            clock=self.args.clock,
            min_rating=self.args.min_rating,
            max_rating=self.args.max_rating,
        )
        game = self._wait_for_opponent(found) if isinstance(found, Seek) else found
        if game is None:
            self.out.screen.error("the seek was cancelled")
            return EXIT_REFUSED
        return self.seats.matched(game)

    def _wait_for_opponent(self, seek: Seek) -> Game | None:
        """Wait in the lobby until someone takes the seek; Ctrl-C withdraws it."""
        with leaving_withdraws():
            return self._wait_in_lobby(seek)

    def _wait_in_lobby(self, seek: Seek) -> Game | None:
        screen = self.out.screen
        try:  # from the first line shown: an interrupt right after it still withdraws the seek
            if self.out.json_mode:
                self.out.event({"type": "seeking", "seek_id": seek.id})
            else:
                screen.line(f"Seek {seek.id} is in the lobby (gin lobby lists it).")
                screen.line(("Waiting for an opponent… (Ctrl-C cancels the seek)", "dim"))
            return seek.wait()
        except KeyboardInterrupt:
            try:
                seek.cancel()
            except SeekTaken:  # taken as we left: the opponent is already at the table
                game = seek.game()
                if game is not None:
                    self.seats.take_seat(game, "matched", f"An opponent took the seek: game {game.game_id}.")
            else:
                screen.error("your seek is withdrawn")
            raise

    def accept(self) -> int:
        self.connection.need_login("gin accept")
        return self.seats.matched(self.client.lobby.accept(self.args.seek_id))

    def watch(self) -> int:
        # No token: what anyone may see (a seated player's token would show that seat's hand instead).
        json_mode = self.out.json_mode
        spectator = Spectator(Game(self.client, self.args.game_id), self.out.screen, json_mode=json_mode)
        try:
            return spectator.run()
        except KeyboardInterrupt:
            if not json_mode:
                self.out.screen.line("")
                self.out.screen.line(f"Stopped watching game {self.args.game_id}.")
            return EXIT_INTERRUPTED

    def profile(self) -> int:
        name = self.args.name or self.connection.my_name()
        if not name:
            raise UsageError("gin profile NAME, or gin login NAME first to see your own")
        return self.out.present(plain(self.client.players.get(name)), render_profile)

    def leaderboard(self) -> int:
        board = self.client.players.leaderboard(self.args.family.strip().lower(), self.args.limit)
        return self.out.present(plain(board), render_leaderboard)

    def follow(self) -> int:
        return self._relate(self.client.players.follow)

    def unfollow(self) -> int:
        return self._relate(self.client.players.unfollow)

    def block(self) -> int:
        return self._relate(self.client.players.block)

    def unblock(self) -> int:
        return self._relate(self.client.players.unblock)

    def _relate(self, relate: Callable[[str], Mapping[str, Any]]) -> int:
        """Follow, unfollow, block or unblock the player named (the command's name says which)."""
        command = self.args.command
        self.connection.need_login(f"gin {command}")
        answer = plain(relate(self.args.name))
        return self.out.present(answer, lambda screen, data: screen.line(done(command, data)))

    def following(self) -> int:
        self.connection.need_login("gin following")
        listing = {"players": self.client.account.following()}
        me = self.connection.my_name() or "?"
        return self.out.present(listing, lambda screen, data: render_following(screen, me, data["players"]))

    def blocking(self) -> int:
        self.connection.need_login("gin blocking")
        listing = {"players": self.client.account.blocking()}
        me = self.connection.my_name() or "?"
        return self.out.present(listing, lambda screen, data: render_blocking(screen, me, data["players"]))
