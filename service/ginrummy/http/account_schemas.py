"""The request and response schemas of accounts, sessions and API tokens (``/v1/account``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ginrummy.app.identity import SCOPES

from .schemas import PLAYER_NAME, Out, PlayerOut

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
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))
    password = fields.String(required=True, validate=validate.Length(min=1, max=256))


class PasswordIn(ma.Schema):
    current = fields.String(required=True, validate=validate.Length(min=1, max=256))
    new = PASSWORD


class TokenIn(ma.Schema):
    description = fields.String(required=True, validate=validate.Length(min=1, max=100))
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
