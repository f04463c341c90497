"""Players and the lobby: a :class:`Player` (a name and its token) and a :class:`Seek` (an open game
waiting in the lobby for an opponent, as its owner holds it).

A player's token, given to the client (``Client(server, token=player.token)``), ties the seats it
creates, joins or is matched to to the player — so its games count in its profile and ratings — and is
a credential for those seats as well as their seat tokens.

>>> Player("Ann", "secret-token")
Player(name='Ann')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast
from urllib.parse import quote

from .models import SeekInfo

if TYPE_CHECKING:
    from .client import Client
    from .game import Game

SEEK_POLL = 30.0
"""Seconds one long poll of a seek may last (the service holds it at most ``GIN_MAX_WAIT``)."""


@dataclass(frozen=True)
class Player:
    """A player made with :meth:`Client.create_player`: its ``name`` and ``token`` (shown once by the
    service: keep it as a password; it never appears in a ``repr``)."""

    name: str
    token: str = field(repr=False)


def player_path(name: str, *rest: str) -> str:
    """The path of a player's resource; the name is quoted, so it can never name another path.

    >>> player_path("Ann", "games"), player_path("a/b c")
    ('/v1/players/Ann/games', '/v1/players/a%2Fb%20c')
    """
    return "/".join(["/v1/players", quote(name, safe=""), *rest])


def seek_path(seek_id: str, *rest: str) -> str:
    """The path of a seek; the id is quoted, so it can never name another path.

    >>> seek_path("s1", "accept"), seek_path("../x")
    ('/v1/seeks/s1/accept', '/v1/seeks/..%2Fx')
    """
    return "/".join(["/v1/seeks", quote(seek_id, safe=""), *rest])


class Seek:
    """A seek of the caller, waiting in the lobby (made by :meth:`Client.seek` when no compatible seek
    was open). ``token`` is the seek's secret: it reads and cancels the seek, and becomes the owner's
    SEAT token in the game once someone takes it. ``info`` is the seek as last read; ``status`` is
    open, matched or cancelled. Its requests go through its client's :attr:`Client.requestor`."""

    def __init__(self, client: Client, info: SeekInfo, token: str) -> None:
        self.client = client
        self.info = info
        self.token = token

    def __repr__(self) -> str:
        return f"<Seek {self.id} {self.status}>"

    @property
    def id(self) -> str:
        return self.info["id"]

    @property
    def status(self) -> str:
        return self.info.get("status", "open")

    def refresh(self, wait: float = 0.0) -> SeekInfo:
        """Read the seek again; with ``wait``, the service holds the request up to that many seconds
        (at most ``GIN_MAX_WAIT``) for it to be matched."""
        reply = self.client.requestor.request(
            "GET",
            seek_path(self.id),
            token=self.token,
            params={"wait": wait},
            timeout=wait + self.client.timeout,
        )
        self.info = cast(SeekInfo, reply.data)
        return self.info

    def wait(self, timeout: float | None = None) -> Game | None:
        """Wait until an opponent takes the seek: the game, in which the owner is seat 0 and plays with
        :attr:`token`. None when ``timeout`` seconds passed first (None: no limit) or the seek was
        cancelled (:attr:`status` says which). Long polls, never a busy loop. A seek that expired
        unmatched raises :class:`SeekNotFound`."""
        if self.status == "cancelled":
            return None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = SEEK_POLL if deadline is None else min(SEEK_POLL, max(0.0, deadline - time.monotonic()))
            info = self.refresh(wait=left)
            if info.get("status") == "matched" and info.get("game_id"):
                return self.client.game(info["game_id"], token=self.token)
            if info.get("status") == "cancelled":
                return None
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def game(self) -> Game | None:
        """The game of the seek, if it was matched (read now, without waiting)."""
        return self.wait(timeout=0.0)

    def cancel(self) -> SeekInfo:
        """Withdraw the seek. :class:`SeekTaken` when an opponent took it first: the game has started,
        :meth:`game` gives it."""
        reply = self.client.requestor.request("DELETE", seek_path(self.id), token=self.token)
        self.info = {**self.info, **cast(SeekInfo, reply.data)}
        return self.info
