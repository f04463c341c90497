"""The ``people`` resource: players and their profiles, the leaderboard, seeks and the lobby."""

from __future__ import annotations

from typing import Any

from flask import Response

from ginrummy.app.shapes import players as shapes
from ginrummy.app.shapes.archive import ArchivedMatch
from ginrummy.app.shapes.meeting import LobbySeeks, Pools, SeekCancelled, SeekStatus, SeekWaiting
from ginrummy.app.shapes.playing import CreatedGame

from . import contract, schemas, streaming
from .docs import OPTIONAL_AUTH_DOC, SEEK_AUTH, doc, error_responses, ndjson_form
from .games import services
from .parsing import ApiBlueprint
from .requests import caller, respond, token
from .streaming import wants_ndjson

blp = ApiBlueprint(
    "people", __name__, url_prefix="/v1", description="Players, ratings, the lobby and quick matching"
)

player_in = schemas.PlayerIn()
seek_in = schemas.SeekIn()
wait_query = schemas.WaitQuery()
leaderboard_query = schemas.LeaderboardQuery()
player_games_query = schemas.PlayerGamesQuery()
rating_history_query = schemas.RatingHistoryQuery()


@blp.route("/players", methods=["POST"])
@blp.arguments(player_in, example={"name": "Ann"})
@blp.response(201, contract.ref(shapes.PlayerCreated))
@blp.doc(**doc("createPlayer", error_responses(409, 422)))
def create_player(body: dict[str, Any]) -> Response:
    """Create a player: a unique name (ignoring case) and its token, shown once"""
    result = services().people.create_player(body["name"])
    return respond(result, location=f"/v1/players/{result.body['name']}")


@blp.route("/players/<name>", methods=["GET"])
@blp.response(200, contract.ref(shapes.Profile))
@blp.doc(**doc("getPlayer", error_responses(404)))
def player(name: str) -> Response:
    """A player's public profile: games, statistics, ratings and ranks, recent games"""
    return respond(services().people.profile(name))


@blp.route("/players/<name>/follow", methods=["POST"])
@blp.response(200, contract.ref(shapes.Followship))
@blp.doc(**doc("followPlayer", SEEK_AUTH, error_responses(401, 403, 404)))
def follow(name: str) -> Response:
    """Follow a player (a person or a bot): GET /v1/account/following says when it is online and playing"""
    return respond(services().relations.follow(name, token()))


@blp.route("/players/<name>/unfollow", methods=["POST"])
@blp.response(200, contract.ref(shapes.Followship))
@blp.doc(**doc("unfollowPlayer", SEEK_AUTH, error_responses(401, 403, 404)))
def unfollow(name: str) -> Response:
    """Stop following a player"""
    return respond(services().relations.follow(name, token(), on=False))


@blp.route("/players/<name>/block", methods=["POST"])
@blp.response(200, contract.ref(shapes.Blockage))
@blp.doc(**doc("blockPlayer", SEEK_AUTH, error_responses(401, 403, 404)))
def block(name: str) -> Response:
    """Block a player: its challenges are declined, it is never paired with you in an arena; it is never
    told"""
    return respond(services().relations.block(name, token()))


@blp.route("/players/<name>/unblock", methods=["POST"])
@blp.response(200, contract.ref(shapes.Blockage))
@blp.doc(**doc("unblockPlayer", SEEK_AUTH, error_responses(401, 403, 404)))
def unblock(name: str) -> Response:
    """Stop blocking a player"""
    return respond(services().relations.block(name, token(), on=False))


@blp.route("/players/<name>/games", methods=["GET"])
@blp.arguments(player_games_query, location="query")
@blp.response(200, contract.ref(shapes.PlayerGames))
@blp.doc(**doc("getPlayerGames", error_responses(404, 422), ndjson_form(ArchivedMatch)))
def player_games(query: dict[str, Any], name: str) -> Response:
    """A player's finished games, newest first, a page at a time (?cursor= the `next` of the last page);
    with Accept: application/x-ndjson, every game that passes the filters as one export document a line,
    streamed"""
    records = services().records
    if wants_ndjson():
        return streaming.ndjson_response(records.stream(name, query, token()))
    return respond(records.games(name, query, token()))


@blp.route("/players/<name>/rating-history", methods=["GET"])
@blp.arguments(rating_history_query, location="query")
@blp.response(200, contract.ref(shapes.RatingHistory))
@blp.doc(**doc("getRatingHistory", error_responses(404, 422)))
def rating_history(query: dict[str, Any], name: str) -> Response:
    """A player's rating per rules family before and after each rated game, oldest first"""
    return respond(services().records.rating_history(name, query.get("family"), token()))


@blp.route("/leaderboard", methods=["GET"])
@blp.arguments(leaderboard_query, location="query")
@blp.response(200, contract.ref(shapes.Leaderboard))
@blp.doc(**doc("getLeaderboard", error_responses(422)))
def leaderboard(query: dict[str, Any]) -> Response:
    """The best rated players of a rules family"""
    return respond(services().people.leaderboard(query["family"], query["limit"]))


@blp.route("/seeks", methods=["POST"])
@blp.arguments(
    seek_in, required=False, example={"rules": {"preset": "standard"}, "rated": True}
)  # no body: a quick standard casual seek
@blp.response(201, contract.ref(CreatedGame), description="Paired at once: the game, as for the taker")
@blp.doc(
    **doc(
        "createSeek",
        SEEK_AUTH,
        error_responses(401, 409, 422),
        {
            "responses": {
                202: {
                    "description": "Waiting in the lobby",
                    "content": {"application/json": {"schema": contract.ref(SeekWaiting)}},
                }
            }
        },
    )
)
def create_seek(body: dict[str, Any]) -> Response:
    """Seek a game (with a player token): a quick seek pairs with a compatible open seek at once;
    otherwise the seek waits in the lobby (202) and GET /v1/seeks/{id} with its token tells when a game
    starts"""
    result = services().seeks.seek(body, caller())
    if result.pending:
        return respond(result, location=f"/v1/seeks/{result.body['seek']['id']}")
    return respond(result)


@blp.route("/seeks/<seek_id>", methods=["GET"])
@blp.arguments(wait_query, location="query")
@blp.response(200, contract.ref(SeekStatus))
@blp.doc(**doc("getSeek", SEEK_AUTH, error_responses(401, 403, 404, 422)))
def seek(query: dict[str, Any], seek_id: str) -> Response:
    """The owner's seek (with the seek's token): open, or matched with its game; ?wait= long-polls (and
    ends when a seek in a pool is offered a bot)"""
    return respond(services().seeks.seek_status(seek_id, caller().token, query["wait"]))


@blp.route("/seeks/<seek_id>", methods=["DELETE"])
@blp.response(200, contract.ref(SeekCancelled))
@blp.doc(**doc("cancelSeek", SEEK_AUTH, error_responses(401, 403, 404, 409)))
def cancel_seek(seek_id: str) -> Response:
    """Withdraw an open seek (with the seek's token)"""
    return respond(services().seeks.cancel(seek_id, caller().token))


@blp.route("/seeks/<seek_id>/accept", methods=["POST"])
@blp.response(201, contract.ref(CreatedGame))
@blp.doc(**doc("acceptSeek", SEEK_AUTH, error_responses(401, 403, 404, 409)))
def accept_seek(seek_id: str) -> Response:
    """Take a seek of the lobby (with a player token): the game starts, you are seat 1. The seek of a
    player who blocks you is not found; the seek of one you block is refused (player_blocked)"""
    return respond(services().seeks.take(seek_id, caller()))


@blp.route("/lobby", methods=["GET"])
@blp.response(200, contract.ref(LobbySeeks))
@blp.doc(**doc("getLobby", OPTIONAL_AUTH_DOC, error_responses(401)))
def lobby() -> Response:
    """The open seeks, oldest first (no tokens: take one with POST /v1/seeks/{id}/accept); with a player's
    token, those of players in a block with it left out"""
    return respond(services().seeks.open_seeks(100, token()))


@blp.route("/lobby/pools", methods=["GET"])
@blp.response(200, contract.ref(Pools))
@blp.doc(**doc("getPools", error_responses()))
def pools() -> Response:
    """The quick pairing pools (a rules family and a clock, rated), each with how many wait in it: join one
    by posting its `seek` to POST /v1/seeks"""
    return respond(services().seeks.pools())
