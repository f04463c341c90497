"""The table chat on a terminal: the short words of the preset phrases (``/gg`` says ``good_game``), a line
shown as text, the lines of a game listed (``gin chat``), and :class:`ChatWatch`, the other seat's lines
followed on a thread of their own while a game is played. What a line typed at the prompt means is
:mod:`commands`' (``say TEXT``, ``/gg``, ``/mute``); the commands ``gin chat`` and ``gin say`` are carried
out in :mod:`commands_play`.

A line is shown as the service gives it: as text (never markup: the screen's ``rich`` console has markup
and emoji codes off), and a control or format character — which the service drops from every line, so
only a misbehaving service would send one — is shown escaped, never written to the terminal.

>>> preset_of("GG"), preset_of("good_game"), preset_of("gloat")
('good_game', 'good_game', None)
>>> line_parts({"author": "Bob", "bot": False, "room": "player", "text": "Good game!"})
[('Bob says: ', 'bold'), 'Good game!']
"""

from __future__ import annotations

import contextlib
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ginrummy_client import ChatLine, Client, Game, GinClientError

from . import __version__
from .screen import Part, Screen

PRESET_WORDS = {
    "hi": "hello", "gl": "good_luck", "hf": "have_fun", "ty": "thanks", "gg": "good_game",
    "wp": "well_played", "nh": "nice_hand", "oops": "oops", "bye": "bye", "+1": "thumbs_up",
    "smile": "smile", "wow": "wow", "sad": "sad", "clap": "clap",
}  # fmt: skip
"""The short word of each preset phrase of the service (``GET /v1/chat/presets``), typed after ``/``."""
WORDS_OF = {preset: word for word, preset in PRESET_WORDS.items()}
CHAT_WAIT = 25.0
"""Seconds each connection of the chat's stream stays open."""
ZERO_WIDTH_JOINER = "\u200d"  # kept by the service: emoji sequences are made with it


def preset_of(word: str) -> str | None:
    """The preset phrase a word names: its short word (any case) or the preset's own id; None for none."""
    word = word.strip().lower()
    return PRESET_WORDS.get(word) or (word if word in WORDS_OF else None)


def shown(text: str) -> str:
    """A line's text for a terminal: as said, with any control or format character (but the zero-width
    joiner of emoji) shown escaped rather than written.

    >>> shown("gg 👍"), shown("gg\\x1b[31m wp\\x07")
    ('gg 👍', 'gg\\\\x1b[31m wp\\\\x07')
    """
    return "".join(
        repr(ch)[1:-1] if ch != ZERO_WIDTH_JOINER and unicodedata.category(ch) in ("Cc", "Cf") else ch
        for ch in text
    )


def author_of(line: Mapping[str, Any]) -> str:
    """Who said a line, as a screen names them: ``Bob``, ``Botty (bot)``, ``Cy (watching)``."""
    author = shown(str(line.get("author") or "?"))
    if line.get("bot"):
        author += " (bot)"
    return f"{author} (watching)" if line.get("room") == "spectator" else author


def line_parts(line: Mapping[str, Any]) -> list[Part]:
    """A line another player said, arrived while a game is played."""
    return [(f"{author_of(line)} says: ", "bold"), shown(str(line.get("text") or ""))]


def said_parts(line: Mapping[str, Any]) -> list[Part]:
    """A line the player has just said."""
    return [("You said: ", "bold"), shown(str(line.get("text") or ""))]


def render_phrases(screen: Screen, presets: Sequence[Mapping[str, Any]]) -> None:
    """The preset phrases, each with the word that says it at the prompt."""
    for preset in presets:
        word = WORDS_OF.get(str(preset.get("id")), str(preset.get("id")))
        screen.line(f"  /{word:<7} ", shown(str(preset.get("text") or "")))


def render_chat(screen: Screen, game_id: str, page: Mapping[str, Any]) -> None:
    """``gin chat``: the lines of a game the caller reads, oldest first, each with its time (local)."""
    rooms = [{"player": "the players'", "spectator": "the spectators'"}[room] for room in page["rooms"]]
    screen.rule(f"Chat of game {game_id} · {' and '.join(rooms)} room{'s' if len(rooms) > 1 else ''}")
    for line in page["lines"]:
        at = time.strftime("%H:%M", time.localtime(int(line.get("at") or 0) / 1000))
        screen.para(f"{author_of(line)}: {shown(str(line.get('text') or ''))}", first=f"  {at}  ", indent=9)
    if not page["lines"]:
        screen.line("  nothing said yet")
    if page.get("muted"):
        screen.line(("You muted the other player at this table: their lines are not shown.", "dim"))
    screen.line((f"gin say {game_id} TEXT says a line; gin say {game_id} /gg a phrase.", "dim"))


class ChatWatch:
    """The chat lines of ``seat``'s game followed on a thread of its own, with a client (and connection) of
    its own: the game's stream with its chat (``?chat=true``), from the first line of the game. Each line
    not said by the seat itself is handed to ``show``, on that thread. A watch that fails (the service
    away) only means no lines shown: the game goes on."""

    def __init__(self, seat: Game, show: Callable[[ChatLine], None], *, after: str | None = None) -> None:
        self._show = show
        self._own = seat.seat
        self._closed = threading.Event()
        self._client = Client(seat.client.server, user_agent=f"gin-cli/{__version__}")
        game = Game(self._client, seat.game_id, token=seat.token)
        self._feed = game.events(after=after, chat=True, wait=CHAT_WAIT)
        self._thread = threading.Thread(target=self._follow, daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        with contextlib.suppress(GinClientError):
            for item in self._feed:
                if item["type"] != "chatLine":
                    continue
                if self._closed.is_set():
                    return
                if not (item["room"] == "player" and item["seat"] == self._own):
                    self._show(item)

    def close(self) -> None:
        """Stop following (the stream is cut at once; nothing is shown any more)."""
        self._closed.set()
        self._feed.close()
        self._thread.join(1.0)
        if not self._thread.is_alive():
            self._client.close()
