"""Players and the lobby: ``client.players`` (a new :class:`Player` — a name and its token —, a profile,
the leaderboard; a player followed or blocked by the caller's account) and ``client.lobby`` (the open
seeks; a :class:`Seek` of the caller's waiting there for an opponent, as its owner holds it; a seek taken).

A player's token, given to the client (``Client(server, token=player.token)``), ties the seats it
creates, joins or is matched to to the player — so its games count in its profile and ratings — and is
a credential for those seats as well as their seat tokens.

>>> Player("Ann", "secret-token")
Player(name='Ann')
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote

from .bodies import ClockSpec, clock_body, given, rules_of
from .game import Game, seated
from .models import (
    Blockage,
    Followship,
    Leaderboard,
    LobbySeeks,
    OpenSeek,
    PlayerCreated,
    Profile,
    SeekCancelled,
    SeekStatus,
    SeekWaiting,
)
from .resource import Resource, renamed

if TYPE_CHECKING:
    from .client import Client

SEEK_POLL = 30.0
"""Seconds one long poll of a seek may last (the service holds it at most ``GIN_MAX_WAIT``)."""


@dataclass(frozen=True)
class Player:
    """A player made with :meth:`Players.create`: its ``name`` and ``token`` (shown once by the
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
    """A seek of the caller, waiting in the lobby (made by :meth:`Lobby.seek` when no compatible seek
    was open). ``token`` is the seek's secret: it reads and cancels the seek, and becomes the owner's
    SEAT token in the game once someone takes it. ``info`` is the seek as last read (after
    :meth:`cancel`, the answer to it: ``id`` and ``status``); ``status`` is open, matched or cancelled.
    Its requests go through its client's :attr:`Client.requestor`."""

    def __init__(self, client: Client, info: OpenSeek | SeekStatus, token: str) -> None:
        self.client = client
        self.info: OpenSeek | SeekStatus | SeekCancelled = info
        self.token = token

    def __repr__(self) -> str:
        return f"<Seek {self.id} {self.status}>"

    @property
    def id(self) -> str:
        return self.info["id"]

    @property
    def status(self) -> str:
        return self.info["status"]

    def refresh(self, wait: float = 0.0) -> SeekStatus:
        """Read the seek again; with ``wait``, the service holds the request up to that many seconds
        (at most ``GIN_MAX_WAIT``) for it to be matched."""
        reply = self.client.requestor.request(
            "GET",
            seek_path(self.id),
            token=self.token,
            params={"wait": wait},
            timeout=wait + self.client.timeout,
        )
        info = cast(SeekStatus, reply.data)
        self.info = info
        return info

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
                return self.client.games.get(info["game_id"], token=self.token)
            if info.get("status") == "cancelled":
                return None
            if deadline is not None and time.monotonic() >= deadline:
                return None

    def game(self) -> Game | None:
        """The game of the seek, if it was matched (read now, without waiting)."""
        return self.wait(timeout=0.0)

    def cancel(self) -> SeekCancelled:
        """Withdraw the seek. :class:`SeekTaken` when an opponent took it first: the game has started,
        :meth:`game` gives it."""
        reply = self.client.requestor.request("DELETE", seek_path(self.id), token=self.token)
        cancelled = cast(SeekCancelled, reply.data)
        self.info = cancelled
        return cancelled


class Players(Resource):
    """Players (``/v1/players``) and the leaderboard; and the players the account of the client's token
    follows or blocks (a session or an API token of an account: any other token is
    :class:`~ginrummy_client.errors.AccountRequired`; the account's lists are
    ``client.account.following()`` and ``client.account.blocking()``)."""

    def create(self, name: str) -> Player:
        """A new player: ``name`` is unique ignoring case (:class:`NameTaken`; names starting with ``bot-``
        are the bots', :class:`NameReserved`). Its token is shown this once: keep it, and give it to a
        client (``Client(server, token=player.token)``) to play as that player."""
        reply = self.requestor.request("POST", "/v1/players", json={"name": name})
        data = cast(PlayerCreated, reply.data)
        return Player(data["name"], data["token"])

    def get(self, name: str) -> Profile:
        """A player's public profile: games played, won and lost, statistics, ratings with their rank,
        recent games, and its ``followers`` (how many accounts follow it) (:class:`PlayerNotFound` when
        there is no such player)."""
        return cast(Profile, self.requestor.request("GET", player_path(name)).data)

    def leaderboard(self, family: str = "standard", limit: int = 50) -> Leaderboard:
        """The best rated players of a rules ``family`` (a preset's name), best first."""
        params = {"family": family, "limit": limit}
        return cast(Leaderboard, self.requestor.request("GET", "/v1/leaderboard", params=params).data)

    def follow(self, name: str) -> Followship:
        """Follow a player, a person or a bot account: ``client.account.following()`` then says when it
        is online and which games it plays, and its profile counts the account among its ``followers``.
        The answer names the player as the service spells it: ``{"player": "Bob", "following": True}``
        (following again changes nothing). Refusals: :class:`PlayerNotFound`, :class:`Forbidden`
        (oneself), :class:`TokenScope` (a token that only reads)."""
        return cast(Followship, self._relate(name, "follow"))

    def unfollow(self, name: str) -> Followship:
        """Stop following a player: ``{"player": …, "following": False}``, also when it was not
        followed."""
        return cast(Followship, self._relate(name, "unfollow"))

    def block(self, name: str) -> Blockage:
        """Block a player: its challenges to the account are declined at once (as any challenge may be:
        it is never told of the block, and the account never hears of them), the two are never paired
        in an arena, and the account may not challenge it (:class:`PlayerBlocked`) until
        :meth:`unblock`. ``{"player": …, "blocking": True}``; refusals as for :meth:`follow`."""
        return cast(Blockage, self._relate(name, "block"))

    def unblock(self, name: str) -> Blockage:
        """Stop blocking a player: ``{"player": …, "blocking": False}``."""
        return cast(Blockage, self._relate(name, "unblock"))

    def _relate(self, name: str, relation: str) -> object:
        return self.requestor.request("POST", player_path(name, relation), token=self.token).data


class Lobby(Resource):
    """The lobby (``/v1/lobby``, ``/v1/seeks``): quick matching, and open seeks taken."""

    def get(self) -> LobbySeeks:
        """The open seeks, oldest first; take one with :meth:`accept`."""
        return cast(LobbySeeks, self.requestor.request("GET", "/v1/lobby").data)

    def seek(
        self,
        *,
        preset: str = "standard",
        options: Mapping[str, Any] | None = None,
        rated: bool = False,
        clock: ClockSpec | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        quick: bool = True,
    ) -> Game | Seek:
        """Look for an opponent (the client's token must be a player's): a :class:`Game` (seat 1) when a
        compatible seek was open — same rules, clock and ``rated``, each player's rating within the
        other's ``min_rating``–``max_rating`` — else a :class:`Seek` waiting in the lobby, whose
        :meth:`Seek.wait` gives the game (seat 0) once someone takes it. ``quick=False``: always wait
        in the lobby."""
        body = {
            "rules": rules_of(preset, options),
            "rated": rated,
            "quick": quick,
            **given(clock=clock_body(clock), min_rating=min_rating, max_rating=max_rating),
        }
        # Not resent after a lost answer: a seek is no replayed request (a second one could pair again).
        reply = self.requestor.request("POST", "/v1/seeks", token=self.token, json=body, idempotent=False)
        if reply.status == 201:
            return seated(self.client, reply)
        waiting = cast(SeekWaiting, reply.data)
        return Seek(self.client, waiting["seek"], waiting["token"])

    def accept(self, seek_id: str) -> Game:
        """Take a seek of the lobby (the client's token must be a player's): the game starts, the caller
        is seat 1. :class:`SeekTaken` when someone else was first, :class:`SeekIncompatible` when it is
        not open to this player."""
        reply = self.requestor.request(
            "POST", seek_path(seek_id, "accept"), token=self.token, idempotent=False
        )
        return seated(self.client, reply)

    def __call__(self) -> LobbySeeks:
        """The old ``client.lobby()``, for one release: :meth:`get`."""
        renamed("client.lobby()", "client.lobby.get()")
        return self.get()
