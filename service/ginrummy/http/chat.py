"""The ``chat`` resource: a game's table chat — its lines (a page, a long poll), saying one, muting the
other seat at the table — and the preset phrases. The lines also come on the game's streams
(``GET /v1/games/{id}/events?chat=true``)."""

from __future__ import annotations

from typing import Any

from flask import Response

from ginrummy.app.playing.chat import Chat
from ginrummy.app.shapes import chat as shapes

from . import contract, schemas
from .docs import AUTH_DOC, OPTIONAL_AUTH_DOC, doc, error_responses
from .games import services
from .parsing import ApiBlueprint
from .requests import respond, token

blp = ApiBlueprint(
    "chat", __name__, url_prefix="/v1", description="Table chat: the players' and spectators' rooms"
)

chat_in = schemas.ChatIn()
chat_query = schemas.ChatQuery()


@blp.route("/games/<game_id>/chat", methods=["GET"])
@blp.arguments(chat_query, location="query")
@blp.response(200, contract.ref(shapes.ChatPage))
@blp.doc(**doc("getChat", OPTIONAL_AUTH_DOC, error_responses(401, 404, 422)))
def chat(query: dict[str, Any], game_id: str) -> Response:
    """The game's chat lines the caller reads, after ?after= (a long poll with ?wait=): a seat reads the
    players' room (and the spectators' once the match is over), anyone else the spectators' room"""
    return respond(services().chat.page(game_id, token(), query["after"], query["wait"]))


@blp.route("/games/<game_id>/chat", methods=["POST"])
@blp.arguments(chat_in, example={"room": "player", "preset": "good_luck"})
@blp.response(201, contract.ref(shapes.ChatLine))
@blp.doc(**doc("sayChat", AUTH_DOC, error_responses(401, 403, 404, 409, 422)))
def say(body: dict[str, Any], game_id: str) -> Response:
    """Say a line: a preset phrase, or free text (an account's, at most 140 characters) — in the players'
    room as a seat, in the spectators' room as a named player who watches"""
    return respond(services().chat.say(game_id, body, token()))


@blp.route("/games/<game_id>/chat/mute", methods=["POST"])
@blp.response(200, contract.ref(shapes.TableMute))
@blp.doc(**doc("muteChat", AUTH_DOC, error_responses(401, 403, 404)))
def mute(game_id: str) -> Response:
    """Mute the other seat at this table: its lines of this game are no longer shown to you"""
    return respond(services().chat.mute(game_id, token(), True))


@blp.route("/games/<game_id>/chat/unmute", methods=["POST"])
@blp.response(200, contract.ref(shapes.TableMute))
@blp.doc(**doc("unmuteChat", AUTH_DOC, error_responses(401, 403, 404)))
def unmute(game_id: str) -> Response:
    """Hear the other seat at this table again"""
    return respond(services().chat.mute(game_id, token(), False))


@blp.route("/chat/presets", methods=["GET"])
@blp.response(200, contract.ref(shapes.ChatPresets))
@blp.doc(**doc("getChatPresets", error_responses()))
def presets() -> Response:
    """The preset phrases (what a player without an account may say)"""
    return respond(Chat.presets())
