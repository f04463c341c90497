"""Table chat (lila's ``chat``): each game has the players' room, read and written by its two seats, and
the spectators' room, written by named players who watch and read by anyone watching — and by the two
players once the match is over (while it is live they do not read it: lichess's rule).

A line is a preset phrase (:data:`PRESETS`, anyone seated or named) or free text (an account's: a player
without a password, or an anonymous seat, says presets only). Free text is cleaned (control and format
characters dropped, white space collapsed) and at most :data:`MAX_LENGTH` characters; an author says at
most :data:`PER_MINUTE` lines a minute in a game, and a game keeps at most :data:`MOST_LINES`. A player a
moderator muted says nothing until then. Clients show lines as text, links never made clickable.

Who reads what, beside the rooms: a seat that muted the other at the table (``POST …/chat/mute``) does not
read the other's lines of that game, and a player never reads the lines of one it blocks — and the
author is never told (its line is said and kept as any).

Lines are kept with the game for good (PostgreSQL), so the chat of a finished and archived match reads as
the live one did; new lines are taken while the game is in Redis (in play, and a while after its end).
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from ginrummy.store import GameStore
from ginrummy.store.chat import Author, ChatStore, Said, chat_channel_key
from ginrummy.store.notify import wait_until

from .. import security
from ..calls import Result
from ..config import Config
from ..errors import ServiceError
from ..players.identity import Identities
from ..shapes.chat import PRESETS
from .match import Match
from .unit_of_work import UnitOfWork

MAX_LENGTH = 140  # characters of a line (lichess's)
PER_MINUTE = 10  # lines one author says in one game in a minute
MOST_LINES = 500  # lines a game keeps; past them its rooms are closed
PAGE = 200  # lines a page gives
ROOMS = ("player", "spectator")

ZERO_WIDTH_JOINER = "\u200d"  # kept: emoji sequences are made with it


def clean(text: str) -> str:
    """Free text as a line says it: control and format characters dropped (the zero-width joiner of emoji
    kept), white space collapsed and trimmed.

    >>> clean("  gg\\n\\twp\\x1b[31m \\u202e!  ")
    'gg wp[31m !'
    """
    kept = "".join(
        ch
        for ch in text
        if ch == ZERO_WIDTH_JOINER or ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs")
    )
    return " ".join(kept.split())


@dataclass(frozen=True)
class Listener:
    """Who reads a game's chat: its rooms, its player's name (for its blocks) and its seat (for its mute)."""

    game_id: str
    rooms: tuple[str, ...]
    name: str | None
    seat: int | None


class Chat:
    """Saying, reading and muting a game's chat."""

    def __init__(
        self, store: ChatStore, games: GameStore, work: UnitOfWork, identities: Identities, config: Config
    ) -> None:
        self.store = store
        self.games = games
        self.work = work
        self.identities = identities
        self.config = config

    # --- who ---------------------------------------------------------------------------------------
    def _seat_of(self, match: Match, token: str | None) -> int | None:
        """The caller's seat in the match (None: not seated, or no token); a token that is neither a
        seat's nor a player's is refused (``unknown_player``)."""
        if token is None:
            return None
        for number, seat in enumerate(match.meta.seats):
            if security.matches(token, seat.token_digest):
                return number
        identity = self.identities.of(token)
        if identity is None:
            raise ServiceError("unknown_player", "this bearer token is not a seat's or a player's token")
        for number, seat in enumerate(match.meta.seats):
            if seat.player is not None and seat.player.casefold() == identity.name.casefold():
                return number
        return None

    def listener(self, game_id: str, token: str | None) -> Listener:
        """The rooms the caller reads in this game, and who it is for its blocks and mute."""
        match = self.work.load(game_id)
        seat = self._seat_of(match, token)
        over = match.archived or match.game.match_over
        if seat is not None:
            rooms: tuple[str, ...] = ROOMS if over else ("player",)
            return Listener(game_id, rooms, match.meta.seats[seat].player, seat)
        name = None
        if token is not None:
            identity = self.identities.of(token)
            name = None if identity is None else identity.name
        return Listener(game_id, ("spectator",), name, None)

    # --- saying ------------------------------------------------------------------------------------
    def say(self, game_id: str, body: dict[str, Any], token: str | None) -> Result:
        """Say a line in a room of the game: the players' (a seat) or the spectators' (a named player who
        is not seated)."""
        token = security.require_token(token)
        match = self.work.load(game_id)
        if match.archived:
            raise ServiceError("chat_closed", f"the game {game_id} is archived: its chat takes no new lines")
        room = body["room"]
        seat = self._seat_of(match, token)
        if room == "player":
            if seat is None:
                raise ServiceError(
                    "chat_forbidden", "only the game's two players say lines in the players' room"
                )
            sitting = match.meta.seats[seat]
            shown = sitting.name or f"Seat {seat + 1}"
            author = Author(None, shown) if sitting.player is None else self.store.author(sitting.player)
        else:
            if seat is not None:
                raise ServiceError("chat_forbidden", "the players do not write in the spectators' room")
            identity = self.identities.of(token)
            assert identity is not None  # _seat_of refused a token that is no player's
            author = self.store.author(identity.name)
        said = self._said(room, author, seat, body)
        self._pace(game_id, author, seat)
        line = self.store.say(game_id, said, most=MOST_LINES)
        if line is None:
            raise ServiceError("chat_closed", f"the game {game_id} has {MOST_LINES} lines: its chat is full")
        return Result(line, created=True)

    @staticmethod
    def _said(room: str, author: Author, seat: int | None, body: dict[str, Any]) -> Said:
        if author.muted_until is not None and author.muted_until > time.time():
            until = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(author.muted_until))
            raise ServiceError("chat_muted", f"a moderator muted your chat until {until}")
        preset, text = body.get("preset"), body.get("text")
        if (preset is None) == (text is None):
            raise ServiceError("chat_empty", "say either a preset phrase ('preset') or free text ('text')")
        if preset is not None:
            return Said(room, author, seat if room == "player" else None, preset, PRESETS[preset])
        if not author.account:
            raise ServiceError("chat_presets_only", "players without an account say preset phrases only")
        cleaned = clean(str(text))
        if not cleaned:
            raise ServiceError("chat_empty", "the line is empty once its control characters are dropped")
        if len(cleaned) > MAX_LENGTH:
            raise ServiceError(
                "chat_too_long", f"a line has at most {MAX_LENGTH} characters, not {len(cleaned)}"
            )
        return Said(room, author, seat if room == "player" else None, None, cleaned)

    def _pace(self, game_id: str, author: Author, seat: int | None) -> None:
        key = str(author.player_id) if author.player_id is not None else f"seat{seat}"
        if self.store.count(game_id, key, 60) > PER_MINUTE:
            raise ServiceError(
                "chat_too_fast", f"at most {PER_MINUTE} lines a minute in a game: wait a little"
            )

    # --- reading -----------------------------------------------------------------------------------
    def read(self, listener: Listener, after: int) -> list[dict[str, Any]]:
        """The lines the listener reads after line ``after``."""
        return self.store.lines(
            listener.game_id, listener.rooms, after, reader=listener.name, seat=listener.seat, limit=PAGE
        )

    def page(self, game_id: str, token: str | None, after: int, wait: float) -> Result:
        """The lines the caller reads after ``after``, oldest first; a long poll of up to ``wait`` seconds
        while there are none."""
        listener = self.listener(game_id, token)
        deadline = time.monotonic() + min(wait, self.config.max_wait)
        notifier = self.games.notifier
        with notifier.watch(chat_channel_key(game_id)) as changed:
            while True:
                lines = self.read(listener, after)
                if lines or time.monotonic() >= deadline:
                    break
                wait_until(changed, deadline, notifier.recheck_interval())
        muted = listener.seat is not None and self.store.muted(game_id, listener.seat)
        last = lines[-1]["n"] if lines else after
        return Result({"lines": lines, "last": last, "rooms": list(listener.rooms), "muted": muted})

    def last(self, game_id: str) -> int:
        """The number of the game's last line (a stream opened without ``chat_after`` starts after it)."""
        return self.store.last(game_id)

    # --- muting ------------------------------------------------------------------------------------
    def mute(self, game_id: str, token: str | None, on: bool) -> Result:
        """The caller's seat stops (or starts again) reading the other seat's lines in this game."""
        match = self.work.load(game_id)
        seat = self._seat_of(match, security.require_token(token))
        if seat is None:
            raise ServiceError("chat_forbidden", "only a player of the game mutes the other at the table")
        self.store.mute(game_id, seat, on)
        other = match.meta.seats[1 - seat]
        shown = other.player or other.name or f"Seat {2 - seat}"  # (no one has joined that seat yet)
        return Result({"game_id": game_id, "muted": on, "player": shown})

    @staticmethod
    def presets() -> Result:
        return Result({"presets": [{"id": key, "text": text} for key, text in PRESETS.items()]})
