"""Accounts as stories through the service on real Redis and PostgreSQL: sign up, sign in from two
devices, play a game started on one from the other, list the games in play, API tokens with scopes,
revocation refused at once, sign-in brute force meeting 429 — and no password or token in a log, a list
or the database."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.http import create_app

PASSWORD = "correct horse battery"


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def sign_up(client: FlaskClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/v1/account", json={"name": name, "password": password})
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def sign_in(client: FlaskClient, name: str, password: str = PASSWORD, **headers: str) -> Any:
    return client.post("/v1/account/sessions", json={"name": name, "password": password}, headers=headers)


def test_second_device_plays_the_game_of_the_first(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    name = unique("acc")
    signed_up = sign_up(client, name)
    assert signed_up["token"].startswith("gin_s_") and signed_up["name"] == name
    laptop = sign_in(client, name, **{"User-Agent": "laptop-browser"}).get_json()["token"]
    phone = sign_in(client, name, **{"User-Agent": "phone-browser"}).get_json()["token"]
    created = client.post(
        "/v1/games", json={"opponent": {"type": "bot", "bot": "simple"}}, headers=bearer(laptop)
    )
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["game_id"]

    listed = client.get("/v1/account/games?status=live", headers=bearer(phone)).get_json()["games"]
    assert [g["game_id"] for g in listed][:1] == [game_id] and listed[0]["seat"] == 0

    view = client.get(f"/v1/games/{game_id}", headers=bearer(phone))
    assert view.status_code == 200 and "hand" in view.get_json()
    action = next(a for a in view.get_json()["legal_actions"] if a["type"] in ("pass", "draw"))
    acted = client.post(
        f"/v1/games/{game_id}/actions",
        json=action,
        headers={**bearer(phone), "If-Match": view.headers["ETag"]},
    )
    assert acted.status_code == 200, acted.get_json()

    sessions = client.get("/v1/account/sessions", headers=bearer(phone)).get_json()["sessions"]
    assert len(sessions) == 3 and sum(s["current"] for s in sessions) == 1
    assert {"laptop-browser", "phone-browser"} <= {s["user_agent"] for s in sessions}
    assert all("token" not in s for s in sessions)
    me = client.get("/v1/account", headers=bearer(phone)).get_json()
    assert me["name"] == name and me["sessions"] == 3 and me["password"] is True

    # Sign out the laptop from the phone: refused at once; then the phone signs itself out.
    laptop_id = next(s["id"] for s in sessions if s["user_agent"] == "laptop-browser")
    assert (
        client.delete(f"/v1/account/sessions/{laptop_id}", headers=bearer(phone)).get_json()["signed_out"]
        == 1
    )
    assert client.get("/v1/account", headers=bearer(laptop)).status_code == 401
    assert client.delete("/v1/account/sessions/current", headers=bearer(phone)).status_code == 200
    refused = client.get(f"/v1/games/{game_id}", headers=bearer(phone))
    assert refused.status_code == 403  # no longer the seat's player
    everything = caplog.text
    for secret in (PASSWORD, signed_up["token"], laptop, phone):
        assert secret not in everything


def test_sign_in_refusals_and_password_change(client: FlaskClient) -> None:
    name = unique("acc")
    first = sign_up(client, name)["token"]
    assert client.post("/v1/account", json={"name": name.upper(), "password": PASSWORD}).get_json()[
        "code"
    ] == ("account_exists")
    weak = client.post("/v1/account", json={"name": unique("w"), "password": "short"})
    assert weak.status_code == 422 and weak.get_json()["code"] == "weak_password"
    for who, password in ((name, "wrong password!"), (unique("nobody"), PASSWORD)):
        refused = sign_in(client, who, password)
        assert refused.status_code == 401 and refused.get_json()["code"] == "bad_credentials"
        assert PASSWORD not in refused.get_data(as_text=True)
    other = sign_in(client, name).get_json()["token"]
    wrong = client.post(
        "/v1/account/password", json={"current": "nope", "new": "another long one"}, headers=bearer(first)
    )
    assert wrong.get_json()["code"] == "bad_credentials"
    changed = client.post(
        "/v1/account/password", json={"current": PASSWORD, "new": "another long one"}, headers=bearer(first)
    )
    assert changed.status_code == 200 and changed.get_json()["signed_out"] == 1
    assert client.get("/v1/account", headers=bearer(other)).status_code == 401
    assert client.get("/v1/account", headers=bearer(first)).status_code == 200
    assert (
        sign_in(client, name).status_code == 401
        and sign_in(client, name, "another long one").status_code == 201
    )
    assert client.delete("/v1/account/sessions", headers=bearer(first)).get_json()["signed_out"] == 2
    assert client.get("/v1/account", headers=bearer(first)).status_code == 401


def test_claim_a_name_and_token_player(client: FlaskClient) -> None:
    name = unique("old")
    player_token = client.post("/v1/players", json={"name": name}).get_json()["token"]
    assert client.post("/v1/account", json={"name": name, "password": PASSWORD}).status_code == 409
    stranger = client.post("/v1/account", json={"name": name, "password": PASSWORD}, headers=bearer("nope"))
    assert stranger.status_code == 409
    claimed = client.post(
        "/v1/account", json={"name": name, "password": PASSWORD}, headers=bearer(player_token)
    )
    assert claimed.status_code == 201, claimed.get_json()
    assert sign_in(client, name).status_code == 201
    assert (
        client.get("/v1/account", headers=bearer(player_token)).get_json()["credential"]["kind"] == "player"
    )


def test_api_tokens_scopes_and_revocation(client: FlaskClient, database_url: str) -> None:
    name = unique("bot")
    session = sign_up(client, name)["token"]
    made = client.post(
        "/v1/account/tokens", json={"description": "my bot", "scopes": ["play"]}, headers=bearer(session)
    )
    assert made.status_code == 201 and made.get_json()["token"].startswith("gin_p_")
    play = made.get_json()["token"]
    read = client.post(
        "/v1/account/tokens", json={"description": "a dashboard", "scopes": ["read"]}, headers=bearer(session)
    ).get_json()["token"]
    assert client.get("/v1/account/tokens", headers=bearer(play)).get_json()["code"] == "session_required"
    listed = client.get("/v1/account/tokens", headers=bearer(session)).get_json()["tokens"]
    assert {t["description"] for t in listed} == {"my bot", "a dashboard"} and all(
        "token" not in t for t in listed
    )

    refused = client.post(
        "/v1/games", json={"opponent": {"type": "bot", "bot": "simple"}}, headers=bearer(read)
    )
    assert refused.status_code == 403 and refused.get_json()["code"] == "token_scope"
    created = client.post(
        "/v1/games", json={"opponent": {"type": "bot", "bot": "simple"}}, headers=bearer(play)
    )
    game_id = created.get_json()["game_id"]
    view = client.get(f"/v1/games/{game_id}", headers=bearer(read))
    assert view.status_code == 200 and "hand" in view.get_json()
    action = next(a for a in view.get_json()["legal_actions"] if a["type"] in ("pass", "draw"))
    acting = client.post(
        f"/v1/games/{game_id}/actions",
        json=action,
        headers={**bearer(read), "If-Match": view.headers["ETag"]},
    )
    assert acting.status_code == 403 and acting.get_json()["code"] == "token_scope"
    assert client.get("/v1/account/games", headers=bearer(read)).get_json()["games"][0]["game_id"] == game_id

    token_id = next(t["id"] for t in listed if t["description"] == "my bot")
    assert client.delete(f"/v1/account/tokens/{token_id}", headers=bearer(session)).status_code == 200
    assert client.get("/v1/account", headers=bearer(play)).status_code == 401
    assert client.get(f"/v1/games/{game_id}", headers=bearer(play)).status_code == 403
    assert client.delete(f"/v1/account/tokens/{token_id}", headers=bearer(session)).status_code == 404

    with psycopg.connect(database_url) as conn:
        stored = conn.execute(
            "SELECT token_digest FROM api_tokens UNION ALL SELECT token_digest FROM sessions"
        ).fetchall()
        hashes = conn.execute("SELECT password_hash FROM players WHERE password_hash IS NOT NULL").fetchall()
    texts = {row[0] for row in stored}
    assert not {play, read, session} & texts
    assert all(row[0].startswith("$argon2id$") and PASSWORD not in row[0] for row in hashes)


def test_brute_force_meets_429(redis_url: str) -> None:
    """Past 3 failures for a name, or 5 from an address, sign-in is refused with Retry-After (before
    any password is hashed), whatever the password."""
    app: Flask = create_app(
        {"redis_url": redis_url, "signin_account_failures": 3, "signin_address_failures": 5}
    )
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.7"
    name = unique("victim")
    sign_up(client, name)
    answers = [sign_in(client, name, f"guess number {n}").status_code for n in range(4)]
    assert answers == [401, 401, 401, 429]
    limited = sign_in(client, name)  # the right password too: the account's window is not over
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    assert limited.get_json()["code"] == "rate_limited"
    # The same address, other names: two more failures reach its limit of 5.
    assert [sign_in(client, unique("n"), "guess").status_code for _ in range(3)] == [401, 401, 429]
    client.environ_base["REMOTE_ADDR"] = (
        "10.255.255.1"  # the owner, elsewhere, still waits for the name's window
    )
    assert sign_in(client, name).status_code == 429


@pytest.mark.parametrize("ending", ["sign out everywhere", "new password"])
def test_signing_out_everywhere_or_a_new_password_ends_the_claimed_players_token(
    client: FlaskClient, ending: str
) -> None:
    name = unique("old")
    player_token = client.post("/v1/players", json={"name": name}).get_json()["token"]
    session = client.post(
        "/v1/account", json={"name": name, "password": PASSWORD}, headers=bearer(player_token)
    ).get_json()["token"]
    assert client.get("/v1/account", headers=bearer(player_token)).status_code == 200  # still works here
    if ending == "sign out everywhere":
        assert client.delete("/v1/account/sessions", headers=bearer(session)).status_code == 200
    else:
        changed = client.post(
            "/v1/account/password",
            json={"current": PASSWORD, "new": "another long one"},
            headers=bearer(session),
        )
        assert changed.status_code == 200, changed.get_json()
    assert client.get("/v1/account", headers=bearer(player_token)).status_code == 401
    game = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(player_token))
    assert game.status_code == 401 and game.get_json()["code"] == "unknown_player"
