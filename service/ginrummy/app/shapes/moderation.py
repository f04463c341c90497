"""The JSON of reports and moderation, typed: a report as filed and as the moderators list it, a
moderator's acts on a player, and the moderation log (the conventions: :mod:`ginrummy.engine.shapes`)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

from .players import Timestamp

ReportReason = Literal["abuse", "spam", "cheating", "other"]
ModerationAction = Literal[
    "close_report", "chat_mute", "close_account", "grant_moderator", "revoke_moderator"
]


class ReportFiled(TypedDict):
    """What the reporter is told: the report was received."""

    id: str
    player: Annotated[str, "The player reported"]
    reason: ReportReason


class QuotedLine(TypedDict):
    """The chat line a report quotes, as it was when reported."""

    n: Annotated[int, "The line's number in its game"]
    author: Annotated[str, "Its author's shown name"]
    body: str
    said_at: Timestamp


class Report(TypedDict):
    """A report, as the moderators see it."""

    id: str
    reporter: Annotated[str, "The account that filed it"]
    player: Annotated[str, "The player reported"]
    reason: ReportReason
    text: Annotated[str, "The reporter's words (may be empty)"]
    game_id: Annotated[str | None, "The game it is about, if any"]
    line: Annotated[QuotedLine | None, "The chat line reported, if any"]
    created: Timestamp
    closed: Annotated[float | None, "When a moderator closed it (Unix time); null: open"]
    closed_by: Annotated[str | None, "The moderator who closed it"]


class Reports(TypedDict):
    reports: Annotated[list[Report], "Open ones first, then closed ones; newest first in each"]
    next: Annotated[str | None, "?cursor= of the next page (null: no more)"]


class ChatMuted(TypedDict):
    player: str
    chat_muted_until: Annotated[float, "When the player may chat again (Unix time)"]


class AccountClosed(TypedDict):
    player: str
    closed: Timestamp
    signed_out: Annotated[int, "Its sessions ended"]
    tokens_revoked: Annotated[int, "Its API tokens revoked"]


class ModerationEntry(TypedDict):
    """One act of a moderator, or an appointment from the command line."""

    id: str
    moderator: Annotated[str | None, "The moderator; null: ginrummy-admin on the command line"]
    action: ModerationAction
    player: Annotated[str | None, "The player acted on"]
    report: Annotated[str | None, "The report closed (close_report)"]
    detail: Annotated[str, "The moderator's reason or note; a mute's length"]
    at: Timestamp


class ModerationLog(TypedDict):
    entries: Annotated[list[ModerationEntry], "Newest first"]
    next: Annotated[str | None, "?cursor= of the next page (null: no more)"]
