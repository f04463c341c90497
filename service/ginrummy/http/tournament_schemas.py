"""The requests of the ``tournaments`` resource, as marshmallow schemas (what they answer is typed in
:mod:`ginrummy.app.shapes.tournaments`)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ginrummy.bots import BOTS

from .schemas import PRINTABLE_PATTERN, RATED_DOC, ClockIn, Flag, RulesIn

FORMATS = ("arena", "swiss", "round_robin")


class TournamentIn(ma.Schema):
    """A new tournament. The members of another format are refused (422 ``bad_tournament``)."""

    class Meta:
        json_schema = {
            "example": {
                "name": "Friday blitz",
                "format": "arena",
                "minutes": 30,
                "clock": {"preset": "blitz"},
            }
        }

    name = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=80), validate.Regexp(PRINTABLE_PATTERN)],
        metadata={"description": "Its name, as lists show it"},
    )
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    description = fields.String(load_default="", validate=validate.Length(max=500))
    rules = fields.Nested(RulesIn, load_default=lambda: {"preset": "standard", "options": {}})
    clock = fields.Nested(ClockIn, load_default=None, allow_none=True)
    rated = Flag(load_default=False, metadata={"description": RATED_DOC})
    bots = Flag(load_default=False, metadata={"description": "Bot accounts may join"})
    min_rated_games = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=1000),
        metadata={"description": "Rated matches in the rules' family a player must have finished to join"},
    )
    private = Flag(load_default=False, metadata={"description": "Not listed; joined with its entry code"})
    starts_in = fields.Float(
        load_default=60,
        validate=validate.Range(min=0, max=30 * 86400),
        metadata={"description": "Seconds from now to its start (the organiser may start it earlier)"},
    )
    minutes = fields.Float(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0.5, max=720),
        metadata={"description": "An arena: how long it lasts"},
    )
    berserk = Flag(load_default=True, metadata={"description": "An arena: people may berserk (with a clock)"})
    rounds = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=50),
        metadata={"description": "A Swiss: its rounds"},
    )
    round_interval = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=7 * 86400),
        metadata={
            "description": "A Swiss: seconds from a round's end to the next (null: the organiser starts each)"
        },
    )
    duplicate = Flag(
        load_default=False,
        metadata={
            "description": "A round robin: each pairing plays two matches on the same deals, seats swapped "
            "(bots only)"
        },
    )


class TournamentEditIn(ma.Schema):
    """The organiser's changes before the start (what is left out stays)."""

    name = fields.String(validate=[validate.Length(min=1, max=80), validate.Regexp(PRINTABLE_PATTERN)])
    description = fields.String(validate=validate.Length(max=500))
    rules = fields.Nested(RulesIn)
    clock = fields.Nested(ClockIn, allow_none=True)
    rated = Flag()
    bots = Flag()
    min_rated_games = fields.Integer(validate=validate.Range(min=0, max=1000))
    starts_in = fields.Float(validate=validate.Range(min=0, max=30 * 86400))
    minutes = fields.Float(validate=validate.Range(min=0.5, max=720))
    berserk = Flag()
    rounds = fields.Integer(validate=validate.Range(min=1, max=50))
    round_interval = fields.Integer(allow_none=True, validate=validate.Range(min=0, max=7 * 86400))
    duplicate = Flag()


class TournamentWithdrawIn(ma.Schema):
    bot = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(list(BOTS)),
        metadata={"description": "The organiser enters (or withdraws) this house bot instead of itself"},
    )


class TournamentJoinIn(TournamentWithdrawIn):
    code = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=64),
        metadata={"description": "A private tournament's entry code"},
    )


class TournamentQuery(ma.Schema):
    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=10000))
