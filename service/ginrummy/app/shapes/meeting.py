"""The JSON of meeting an opponent, typed: challenges, seeks and the lobby — each form once, as a
``TypedDict`` (the conventions: :mod:`ginrummy.engine.shapes`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from ginrummy.engine.shapes import Ref, Schema

from ..clocks import PRESETS as CLOCK_PRESETS
from .players import BotName, Preset, Timestamp
from .playing import CreatedGame

DeclineReason = Literal[
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "rules",
    "no_bot",
    "only_bot",
]
"""Why a challenge is declined (lichess's reasons): the challenger may try again with other settings."""
ChallengeStatus = Literal["open", "accepted", "declined", "canceled", "expired"]
# Rules and a time control as they were asked for: the request's own forms.
RulesAsked = Annotated[dict[str, object], Ref("RulesIn")]
ClockAsked = Annotated[dict[str, int | str | None], Ref("ClockIn")]
RuleOverrides = Annotated[
    dict[str, int | bool | str], "Option overrides on top of the preset, as RulesIn's options (GET /v1/rules)"
]


# -- challenges ------------------------------------------------------------------------------------------
class Challenger(TypedDict):
    name: str
    player: Annotated[str | None, "null: an anonymous challenger"]


class Challenged(TypedDict):
    name: str
    player: str
    bot: Annotated[bool, "A bot (a house bot accepts at once)"]


class ChallengeClock(TypedDict):
    """A time control as asked, with its numbers filled in."""

    preset: Annotated[str | None, Schema(enum=[*CLOCK_PRESETS, None]), "As asked (null: numbers)"]
    per_move: Annotated[int | None, "Seconds per move (null: none)"]
    bank: Annotated[int | None, "Seconds for the whole match (null: none)"]
    increment: Annotated[int, "Seconds added to the bank after each move"]


class Challenge(TypedDict):
    """A challenge, as its two sides see it: open, accepted (with its game), declined (why), canceled or
    expired."""

    id: str
    challenger: Challenger
    opponent: Challenged
    rules: Annotated[RulesAsked, "The rules as asked"]
    clock: Annotated[ChallengeClock | None, "The time control as asked, with its numbers (null: no clock)"]
    rated: bool
    created: Timestamp
    expires: Timestamp
    game_id: Annotated[str | None, "The game, once accepted"]
    status: ChallengeStatus
    decline_reason: Annotated[DeclineReason | None, "Why it was declined"]
    url: Annotated[str, "This challenge's path (GET it to read it again)"]


class ChallengeCreated(TypedDict):
    challenge: Challenge
    token: Annotated[
        str,
        "The challenger's seat token in the game to come (shown once); with it an anonymous challenger "
        "reads and cancels the challenge",
    ]


class ChallengeAccepted(CreatedGame):
    """The game of an accepted challenge, as for its creator: the accepter's seat (1) and token."""

    challenge: Challenge


# "in" is a keyword: the functional form.
Challenges = TypedDict(
    "Challenges",
    {
        "in": Annotated[list[Challenge], "Received, open"],
        "out": Annotated[list[Challenge], "Sent, open"],
    },
)


# -- seeks and the lobby ---------------------------------------------------------------------------------
class SeekTerms(TypedDict):
    preset: Preset
    options: RuleOverrides
    clock: Annotated[ClockAsked | None, "The time control asked for (null: none)"]


class _SeekFields(TypedDict):
    id: str
    player: str
    rating: Annotated[int | None, "The owner's rating in the family when it sought (null: unrated)"]
    family: Preset
    rated: bool
    min_rating: int | None
    max_rating: int | None
    created: Timestamp


class Seek(_SeekFields):
    """An open seek of the lobby (take it with POST /v1/seeks/{id}/accept)."""

    rules: SeekTerms


class OpenSeek(_SeekFields):
    status: Literal["open"]
    expires_in: Annotated[int, "Seconds it stays in the lobby"]


class SeekWaiting(TypedDict):
    """A seek waiting in the lobby."""

    seek: OpenSeek
    token: Annotated[
        str,
        "The seek's token: poll GET /v1/seeks/{id} with it; once matched it is your seat token in the game",
    ]


class BotOffer(TypedDict):
    """A house bot to play instead of waiting longer in a pool (POST /v1/games against it)."""

    bot: BotName
    rating: Annotated[int, "The bot's rating in the pool's family (1500 before its first rated game)"]


class SeekStatus(_SeekFields):
    """The owner's seek: open, matched with its game, or cancelled."""

    status: Literal["open", "matched", "cancelled"]
    bot_offer: Annotated[
        BotOffer | None,
        "Once the seek has waited GIN_POOL_BOT_AFTER seconds in a pool (GET /v1/lobby/pools): the house bot "
        "whose rating is nearest the seeker's (null: not offered)",
    ]
    game_id: NotRequired[Annotated[str, "Once matched"]]
    seat: NotRequired[Annotated[Literal[0], "Once matched: the owner's seat (its token: the seek's)"]]
    game: NotRequired[Annotated[str, "Once matched: the game's path"]]


class SeekCancelled(TypedDict):
    id: str
    status: Literal["cancelled"]


class LobbySeeks(TypedDict):
    seeks: Annotated[list[Seek], "Oldest first"]


class PoolSeek(TypedDict):
    """The body of POST /v1/seeks that joins a pool."""

    rules: RulesAsked
    clock: ClockAsked
    rated: bool


class Pool(TypedDict):
    """A quick pairing pool: a rules family and a clock preset, rated."""

    id: Annotated[str, "<family>-<clock>, e.g. standard-blitz"]
    family: Preset
    clock: Annotated[ChallengeClock, "The time control, with its numbers"]
    rated: bool
    seek: Annotated[PoolSeek, "Post it to POST /v1/seeks to join the pool (a quick seek)"]
    waiting: Annotated[int, "Players waiting in it now"]


class Pools(TypedDict):
    pools: list[Pool]
    bot_after: Annotated[int, "Seconds in a pool after which the seek's status offers a house bot"]
