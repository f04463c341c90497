"""The JSON of the archive's match export, typed: a finished match in one document (``ginrummy.match``)
and the smaller one of a match copied from an older release — each form once, as a ``TypedDict`` (the
conventions: :mod:`ginrummy.engine.shapes`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

from ginrummy.engine.shapes import (
    BySeat,
    Component,
    GameScore,
    HandSummary,
    MatchEndText,
    RuleValues,
    Schema,
    Seat,
    SeatStats,
)

from .playing import FinishedHand, RatingChange


class ExportClock(TypedDict):
    per_move: int | None
    bank: int | None
    increment: int


class ExportedSeat(TypedDict):
    seat: Seat
    type: Literal["human", "bot"]
    name: str | None
    player: str | None
    bot: NotRequired[str]


class MatchResult(TypedDict):
    winner: Annotated[Seat | None, "null: a draw, or aborted"]
    end_reason: Annotated[
        Literal["finished"] | MatchEndText,
        "finished, or how the match ended early (disqualified: the arena's, for a bot's illegal answer)",
    ]
    forfeited_by: Seat | None
    games: Annotated[list[GameScore], "The score sheets"]
    games_won: BySeat
    match_over: bool
    match_winner: Seat | None


class ExportTournament(TypedDict):
    """The tournament a match was played in."""

    id: str
    berserk: Annotated[list[bool], "By seat: whether it berserked (an arena's)"]


class MatchExport(TypedDict):
    """A finished match in one document: what the SDK, the replay viewer and bot authors' tools read.
    ``format`` is ``ginrummy.match``; ``version`` changes only when a reader of the previous one would
    break (new members may be added within a version)."""

    format: Literal["ginrummy.match"]
    version: Annotated[int, "The format's version: 1"]
    game_id: str
    rules: RuleValues
    family: Annotated[str | None, "The preset the rules are (null: overrides)"]
    rated: bool
    clock: Annotated[ExportClock | None, "Seconds; null: no time control"]
    players: Annotated[list[ExportedSeat], "By seat"]
    started_at: Annotated[str, "ISO 8601, UTC"]
    finished_at: Annotated[str, "ISO 8601, UTC"]
    result: MatchResult
    stats: Annotated[list[SeatStats], "By seat: the match's statistics"]
    hand_count: Annotated[int, "Hands played to their end"]
    hand_summaries: list[HandSummary]
    shuffle: Annotated[str, "How to check each hand's shuffle commitment"]
    hands: Annotated[list[FinishedHand], "Every finished hand, as GET …/hands/{n}"]
    ratings: Annotated[
        list[RatingChange | None], "By seat: the rating change of a rated game (null: unrated)"
    ]
    tournament: NotRequired[Annotated[ExportTournament, "The tournament it was played in (absent: none)"]]


class ImportedSeat(TypedDict):
    seat: Seat
    name: str | None
    player: str | None


class ImportedResult(TypedDict):
    winner: Annotated[Seat | None, "null: a draw, or aborted"]
    end_reason: Literal["finished", "resigned", "timeout", "abandoned", "aborted"]


class ImportedMatch(TypedDict):
    """A match copied from the records of an older version (ginrummy-copy-players): only what those records
    knew — who played, the family, whether rated, when it ended and how; no rules, hands or points."""

    format: Literal["ginrummy.match"]
    version: Annotated[int, "The format's version: 1"]
    game_id: str
    imported: Annotated[Literal["redis-recent-games"], "Where the match was copied from"]
    family: Annotated[str | None, "The preset the rules were (null: overrides)"]
    rated: bool
    players: Annotated[list[ImportedSeat], "By seat (in the order of the case-folded names)"]
    finished_at: Annotated[str, "ISO 8601, UTC"]
    result: ImportedResult
    hand_count: Annotated[Literal[0], "No hand was kept"]
    hands: Annotated[list[FinishedHand], Schema(maxItems=0), "Empty: no hand was kept"]
    ratings: Annotated[list[RatingChange | None], "By seat: null (no change was kept)"]


# What the archive answers for a finished match: its export, or what an older version's records held.
ArchivedMatch = Annotated[MatchExport | ImportedMatch, Component("ArchivedMatch")]
