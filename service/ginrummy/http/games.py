"""The ``games`` resource: create, list, view and join games; every action of a seat; undo, rematch and
claims; a game's events (pages, long polls, streams), its finished hands and hints.

Views parse (schemas), call one use case, and write its result (:func:`~ginrummy.http.requests.respond`).
Refusals are raised, never built here — :mod:`ginrummy.http.errors` turns them into problem+json.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView

from ginrummy.app import Services
from ginrummy.app.calls import Caller, Result
from ginrummy.app.shapes import playing as shapes
from ginrummy.app.shapes.archive import ArchivedMatch

from . import contract, schemas, streaming
from .docs import (
    ACTION_HEADERS,
    AUTH_DOC,
    IDEMPOTENCY_HEADER,
    NOT_MODIFIED,
    OPTIONAL_AUTH_DOC,
    STREAMS,
    action_doc,
    doc,
    error_responses,
    game_links,
)
from .parsing import ApiBlueprint
from .requests import caller, etag, respond

blp = ApiBlueprint(
    "games", __name__, url_prefix="/v1/games", description="Games: create, join, view and play"
)

# Instantiated once: webargs would build a new schema per request from a class.
create_in = schemas.CreateGameIn()
join_in = schemas.JoinIn()
draw_in = schemas.DrawIn()
discard_in = schemas.DiscardIn()
knock_in = schemas.KnockIn()
layoff_in = schemas.LayoffIn()
action_in = schemas.ActionSchema()
events_query = schemas.EventsQuery()
games_query = schemas.GamesQuery()


def services() -> Services:
    found: Services = current_app.extensions["ginrummy"]
    return found


def player_caller() -> Caller:
    """The caller of a create or join: its bearer token, if any, is a player's (it ties the seat)."""
    found = caller()
    return dataclasses.replace(found, player=services().people.player_of(found.token))


def game_location(result: Result) -> str:
    return f"/v1/games/{result.body['game_id']}"


@blp.route("")
class GamesResource(MethodView):
    @blp.arguments(create_in, required=False)  # no body: a game against the default bot
    @blp.response(201, contract.ref(shapes.CreatedGame))
    @blp.doc(**doc("createGame", IDEMPOTENCY_HEADER, error_responses(422), game_links(201)))
    def post(self, body: dict[str, Any]) -> Response:
        """Create a game against a bot or a human

        The caller takes seat 0 and gets its token. For a human opponent the response carries an
        invitation for exactly one other player (POST /v1/games/{id}/join). With a player token
        (Authorization: Bearer) the seat is the player's."""
        result = services().matches.create(body, player_caller())
        return respond(result, location=game_location(result))

    @blp.arguments(games_query, location="query")
    @blp.response(200, contract.ref(shapes.LiveGames))
    @blp.doc(**doc("listGames", error_responses(422)))
    def get(self, query: dict[str, Any]) -> Response:
        """The public games in play, newest first (spectate them with GET /v1/games/{id} and its events)"""
        return respond(services().reading.live_games(query["limit"]))


@blp.route("/<game_id>")
class GameResource(MethodView):
    @blp.response(200, contract.ref(shapes.View))
    @blp.doc(**doc("getGame", OPTIONAL_AUTH_DOC, error_responses(403, 404), NOT_MODIFIED))
    def get(self, game_id: str) -> Response:
        """The caller's seat view (without a token: the spectator view)

        The ETag is the game's version. With If-None-Match equal to it the answer is 304 (never for a
        finished match: its `archived` turns true without a new version)."""
        result = services().reading.get_view(game_id, caller().token)
        over = result.body.get("phase") == "match_over"
        if (
            not over
            and result.version is not None
            and request.headers.get("If-None-Match") == etag(result.version)
        ):
            response = Response(status=304)
            response.headers["ETag"] = etag(result.version)
            return response
        return respond(result)


@blp.route("/<game_id>/join", methods=["POST"])
@blp.arguments(join_in, example={"invitation": "<the invitation of POST /v1/games>", "name": "Bob"})
@blp.response(200, contract.ref(shapes.JoinedGame))
@blp.doc(**doc("joinGame", IDEMPOTENCY_HEADER, error_responses(403, 404, 409, 422), game_links(200)))
def join(body: dict[str, Any], game_id: str) -> Response:
    """Take the free seat with the invitation (with a player token: as that player)"""
    return respond(services().matches.join(game_id, body, player_caller()))


def act(game_id: str, action: dict[str, Any]) -> Response:
    """Every action endpoint: the seat's action through the one move pipeline."""
    return respond(services().moves.act(game_id, action, caller()))


@blp.route("/<game_id>/deal", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("deal"))
def deal(game_id: str) -> Response:
    """Deal the next hand (between hands, either human seat)"""
    return act(game_id, {"type": "deal"})


@blp.route("/<game_id>/draw", methods=["POST"])
@blp.arguments(draw_in, example={"source": "stock"})
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("draw"))
def draw(body: dict[str, Any], game_id: str) -> Response:
    """Draw from the stock or the discard pile (during the upcard offer: discard = take the upcard)"""
    return act(game_id, {"type": "draw", **body})


@blp.route("/<game_id>/pass", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("pass"))
def pass_(game_id: str) -> Response:
    """Refuse the upcard (or the fiftieth card)"""
    return act(game_id, {"type": "pass"})


@blp.route("/<game_id>/discard", methods=["POST"])
@blp.arguments(discard_in, example={"card": "KD"})
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("discard"))
def discard(body: dict[str, Any], game_id: str) -> Response:
    """Discard a card"""
    return act(game_id, {"type": "discard", **body})


@blp.route("/<game_id>/knock", methods=["POST"])
@blp.arguments(knock_in, example={"discard": "9S"})
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("knock"))
def knock(body: dict[str, Any], game_id: str) -> Response:
    """Knock (deadwood 0 is gin; discard null is big gin), optionally with the knocker's arrangement"""
    return act(game_id, {"type": "knock", **body})


@blp.route("/<game_id>/layoff", methods=["POST"])
@blp.arguments(layoff_in, example={"best": True})
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("layoff"))
def layoff(body: dict[str, Any], game_id: str) -> Response:
    """The defender lays down melds and lays off (or lets the engine choose: {"best": true})"""
    return act(game_id, {"type": "layoff", **body})


@blp.route("/<game_id>/resign", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("resign"))
def resign(game_id: str) -> Response:
    """Resign: at any time, by either seat; the other wins the match (docs/rules.md §13)"""
    return act(game_id, {"type": "resign"})


@blp.route("/<game_id>/abort", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("abort"))
def abort(game_id: str) -> Response:
    """Abort: before the first hand's first draw; no result, no rating change"""
    return act(game_id, {"type": "abort"})


@blp.route("/<game_id>/rematch", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**doc("rematch", AUTH_DOC, IDEMPOTENCY_HEADER, error_responses(401, 403, 404, 409)))
def rematch(game_id: str) -> Response:
    """Offer a rematch once the match is over, or accept the other seat's offer (the new game's id is
    in the events and the view's rematch; the seat tokens stay the same). No If-Match: the offer itself
    changes the version"""
    return respond(services().matches.rematch(game_id, caller()))


@blp.route("/<game_id>/claim-victory", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**doc("claimVictory", AUTH_DOC, error_responses(401, 403, 404, 409)))
def claim_victory(game_id: str) -> Response:
    """Claim the game: the opponent's time is up, or (without a time control) it has not moved for
    GIN_ABANDON_AFTER seconds"""
    return respond(services().life.claim_victory(game_id, caller()))


@blp.route("/<game_id>/actions", methods=["POST"])
@blp.arguments(action_in, example={"type": "draw", "source": "stock"})
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**action_doc("postAction"))
def actions(body: dict[str, Any], game_id: str) -> Response:
    """Any element of the view's legal_actions, posted as is"""
    return act(game_id, body)


@blp.route("/<game_id>/undo", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**doc("undo", AUTH_DOC, ACTION_HEADERS, error_responses(400, 401, 403, 404, 409, 412, 428)))
def undo(game_id: str) -> Response:
    """Take back the caller's last move in the live hand (games against a bot only)"""
    return respond(services().moves.undo(game_id, caller()))


@blp.route("/<game_id>/berserk", methods=["POST"])
@blp.response(200, contract.ref(shapes.Moved))
@blp.doc(**doc("berserk", AUTH_DOC, ACTION_HEADERS, error_responses(401, 403, 404, 409, 412, 428)))
def berserk(game_id: str) -> Response:
    """Berserk, in an arena's match that allows it and before your first move: half your bank and no
    increment; a win scores one point more"""
    return respond(services().moves.berserk(game_id, caller()))


@blp.route("/<game_id>/events", methods=["GET"])
@blp.arguments(events_query, location="query")
@blp.response(200, contract.ref(shapes.EventsPage))
@blp.doc(**doc("getEvents", OPTIONAL_AUTH_DOC, error_responses(403, 404, 422), STREAMS))
def events(query: dict[str, Any], game_id: str) -> Response:
    """The events the caller's seat may see, after a cursor

    A long poll with ?wait=<s>. With Accept: application/x-ndjson or text/event-stream the answer is a
    stream (one event per line / SSE with ids), with keep-alives, open up to ?wait= seconds."""
    return streaming.events_response(services(), game_id, caller().token, query)


@blp.route("/<game_id>/hands/<int:number>", methods=["GET"])
@blp.response(200, contract.ref(shapes.FinishedHand))
@blp.doc(**doc("getHand", OPTIONAL_AUTH_DOC, error_responses(403, 404)))
def hand(game_id: str, number: int) -> Response:
    """A finished hand revealed: deal, deck and shuffle salt, every action, arrangements, scoring"""
    return respond(services().reading.hand(game_id, number, caller().token))


REVIEW_PENDING = {
    "responses": {
        202: {
            "description": "Being computed by a bot worker: GET it again after `Retry-After` seconds",
            "content": {"application/json": {"schema": contract.ref(shapes.Review)}},
        }
    }
}


@blp.route("/<game_id>/review", methods=["POST"])
@blp.response(200, contract.ref(shapes.Review), description="Done already")
@blp.doc(**doc("requestReview", error_responses(404, 503), REVIEW_PENDING))
def request_review(game_id: str) -> Response:
    """Ask for the review of a finished match: every decision of each seat judged by the master from what
    that seat knew (points given up, inaccuracies, mistakes, blunders, accuracy) — computed by a bot
    worker (202), kept with the match (200 once done)"""
    return respond(services().reviews.request(game_id), location=f"/v1/games/{game_id}/review")


@blp.route("/<game_id>/review", methods=["GET"])
@blp.response(200, contract.ref(shapes.Review), description="Done (or failed: ask again)")
@blp.doc(**doc("getReview", error_responses(404, 503), REVIEW_PENDING))
def get_review(game_id: str) -> Response:
    """A finished match's review: 202 while a bot worker computes it, 200 once done"""
    return respond(services().reviews.get(game_id))


@blp.route("/<game_id>/export", methods=["GET"])
@blp.response(200, contract.ref(ArchivedMatch))
@blp.doc(**doc("exportGame", error_responses(404)))
def export_game(game_id: str) -> Response:
    """A finished match in one document (format `ginrummy.match`, version 1): players, rules, result,
    statistics, rating changes and every hand — from the archive, forever"""
    return respond(services().records.export(game_id))


@blp.route("/<game_id>/hint", methods=["GET"])
@blp.response(200, contract.ref(shapes.Hint))
@blp.doc(**doc("getHint", AUTH_DOC, error_responses(401, 403, 404, 409)))
def hint(game_id: str) -> Response:
    """Advice for the caller's seat: an action, why, and alternatives"""
    return respond(services().reading.hint(game_id, caller().token))
