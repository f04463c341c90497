"""The commands of the archive: ``gin games`` (a player's finished games; ``--live``: the account's games
in play), ``export`` (them all as NDJSON), ``replay`` (a finished match, hand by hand, move by move) and
``review`` (the master's review of one). The screens are :mod:`records`', :mod:`replay`'s and
:mod:`review`'s."""

from __future__ import annotations

import contextlib
import itertools
import json
import sys
from typing import Any

from ginrummy_client import GameFilters, GinClientError

from .accounts import render_live_games
from .context import PlayerCommands
from .errors import UsageError
from .exits import EXIT_INTERRUPTED, EXIT_NOTHING_TO_RESUME, EXIT_OK, EXIT_REFUSED, EXIT_STILL_PENDING
from .play import plain
from .records import render_games
from .replay import Keys, Replay, print_replay, step_through
from .review import Judged, await_review
from .screen import isatty

COMMANDS = ("games", "export", "replay", "review")
"""The commands carried out here, each by the method of its name."""

REVIEW_EXITS = {
    "done": EXIT_OK,
    "failed": EXIT_REFUSED,
    "pending": EXIT_STILL_PENDING,
    "stopped": EXIT_INTERRUPTED,
}
"""The exit status of each way a wait for a review ends."""


class RecordsCommands(PlayerCommands):
    """The commands of the archive, as ``args`` gives them: ``connection`` reads it, ``seats`` tells
    which match was finished here last."""

    # --- a player's finished games -------------------------------------------------------------------

    def games(self) -> int:
        if self.args.live:
            return self._live_games()
        name = self._player_name("games")
        limit = self._limit() or 20
        filters = self._filters()
        # One more than shown tells whether there are more; a page asks for them all at once (≤ 100).
        found = list(
            itertools.islice(self.client.archive.games(name, limit=min(limit + 1, 100), **filters), limit + 1)
        )
        games, more = found[:limit], len(found) > limit
        if self.out.json_mode:
            self.out.document({"player": name, "games": games, "more": more})
        else:
            filtered = any(value is not None for value in filters.values())
            render_games(self.screen, name, [plain(game) for game in games], more=more, filtered=filtered)
        return EXIT_OK

    def _live_games(self) -> int:
        """``gin games --live``: the account's games in play, from any machine."""
        if self.args.name:
            raise UsageError("gin games --live lists your own games in play: it takes no NAME")
        self.connection.need_login("gin games --live")
        games = [dict(game) for game in self.client.account.games()]
        if self.out.json_mode:
            self.out.document({"games": games})
        else:
            render_live_games(self.screen, self.connection.my_name() or "?", games)
        return EXIT_OK

    def export(self) -> int:
        name = self._player_name("export")
        limit = self._limit()
        written = 0
        with contextlib.closing(self.client.archive.export_games(name, **self._filters())) as exports:
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

    def _player_name(self, command: str) -> str:
        name = self.args.name or self.connection.my_name()
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

    # --- one finished match ----------------------------------------------------------------------------

    def review(self) -> int:
        game_id = self._finished_game_id()
        if game_id is None:
            return EXIT_NOTHING_TO_RESUME
        # A match not (yet) archived is refused here, before any wait for its review.
        export = None if self.out.json_mode else plain(self.client.archive.export(game_id))
        status, code = self._await_review(game_id)
        if self.out.json_mode and status is not None:
            self.out.document(status)
        if export is None or status is None or code != EXIT_OK:
            return code
        Judged(self.screen, Replay(export), status.get("review") or {}).render(every=self.args.all)
        return EXIT_OK

    def replay(self) -> int:
        game_id = self._finished_game_id()
        if game_id is None:
            return EXIT_NOTHING_TO_RESUME
        export = plain(self.client.archive.export(game_id))
        status, code = self._await_review(game_id) if self.args.review else (None, EXIT_OK)
        if code == EXIT_INTERRUPTED:
            return code
        if self.out.json_mode:
            self.out.document({"export": export, "review": status} if self.args.review else export)
            return code
        if code != EXIT_OK:
            return code
        replay = Replay(export)
        if status is not None:
            replay.notes.update(Judged(self.screen, replay, status.get("review") or {}).notes())
        if self.args.no_interactive or not isatty(sys.stdout):
            print_replay(self.screen, replay)
            return EXIT_OK
        keys = Keys(sys.stdin.fileno())
        try:
            step_through(self.screen, replay, keys)
        finally:
            keys.close()
        return EXIT_OK

    def _finished_game_id(self) -> str | None:
        """The finished match ``replay`` and ``review`` are about: the one named, else the one finished
        last here (read from the server it was played on), else the account's, wherever it was played."""
        game_id: str | None = self.args.game_id
        finished = None if game_id else self.seats.finished_game(None)
        if finished is not None:
            game_id = finished.game_id
            self.connection.follow(finished.server)
        elif not game_id and self.connection.login is not None:  # the account's last game, played anywhere
            last = next(self.client.archive.games(self.connection.my_name() or "", limit=1), None)
            game_id = last["game_id"] if last is not None else None
        if not game_id:
            command = self.args.command
            self.screen.error(f"no finished game saved here: gin {command} GAME_ID (gin games lists them)")
        return game_id or None

    def _await_review(self, game_id: str) -> tuple[dict[str, Any] | None, int]:
        """The review of a finished match, asked for and waited for (:func:`await_review`), and the exit
        status it comes with: 0 done, 4 failed, 8 still pending after ``--wait``, 130 Ctrl-C."""
        status, outcome = await_review(
            self.client, self.screen, game_id, self.args.wait, quiet=self.out.json_mode
        )
        return status, REVIEW_EXITS[outcome]
