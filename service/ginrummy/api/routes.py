"""The HTTP resources: games (and their actions, events, hands, hint), rules, bots, analysis, health.

Views are thin: parse (schemas), call :class:`GameService`, render. Errors are raised, never built
here — :mod:`ginrummy.api.errors` turns them into problem+json.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import orjson
from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from ginrummy import bots as _bots
from ginrummy.engine import PRESETS, Rules, analyze_hand
from ginrummy.engine.rules import OPTION_DOCS, PRESET_DOCS

from . import schemas, security, streaming
from .errors import PROBLEM_JSON, RETRY_AFTER, ApiError, ProblemSchema
from .people import PeopleService
from .security import IF_MATCH_PATTERN
from .service import DEFAULT_BOT, GameService, Outcome, Request, fingerprint

_FRACTION_OR_EXPONENT = re.compile(rb"[0-9][.eE]")


class BodyParser(FlaskParser):
    """webargs' parser reading JSON bodies with orjson: faster, and a body nested deeper than orjson's
    limit (1,024 levels) is a 400 like any other malformed body — the standard json module ran out of
    stack on it (RecursionError, a 500)."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return missing
        data = req.get_data(cache=True)
        try:
            body = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            # webargs reads an error whose `doc` is empty as "no body"; orjson leaves it empty for bytes
            # that are not UTF-8, and such a body would have been taken for none.
            raise json.JSONDecodeError(str(exc), data.decode("utf-8", "replace") or exc.doc, exc.pos) from exc
        return whole_numbers(body) if _FRACTION_OR_EXPONENT.search(data) else body

    def load_querystring(self, req: Any, schema: Any) -> Any:
        """The query, where a parameter that takes one value is refused when given twice (webargs would
        silently take the first)."""
        for key in req.args:
            if len(req.args.getlist(key)) > 1:
                raise ApiError(
                    422, "validation_error", f"the query parameter {key!r} is given more than once"
                )
        return super().load_querystring(req, schema)


def whole_numbers(value: Any) -> Any:
    """JSON has one number type: 46.0 and 4.6e1 are the integer 46 (JSON Schema agrees), so a card number
    or an option written that way is an int to the engine. Other numbers stay floats (and are refused
    where an integer is needed).

    >>> whole_numbers({"cards": [46.0, "7H", 1.5], "n": {"target": 1.5e2}})
    {'cards': [46, '7H', 1.5], 'n': {'target': 150}}
    """
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if not isinstance(value, (list, dict)):
        return value
    pending = [value]  # in place, without recursion: a body may nest up to orjson's 1,024 levels
    while pending:
        node = pending.pop()
        for key, item in enumerate(node) if isinstance(node, list) else list(node.items()):
            if isinstance(item, float) and item.is_integer():
                node[key] = int(item)
            elif isinstance(item, (list, dict)):
                pending.append(item)
    return value


class ApiBlueprint(Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = BodyParser()


games = ApiBlueprint(
    "games", __name__, url_prefix="/v1/games", description="Games: create, join, view and play"
)
meta = ApiBlueprint("meta", __name__, url_prefix="/v1", description="Rules, bots and stateless hand analysis")
health = ApiBlueprint("health", __name__, description="Liveness and readiness")
people = ApiBlueprint(
    "people", __name__, url_prefix="/v1", description="Players, ratings, the lobby and quick matching"
)

AUTH_DOC: dict[str, Any] = {"security": [{"seatToken": []}]}
# Readable with a seat token (that seat's view) or without one (the spectator's).
OPTIONAL_AUTH_DOC: dict[str, Any] = {"security": [{"seatToken": []}, {}]}
ACTION_HEADERS: dict[str, Any] = {
    "parameters": [
        {
            "in": "header",
            "name": "If-Match",
            "required": True,
            "schema": {"type": "string", "pattern": IF_MATCH_PATTERN, "examples": ['"12"']},
            "description": 'ETag ("<version>") of the view the move came from (or *): 428 without, 412 stale',
        },
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {"type": "string", "maxLength": 200},
            "description": "A unique random key (empty: none): a retry gets the original response; "
            "another body gets 422.",
        },
    ]
}
IDEMPOTENCY_HEADER = {"parameters": ACTION_HEADERS["parameters"][1:]}

# Instantiated once: webargs would build a new schema per request from a class.
create_in = schemas.CreateGameIn()
join_in = schemas.JoinIn()
draw_in = schemas.DrawIn()
discard_in = schemas.DiscardIn()
knock_in = schemas.KnockIn()
layoff_in = schemas.LayoffIn()
action_in = schemas.Action()
events_query = schemas.EventsQuery()
analyze_in = schemas.AnalyzeIn()
games_query = schemas.GamesQuery()
player_in = schemas.PlayerIn()
seek_in = schemas.SeekIn()
wait_query = schemas.WaitQuery()
leaderboard_query = schemas.LeaderboardQuery()


def service() -> GameService:
    svc: GameService = current_app.extensions["ginrummy"]
    return svc


def people_service() -> PeopleService:
    svc: PeopleService = current_app.extensions["ginrummy.people"]
    return svc


def player_request() -> Request:
    """The request of a create or join: its bearer token, if any, is a player's (it ties the seat)."""
    req = http_request()
    return dataclasses.replace(req, player=people_service().player_of(req.token))


def http_request() -> Request:
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 200:
        raise ApiError(400, "bad_idempotency_key", "an Idempotency-Key must be at most 200 characters")
    return Request(
        token=security.bearer_token(request.headers.get("Authorization")),
        if_match=request.headers.get("If-Match"),
        idempotency_key=key,
        client=request.remote_addr or "",
        # Only a request with a key is ever compared with another one.
        fingerprint=fingerprint(request.method, request.path, request.get_data(cache=True)) if key else "",
    )


def render(outcome: Outcome) -> Response:
    response = Response(
        # orjson: a view is ~4 KB of JSON on every move, and the standard encoder was the costliest step.
        orjson.dumps(outcome.body, option=orjson.OPT_NON_STR_KEYS),
        status=outcome.status,
        mimetype="application/json",
    )
    if outcome.version is not None:
        response.headers["ETag"] = security.etag(outcome.version)
    if outcome.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    for name, value in outcome.headers.items():
        response.headers[name] = value
    response.headers["Cache-Control"] = "no-store"
    return response


# Any /v1 operation may meet a rate limit (429) or a store that is down (503), both with Retry-After.
ALWAYS = (429, 503)


def error_responses(*statuses: int, limited: bool = True) -> dict[str, Any]:
    """The problem+json responses of an operation (``limited``: a /v1 one, under the rate limits)."""
    return {
        "responses": {
            **{
                str(s): {"description": "problem+json", "content": {PROBLEM_JSON: {"schema": ProblemSchema}}}
                for s in sorted({*statuses, *(ALWAYS if limited else ())})
            },
            "414": URI_TOO_LONG,
        }
    }


# The one error the service does not write: gunicorn refuses a request line over its limit
# (deploy/gunicorn.conf.py, limit_request_line) before the request reaches the application.
URI_TOO_LONG: dict[str, Any] = {
    "description": "The request line (method, path and query) is over 8,190 bytes: the HTTP server's own "
    "answer, not problem+json",
    "content": {"text/html": {"schema": {"type": "string"}}},
}


def _merge_doc(*docs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for doc in docs:
        for key, value in doc.items():
            if key in out and isinstance(value, dict):
                out[key] = {**out[key], **value}
            elif key in out and isinstance(value, list):
                out[key] = [*out[key], *value]
            else:
                out[key] = value
    return out


def op(operation_id: str) -> dict[str, Any]:
    """The operation's stable operationId: the name a generated client gives its method."""
    return {"operationId": operation_id}


# Where a new seat leads: its game_id and token (generators and stateful testers follow these).
_SEAT = {"game_id": "$response.body#/game_id"}


def game_links(status: int) -> dict[str, Any]:
    return {
        "responses": {
            status: {
                "links": {
                    name: {
                        "operationId": target,
                        "parameters": _SEAT,
                        "description": f"{name} of the new seat's game; authenticate with the response's "
                        "token (Authorization: Bearer <token>)",
                    }
                    for name, target in (
                        ("GetGame", "getGame"),
                        ("PostAction", "postAction"),
                        ("GetEvents", "getEvents"),
                        ("GetHint", "getHint"),
                    )
                }
            }
        }
    }


NOT_MODIFIED: dict[str, Any] = {"responses": {304: {"description": "If-None-Match is the current ETag"}}}
STREAMS: dict[str, Any] = {
    "responses": {
        200: {
            "content": {
                "application/x-ndjson": {
                    "schema": {
                        "type": "string",
                        "description": "One event per line, keep-alive lines, an error line if the "
                        "store fails",
                    }
                },
                "text/event-stream": {"schema": {"type": "string", "description": "Server-Sent Events"}},
            }
        }
    }
}


# --- games -----------------------------------------------------------------------------------------
@games.route("")
class GamesResource(MethodView):
    @games.arguments(create_in, required=False)  # no body: a game against the default bot
    @games.response(201, schemas.CreatedOut)
    @games.doc(**_merge_doc(op("createGame"), IDEMPOTENCY_HEADER, error_responses(422), game_links(201)))
    def post(self, body: dict[str, Any]) -> Response:
        """Create a game against a bot or a human

        The caller takes seat 0 and gets its token. For a human opponent the response carries an
        invitation for exactly one other player (POST /v1/games/{id}/join). With a player token
        (Authorization: Bearer) the seat is the player's."""
        return render(service().create(body, player_request()))

    @games.arguments(games_query, location="query")
    @games.response(200, schemas.GamesOut)
    @games.doc(**_merge_doc(op("listGames"), error_responses(422)))
    def get(self, query: dict[str, Any]) -> Response:
        """The public games in play, newest first (spectate them with GET /v1/games/{id} and its events)"""
        return render(people_service().live_games(query["limit"]))


@games.route("/<game_id>")
class GameResource(MethodView):
    @games.response(200, schemas.ViewOut)
    @games.doc(**_merge_doc(op("getGame"), OPTIONAL_AUTH_DOC, error_responses(403, 404), NOT_MODIFIED))
    def get(self, game_id: str) -> Response:
        """The caller's seat view (without a token: the spectator view)

        The ETag is the game's version. With If-None-Match equal to it the answer is 304."""
        outcome = service().get_view(game_id, http_request().token)
        if outcome.version is not None and request.headers.get("If-None-Match") == security.etag(
            outcome.version
        ):
            response = Response(status=304)
            response.headers["ETag"] = security.etag(outcome.version)
            return response
        return render(outcome)


@games.route("/<game_id>/join", methods=["POST"])
@games.arguments(join_in, example={"invitation": "<the invitation of POST /v1/games>", "name": "Bob"})
@games.response(200, schemas.JoinedOut)
@games.doc(
    **_merge_doc(op("joinGame"), IDEMPOTENCY_HEADER, error_responses(403, 404, 409, 422), game_links(200))
)
def join(body: dict[str, Any], game_id: str) -> Response:
    """Take the free seat with the invitation (with a player token: as that player)"""
    return render(service().join(game_id, body, player_request()))


ACTION_ERRORS = error_responses(400, 401, 403, 404, 409, 412, 422, 428)


def action_doc(operation_id: str) -> dict[str, Any]:
    return _merge_doc(op(operation_id), AUTH_DOC, ACTION_HEADERS, ACTION_ERRORS)


def act(game_id: str, action: dict[str, Any]) -> Response:
    """Every action endpoint: the seat's action through the service's one move pipeline."""
    return render(service().act(game_id, action, http_request()))


@games.route("/<game_id>/deal", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("deal"))
def deal(game_id: str) -> Response:
    """Deal the next hand (between hands, either human seat)"""
    return act(game_id, {"type": "deal"})


@games.route("/<game_id>/draw", methods=["POST"])
@games.arguments(draw_in, example={"source": "stock"})
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("draw"))
def draw(body: dict[str, Any], game_id: str) -> Response:
    """Draw from the stock or the discard pile (during the upcard offer: discard = take the upcard)"""
    return act(game_id, {"type": "draw", **body})


@games.route("/<game_id>/pass", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("pass"))
def pass_(game_id: str) -> Response:
    """Refuse the upcard (or the fiftieth card)"""
    return act(game_id, {"type": "pass"})


@games.route("/<game_id>/discard", methods=["POST"])
@games.arguments(discard_in, example={"card": "KD"})
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("discard"))
def discard(body: dict[str, Any], game_id: str) -> Response:
    """Discard a card"""
    return act(game_id, {"type": "discard", **body})


@games.route("/<game_id>/knock", methods=["POST"])
@games.arguments(knock_in, example={"discard": "9S"})
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("knock"))
def knock(body: dict[str, Any], game_id: str) -> Response:
    """Knock (deadwood 0 is gin; discard null is big gin), optionally with the knocker's arrangement"""
    return act(game_id, {"type": "knock", **body})


@games.route("/<game_id>/layoff", methods=["POST"])
@games.arguments(layoff_in, example={"best": True})
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("layoff"))
def layoff(body: dict[str, Any], game_id: str) -> Response:
    """The defender lays down melds and lays off (or lets the engine choose: {"best": true})"""
    return act(game_id, {"type": "layoff", **body})


@games.route("/<game_id>/resign", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("resign"))
def resign(game_id: str) -> Response:
    """Resign: at any time, by either seat; the other wins the match (docs/rules.md, Ending early)"""
    return act(game_id, {"type": "resign"})


@games.route("/<game_id>/abort", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("abort"))
def abort(game_id: str) -> Response:
    """Abort: before the first hand's first draw; no result, no rating change"""
    return act(game_id, {"type": "abort"})


@games.route("/<game_id>/rematch", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**_merge_doc(op("rematch"), AUTH_DOC, IDEMPOTENCY_HEADER, error_responses(401, 403, 404, 409)))
def rematch(game_id: str) -> Response:
    """Offer a rematch once the match is over, or accept the other seat's offer (the new game's id is
    in the events and the view's rematch; the seat tokens stay the same). No If-Match: the offer itself
    changes the version"""
    return render(service().rematch(game_id, http_request()))


@games.route("/<game_id>/claim-victory", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**_merge_doc(op("claimVictory"), AUTH_DOC, error_responses(401, 403, 404, 409)))
def claim_victory(game_id: str) -> Response:
    """Claim the game: the opponent's time is up, or (without a time control) it has not moved for
    GIN_ABANDON_AFTER seconds"""
    return render(service().claim_victory(game_id, http_request()))


@games.route("/<game_id>/actions", methods=["POST"])
@games.arguments(action_in, example={"type": "draw", "source": "stock"})
@games.response(200, schemas.MoveOut)
@games.doc(**action_doc("postAction"))
def actions(body: dict[str, Any], game_id: str) -> Response:
    """Any element of the view's legal_actions, posted as is"""
    return act(game_id, body)


@games.route("/<game_id>/undo", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(
    **_merge_doc(op("undo"), AUTH_DOC, ACTION_HEADERS, error_responses(400, 401, 403, 404, 409, 412, 428))
)
def undo(game_id: str) -> Response:
    """Take back the caller's last move in the live hand (games against a bot only)"""
    return render(service().undo(game_id, http_request()))


@games.route("/<game_id>/events", methods=["GET"])
@games.arguments(events_query, location="query")
@games.response(200, schemas.EventsOut)
@games.doc(**_merge_doc(op("getEvents"), OPTIONAL_AUTH_DOC, error_responses(403, 404, 422), STREAMS))
def events(query: dict[str, Any], game_id: str) -> Response:
    """The events the caller's seat may see, after a cursor

    A long poll with ?wait=<s>. With Accept: application/x-ndjson or text/event-stream the answer is a
    stream (one event per line / SSE with ids), with keep-alives, open up to ?wait= seconds."""
    return streaming.events_response(service(), game_id, http_request().token, query)


@games.route("/<game_id>/hands/<int:number>", methods=["GET"])
@games.response(200, schemas.HandRecordOut)
@games.doc(**_merge_doc(op("getHand"), OPTIONAL_AUTH_DOC, error_responses(403, 404)))
def hand(game_id: str, number: int) -> Response:
    """A finished hand revealed: deal, deck and shuffle salt, every action, arrangements, scoring"""
    return render(service().hand(game_id, number, http_request().token))


@games.route("/<game_id>/hint", methods=["GET"])
@games.response(200, schemas.HintOut)
@games.doc(**_merge_doc(op("getHint"), AUTH_DOC, error_responses(401, 403, 404, 409)))
def hint(game_id: str) -> Response:
    """Advice for the caller's seat: an action, why, and alternatives"""
    return render(service().hint(game_id, http_request().token))


# --- people ----------------------------------------------------------------------------------------
@people.route("/players", methods=["POST"])
@people.arguments(player_in, example={"name": "Ann"})
@people.response(201, schemas.PlayerCreatedOut)
@people.doc(**_merge_doc(op("createPlayer"), error_responses(409, 422)))
def create_player(body: dict[str, Any]) -> Response:
    """Create a player: a unique name (ignoring case) and its token, shown once"""
    return render(people_service().create_player(body["name"]))


@people.route("/players/<name>", methods=["GET"])
@people.response(200, schemas.ProfileOut)
@people.doc(**_merge_doc(op("getPlayer"), error_responses(404)))
def player(name: str) -> Response:
    """A player's public profile: games, statistics, ratings and ranks, recent games"""
    return render(people_service().profile(name))


@people.route("/leaderboard", methods=["GET"])
@people.arguments(leaderboard_query, location="query")
@people.response(200, schemas.LeaderboardOut)
@people.doc(**_merge_doc(op("getLeaderboard"), error_responses(422)))
def leaderboard(query: dict[str, Any]) -> Response:
    """The best rated players of a rules family"""
    return render(people_service().leaderboard(query["family"], query["limit"]))


SEEK_AUTH: dict[str, Any] = {"security": [{"seatToken": []}]}


@people.route("/seeks", methods=["POST"])
@people.arguments(
    seek_in, required=False, example={"rules": {"preset": "standard"}, "rated": True}
)  # no body: a quick standard casual seek
@people.response(201, schemas.JoinedOut, description="Paired at once: the game, as for the taker")
@people.doc(
    **_merge_doc(
        op("createSeek"),
        SEEK_AUTH,
        error_responses(401, 409, 422),
        {
            "responses": {
                202: {
                    "description": "Waiting in the lobby",
                    "content": {"application/json": {"schema": schemas.SeekWaitingOut}},
                }
            }
        },
    )
)
def create_seek(body: dict[str, Any]) -> Response:
    """Seek a game (with a player token): a quick seek pairs with a compatible open seek at once;
    otherwise the seek waits in the lobby (202) and GET /v1/seeks/{id} with its token tells when a game
    starts"""
    return render(people_service().seek(body, http_request()))


@people.route("/seeks/<seek_id>", methods=["GET"])
@people.arguments(wait_query, location="query")
@people.response(200, schemas.SeekOut)
@people.doc(**_merge_doc(op("getSeek"), SEEK_AUTH, error_responses(401, 403, 404, 422)))
def seek(query: dict[str, Any], seek_id: str) -> Response:
    """The owner's seek (with the seek's token): open, or matched with its game; ?wait= long-polls"""
    return render(people_service().seek_status(seek_id, http_request().token, query["wait"]))


@people.route("/seeks/<seek_id>", methods=["DELETE"])
@people.response(200, schemas.SeekOut)
@people.doc(**_merge_doc(op("cancelSeek"), SEEK_AUTH, error_responses(401, 403, 404, 409)))
def cancel_seek(seek_id: str) -> Response:
    """Withdraw an open seek (with the seek's token)"""
    return render(people_service().cancel(seek_id, http_request().token))


@people.route("/seeks/<seek_id>/accept", methods=["POST"])
@people.response(201, schemas.JoinedOut)
@people.doc(**_merge_doc(op("acceptSeek"), SEEK_AUTH, error_responses(401, 404, 409)))
def accept_seek(seek_id: str) -> Response:
    """Take a seek of the lobby (with a player token): the game starts, you are seat 1"""
    return render(people_service().take(seek_id, http_request()))


@people.route("/lobby", methods=["GET"])
@people.response(200, schemas.LobbyOut)
@people.doc(**_merge_doc(op("getLobby"), error_responses()))
def lobby() -> Response:
    """The open seeks, oldest first (no tokens: take one with POST /v1/seeks/{id}/accept)"""
    return render(people_service().open_seeks(100))


# --- meta --------------------------------------------------------------------------------------------
@meta.route("/rules", methods=["GET"])
@meta.response(200, schemas.RulesOut)
@meta.doc(**_merge_doc(op("getRules"), error_responses()))
def rules() -> Response:
    """The presets and every rule option with its default and meaning"""
    body = {
        "presets": [
            {
                "name": name,
                "description": PRESET_DOCS.get(name, ""),
                "rules": Rules.from_options(name).to_dict(),
            }
            for name in PRESETS
        ],
        "options": OPTION_DOCS,
    }
    return render(Outcome(200, body))


@meta.route("/bots", methods=["GET"])
@meta.response(200, schemas.BotsOut)
@meta.doc(**_merge_doc(op("listBots"), error_responses()))
def bots() -> Response:
    """The computer opponents one can play"""
    return render(Outcome(200, {"bots": _bots.list_bots(), "default": DEFAULT_BOT}))


@meta.route("/analyze", methods=["POST"])
@meta.arguments(analyze_in, example={"cards": ["7H", "8H", "9H", "KS", "KD", "KC", "2C", "3D", "4S", "QS"]})
@meta.response(200, schemas.AnalyzeOut)
@meta.doc(**_merge_doc(op("analyzeHand"), error_responses(422)))
def analyze(body: dict[str, Any]) -> Response:
    """Stateless analysis of a hand: melds, deadwood, whether it can knock or gin, best discards"""
    return render(Outcome(200, analyze_hand(body["cards"], body["knock_limit"])))


# --- health ------------------------------------------------------------------------------------------
@health.route("/healthz", methods=["GET"])
@health.response(200, schemas.HealthOut)
@health.doc(**op("healthz"))
def healthz() -> Response:
    """The process is up (does not check Redis)"""
    return render(Outcome(200, {"status": "ok"}))


@health.route("/readyz", methods=["GET"])
@health.response(200, schemas.HealthOut)
@health.doc(**_merge_doc(op("readyz"), error_responses(503, limited=False)))
def readyz() -> Response:
    """Ready to serve: Redis answers"""
    if not service().store.ping():
        raise ApiError(
            503, "store_unavailable", "Redis does not answer", headers={"Retry-After": str(RETRY_AFTER)}
        )
    return render(Outcome(200, {"status": "ready"}))
