"""The ``moderation`` resource: reports of players (any account), and the moderators' API — the reports,
closing one, a chat mute, closing an account, the moderation log. Who moderates, and what closing does:
:mod:`ginrummy.app.players.moderation`; moderators are appointed from the command line only
(``ginrummy-admin``)."""

from __future__ import annotations

from typing import Any, get_args

import marshmallow as ma
from flask import Response
from marshmallow import fields, validate

from ginrummy.app.shapes import moderation as shapes

from . import contract
from .docs import doc, error_responses
from .games import services
from .parsing import ApiBlueprint
from .requests import respond, token
from .schemas import PRINTABLE_PATTERN

blp = ApiBlueprint(
    "moderation", __name__, url_prefix="/v1", description="Reports of players, and the moderators' API"
)

AUTH: dict[str, Any] = {"security": [{"seatToken": []}]}
MODERATOR_ERRORS = (401, 403)
REASON = fields.String(
    required=True,
    validate=[
        validate.Length(min=1, max=500),
        validate.Regexp(PRINTABLE_PATTERN, error="a reason is printable text on one line"),
    ],
    metadata={"description": "Why: written to the moderation log"},
)


class ReportIn(ma.Schema):
    player = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "The player reported"},
    )
    reason = fields.String(required=True, validate=validate.OneOf(get_args(shapes.ReportReason)))
    text = fields.String(
        validate=validate.Length(max=1000),
        metadata={"description": "What happened, up to 1,000 characters (control characters are dropped)"},
    )
    game_id = fields.String(
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,64}$", error="not a game id"),
        metadata={"description": "The game it is about"},
    )
    line = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=2**31 - 1),
        metadata={"description": "A chat line of that game (its n), said by the player reported: quoted"},
    )


class PageQuery(ma.Schema):
    cursor = fields.String(
        validate=validate.Length(max=40), metadata={"description": "The `next` of the page before"}
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class NoteIn(ma.Schema):
    note = fields.String(
        load_default="",
        validate=[
            validate.Length(max=500),
            validate.Regexp(r"^$|" + PRINTABLE_PATTERN, error="a note is printable text on one line"),
        ],
        metadata={"description": "What was done about it: written to the moderation log"},
    )


class ChatMuteIn(ma.Schema):
    minutes = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=10080))
    reason = REASON


class CloseIn(ma.Schema):
    reason = REASON


report_in = ReportIn()
page_query = PageQuery()
note_in = NoteIn()
chat_mute_in = ChatMuteIn()
close_in = CloseIn()


@blp.route("/reports", methods=["POST"])
@blp.arguments(report_in, example={"player": "Bob", "reason": "abuse", "game_id": "gAbc123xyz", "line": 4})
@blp.response(201, contract.ref(shapes.ReportFiled))
@blp.doc(**doc("reportPlayer", AUTH, error_responses(401, 403, 404, 422, 429)))
def report(body: dict[str, Any]) -> Response:
    """Report a player to the moderators (an account may file 20 a day), optionally quoting one of its chat
    lines in a game"""
    return respond(services().moderation.report(body, token()))


@blp.route("/moderation/reports", methods=["GET"])
@blp.arguments(page_query, location="query")
@blp.response(200, contract.ref(shapes.Reports))
@blp.doc(**doc("getReports", AUTH, error_responses(*MODERATOR_ERRORS, 422)))
def reports(query: dict[str, Any]) -> Response:
    """The reports, open ones first, newest first, a page at a time (moderators)"""
    return respond(services().moderation.reports(token(), query.get("cursor"), query["limit"]))


@blp.route("/moderation/reports/<report_id>/close", methods=["POST"])
@blp.arguments(note_in, required=False)
@blp.response(200, contract.ref(shapes.Report))
@blp.doc(**doc("closeReport", AUTH, error_responses(*MODERATOR_ERRORS, 404, 409, 422)))
def close_report(body: dict[str, Any] | None, report_id: str) -> Response:
    """Close a report (moderators)"""
    note = (body or {}).get("note", "")
    return respond(services().moderation.close_report(token(), report_id, note))


@blp.route("/moderation/players/<name>/chat-mute", methods=["POST"])
@blp.arguments(chat_mute_in, example={"minutes": 60, "reason": "insults in chat"})
@blp.response(200, contract.ref(shapes.ChatMuted))
@blp.doc(**doc("chatMutePlayer", AUTH, error_responses(*MODERATOR_ERRORS, 404, 422)))
def chat_mute(body: dict[str, Any], name: str) -> Response:
    """Mute a player's chat for 1 to 10,080 minutes from now, replacing a mute in force (moderators)"""
    return respond(services().moderation.chat_mute(token(), name, body["minutes"], body["reason"]))


@blp.route("/moderation/players/<name>/close", methods=["POST"])
@blp.arguments(close_in, example={"reason": "repeated abuse"})
@blp.response(200, contract.ref(shapes.AccountClosed))
@blp.doc(**doc("closeAccount", AUTH, error_responses(*MODERATOR_ERRORS, 404, 409, 422)))
def close_account(body: dict[str, Any], name: str) -> Response:
    """Close an account (moderators): its sessions, API tokens and player token end, it signs in no more;
    its games and archive stay. A moderator's account is not closed"""
    return respond(services().moderation.close_account(token(), name, body["reason"]))


@blp.route("/moderation/log", methods=["GET"])
@blp.arguments(page_query, location="query")
@blp.response(200, contract.ref(shapes.ModerationLog))
@blp.doc(**doc("getModerationLog", AUTH, error_responses(*MODERATOR_ERRORS, 422)))
def log(query: dict[str, Any]) -> Response:
    """Every act of the moderators and every appointment, newest first, a page at a time (moderators)"""
    return respond(services().moderation.log(token(), query.get("cursor"), query["limit"]))
