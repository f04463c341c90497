"""The ``challenges`` resource: challenge a named player or bot, list your challenges, accept, decline,
cancel. What a challenge is and who may do what: :mod:`ginrummy.app.meeting.challenges`."""

from __future__ import annotations

from typing import Any

from flask import Response

from ginrummy.app.shapes import meeting as shapes

from . import account_schemas as schemas
from . import contract
from .docs import doc, error_responses
from .games import player_caller, services
from .parsing import ApiBlueprint
from .requests import respond, token

blp = ApiBlueprint(
    "challenges",
    __name__,
    url_prefix="/v1/challenges",
    description="Challenges: a game offered to a named player",
)

AUTH: dict[str, Any] = {"security": [{"seatToken": []}]}
challenge_in = schemas.ChallengeIn()
decline_in = schemas.DeclineIn()


@blp.route("", methods=["POST"])
@blp.arguments(challenge_in, example={"opponent": "Ann", "rules": {"preset": "standard"}, "rated": True})
@blp.response(201, contract.ref(shapes.ChallengeCreated))
@blp.doc(**doc("createChallenge", {"security": [{"seatToken": []}, {}]}, error_responses(401, 403, 404, 422)))
def create(body: dict[str, Any]) -> Response:
    """Challenge a player (or a house bot: bot-expert) to a game with these rules, clock and rating

    A house bot accepts at once (challenge.game_id is set). Anyone may challenge: with a session or
    token the challenge is the account's; without, the answer's token is the only key to it. That token
    is the challenger's seat token in the game to come."""
    result = services().challenges.create(body, player_caller())
    return respond(result, location=result.body["challenge"]["url"])


@blp.route("", methods=["GET"])
@blp.response(200, contract.ref(shapes.Challenges))
@blp.doc(**doc("getChallenges", AUTH, error_responses(401)))
def mine() -> Response:
    """The caller's open challenges: received (in) and sent (out)"""
    return respond(services().challenges.mine(token()))


@blp.route("/<challenge_id>", methods=["GET"])
@blp.response(200, contract.ref(shapes.Challenge))
@blp.doc(**doc("getChallenge", AUTH, error_responses(401, 404)))
def challenge(challenge_id: str) -> Response:
    """A challenge, to its two sides: open, accepted (with its game), declined (why), canceled, expired"""
    return respond(services().challenges.get(challenge_id, token()))


@blp.route("/<challenge_id>/accept", methods=["POST"])
@blp.response(201, contract.ref(shapes.ChallengeAccepted))
@blp.doc(**doc("acceptChallenge", AUTH, error_responses(401, 403, 404, 409)))
def accept(challenge_id: str) -> Response:
    """Accept a challenge made to you: the game starts (you are seat 1; the answer has your seat token)"""
    result = services().challenges.accept(challenge_id, player_caller())
    return respond(result, location=f"/v1/games/{result.body['game_id']}")


@blp.route("/<challenge_id>/decline", methods=["POST"])
@blp.arguments(decline_in, required=False)
@blp.response(200, contract.ref(shapes.Challenge))
@blp.doc(**doc("declineChallenge", AUTH, error_responses(401, 403, 404, 409, 422)))
def decline(body: dict[str, Any], challenge_id: str) -> Response:
    """Decline a challenge made to you, with a reason the challenger sees"""
    return respond(services().challenges.decline(challenge_id, body.get("reason", "generic"), token()))


@blp.route("/<challenge_id>/cancel", methods=["POST"])
@blp.response(200, contract.ref(shapes.Challenge))
@blp.doc(**doc("cancelChallenge", AUTH, error_responses(401, 403, 404, 409)))
def cancel(challenge_id: str) -> Response:
    """Withdraw a challenge you made (with your account, or the challenge's token)"""
    return respond(services().challenges.cancel(challenge_id, token()))
