"""The table chat of a game ``gin-bot`` plays: the bot's ``on_chat(line, table)`` (``--on-chat``), called
with each line the other seat says, and the greetings (``--greet``: a phrase at the start of each game and
one at its end; none by default).

The lines come on the game's event stream (``?chat=true``), the stream the :class:`~gin_bot.play.Table`
holds open anyway, from the first line of the game; ``on_chat`` is called on the game's thread, between
the bot's moves — never while ``choose`` runs for that game. A chat that fails (a refusal, the service
away, an exception of ``on_chat``) is logged and never ends a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ginrummy_client import ChatLine, Game, GinClientError, View

log = logging.getLogger("gin_bot")

ChatHook = Callable[[ChatLine, "TableChat"], Any]
"""A bot's ``on_chat(line, table)``: a line another player said, and the table to answer at."""


@dataclass(frozen=True)
class Greeting:
    """The preset phrases said at the start of each game (``hello``) and at its end (``goodbye``)."""

    hello: str | None
    goodbye: str | None

    @classmethod
    def parse(cls, text: str) -> Greeting:
        """``--greet HELLO,GOODBYE`` (either may be empty: none).

        >>> Greeting.parse("good_luck,good_game"), Greeting.parse("hello,")
        (Greeting(hello='good_luck', goodbye='good_game'), Greeting(hello='hello', goodbye=None))
        """
        hello, comma, goodbye = text.partition(",")
        if not comma or "," in goodbye:
            raise ValueError(
                f"--greet is HELLO,GOODBYE, two preset phrases (good_luck,good_game): not {text!r}"
            )
        return cls(hello.strip() or None, goodbye.strip() or None)

    def phrases(self) -> list[str]:
        return [phrase for phrase in (self.hello, self.goodbye) if phrase is not None]


class TableChat:
    """The chat at the table of ``game``, as the bot sees it: what ``on_chat`` is given beside the line —
    :attr:`game_id`, :attr:`seat`, :attr:`view` (the last view seen) and :meth:`say` — and what the
    :class:`~gin_bot.play.Table` tells it: the start, each line heard, the end."""

    def __init__(self, game: Game, on_chat: ChatHook | None, greeting: Greeting | None) -> None:
        self.game = game
        self.on_chat = on_chat
        self.greeting = greeting
        self._live = False  # whether the match was in play when the table sat down (a goodbye is due)
        self._failed = False  # whether on_chat has raised yet (its traceback is logged once)

    @property
    def game_id(self) -> str:
        return self.game.game_id

    @property
    def seat(self) -> int:
        return self.game.seat or 0

    @property
    def view(self) -> View:
        return self.game.view

    @property
    def listens(self) -> bool:
        """Whether the game's stream should carry its chat (there is an ``on_chat`` to call)."""
        return self.on_chat is not None

    def say(self, text: str | None = None, *, preset: str | None = None) -> ChatLine | None:
        """Say a line in the players' room: free ``text`` (an account's: a player token or a bot account's
        API token) or a ``preset`` phrase. The line said, or None when it was refused (logged)."""
        try:
            line = self.game.say(text, preset=preset)
        except GinClientError as error:
            log.warning("game %s: the chat refused %s: %s", self.game_id, text or preset, error)
            return None
        log.info("game %s: said %s", self.game_id, line["text"])
        return line

    def start(self) -> None:
        """The table sits down: say hello, unless the match is over or this seat said it already (a run
        started again)."""
        self._live = not self.game.match_over
        hello = self.greeting.hello if self.greeting is not None else None
        if hello is None or not self._live:
            return
        try:
            lines = self.game.chat()["lines"]
        except GinClientError as error:
            log.warning("game %s: the chat cannot be read: %s", self.game_id, error)
            return
        if not any(line["seat"] == self.seat and line["preset"] == hello for line in lines):
            self.say(preset=hello)

    def heard(self, line: ChatLine) -> None:
        """A line of the game's chat: handed to ``on_chat`` unless this seat said it."""
        if line["room"] == "player" and line["seat"] == self.seat:
            return
        log.info("game %s: %s says %s", self.game_id, line["author"], line["text"])
        if self.on_chat is None:
            return
        try:
            self.on_chat(line, self)
        except Exception:  # the bot's bug must not end the game
            log.warning("game %s: on_chat raised", self.game_id, exc_info=not self._failed)
            self._failed = True

    def end(self) -> None:
        """The match is over: say goodbye (once the match was seen in play)."""
        goodbye = self.greeting.goodbye if self.greeting is not None else None
        if goodbye is not None and self._live:
            self.say(preset=goodbye)
