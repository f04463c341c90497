"""The HTTP resources: games (and their actions, events, hands, hint), rules, bots, analysis, health.

Views are thin: parse (schemas), call :class:`GameService`, render. Errors are raised, never built
here — :mod:`ginrummy.api.errors` turns them into problem+json.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ginrummy.engine import PRESETS, Rules
from ginrummy.engine.cards import mask_of, parse_cards, texts
from ginrummy.engine.melds import best_melds, discard_options, min_deadwood
from ginrummy.engine.rules import OPTION_DOCS, PRESET_DOCS

from . import players, schemas, security, streaming
from .errors import PROBLEM_JSON, ApiError, ProblemSchema
from .service import GameService, Outcome, Request, fingerprint

games = Blueprint("games", __name__, url_prefix="/v1/games", description="Games: create, join, view and play")
meta = Blueprint("meta", __name__, url_prefix="/v1", description="Rules, bots and stateless hand analysis")
health = Blueprint("health", __name__, description="Liveness and readiness")

AUTH_DOC: dict[str, Any] = {"security": [{"seatToken": []}]}
ACTION_HEADERS: dict[str, Any] = {
    "parameters": [
        {
            "in": "header",
            "name": "If-Match",
            "required": True,
            "schema": {"type": "string"},
            "description": 'ETag ("<version>") of the view the move came from: 428 without, 412 stale',
        },
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {"type": "string"},
            "description": "A unique random key: a retry gets the original response; another body gets 422.",
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
action_in = schemas.ActionIn()
events_query = schemas.EventsQuery()
analyze_in = schemas.AnalyzeIn()


def service() -> GameService:
    svc: GameService = current_app.extensions["ginrummy"]
    return svc


def http_request() -> Request:
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > 200:
        raise ApiError(400, "bad_idempotency_key", "an Idempotency-Key must be at most 200 characters")
    return Request(
        token=security.bearer_token(request.headers.get("Authorization")),
        if_match=request.headers.get("If-Match"),
        idempotency_key=key,
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


def error_responses(*statuses: int) -> dict[str, Any]:
    return {
        "responses": {
            str(s): {"description": "problem+json", "content": {PROBLEM_JSON: {"schema": ProblemSchema}}}
            for s in statuses
        }
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


# --- games -----------------------------------------------------------------------------------------
@games.route("")
class GamesResource(MethodView):
    @games.arguments(create_in)
    @games.response(201, schemas.CreatedOut)
    @games.doc(**_merge_doc(IDEMPOTENCY_HEADER, error_responses(422)))
    def post(self, body: dict[str, Any]) -> Response:
        """Create a game against a bot or a human

        The caller takes seat 0 and gets its token. For a human opponent the response carries an
        invitation for exactly one other player (POST /v1/games/{id}/join)."""
        return render(service().create(body, http_request()))


@games.route("/<game_id>")
class GameResource(MethodView):
    @games.response(200, schemas.ViewOut)
    @games.doc(**_merge_doc(AUTH_DOC, error_responses(403, 404)))
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
@games.arguments(join_in)
@games.response(200, schemas.JoinedOut)
@games.doc(**_merge_doc(IDEMPOTENCY_HEADER, error_responses(403, 404, 422)))
def join(body: dict[str, Any], game_id: str) -> Response:
    """Take the free seat with the invitation"""
    return render(service().join(game_id, body, http_request()))


def _action_view(
    name: str, build: Callable[[dict[str, Any]], dict[str, Any]], schema: Any, summary: str
) -> None:
    docs = _merge_doc(AUTH_DOC, ACTION_HEADERS, error_responses(401, 403, 404, 409, 412, 422, 428))

    def view(*args: Any, **kwargs: Any) -> Response:
        game_id = kwargs.pop("game_id")
        body = args[0] if args else {}
        return render(service().act(game_id, build(body), http_request()))

    view.__name__ = f"action_{name}"
    view.__doc__ = summary
    decorated: Any = view
    decorated = games.doc(**docs)(decorated)
    decorated = games.response(200, schemas.MoveOut)(decorated)
    if schema is not None:
        decorated = games.arguments(schema)(decorated)
    games.route(f"/<game_id>/{name}", methods=["POST"], endpoint=f"action_{name}")(decorated)


def _knock(body: dict[str, Any]) -> dict[str, Any]:
    action = {"type": "knock", "discard": body["discard"]}
    if body.get("melds") is not None:
        action["melds"] = body["melds"]
    return action


def _layoff(body: dict[str, Any]) -> dict[str, Any]:
    if body.get("best") is True:
        return {"type": "layoff", "best": True}
    return {"type": "layoff", "melds": body.get("melds") or [], "layoffs": body.get("layoffs") or []}


_action_view(
    "deal", lambda b: {"type": "deal"}, None, "Deal the next hand (between hands, either human seat)"
)
_action_view(
    "draw",
    lambda b: {"type": "draw", "source": b["source"]},
    draw_in,
    "Draw from the stock or the discard pile (during the upcard offer: discard = take the upcard)",
)
_action_view("pass", lambda b: {"type": "pass"}, None, "Refuse the upcard (or the fiftieth card)")
_action_view("discard", lambda b: {"type": "discard", "card": b["card"]}, discard_in, "Discard a card")
_action_view(
    "knock",
    _knock,
    knock_in,
    "Knock (deadwood 0 is gin; discard null is big gin), optionally with the knocker's arrangement",
)
_action_view(
    "layoff",
    _layoff,
    layoff_in,
    "The defender lays down melds and lays off (or lets the engine choose)",
)
_action_view("actions", dict, action_in, "Any element of the view's legal_actions, posted as is")


@games.route("/<game_id>/undo", methods=["POST"])
@games.response(200, schemas.MoveOut)
@games.doc(**_merge_doc(AUTH_DOC, ACTION_HEADERS, error_responses(401, 403, 404, 409, 412, 428)))
def undo(game_id: str) -> Response:
    """Take back the caller's last move in the live hand (games against a bot only)"""
    return render(service().undo(game_id, http_request()))


@games.route("/<game_id>/events", methods=["GET"])
@games.arguments(events_query, location="query")
@games.response(200, schemas.EventsOut)
@games.doc(**_merge_doc(AUTH_DOC, error_responses(403, 404, 422)))
def events(query: dict[str, Any], game_id: str) -> Response:
    """The events the caller's seat may see, after a cursor

    A long poll with ?wait=<s>. With Accept: application/x-ndjson or text/event-stream the answer is a
    stream (one event per line / SSE with ids), with keep-alives, open up to ?wait= seconds."""
    return streaming.events_response(service(), game_id, http_request().token, query)


@games.route("/<game_id>/hands/<int:number>", methods=["GET"])
@games.response(200, schemas.HandRecordOut)
@games.doc(**_merge_doc(AUTH_DOC, error_responses(403, 404)))
def hand(game_id: str, number: int) -> Response:
    """A finished hand revealed: deal, deck and shuffle salt, every action, arrangements, scoring"""
    return render(service().hand(game_id, number, http_request().token))


@games.route("/<game_id>/hint", methods=["GET"])
@games.response(200, schemas.HintOut)
@games.doc(**_merge_doc(AUTH_DOC, error_responses(401, 403, 404, 409)))
def hint(game_id: str) -> Response:
    """Advice for the caller's seat: an action, why, and alternatives"""
    return render(service().hint(game_id, http_request().token))


# --- meta --------------------------------------------------------------------------------------------
@meta.route("/rules", methods=["GET"])
@meta.response(200)
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
@meta.response(200)
def bots() -> Response:
    """The computer opponents one can play"""
    return render(Outcome(200, {"bots": players.list_bots(), "default": players.default_bot()}))


@meta.route("/analyze", methods=["POST"])
@meta.arguments(analyze_in)
@meta.response(200, schemas.AnalyzeOut)
@meta.doc(**error_responses(422))
def analyze(body: dict[str, Any]) -> Response:
    """Stateless analysis of a hand: melds, deadwood, whether it can knock or gin, best discards"""
    cards = parse_cards(body["cards"])
    mask = mask_of(cards)
    arrangements = best_melds(mask)
    best = arrangements[0]
    limit = body["knock_limit"]
    out: dict[str, Any] = {
        "cards": texts(sorted(cards)),
        "melds": [m.texts() for m in best.melds],
        "deadwood_cards": texts(best.deadwood_mask),
        "deadwood": best.deadwood,
        "arrangements": len(arrangements),
    }
    if len(cards) == 11:
        options = discard_options(mask)
        after = options[0][1]
        out["discards"] = [{"card": texts([c])[0], "deadwood": d} for c, d in options]
        out.update(can_knock=after <= limit, can_gin=after == 0, big_gin=min_deadwood(mask) == 0)
    elif len(cards) == 10:
        out.update(can_knock=best.deadwood <= limit, can_gin=best.deadwood == 0, big_gin=False)
        out["discards"] = []
    else:  # knocking and gin are about a whole hand: no verdict on a part of one
        out.update(can_knock=None, can_gin=None, big_gin=None, discards=[])
    return render(Outcome(200, out))


# --- health ------------------------------------------------------------------------------------------
@health.route("/healthz", methods=["GET"])
@health.response(200, schemas.HealthOut)
def healthz() -> Response:
    """The process is up (does not check Redis)"""
    return render(Outcome(200, {"status": "ok"}))


@health.route("/readyz", methods=["GET"])
@health.response(200, schemas.HealthOut)
@health.doc(**error_responses(503))
def readyz() -> Response:
    """Ready to serve: Redis answers"""
    if not service().store.ping():
        raise ApiError(503, "store_unavailable", "Redis does not answer")
    return render(Outcome(200, {"status": "ready"}))
