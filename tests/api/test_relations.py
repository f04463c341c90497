"""Follows and blocks through the service on real Redis and PostgreSQL: following a person and a bot
account, the list of who is online and playing, the followers on a profile; a block that declines the
blocked player's challenges without telling it, and keeps the two apart in an arena's waves."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from .test_challenges import challenge, stream
from .test_tournaments import account, bearer, bot_account, create, director, info, run_until


def test_follow_a_person_and_a_bot_see_who_is_online_and_the_followers(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    botty, bot_token = bot_account(client)
    for name in (bob.upper(), botty):
        followed = client.post(f"/v1/players/{name}/follow", headers=bearer(ann_token))
        assert followed.status_code == 200 and followed.get_json()["following"] is True
    assert client.get(f"/v1/players/{bob}").get_json()["followers"] == 1
    stream(client, bot_token, wait=0.5)  # the bot account's stream open: online
    game = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(bob_token)).get_json()
    listed = client.get("/v1/account/following", headers=bearer(ann_token)).get_json()["players"]
    by_name = {p["name"]: p for p in listed}
    assert set(by_name) == {bob, botty}
    assert by_name[botty]["bot"] is True and by_name[botty]["online"] is True
    assert by_name[bob]["bot"] is False and by_name[bob]["playing"] == [game["game_id"]]
    assert client.get(f"/v1/players/{botty}").get_json()["online"] is True  # a profile's online dot
    assert client.get(f"/v1/players/{ann}").get_json()["online"] is False
    assert (
        client.post(f"/v1/players/{bob}/unfollow", headers=bearer(ann_token)).get_json()["following"] is False
    )
    assert client.get(f"/v1/players/{bob}").get_json()["followers"] == 0
    # Refusals: no account, no such player, oneself.
    assert client.post(f"/v1/players/{bob}/follow").status_code == 401
    assert client.post("/v1/players/nobody-here/follow", headers=bearer(ann_token)).status_code == 404
    assert client.post(f"/v1/players/{ann}/follow", headers=bearer(ann_token)).status_code == 403


def test_a_blocked_players_challenge_is_declined_and_it_is_never_told(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    blocked = client.post(f"/v1/players/{bob}/block", headers=bearer(ann_token))
    assert blocked.status_code == 200 and blocked.get_json() == {"player": bob, "blocking": True}
    assert client.get("/v1/account/blocking", headers=bearer(ann_token)).get_json()["players"] == [bob]
    assert client.get("/v1/account/blocking", headers=bearer(bob_token)).get_json()["players"] == []
    since = stream(client, ann_token, wait=0.5)
    made = challenge(client, bob_token, opponent=ann)
    assert made.status_code == 201
    shown = made.get_json()["challenge"]
    # Bob sees a declined challenge, as any; Ann is never asked.
    assert shown["status"] == "declined" and shown["decline_reason"] == "generic"
    assert "block" not in made.get_data(as_text=True)
    assert client.get("/v1/challenges", headers=bearer(ann_token)).get_json()["in"] == []
    after = stream(client, ann_token, wait=0.5, since=since[-1]["id"] if since else None)
    assert [e for e in after if e["type"] == "challenge"] == []
    # Ann may not challenge whom she blocks (she knows her own block); after unblocking, she may.
    refused = challenge(client, ann_token, opponent=bob)
    assert refused.status_code == 403 and refused.get_json()["code"] == "player_blocked"
    client.post(f"/v1/players/{bob}/unblock", headers=bearer(ann_token))
    assert challenge(client, bob_token, opponent=ann).get_json()["challenge"]["status"] == "open"


def test_an_arena_never_pairs_two_who_block_each_other(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="arena", minutes=5, bots=True).get_json()["tournament"]["id"]
    ann, ann_token = bot_account(client, "ann")
    bob, bob_token = bot_account(client, "bob")
    client.post(f"/v1/players/{bob}/block", headers=bearer(ann_token))
    for token in (ann_token, bob_token):
        assert client.post(f"/v1/tournaments/{tid}/join", headers=bearer(token)).status_code == 200
    client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    runner = director(app)
    run_until(runner.step, lambda: info(client, tid)["status"] == "started")
    for _ in range(3):
        runner.step()
    assert info(client, tid)["playing"] == [], "the only two waiting block each other: no pairing"
    client.post(f"/v1/tournaments/{tid}/join", json={"bot": "simple"}, headers=bearer(organiser))
    run_until(runner.step, lambda: bool(info(client, tid)["playing"]))
    (pairing,) = info(client, tid)["playing"]
    assert "bot-simple" in pairing["players"]
    client.post(f"/v1/tournaments/{tid}/terminate", headers=bearer(organiser))
    run_until(runner.step, lambda: info(client, tid)["status"] == "finished")


def test_a_stream_that_asks_is_told_when_someone_it_follows_starts_a_game(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    _, cat_token = account(client, "cat")
    for token in (ann_token, cat_token):
        client.post(f"/v1/players/{bob}/follow", headers=bearer(token))

    def last_id(token: str, query: str = "") -> str:
        page = client.get(
            f"/v1/account/stream{query}", headers={**bearer(token), "Accept": "application/json"}
        )
        return str(page.get_json()["last_id"])

    ann_since = last_id(ann_token)  # Ann's stream did not ask: she is not told
    since = last_id(cat_token, "?follows=true")
    game = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(bob_token)).get_json()
    private = {"opponent": {"type": "bot"}, "private": True}
    assert client.post("/v1/games", json=private, headers=bearer(bob_token)).status_code == 201
    told = stream(client, cat_token, wait=0.5, since=since)
    followed = [event for event in told if event["type"] == "followedGameStart"]
    assert [(e["player"], e["game"]["game_id"]) for e in followed] == [(bob, game["game_id"])]
    assert [e for e in stream(client, ann_token, wait=0.2, since=ann_since) if e["type"] != "keepalive"] == []
