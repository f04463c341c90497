"""The ``tournaments`` resource: arenas, Swiss and round robins — create, list, read with standings,
join, withdraw (an arena's pause), the organiser's edit, start and end, the results and games as NDJSON,
and the live stream. What they are and who may do what: :mod:`ginrummy.app.tournaments`."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, request

from ginrummy.app.calls import Result
from ginrummy.app.errors import ServiceError
from ginrummy.app.shapes import tournaments as shapes
from ginrummy.app.shapes.archive import ArchivedMatch

from . import account_schemas, contract, streaming
from . import tournament_schemas as schemas
from .docs import doc, error_responses, ndjson_form, streamed
from .games import services
from .parsing import ApiBlueprint
from .requests import respond, token
from .streaming import wants_ndjson

blp = ApiBlueprint(
    "tournaments",
    __name__,
    url_prefix="/v1/tournaments",
    description="Tournaments: arenas, Swiss and round robins, for people and bot accounts",
)

AUTH: dict[str, Any] = {"security": [{"seatToken": []}]}
OPTIONAL_AUTH: dict[str, Any] = {"security": [{"seatToken": []}, {}]}
tournament_in = schemas.TournamentIn()
edit_in = schemas.TournamentEditIn()
join_in = schemas.TournamentJoinIn()
withdraw_in = schemas.TournamentWithdrawIn()
tournament_query = schemas.TournamentQuery()
stream_query = account_schemas.ResumableStreamQuery()
STREAM = streamed(
    shapes.TournamentStreamLine,
    "standings (the first line of a stream opened afresh, then after each change), pairing, result (each "
    "with its id), keepalive lines, and an error line if the store fails (the last line)",
    sse=True,
)


@blp.route("", methods=["POST"])
@blp.arguments(tournament_in)
@blp.response(201, contract.ref(shapes.TournamentCreated))
@blp.doc(**doc("createTournament", AUTH, error_responses(401, 403, 422, 429)))
def create(body: dict[str, Any]) -> Response:
    """Create a tournament (an account may create GIN_TOURNAMENTS_PER_DAY a day): an arena (minutes), a
    Swiss (rounds) or a round robin; a private one answers its entry code, once"""
    result = services().tournaments.create(body, token())
    return respond(result, location=result.body["tournament"]["url"])


@blp.route("", methods=["GET"])
@blp.response(200, contract.ref(shapes.TournamentList))
@blp.doc(**doc("getTournaments"))
def listed() -> Response:
    """The public tournaments: upcoming, running and recently finished"""
    return respond(services().tournaments.listed())


@blp.route("/<tournament_id>", methods=["GET"])
@blp.arguments(tournament_query, location="query")
@blp.response(200, contract.ref(shapes.TournamentInfo))
@blp.doc(**doc("getTournament", OPTIONAL_AUTH, error_responses(404, 422)))
def tournament(query: dict[str, Any], tournament_id: str) -> Response:
    """A tournament with a page of its standings (?page=), its matches in play and the caller's entry"""
    return respond(services().tournaments.get(tournament_id, token(), query["page"]))


@blp.route("/<tournament_id>", methods=["PATCH"])
@blp.arguments(edit_in)
@blp.response(200, contract.ref(shapes.TournamentInfo))
@blp.doc(**doc("editTournament", AUTH, error_responses(401, 403, 404, 409, 422)))
def edit(body: dict[str, Any], tournament_id: str) -> Response:
    """The organiser changes the settings, before the start"""
    return respond(services().tournaments.edit(tournament_id, body, token()))


@blp.route("/<tournament_id>/join", methods=["POST"])
@blp.arguments(join_in, required=False)
@blp.response(200, contract.ref(shapes.Entered))
@blp.doc(**doc("joinTournament", AUTH, error_responses(401, 403, 404, 409, 422)))
def join(body: dict[str, Any], tournament_id: str) -> Response:
    """Join (with a private tournament's code), or come back after a pause; the organiser enters a house
    bot with {"bot": "expert"}. Your matches come as gameStart on your account stream"""
    return respond(services().tournaments.join(tournament_id, body, token()))


@blp.route("/<tournament_id>/withdraw", methods=["POST"])
@blp.arguments(withdraw_in, required=False)
@blp.response(200, contract.ref(shapes.Entered))
@blp.doc(**doc("withdrawTournament", AUTH, error_responses(401, 403, 404, 409, 422)))
def withdraw(body: dict[str, Any], tournament_id: str) -> Response:
    """Leave before the start; pause an arena (join again to come back: the points stay); withdraw from a
    Swiss or round robin (no more pairings)"""
    return respond(services().tournaments.withdraw(tournament_id, body, token()))


@blp.route("/<tournament_id>/start", methods=["POST"])
@blp.response(200, contract.ref(shapes.TournamentInfo))
@blp.doc(**doc("startTournament", AUTH, error_responses(401, 403, 404, 409)))
def start(tournament_id: str) -> Response:
    """The organiser starts it now, or pairs a Swiss' next round as soon as the round in play ends"""
    return respond(services().tournaments.start(tournament_id, token()))


@blp.route("/<tournament_id>/terminate", methods=["POST"])
@blp.response(200, contract.ref(shapes.TournamentInfo))
@blp.doc(**doc("terminateTournament", AUTH, error_responses(401, 403, 404, 409)))
def terminate(tournament_id: str) -> Response:
    """The organiser ends it: cancelled before its start; an arena's matches in play then count for
    nothing; a Swiss or round robin ends once its round in play does"""
    return respond(services().tournaments.terminate(tournament_id, token()))


@blp.route("/<tournament_id>/results", methods=["GET"])
@blp.response(200, contract.ref(shapes.TournamentResults))
@blp.doc(**doc("getTournamentResults", error_responses(404), ndjson_form(shapes.ResultLine)))
def results(tournament_id: str) -> Response:
    """The standings, best first (final once it is over); with Accept: application/x-ndjson, one player a
    line"""
    result = services().tournaments.results(tournament_id)
    if wants_ndjson():
        rows = result.body["players"]
        return streaming.ndjson_response(
            orjson.dumps({**row, "tournament": tournament_id}) + b"\n" for row in rows
        )
    return respond(result)


@blp.route("/<tournament_id>/games", methods=["GET"])
@blp.response(200, contract.ref(shapes.TournamentGames))
@blp.doc(**doc("getTournamentGames", error_responses(404), ndjson_form(ArchivedMatch)))
def games(tournament_id: str) -> Response:
    """Every finished match as the archive exports it, in the order they finished; with Accept:
    application/x-ndjson, one a line, streamed"""
    exports = services().tournaments.games(tournament_id)
    if wants_ndjson():
        return streaming.ndjson_response(orjson.dumps(exported) + b"\n" for exported in exports)
    return respond(Result({"games": list(exports)}))


@blp.route("/<tournament_id>/stream", methods=["GET"])
@blp.arguments(stream_query, location="query")
@blp.response(200, contract.ref(shapes.TournamentEvents))
@blp.doc(**doc("streamTournament", error_responses(404, 422), STREAM))
def stream(query: dict[str, Any], tournament_id: str) -> Response:
    """The tournament as it happens: NDJSON lines (or Server-Sent Events with Accept: text/event-stream; with
    Accept: application/json, a page of them: a long poll of up to ?wait= seconds)

    Opened afresh it starts with the standings as they are; then a pairing for each match paired, a
    result for each match finished and the standings after each change. Resumed with Last-Event-ID (or
    ?since=), with what was missed. Ends after ?wait= seconds (at most GIN_STREAM_MAX): reconnect with the
    last id."""
    since = query.get("since") or request.headers.get("Last-Event-ID")
    if since is not None and not streaming.EVENT_ID.fullmatch(since):
        raise ServiceError("bad_cursor", "a tournament event id looks like 1732450000000-0")
    found = services()
    opened = found.tournaments.open_stream(tournament_id, since)
    return streaming.resumable_response(
        opened.present,
        opened.after,
        lambda after, wait: found.tournaments.read_stream(opened, after, wait),
        query,
        found.config,
        sse=True,
    )
