"""The request and response schemas of accounts, sessions and API tokens (``/v1/account``), bot
accounts and challenges (``/v1/challenges``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ginrummy.app.challenges import DECLINE_REASONS
from ginrummy.app.identity import SCOPES

from .schemas import (
    NAME,
    PLAYER_NAME,
    PRINTABLE_PATTERN,
    RATED_DOC,
    ClockIn,
    Flag,
    JoinedOut,
    Out,
    PlayerOut,
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


class SessionCreatedOut(Out):
    name = fields.String()
    token = fields.String(metadata={"description": "The session's bearer token (shown once)"})
    session = fields.String(metadata={"description": "The session's id"})
    lifetime = fields.Integer(metadata={"description": "Seconds the session lasts unused (sliding)"})


class SessionOut(Out):
    id = fields.String()
    created = fields.Float()
    last_used = fields.Float(metadata={"description": "Written at most once a minute"})
    expires = fields.Float()
    user_agent = fields.String()
    address = fields.String(metadata={"description": "The client's network (198.51.100.x)"})
    current = fields.Boolean(metadata={"description": "The session of this request"})


class SessionsOut(Out):
    sessions = fields.List(fields.Nested(SessionOut))


class SignedOutOut(Out):
    signed_out = fields.Integer(metadata={"description": "Sessions ended"})


class TokenOut(Out):
    id = fields.String()
    description = fields.String()
    scopes = fields.List(fields.String())
    created = fields.Float()
    last_used = fields.Float(allow_none=True, metadata={"description": "Written at most once a minute"})


class TokenCreatedOut(TokenOut):
    token = fields.String(metadata={"description": "The API token (shown once)"})


class TokensOut(Out):
    tokens = fields.List(fields.Nested(TokenOut))


class RevokedOut(Out):
    revoked = fields.String()


class CredentialOut(Out):
    kind = fields.String(metadata={"description": "player (its own token), session or token (API)"})
    scopes = fields.List(fields.String())


class AccountOut(Out):
    name = fields.String()
    created = fields.Float(allow_none=True)
    password = fields.Boolean(metadata={"description": "Whether the account has a password"})
    bot = fields.Boolean()
    sessions = fields.Integer()
    tokens = fields.Integer()
    credential = fields.Nested(CredentialOut)


class AccountGameOut(Out):
    game_id = fields.String()
    seat = fields.Integer()
    players = fields.List(fields.Nested(PlayerOut))
    rated = fields.Boolean()
    version = fields.Integer()
    your_move = fields.Boolean()
    game = fields.String()


class AccountGamesOut(Out):
    games = fields.List(fields.Nested(AccountGameOut))


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


class ChallengerOut(Out):
    name = fields.String()
    player = fields.String(allow_none=True, metadata={"description": "None: an anonymous challenger"})


class ChallengedOut(Out):
    name = fields.String()
    player = fields.String()
    bot = fields.Boolean()


class ChallengeClockOut(Out):
    preset = fields.String(
        allow_none=True,
        metadata={
            "enum": ["blitz", "rapid", "classical", "eaai", None],
            "description": "As asked (None: numbers)",
        },
    )
    per_move = fields.Integer(allow_none=True, metadata={"description": "Seconds per move (None: none)"})
    bank = fields.Integer(
        allow_none=True, metadata={"description": "Seconds for the whole match (None: none)"}
    )
    increment = fields.Integer(metadata={"description": "Seconds added to the bank after each move"})


class ChallengeOut(Out):
    id = fields.String()
    status = fields.String(metadata={"enum": ["open", "accepted", "declined", "canceled", "expired"]})
    challenger = fields.Nested(ChallengerOut)
    opponent = fields.Nested(ChallengedOut)
    rules = fields.Dict()
    clock = fields.Nested(
        ChallengeClockOut,
        allow_none=True,
        metadata={"description": "The time control as asked, with its numbers (None: no clock)"},
    )
    rated = fields.Boolean()
    created = fields.Float()
    expires = fields.Float()
    game_id = fields.String(allow_none=True, metadata={"description": "The game, once accepted"})
    decline_reason = fields.String(allow_none=True)
    url = fields.String(metadata={"description": "This challenge's path (GET it to read it again)"})


class ChallengeCreatedOut(Out):
    challenge = fields.Nested(ChallengeOut)
    token = fields.String(
        metadata={
            "description": "The challenger's seat token in the game to come (shown once); with it an"
            " anonymous challenger reads and cancels the challenge"
        }
    )


class ChallengesOut(Out):
    in_ = fields.List(fields.Nested(ChallengeOut), data_key="in", metadata={"description": "Received, open"})
    out = fields.List(fields.Nested(ChallengeOut), metadata={"description": "Sent, open"})


class ChallengeAcceptedOut(JoinedOut):
    challenge = fields.Nested(ChallengeOut)


# --- the account stream ------------------------------------------------------------------------------
class AccountStreamQuery(ma.Schema):
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


class AccountEventOut(Out):
    type = fields.String(
        metadata={
            "enum": [
                "gameStart",
                "gameFinish",
                "challenge",
                "challengeCanceled",
                "challengeDeclined",
                "keepalive",
            ]
        }
    )
    id = fields.String(
        metadata={"description": "The event's id: resume after it (absent on keepalive lines)"}
    )
    game = fields.Dict(
        metadata={
            "description": "gameStart/gameFinish: game_id, seat, players, opponent, rated, rules, game (its"
            " URL); gameFinish also winner, result (won, lost, drawn, aborted), end_reason"
        }
    )
    challenge = fields.Nested(ChallengeOut)


class AccountEventsOut(Out):
    events = fields.List(fields.Nested(AccountEventOut))
    last_id = fields.String(metadata={"description": "Ask again with ?since= this id"})
