"""Challenges, bot accounts and the account stream through the service on real Redis and PostgreSQL:
a named player challenged, accepting, declining with a reason, a challenger cancelling, an anonymous
challenger, a house bot accepting at once, expiry; the stream telling each side, afresh and resumed;
a bot account that plays only through its API tokens and is listed online by GET /v1/bots."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import orjson
import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.app.players import ratings
from ginrummy.http import create_app

from .gameplay import archived
from .test_accounts import PASSWORD, bearer, sign_up, unique


def account(client: FlaskClient, prefix: str = "ch") -> tuple[str, str]:
    name = unique(prefix)
    return name, sign_up(client, name)["token"]


def challenge(client: FlaskClient, token: str | None, **body: Any) -> Any:
    return client.post("/v1/challenges", json=body, headers=bearer(token) if token else {})


def stream(
    client: FlaskClient, token: str, *, since: str | None = None, wait: float = 1
) -> list[dict[str, Any]]:
    """The account stream's lines (keep-alives left out) until it ends after ``wait`` seconds."""
    query = f"?wait={wait}" + (f"&since={since}" if since else "")
    response = client.get("/v1/account/stream" + query, headers=bearer(token), buffered=False)
    assert response.status_code == 200, response.get_data()
    assert response.mimetype == "application/x-ndjson"
    lines = [orjson.loads(line) for line in b"".join(response.response).splitlines() if line]
    return [line for line in lines if line["type"] != "keepalive"]


def test_a_challenge_accepted_starts_a_game_both_sides_play(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    made = challenge(client, ann_token, opponent=bob.upper(), rated=True, rules={"preset": "oklahoma"})
    assert made.status_code == 201, made.get_json()
    created = made.get_json()
    shown = created["challenge"]
    assert made.headers["Location"] == f"/v1/challenges/{shown['id']}"
    assert shown["status"] == "open" and shown["rated"] is True and shown["game_id"] is None
    assert shown["challenger"] == {"name": ann, "player": ann}
    assert shown["opponent"] == {"name": bob, "player": bob, "bot": False}  # the name as its player typed it
    assert "secret_hash" not in shown and created["token"]

    # Both sides list it; nobody else sees it (404, as for no challenge).
    assert [c["id"] for c in client.get("/v1/challenges", headers=bearer(bob_token)).get_json()["in"]] == [
        shown["id"]
    ]
    assert [c["id"] for c in client.get("/v1/challenges", headers=bearer(ann_token)).get_json()["out"]] == [
        shown["id"]
    ]
    _, eve_token = account(client, "eve")
    assert client.get(f"/v1/challenges/{shown['id']}", headers=bearer(eve_token)).status_code == 404
    refused = client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(eve_token))
    assert refused.status_code == 404 and refused.get_json()["code"] == "challenge_not_found"
    # The challenger cannot accept its own challenge; the challenged cannot cancel it.
    assert client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(ann_token)).status_code == 403
    assert client.post(f"/v1/challenges/{shown['id']}/cancel", headers=bearer(bob_token)).status_code == 403

    accepted = client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(bob_token))
    assert accepted.status_code == 201, accepted.get_json()
    game = accepted.get_json()
    assert game["seat"] == 1 and game["token"] and game["challenge"]["status"] == "accepted"
    game_id = game["game_id"]
    assert game["challenge"]["game_id"] == game_id and game["view"]["rated"] is True
    again = client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(bob_token))
    assert again.status_code == 409 and again.get_json()["code"] == "challenge_closed"

    # Seats belong to accounts: each side acts with its session; the challenger also with the challenge's token.
    for token, seat in ((ann_token, 0), (bob_token, 1), (created["token"], 0)):
        view = client.get(f"/v1/games/{game_id}", headers=bearer(token)).get_json()
        assert view["seat"] == seat
    status = client.get(f"/v1/challenges/{shown['id']}", headers=bearer(created["token"])).get_json()
    assert status["status"] == "accepted" and status["game_id"] == game_id

    # Each side's stream, opened afresh, starts with the game in play.
    for token, seat in ((ann_token, 0), (bob_token, 1)):
        starts = [e for e in stream(client, token, wait=1) if e["type"] == "gameStart"]
        assert [e["game"]["game_id"] for e in starts] == [game_id]
        assert starts[0]["game"]["seat"] == seat and starts[0]["id"]

    # A resign ends it: both streams, resumed, tell who won.
    before = stream(client, bob_token, wait=1)
    resumed_from = before[0]["id"]
    view = client.get(f"/v1/games/{game_id}", headers=bearer(ann_token))
    resigned = client.post(
        f"/v1/games/{game_id}/resign", headers={**bearer(ann_token), "If-Match": view.headers["ETag"]}
    )
    assert resigned.status_code == 200, resigned.get_json()
    finished = [e for e in stream(client, bob_token, since=resumed_from, wait=1) if e["type"] == "gameFinish"]
    assert (
        len(finished) == 1
        and finished[0]["game"]["result"] == "won"
        and finished[0]["game"]["game_id"] == game_id
    )
    lost = [e for e in stream(client, ann_token, since=resumed_from, wait=1) if e["type"] == "gameFinish"]
    assert lost and lost[-1]["game"]["result"] == "lost"


def test_decline_with_a_reason_and_cancel_tell_the_other_side(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    mark = stream(client, ann_token, wait=1)
    first = challenge(client, ann_token, opponent=bob).get_json()["challenge"]
    declined = client.post(
        f"/v1/challenges/{first['id']}/decline", json={"reason": "too_fast"}, headers=bearer(bob_token)
    )
    assert declined.status_code == 200 and declined.get_json()["status"] == "declined"
    assert declined.get_json()["decline_reason"] == "too_fast"
    assert client.post(f"/v1/challenges/{first['id']}/cancel", headers=bearer(ann_token)).status_code == 409
    told = stream(client, ann_token, since=mark[-1]["id"] if mark else "0-0", wait=1)
    assert [e["challenge"]["decline_reason"] for e in told if e["type"] == "challengeDeclined"] == [
        "too_fast"
    ]

    second = challenge(client, ann_token, opponent=bob).get_json()["challenge"]
    bob_events = stream(client, bob_token, wait=1)
    assert [e["challenge"]["id"] for e in bob_events if e["type"] == "challenge"] == [
        second["id"]
    ]  # open ones
    cancelled = client.post(f"/v1/challenges/{second['id']}/cancel", headers=bearer(ann_token))
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "canceled"
    resumed = stream(client, bob_token, since=bob_events[-1]["id"], wait=1)
    assert [e["challenge"]["id"] for e in resumed if e["type"] == "challengeCanceled"] == [second["id"]]
    assert client.get("/v1/challenges", headers=bearer(bob_token)).get_json()["in"] == []

    bad = client.post(
        f"/v1/challenges/{second['id']}/decline", json={"reason": "boring"}, headers=bearer(bob_token)
    )
    assert bad.status_code == 422 and bad.get_json()["code"] == "validation_error"


def test_a_stream_tells_of_a_challenge_as_it_comes(client: FlaskClient, app: Flask) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    other = app.test_client()
    timer = threading.Timer(0.5, lambda: challenge(other, ann_token, opponent=bob))
    timer.start()
    try:
        events = stream(client, bob_token, wait=3)
    finally:
        timer.join()
    assert [e["type"] for e in events] == ["challenge"] and events[0]["challenge"]["challenger"][
        "name"
    ] == ann


def test_an_anonymous_challenger_and_a_house_bot(client: FlaskClient) -> None:
    bob, bob_token = account(client, "bob")
    made = challenge(client, None, opponent=bob, name="Guest Gil")
    assert made.status_code == 201, made.get_json()
    secret = made.get_json()["token"]
    shown = made.get_json()["challenge"]
    assert shown["challenger"] == {"name": "Guest Gil", "player": None}
    assert client.get(f"/v1/challenges/{shown['id']}", headers=bearer(secret)).get_json()["status"] == "open"
    game = client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(bob_token)).get_json()
    view = client.get(f"/v1/games/{game['game_id']}", headers=bearer(secret)).get_json()
    assert view["seat"] == 0 and view["players"][0]["name"] == "Guest Gil"
    refused = challenge(client, None, opponent=bob, rated=True)
    assert refused.status_code == 422 and refused.get_json()["code"] == "player_required"

    # A house bot accepts at once; rated with an account.
    ann, ann_token = account(client, "ann")
    made = challenge(client, ann_token, opponent="bot-expert", rated=True)
    assert made.status_code == 201, made.get_json()
    shown = made.get_json()["challenge"]
    assert shown["status"] == "accepted" and shown["opponent"]["bot"] is True and shown["game_id"]
    view = client.get(f"/v1/games/{shown['game_id']}", headers=bearer(made.get_json()["token"])).get_json()
    assert view["rated"] is True and view["players"][1]["name"] == "expert"
    unknown = challenge(client, ann_token, opponent="bot-grandmaster")
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "unknown_bot"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"opponent": "nobody-" + uuid.uuid4().hex[:8]}, 404, "player_not_found"),
        ({"opponent": "SELF"}, 422, "challenge_self"),
        ({"opponent": "OTHER", "rules": {"preset": "backgammon"}}, 422, "bad_rules"),
        (
            {"opponent": "OTHER", "rated": True, "rules": {"options": {"target": 50}}},
            422,
            "rated_needs_preset",
        ),
        ({"opponent": "OTHER", "clock": {"preset": "glacial"}}, 422, "validation_error"),
        ({}, 422, "validation_error"),
    ],
)
def test_bad_challenges_are_refused_and_change_nothing(
    client: FlaskClient, body: dict[str, Any], status: int, code: str
) -> None:
    me, token = account(client, "me")
    other, other_token = account(client, "other")
    body = {k: {"SELF": me, "OTHER": other}.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    refused = challenge(client, token, **body)
    assert (refused.status_code, refused.get_json()["code"]) == (status, code), refused.get_json()
    assert refused.get_json()["detail"]
    assert client.get("/v1/challenges", headers=bearer(token)).get_json() == {"in": [], "out": []}
    assert client.get("/v1/challenges", headers=bearer(other_token)).get_json() == {"in": [], "out": []}


def test_an_unanswered_challenge_expires(redis_url: str) -> None:
    client = create_app({"redis_url": redis_url, "challenge_ttl": 1, "stream_keepalive": 1}).test_client()
    _, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    shown = challenge(client, ann_token, opponent=bob).get_json()["challenge"]
    time.sleep(1.2)
    assert (
        client.get(f"/v1/challenges/{shown['id']}", headers=bearer(ann_token)).get_json()["status"]
        == "expired"
    )
    late = client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(bob_token))
    assert late.status_code == 409 and late.get_json()["challenge_status"] == "expired"
    assert client.get("/v1/challenges", headers=bearer(bob_token)).get_json()["in"] == []


def test_a_bot_account_plays_through_its_tokens_and_is_listed_online(client: FlaskClient) -> None:
    name, session = account(client, "botty")
    made = client.post("/v1/account/bot", headers=bearer(session))
    assert made.status_code == 200 and made.get_json()["bot"] is True
    again = client.post("/v1/account/bot", headers=bearer(session))
    assert again.status_code == 409 and again.get_json()["code"] == "already_bot"
    profile = client.get(f"/v1/players/{name}").get_json()
    assert profile["bot"] is True
    # Its session reads, never plays; an API token with scope bot plays.
    refused = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(session))
    assert refused.status_code == 403 and refused.get_json()["code"] == "token_scope"
    token = client.post(
        "/v1/account/tokens", json={"description": "engine", "scopes": ["bot"]}, headers=bearer(session)
    ).get_json()["token"]
    assert name not in [a["name"] for a in client.get("/v1/bots").get_json()["accounts"]]
    stream(client, token, wait=1)  # its account stream open: online
    listed = client.get("/v1/bots").get_json()
    assert name in [a["name"] for a in listed["accounts"]]
    human, human_token = account(client, "human")
    shown = challenge(client, human_token, opponent=name).get_json()["challenge"]
    assert shown["opponent"]["bot"] is True
    game = client.post(f"/v1/challenges/{shown['id']}/accept", headers=bearer(token))
    assert game.status_code == 201 and game.get_json()["seat"] == 1
    # An account that has played a game may not become a bot.
    _, veteran = account(client, "vet")
    created = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(veteran)).get_json()
    view = client.get(f"/v1/games/{created['game_id']}", headers=bearer(veteran))
    etag = {"If-Match": view.headers["ETag"]}
    assert (
        client.post(f"/v1/games/{created['game_id']}/resign", headers={**bearer(veteran), **etag}).status_code
        == 200
    )
    archived(client, created["game_id"])
    refused = client.post("/v1/account/bot", headers=bearer(veteran))
    assert refused.status_code == 409 and refused.get_json()["code"] == "account_has_games"


def test_house_bots_have_profiles_and_seeded_ratings(client: FlaskClient) -> None:
    listed = client.get("/v1/bots").get_json()
    expert = next(b for b in listed["bots"] if b["name"] == "expert")
    assert expert["player"] == "bot-expert"
    simple = next(b for b in listed["bots"] if b["name"] == "simple")
    assert set(expert["ratings"]) >= {"standard", "oklahoma"} and simple["ratings"]["standard"]["rating"]
    assert expert["ratings"]["standard"]["rating"] > simple["ratings"]["standard"]["rating"]
    random_bot = next(b for b in listed["bots"] if b["name"] == "random")
    assert random_bot["ratings"]["standard"]["rating"] < simple["ratings"]["standard"]["rating"]
    profile = client.get("/v1/players/bot-expert").get_json()
    assert profile["bot"] is True and "standard" in profile["ratings"]
    # The seeds' ordinals are the service's formula (the migration computes them in SQL).
    seeded = expert["ratings"]["oklahoma"]
    if seeded["games"] == 0:
        mu = seeded["rating"]
        assert seeded["ordinal"] == round(ratings.ordinal(mu, seeded["deviation"]))
    assert PASSWORD  # (the accounts' helpers are shared)


def test_the_account_stream_as_a_page(client: FlaskClient) -> None:
    """With Accept: application/json the stream is a page: the present afresh, then what came after
    ``since`` (a long poll while nothing has)."""
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    first = challenge(client, ann_token, opponent=bob).get_json()["challenge"]
    json_headers = {**bearer(bob_token), "Accept": "application/json"}
    page = client.get("/v1/account/stream", headers=json_headers).get_json()
    assert [e["challenge"]["id"] for e in page["events"]] == [first["id"]]
    empty = client.get(
        f"/v1/account/stream?since={page['last_id']}&wait=0.2", headers=json_headers
    ).get_json()
    assert empty == {"events": [], "last_id": page["last_id"]}
    client.post(f"/v1/challenges/{first['id']}/cancel", headers=bearer(ann_token))
    later = client.get(f"/v1/account/stream?since={page['last_id']}", headers=json_headers).get_json()
    assert [e["type"] for e in later["events"]] == ["challengeCanceled"] and later["last_id"] != page[
        "last_id"
    ]
    bad = client.get("/v1/account/stream?since=yesterday", headers=json_headers)
    assert bad.status_code == 422


def test_answering_a_challenge_needs_a_token_that_may_act(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_session = account(client, "bob")
    bob_reader = client.post(
        "/v1/account/tokens", json={"description": "reader", "scopes": ["read"]}, headers=bearer(bob_session)
    ).get_json()["token"]
    ann_reader = client.post(
        "/v1/account/tokens", json={"description": "reader", "scopes": ["read"]}, headers=bearer(ann_token)
    ).get_json()["token"]
    made = challenge(client, ann_token, opponent=bob).get_json()["challenge"]
    declined = client.post(
        f"/v1/challenges/{made['id']}/decline", json={"reason": "generic"}, headers=bearer(bob_reader)
    )
    assert declined.status_code == 403 and declined.get_json()["code"] == "token_scope"
    cancelled = client.post(f"/v1/challenges/{made['id']}/cancel", headers=bearer(ann_reader))
    assert cancelled.status_code == 403 and cancelled.get_json()["code"] == "token_scope"
    assert (
        client.get(f"/v1/challenges/{made['id']}", headers=bearer(ann_token)).get_json()["status"] == "open"
    )
    # A bot account's session reads only: its program answers with its API token.
    bot, bot_session = account(client, "botty")
    assert client.post("/v1/account/bot", headers=bearer(bot_session)).status_code == 200
    to_bot = challenge(client, ann_token, opponent=bot).get_json()["challenge"]
    by_session = client.post(
        f"/v1/challenges/{to_bot['id']}/decline", json={"reason": "generic"}, headers=bearer(bot_session)
    )
    assert by_session.status_code == 403 and by_session.get_json()["code"] == "token_scope"


def test_an_account_with_a_game_in_play_cannot_become_a_bot(client: FlaskClient) -> None:
    _, session = account(client, "busy")
    created = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(session))
    assert created.status_code == 201
    refused = client.post("/v1/account/bot", headers=bearer(session))
    assert refused.status_code == 409 and refused.get_json()["code"] == "account_has_games"
    assert client.get("/v1/account", headers=bearer(session)).get_json()["bot"] is False
    game_id = created.get_json()["game_id"]
    view = client.get(f"/v1/games/{game_id}", headers=bearer(session))
    assert view.status_code == 200 and view.get_json()["legal_actions"]


def test_a_challenge_says_its_clock_in_numbers_and_its_path_as_url(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    made = challenge(client, ann_token, opponent=bob, clock={"preset": "rapid"})
    assert made.status_code == 201
    shown = made.get_json()["challenge"]
    assert shown["clock"] == {"preset": "rapid", "per_move": None, "bank": 600, "increment": 5}
    assert shown["url"] == f"/v1/challenges/{shown['id']}" == made.headers["Location"]
    assert "challenge" not in shown  # the member "challenge" is always the challenge object itself
    custom = challenge(client, ann_token, opponent=bob, clock={"bank": 120, "increment": 1}).get_json()
    assert custom["challenge"]["clock"] == {"preset": None, "per_move": None, "bank": 120, "increment": 1}
    listed = client.get("/v1/challenges", headers=bearer(bob_token)).get_json()["in"]
    assert {c["clock"]["bank"] for c in listed} == {600, 120}


def test_a_challenge_to_a_house_bot_is_read_back_by_its_challenger(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    made = challenge(client, ann_token, opponent="bot-simple").get_json()
    shown = made["challenge"]
    read = client.get(shown["url"], headers=bearer(ann_token))
    assert read.status_code == 200 and read.get_json()["status"] == "accepted"
    assert read.get_json()["game_id"] == shown["game_id"]
    anonymous = challenge(client, None, opponent="bot-simple", name="Guest").get_json()
    by_token = client.get(anonymous["challenge"]["url"], headers=bearer(anonymous["token"]))
    assert by_token.status_code == 200 and by_token.get_json()["game_id"] == anonymous["challenge"]["game_id"]
    _, stranger = account(client, "eve")
    assert client.get(shown["url"], headers=bearer(stranger)).status_code == 404


def test_a_bot_accounts_profile_has_no_rank_as_the_leaderboard_has_none(client: FlaskClient) -> None:
    profile = client.get("/v1/players/bot-expert").get_json()
    assert profile["ratings"]["standard"]["rank"] is None
    board = client.get("/v1/leaderboard?family=standard").get_json()
    assert "bot-expert" not in [row["name"] for row in board["players"]]


def test_a_challenge_made_while_a_stream_opens_is_told_once(client: FlaskClient, app: Flask) -> None:
    """The race a loaded machine showed: a challenge published after the stream read where it starts
    (``after``) but before it listed the present came twice — in the present and as its event."""
    from ginrummy.app.accounts.stream import AccountStreams
    from ginrummy.app.players.feed import AccountFeed

    from .conftest import services_of

    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    services = services_of(app)
    before = services.streams.feed.last_id(bob)

    class ReadEarlier(AccountFeed):
        """The feed as a stream saw it when it read ``after`` — a moment before the challenge came."""

        def last_id(self, player: str) -> str:
            return before

    made = challenge(client, ann_token, opponent=bob).get_json()["challenge"]
    feed = ReadEarlier(services.streams.feed.live)
    streams = AccountStreams(services.accounts, services.challenges, feed)
    opened = streams.open(bob_token, None)
    told = [e["challenge"]["id"] for e in opened.present if e["type"] == "challenge"]
    told += [orjson.loads(text)["challenge"]["id"] for _, text in feed.read(bob, opened.after, 0)]
    assert told.count(made["id"]) == 1
