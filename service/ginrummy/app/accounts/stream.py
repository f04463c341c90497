"""The account stream's use case: who opens it, where it starts (the account's matches in play, its open
challenges), and what it reads (the events themselves, kept by the account feed:
:mod:`~ginrummy.app.players.feed`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from ..meeting.challenges import Challenges
from ..players.feed import AccountFeed
from ..players.identity import Identity
from ..playing.bookkeeping import game_event
from .account import Accounts


@dataclass(frozen=True)
class Opened:
    """An account stream: whose, the id it reads after, and what it starts with (opened afresh)."""

    me: Identity
    after: str
    present: list[dict[str, Any]]
    follows: bool = False  # with the games that players it follows start (followedGameStart)


def _subject(event: dict[str, Any]) -> str | None:
    """The game or challenge an account event is about."""
    about = event.get("game") or event.get("challenge") or {}
    return about.get("game_id") if "game" in event else about.get("id")


class AccountStreams:
    """Opens and reads account streams."""

    def __init__(self, accounts: Accounts, challenges: Challenges, feed: AccountFeed) -> None:
        self.accounts = accounts
        self.challenges = challenges
        self.feed = feed

    def open(self, token: str | None, since: str | None, *, follows: bool = False) -> Opened:
        """The caller's stream, after ``since`` (a resumed one), or afresh: from the newest event, with
        a ``gameStart`` for each game in play and a ``challenge`` for each open challenge received; with
        ``follows``, the ``followedGameStart`` events too (an opt-in: they are published only to the
        followers whose stream asked for them, within the last minute)."""
        me = self.accounts.identify(token)
        self.seen(me, following=follows)
        if since is not None:
            return Opened(me, since, [], follows)
        after = self.feed.last_id(me.name)  # read first: what happens meanwhile comes after it
        present = [
            game_event("gameStart", match, seat) for match, seat in self.accounts.live_matches(me.name)
        ]
        received = self.challenges.mine(token).body["in"]
        present += [{"type": "challenge", "challenge": challenge} for challenge in received]
        # What happened between reading ``after`` and listing the present comes as its own event (read
        # from ``after``): left out of the present, so that nothing is told twice.
        told = set()
        for _, text in self.feed.read(me.name, after, 0):
            event = orjson.loads(text)
            told.add((event.get("type"), _subject(event)))
        present = [event for event in present if (event["type"], _subject(event)) not in told]
        return Opened(me, after, present, follows)

    def read(self, opened: Opened, after: str, wait: float) -> list[tuple[str, str]]:
        """The events after ``after``, waiting up to ``wait`` seconds for one."""
        self.seen(opened.me, following=opened.follows)
        return self.feed.read(opened.me.name, after, wait)

    def seen(self, me: Identity, *, following: bool = False) -> None:
        """An account with its stream open is online: a bot account in ``GET /v1/bots``, anyone in the
        lists of those who follow it (``following``: its stream asked for followed players' games)."""
        self.feed.seen(me.name, following=following)
