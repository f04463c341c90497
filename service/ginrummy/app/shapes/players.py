"""The JSON of players, typed: profiles, ratings, the leaderboard, a player's finished games and rating
history, the bots, the rules' presets and options, health — each form once, as a ``TypedDict`` (the
conventions: :mod:`ginrummy.engine.shapes`; the OpenAPI document is written from them by
``ginrummy.http.contract``). A rating as shown and its change are the match export's too
(:mod:`.playing`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from ginrummy.bots import BOTS
from ginrummy.engine import PRESETS
from ginrummy.engine.rules import OPTION_DOCS
from ginrummy.engine.shapes import RuleValues, Schema, Seat

from .playing import EndReason, RatingChange, ShownRating

Timestamp = Annotated[float, "Unix time, in seconds"]
IsoTime = Annotated[str, Schema(format="date-time"), "ISO 8601, UTC"]
Preset = Annotated[str, Schema(enum=[*PRESETS])]
Family = Annotated[str, Schema(enum=[*PRESETS]), "A rules family: the preset of its rated games"]
BotName = Annotated[str, Schema(enum=[*BOTS])]
GameResult = Literal["won", "lost", "drawn", "aborted"]
MatchEnd = Annotated[Literal["finished", EndReason], "finished, or how the match ended early"]


# -- ratings ---------------------------------------------------------------------------------------------
class FamilyRating(ShownRating):
    games: Annotated[int, "Rated games played in the family"]


class RankedRating(FamilyRating):
    rank: Annotated[int | None, "The place on the family's leaderboard (null for a bot: bots are not on it)"]


# -- players -----------------------------------------------------------------------------------------------
class PlayerCreated(TypedDict):
    name: str
    token: Annotated[str, "The player's bearer token (shown once)"]


class GameCounts(TypedDict):
    played: Annotated[int, "Finished matches, aborted ones aside"]
    won: int
    lost: int


class ProfileStats(TypedDict):
    """The per-seat statistics of the game view, summed over the player's games (none before the first)."""

    hands_played: NotRequired[int]
    hands_won: NotRequired[int]
    gins: NotRequired[int]
    big_gins: NotRequired[int]
    knocks: NotRequired[int]
    undercuts_given: NotRequired[int]
    undercuts_suffered: NotRequired[int]
    walls: NotRequired[int]
    points: NotRequired[int]


class RecentGame(TypedDict):
    """One of a profile's recent public games."""

    game_id: str
    family: Annotated[str, Schema(enum=[*PRESETS, "casual"]), "casual: rules with overrides"]
    rated: bool
    reason: MatchEnd
    opponent: Annotated[str | None, "The opponent's player or shown name"]
    result: GameResult
    finished_at: Timestamp
    rating_change: Annotated[float | None, "The change of the ordinal (null: unrated)"]
    game: Annotated[str, "The game's path"]
    hands: Annotated[str, "Its first hand's path"]


class Profile(TypedDict):
    """A player's public profile."""

    name: str
    bot: Annotated[bool, "A bot account (a house bot's too): it plays through the API"]
    created: Timestamp
    games: GameCounts
    stats: ProfileStats
    ratings: Annotated[dict[str, RankedRating], "By rules family"]
    recent: Annotated[list[RecentGame], "Recent games, newest first, with links"]
    followers: Annotated[int, "Accounts that follow this player"]
    closed: Annotated[bool, "A moderator closed this account: it signs in no more; its games stay"]
    online: Annotated[bool, "Its account stream is open (it is on the service now)"]


class Followed(TypedDict):
    """A player the caller follows."""

    name: str
    bot: Annotated[bool, "A bot account"]
    online: Annotated[bool, "Its account stream is open (it is on the service now)"]
    playing: Annotated[list[str], "Its games in play (watch one: GET /v1/games/{id})"]


class Following(TypedDict):
    players: Annotated[list[Followed], "By name"]


class Blocking(TypedDict):
    players: Annotated[list[str], "The players the caller blocks, by name (only the caller sees this)"]


class Followship(TypedDict):
    player: str
    following: bool


class Blockage(TypedDict):
    player: str
    blocking: bool


class LeaderboardEntry(FamilyRating):
    rank: int
    name: str


class Leaderboard(TypedDict):
    family: Family
    players: Annotated[list[LeaderboardEntry], "Best first"]


class PlayerGame(TypedDict):
    """One of a player's finished games, as its list shows it."""

    game_id: str
    seat: Seat
    result: GameResult
    end_reason: MatchEnd
    rated: bool
    family: Annotated[str | None, Schema(enum=[*PRESETS, None]), "The preset of the rules (null: overrides)"]
    opponent: Annotated[str | None, "The opponent's player or shown name"]
    points: Annotated[list[int], Schema(minItems=2, maxItems=2), "[the player's, the opponent's]"]
    hands: Annotated[int, "Hands played to their end"]
    started_at: IsoTime
    finished_at: IsoTime
    rating: Annotated[RatingChange | None, "null: unrated"]
    export: Annotated[str, "The whole match: GET this"]


class PlayerGames(TypedDict):
    player: str
    games: Annotated[list[PlayerGame], "Newest first"]
    next: Annotated[str | None, "?cursor= of the next page (null: no more)"]


class RatingPoint(TypedDict):
    game_id: Annotated[str | None, "null for a private game, unless the player itself asks"]
    at: IsoTime
    before: Annotated[ShownRating | None, "null: the first rated game of the family"]
    after: ShownRating


class RatingHistory(TypedDict):
    player: str
    families: Annotated[
        dict[str, list[RatingPoint]], "By rules family: each rated game's change, oldest first"
    ]


# -- bots --------------------------------------------------------------------------------------------------
class HouseBot(TypedDict):
    name: BotName
    level: Annotated[int, Schema(minimum=0, maximum=6), "0 (random) … 6 (master): the higher, the stronger"]
    description: str
    player: Annotated[str, "Its player name: its profile, and whom to challenge"]
    ratings: Annotated[
        dict[str, FamilyRating], "By rules family; seeded from measured play (docs/api.md, Bots)"
    ]


class BotAccount(TypedDict):
    name: str
    since: Annotated[Timestamp | None, "When the account became a bot"]
    played: int
    ratings: Annotated[dict[str, FamilyRating], "By rules family"]


class Bots(TypedDict):
    bots: Annotated[list[HouseBot], "The house bots"]
    default: Annotated[BotName, "The bot of a game created without one"]
    accounts: Annotated[list[BotAccount], "Bot accounts online now (their account stream open)"]


# -- the rules -------------------------------------------------------------------------------------------
class RulesPreset(TypedDict):
    name: Preset
    description: str
    rules: Annotated[RuleValues, "Every option's value under this preset"]


class RuleOption(TypedDict):
    """A rule option: its type, default, meaning, and the values it takes."""

    name: Annotated[str, Schema(enum=[doc["name"] for doc in OPTION_DOCS])]
    default: int | bool | str
    description: str
    type: Literal["integer", "boolean", "string"]
    choices: NotRequired[Annotated[list[str], "String options: the values allowed"]]
    minimum: NotRequired[Annotated[int, "Integer options"]]
    maximum: NotRequired[Annotated[int, "Integer options"]]


class RulesCatalog(TypedDict):
    """The presets, and every rule option with its default and meaning."""

    presets: list[RulesPreset]
    options: list[RuleOption]


# -- health ------------------------------------------------------------------------------------------------
class Liveness(TypedDict):
    status: Literal["ok"]


class ArchiveStatus(TypedDict):
    """The outbox of records on their way to PostgreSQL."""

    pending: Annotated[int, "Games whose finished hands or match wait in the outbox"]
    lag_seconds: Annotated[float, "Seconds since the oldest of them was announced (0: none)"]


class Readiness(TypedDict):
    status: Literal["ready"]
    archive: ArchiveStatus
