"""The commands of tournaments: ``gin tournaments`` (upcoming, running, finished) and ``gin tournament
create|join|show|pause``. Joining plays: each match the director pairs comes on the account stream as a
``gameStart`` of the tournament, and is played here as ``gin play`` plays a game, one after another, the
standings shown between them, until the tournament is over; Ctrl-C pauses (and ``gin tournament join``
comes back). The tables are :mod:`tournaments`'."""

from __future__ import annotations

import time
from typing import Any

from ginrummy_client import AccountEventsPage
from ginrummy_client.tournaments import Format

from .context import PlayerCommands
from .exits import EXIT_OK
from .people import rule_options
from .play import plain
from .tournaments import OVER, render_lists, render_standings, render_tournament, tournament_games

COMMANDS = ("tournaments", "tournament")
"""The commands carried out here, each by the method of its name."""

PAIRING_WAIT = 5.0
"""Seconds one page of the account stream waits for the next pairing before the tournament is read
again (has it ended?)."""
RESULT_WAIT = 10.0
"""Seconds at most that the standings shown after a match wait for the director to record it."""
RESULT_POLL = 0.5

FORMATS: dict[str, Format] = {"arena": "arena", "swiss": "swiss", "round-robin": "round_robin"}
"""``--format`` as typed, and as the service names it."""


class TournamentCommands(PlayerCommands):
    """The commands of tournaments, as ``args`` gives them; the matches are played on the player's
    ``seats``."""

    def tournaments(self) -> int:
        return self.out.present(plain(self.client.tournaments.list()), render_lists)

    def tournament(self) -> int:
        action = self.args.tournament_command
        return int(getattr(self, f"_{action}")())

    # --- the actions -----------------------------------------------------------------------------------

    def _create(self) -> int:
        self.connection.need_login("gin tournament create")
        args = self.args
        options = rule_options(args.option)
        made = self.client.tournaments.create(
            args.name,
            FORMATS[args.format],
            minutes=args.minutes,
            rounds=args.rounds,
            round_interval=args.round_interval,
            rules={"preset": args.rules.strip().lower(), **({"options": options} if options else {})},
            clock=args.clock,
            rated=args.rated,
            bots=args.bots,
            private=args.private,
            starts_in=args.starts_in,
            min_rated_games=args.min_rated_games,
            berserk=False if args.no_berserk else None,
            duplicate=args.duplicate,
            description=args.description,
        )
        if self.out.json_mode:
            self.out.document(made)
            return EXIT_OK
        tournament = plain(made["tournament"])
        self.screen.line(f"Tournament {tournament['id']} created: {tournament['name']}.")
        render_tournament(self.screen, {**tournament, "standings": {}}, None)
        code = made["entry_code"]
        join = f"gin tournament join {tournament['id']}" + (f" --code {code}" if code else "")
        self.screen.line("Players join with: ", (join, "bold"))
        if code:
            self.screen.line(("The entry code is shown this once.", "dim"))
        return EXIT_OK

    def _show(self) -> int:
        info = plain(self.client.tournaments.get(self.args.tournament_id, self.args.page))
        me = self.connection.my_name() if self.connection.login is not None else None
        return self.out.present(info, lambda screen, data: render_tournament(screen, data, me))

    def _pause(self) -> int:
        self.connection.need_login("gin tournament pause")
        tournament_id = self.args.tournament_id
        entered = plain(self.client.tournaments.withdraw(tournament_id))
        if self.out.json_mode:
            self.out.document(entered)
        else:
            self.screen.line(self._paused_words(tournament_id))
        return EXIT_OK

    def _paused_words(self, tournament_id: str) -> str:
        """What a pause (``POST …/withdraw``) did, by the tournament's format and status."""
        info = plain(self.client.tournaments.get(tournament_id))
        name, come_back = info.get("name"), f"gin tournament join {tournament_id} comes back"
        if info.get("status") == "created":
            return f"You left {name} before its start ({come_back})."
        if info.get("format") == "arena":
            return f"Paused in {name}: your points stay, no new pairing ({come_back})."
        return f"Withdrawn from {name}: no more pairings ({come_back})."

    # --- joining, and playing the pairings -------------------------------------------------------------

    def _join(self) -> int:
        self.connection.need_login("gin tournament join")
        tournament_id = self.args.tournament_id
        entered = plain(self.client.tournaments.join(tournament_id, self.args.code or None))
        info = plain(self.client.tournaments.get(tournament_id))
        me = str(entered.get("player") or "")
        if self.out.json_mode:
            self.out.event({"type": "joined", **entered})
        else:
            self.screen.line(
                f"Joined {info.get('name')} as {me}: your games start here as they are paired "
                "(Ctrl-C pauses)."
            )
        try:
            return self._play_pairings(tournament_id, info, me)
        except KeyboardInterrupt:
            self._pause_on_leaving(tournament_id)
            raise

    def _play_pairings(self, tournament_id: str, info: dict[str, Any], me: str) -> int:
        """Play the tournament's games as they come on the account stream (opened afresh: first the
        games in play), the standings after each, until the tournament is over."""
        page: AccountEventsPage = self.client.account.events()
        played: set[str] = set()
        waiting = False
        while True:
            for game_id in tournament_games(page["events"], tournament_id):
                if game_id in played:
                    continue
                played.add(game_id)
                waiting = False
                status = self.seats.matched(self.client.games.get(game_id), rematch=False)
                if status != EXIT_OK:  # the player left the game (quit): it stays saved for gin resume
                    self._pause_on_leaving(tournament_id)
                    return status
                self._standings(self._recorded(tournament_id, game_id), me)
            info = plain(self.client.tournaments.get(tournament_id))
            if info.get("status") in OVER:
                self._over(info, me)
                return EXIT_OK
            if not waiting and not self.out.json_mode:
                self.screen.line(("Waiting for your next pairing… (Ctrl-C pauses)", "dim"))
            waiting = True
            page = self.client.account.events(since=page["last_id"], wait=PAIRING_WAIT)

    def _recorded(self, tournament_id: str, game_id: str) -> dict[str, Any]:
        """The tournament once the director has recorded the match ``game_id`` (it does at its next
        step): while the entry still says it plays that game, read again (:data:`RESULT_WAIT` at most)."""
        deadline = time.monotonic() + RESULT_WAIT
        while True:
            info = plain(self.client.tournaments.get(tournament_id))
            if (info.get("me") or {}).get("playing") != game_id or time.monotonic() > deadline:
                return info
            time.sleep(RESULT_POLL)

    def _standings(self, info: dict[str, Any], me: str) -> None:
        rows = (info.get("standings") or {}).get("players") or []
        if self.out.json_mode:
            self.out.event({"type": "standings", "tournament": info.get("id"), "standings": rows})
        else:
            render_standings(self.screen, info, rows, me)

    def _over(self, info: dict[str, Any], me: str) -> None:
        if self.out.json_mode:
            self.out.event({"type": "over", "status": info.get("status"), "tournament": info.get("id")})
        self._standings(info, me)
        if not self.out.json_mode:
            self.screen.line(f"{info.get('name')} is {info.get('status')}.")

    def _pause_on_leaving(self, tournament_id: str) -> None:
        """Leaving the tournament's games (Ctrl-C, quit): pause, so that no match is paired for nobody."""
        info = plain(self.client.tournaments.get(tournament_id))
        if info.get("status") in OVER:
            return
        entered = plain(self.client.tournaments.withdraw(tournament_id))
        if self.out.json_mode:
            self.out.event({"type": "paused", **entered})
        else:
            self.screen.line(self._paused_words(tournament_id))
