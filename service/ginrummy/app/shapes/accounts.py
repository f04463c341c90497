"""The JSON of accounts, typed: sessions, API tokens, who am I, the account's games in play, and the
account stream's events and pages — each form once, as a ``TypedDict`` (the conventions:
:mod:`ginrummy.engine.shapes`)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from ginrummy.engine.shapes import Component, RuleValues, Schema, Seat

from .meeting import Challenge
from .players import GameResult, MatchEnd, Timestamp
from .playing import KeepAlive, Player, StreamError

Scope = Literal["play", "bot", "read"]
"""``play``: create, join, seek and act on the account's games; ``bot``: the same, for bot programs (bot
accounts build on it); ``read``: read the account and its games, never act."""
EVENT_ID = Schema(pattern=r"^\d{1,20}-\d{1,20}$")
EventId = Annotated[str, EVENT_ID, "The event's id: resume after it (?since=)"]


# -- sessions and API tokens -----------------------------------------------------------------------------
class SessionCreated(TypedDict):
    name: str
    token: Annotated[str, "The session's bearer token (shown once)"]
    session: Annotated[str, "The session's id"]
    lifetime: Annotated[int, "Seconds the session lasts unused (sliding)"]


class Session(TypedDict):
    """A signed-in device (never its token)."""

    id: str
    created: Timestamp
    last_used: Annotated[Timestamp, "Written at most once a minute"]
    expires: Timestamp
    user_agent: str
    address: Annotated[str, "The client's network (198.51.100.x)"]
    current: Annotated[bool, "The session of this request"]


class Sessions(TypedDict):
    sessions: Annotated[list[Session], "Newest first"]


class SignedOut(TypedDict):
    signed_out: Annotated[int, "Sessions ended"]


class ApiToken(TypedDict):
    """A personal API token (never the token itself)."""

    id: str
    description: str
    scopes: list[Scope]
    created: Timestamp
    last_used: Annotated[Timestamp | None, "Written at most once a minute (null: never used)"]


class TokenCreated(ApiToken):
    token: Annotated[str, "The API token (shown once)"]


class Tokens(TypedDict):
    tokens: Annotated[list[ApiToken], "Newest first"]


class Revoked(TypedDict):
    revoked: Annotated[str, "The token's id"]


# -- who am I, and my games --------------------------------------------------------------------------------
class Credential(TypedDict):
    kind: Annotated[Literal["player", "session", "token"], "player (its own token), session or token (API)"]
    scopes: list[Scope]


class Account(TypedDict):
    name: str
    created: Timestamp
    password: Annotated[bool, "Whether the account has a password"]
    bot: Annotated[bool, "A bot account: it plays through API tokens"]
    sessions: Annotated[int, "Sessions signed in"]
    tokens: Annotated[int, "API tokens not revoked"]
    credential: Annotated[Credential, "The credential of this request"]


class AccountGame(TypedDict):
    """A game in play of the account."""

    game_id: str
    seat: Seat
    players: list[Player]
    rated: bool
    version: int
    your_move: bool
    game: Annotated[str, "The game's path"]
    tournament: Annotated[str | None, "The tournament the game is played in (null: none)"]


class AccountGames(TypedDict):
    games: Annotated[list[AccountGame], "Newest first"]


# -- the account stream ----------------------------------------------------------------------------------
class GameOpponent(TypedDict):
    name: str | None
    player: str | None
    bot: Annotated[str | None, "The house bot's name (null: a person)"]


class StartedGame(TypedDict):
    """A game of the account, as its stream tells it."""

    game_id: str
    seat: Seat
    players: list[Player]
    opponent: GameOpponent
    rated: bool
    rules: RuleValues
    game: Annotated[str, "The game's path"]
    tournament: Annotated[str | None, "The tournament the game is played in (null: none)"]


class FinishedGame(StartedGame):
    winner: Seat | None
    result: GameResult
    end_reason: MatchEnd


class GameStartEvent(TypedDict):
    """A game of the account is in play (made, joined, matched, accepted; or in play when the stream
    opened)."""

    type: Literal["gameStart"]
    id: EventId
    game: StartedGame


class GameFinishEvent(TypedDict):
    """A game of the account is over."""

    type: Literal["gameFinish"]
    id: EventId
    game: FinishedGame


class ChallengeEvent(TypedDict):
    """A challenge received or sent (or open, received, when the stream opened)."""

    type: Literal["challenge"]
    id: EventId
    challenge: Challenge


class ChallengeCanceledEvent(TypedDict):
    """The challenger withdrew a challenge."""

    type: Literal["challengeCanceled"]
    id: EventId
    challenge: Challenge


class ChallengeDeclinedEvent(TypedDict):
    """The challenged side declined a challenge (``challenge.decline_reason`` says why)."""

    type: Literal["challengeDeclined"]
    id: EventId
    challenge: Challenge


class FollowedGameStartEvent(TypedDict):
    """A player the account follows started a game (a stream opened with ?follows=true): watch it."""

    type: Literal["followedGameStart"]
    id: EventId
    player: Annotated[str, "The player followed"]
    game: Annotated[StartedGame, "The game, as that player's gameStart says it (its seat, its opponent)"]


AccountEvent = Annotated[
    GameStartEvent | GameFinishEvent | ChallengeEvent | ChallengeCanceledEvent | ChallengeDeclinedEvent
    | FollowedGameStartEvent,
    Component("AccountEvent"),
]  # fmt: skip
# One line of the account stream.
AccountStreamLine = Annotated[
    GameStartEvent | GameFinishEvent | ChallengeEvent | ChallengeCanceledEvent | ChallengeDeclinedEvent
    | FollowedGameStartEvent | KeepAlive | StreamError,
    Component("AccountStreamLine"),
]  # fmt: skip


class AccountEvents(TypedDict):
    """A page of the account's events (a long poll of up to ?wait= seconds while there is none)."""

    events: list[AccountEvent]
    last_id: Annotated[str, EVENT_ID, "Ask again with ?since= this id"]
