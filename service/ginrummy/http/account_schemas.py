"""The request schemas of accounts, sessions and API tokens (``/v1/account``), bot accounts and
challenges (``/v1/challenges``). Their responses are typed in :mod:`ginrummy.app.shapes.accounts` and
:mod:`ginrummy.app.shapes.meeting`."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ginrummy.app.meeting.challenges import DECLINE_REASONS
from ginrummy.app.players.identity import SCOPES

from .schemas import (
    NAME,
    PLAYER_NAME,
    PRINTABLE_PATTERN,
    RATED_DOC,
    ClockIn,
    Flag,
    RulesIn,
)

PASSWORD = fields.String(
    required=True,
    validate=validate.Length(min=1, max=256),
    metadata={"description": "At least 10 characters (422 weak_password), at most 256", "writeOnly": True},
)


class SignUpIn(ma.Schema):
    name = fields.String(
        required=True,
        validate=PLAYER_NAME,
        metadata={
            "description": "Unique, ignoring case. With a player's own token (Authorization: Bearer), the "
            "name of that player, claimed with this password",
        },
    )
    password = PASSWORD


class SignInIn(ma.Schema):
    name = fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=64),
            validate.Regexp(PRINTABLE_PATTERN, error="a name is printable text"),
        ],
    )
    password = fields.String(required=True, validate=validate.Length(min=1, max=256))


class PasswordIn(ma.Schema):
    current = fields.String(required=True, validate=validate.Length(min=1, max=256))
    new = PASSWORD


class TokenIn(ma.Schema):
    description = fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=100),
            validate.Regexp(PRINTABLE_PATTERN, error="a description is printable text"),
        ],
    )
    scopes = fields.List(
        fields.String(validate=validate.OneOf(SCOPES)),
        required=True,
        validate=validate.Length(min=1, max=3),
        metadata={
            "description": "play (create, join, seek, act), bot (the same, for bots), read (read only)"
        },
    )


class AccountGamesQuery(ma.Schema):
    status = fields.String(load_default="live", validate=validate.OneOf(["live"]))


# --- challenges --------------------------------------------------------------------------------------
class ChallengeIn(ma.Schema):
    class Meta:
        json_schema = {"example": {"opponent": "Ann", "rules": {"preset": "standard"}, "rated": True}}

    opponent = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "A player's name (any case), or a house bot's player name (bot-expert)"},
    )
    rules = fields.Nested(RulesIn, load_default=lambda: {"preset": "standard", "options": {}})
    clock = fields.Nested(ClockIn, load_default=None, allow_none=True)
    rated = Flag(load_default=False, metadata={"description": RATED_DOC})
    name = fields.String(
        load_default=None,
        allow_none=True,
        validate=NAME,
        metadata={"description": "An anonymous challenger's name"},
    )


class DeclineIn(ma.Schema):
    reason = fields.String(
        load_default="generic",
        validate=validate.OneOf(DECLINE_REASONS),
        metadata={"description": "Why (the challenger may try again otherwise)"},
    )


# --- the account stream and the tournaments' (resumed from an event id) -------------------------
class ResumableStreamQuery(ma.Schema):
    since = fields.String(
        load_default=None,
        validate=validate.Regexp(r"^\d{1,20}-\d{1,20}$"),
        metadata={"description": "Resume after this event id (as Last-Event-ID)"},
    )
    wait = fields.Float(
        load_default=None,
        validate=validate.Range(min=0, max=3600),
        metadata={
            "description": "Seconds the stream stays open (at most GIN_STREAM_MAX); a page's long poll"
            " (at most GIN_MAX_WAIT, none by default)"
        },
    )


class AccountStreamQuery(ResumableStreamQuery):
    follows = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Also tell when a player the account follows starts a game (followedGameStart)"
        },
    )
