"""The ``account`` resource: sign up and in, sessions, the password, personal API tokens, who am I and
the account's games in play. Every answer is ``Cache-Control: no-store``; passwords are only read."""

from __future__ import annotations

from typing import Any

from flask import Response

from ginrummy.app.shapes import accounts as shapes
from ginrummy.app.shapes import players

from . import account_schemas as schemas
from . import contract, streaming
from .docs import doc, error_responses, streamed
from .games import services
from .parsing import ApiBlueprint
from .requests import caller, respond, token

blp = ApiBlueprint(
    "account", __name__, url_prefix="/v1/account", description="Accounts: sign-in, sessions, API tokens"
)

ACCOUNT_AUTH: dict[str, Any] = {"security": [{"seatToken": []}]}
ACCOUNT_STREAM = streamed(
    shapes.AccountStreamLine,
    "an account event (with its id), a keepalive line (the first line, then after GIN_STREAM_KEEPALIVE "
    "seconds without events), or an error line if the store fails (the last line); the default form",
)
sign_up_in = schemas.SignUpIn()
sign_in_in = schemas.SignInIn()
password_in = schemas.PasswordIn()
token_in = schemas.TokenIn()
games_query = schemas.AccountGamesQuery()
stream_query = schemas.AccountStreamQuery()


@blp.route("", methods=["POST"])
@blp.arguments(sign_up_in, example={"name": "Ann", "password": "correct horse battery"})
@blp.response(201, contract.ref(shapes.SessionCreated))
@blp.doc(**doc("signUp", {"security": [{"seatToken": []}, {}]}, error_responses(401, 409, 422)))
def sign_up(body: dict[str, Any]) -> Response:
    """Sign up: a name and a password, signed in at once (a session token, shown once); with a player's
    own token, set the first password of that name-and-token player (claim the name)"""
    return respond(services().accounts.sign_up(body["name"], body["password"], caller()))


@blp.route("", methods=["GET"])
@blp.response(200, contract.ref(shapes.Account))
@blp.doc(**doc("getAccount", ACCOUNT_AUTH, error_responses(401)))
def account() -> Response:
    """Who am I: the account of this session, API token or player token"""
    return respond(services().accounts.account(token()))


@blp.route("/sessions", methods=["POST"])
@blp.arguments(sign_in_in, example={"name": "Ann", "password": "correct horse battery"})
@blp.response(201, contract.ref(shapes.SessionCreated))
@blp.doc(**doc("signIn", error_responses(401, 422)))
def sign_in(body: dict[str, Any]) -> Response:
    """Sign in: a new session (its token shown once); failed attempts are limited per name and address"""
    return respond(services().accounts.sign_in(body["name"], body["password"], caller()))


@blp.route("/sessions", methods=["GET"])
@blp.response(200, contract.ref(shapes.Sessions))
@blp.doc(**doc("getSessions", ACCOUNT_AUTH, error_responses(401, 403)))
def sessions() -> Response:
    """The account's signed-in sessions, newest first (never their tokens); needs a session token"""
    return respond(services().accounts.sessions(token()))


@blp.route("/sessions", methods=["DELETE"])
@blp.response(200, contract.ref(shapes.SignedOut))
@blp.doc(**doc("signOutEverywhere", ACCOUNT_AUTH, error_responses(401, 403)))
def sign_out_everywhere() -> Response:
    """Sign out everywhere: every session of the account ends, this one too"""
    return respond(services().accounts.sign_out(token(), "all"))


@blp.route("/sessions/<session_id>", methods=["DELETE"])
@blp.response(200, contract.ref(shapes.SignedOut))
@blp.doc(**doc("signOut", ACCOUNT_AUTH, error_responses(401, 403, 404)))
def sign_out(session_id: str) -> Response:
    """End one session by its id, or this one (``current``: sign out)"""
    return respond(services().accounts.sign_out(token(), session_id))


@blp.route("/password", methods=["POST"])
@blp.arguments(password_in)
@blp.response(200, contract.ref(shapes.SignedOut))
@blp.doc(**doc("changePassword", ACCOUNT_AUTH, error_responses(401, 403, 422)))
def change_password(body: dict[str, Any]) -> Response:
    """Change the password (the current one is needed; wrong ones count as failed sign-ins, under the same
    limits); every other session, and the player's own token, are signed out"""
    return respond(services().accounts.change_password(token(), body["current"], body["new"], caller()))


@blp.route("/tokens", methods=["POST"])
@blp.arguments(token_in, example={"description": "my bot", "scopes": ["play"]})
@blp.response(201, contract.ref(shapes.TokenCreated))
@blp.doc(**doc("createToken", ACCOUNT_AUTH, error_responses(401, 403, 422)))
def create_token(body: dict[str, Any]) -> Response:
    """A personal API token with scopes (shown once); needs a session token"""
    return respond(services().accounts.create_token(token(), body["description"], body["scopes"]))


@blp.route("/tokens", methods=["GET"])
@blp.response(200, contract.ref(shapes.Tokens))
@blp.doc(**doc("getTokens", ACCOUNT_AUTH, error_responses(401, 403)))
def tokens() -> Response:
    """The account's API tokens (description, scopes, created, last used — never the tokens)"""
    return respond(services().accounts.tokens(token()))


@blp.route("/tokens/<token_id>", methods=["DELETE"])
@blp.response(200, contract.ref(shapes.Revoked))
@blp.doc(**doc("revokeToken", ACCOUNT_AUTH, error_responses(401, 403, 404)))
def revoke_token(token_id: str) -> Response:
    """Revoke an API token: refused from the next request on, by every process"""
    return respond(services().accounts.revoke_token(token(), token_id))


@blp.route("/games", methods=["GET"])
@blp.arguments(games_query, location="query")
@blp.response(200, contract.ref(shapes.AccountGames))
@blp.doc(**doc("getAccountGames", ACCOUNT_AUTH, error_responses(401, 422)))
def games(query: dict[str, Any]) -> Response:
    """The account's games in play (?status=live), newest first, from any device"""
    return respond(services().accounts.games(token()))


@blp.route("/following", methods=["GET"])
@blp.response(200, contract.ref(players.Following))
@blp.doc(**doc("getFollowing", ACCOUNT_AUTH, error_responses(401)))
def following() -> Response:
    """The players the account follows: who is online now, and their games in play"""
    return respond(services().relations.following(token()))


@blp.route("/blocking", methods=["GET"])
@blp.response(200, contract.ref(players.Blocking))
@blp.doc(**doc("getBlocking", ACCOUNT_AUTH, error_responses(401)))
def blocking() -> Response:
    """The players the account blocks (only the account sees this)"""
    return respond(services().relations.blocking(token()))


@blp.route("/bot", methods=["POST"])
@blp.response(200, contract.ref(shapes.Account))
@blp.doc(**doc("becomeBot", ACCOUNT_AUTH, error_responses(401, 403, 409)))
def become_bot() -> Response:
    """Make this account a bot account, for good: it then plays only through API tokens and is listed by
    GET /v1/bots while its account stream is open. Only an account that has played no game may; needs a
    session token"""
    return respond(services().accounts.become_bot(token()))


@blp.route("/stream", methods=["GET"])
@blp.arguments(stream_query, location="query")
@blp.response(200, contract.ref(shapes.AccountEvents))
@blp.doc(**doc("streamAccount", ACCOUNT_AUTH, error_responses(401, 422), ACCOUNT_STREAM))
def stream(query: dict[str, Any]) -> Response:
    """The account's events as they happen, one JSON object a line (NDJSON; with Accept:
    application/json, a page of them: a long poll of up to ?wait= seconds)

    gameStart and gameFinish of its games, challenge (received or sent), challengeCanceled,
    challengeDeclined, and keepalive lines; with ?follows=true, followedGameStart when a player it follows
    starts a game (not a private one). Opened afresh, it starts with a gameStart for every game in
    play and a challenge for every open challenge received; resumed with Last-Event-ID (or ?since=), with
    what was missed. Ends after ?wait= seconds (at most GIN_STREAM_MAX): reconnect with the last id."""
    return streaming.account_stream_response(services(), token(), query)
