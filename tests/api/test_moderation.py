"""Reports and moderation through the service on real PostgreSQL: a report quoting a chat line (written
straight into chat_lines: the chat's API is the lead's) reaches the moderators and no one else; the
command line appoints and dismisses moderators; a chat mute; closing an account ends its credentials and
its sign-ins and keeps its games — and no token in a list, a log or an answer."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy import admin
from ginrummy.store.moderation import ModerationStore

from .conftest import services_of
from .gameplay import problem
from .test_accounts import PASSWORD, bearer, sign_in, unique
from .test_records import rated_game
from .test_tournaments import account


def store(app: Flask) -> ModerationStore:
    return services_of(app).moderation.store


def moderator(client: FlaskClient, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """A new account made a moderator by ginrummy-admin (in this process: the subprocess is tested below)."""
    name, token = account(client, "mod")
    assert admin.main(["moderator", "grant", name]) == 0
    assert f"{name} is a moderator now" in capsys.readouterr().out
    return name, token


def say(app: Flask, game_id: str, n: int, author: str, body: str) -> None:
    player = store(app).player(author)
    assert player is not None
    with services_of(app).database.connection() as conn:
        conn.execute(
            "INSERT INTO chat_lines (game_id, n, room, author_id, author_name, seat, body)"
            " VALUES (%s, %s, 'player', %s, %s, %s, %s)",
            [game_id, n, player.id, player.name, n % 2, body],
        )


def all_reports(client: FlaskClient, token: str, limit: int) -> list[dict[str, Any]]:
    """Every report, following the pages' cursors."""
    out: list[dict[str, Any]] = []
    cursor = ""
    while True:
        page = client.get(f"/v1/moderation/reports?limit={limit}{cursor}", headers=bearer(token))
        assert page.status_code == 200, page.get_json()
        out += page.get_json()["reports"]
        if page.get_json()["next"] is None:
            return out
        cursor = f"&cursor={page.get_json()['next']}"


def test_a_report_quoting_a_chat_line_reaches_the_moderators_only(
    app: Flask, client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    ann, ann_token = account(client, "ann")
    bob, _ = account(client, "bob")
    game_id = f"g{uuid.uuid4().hex[:12]}"
    say(app, game_id, 1, bob, "you play like a potato")
    say(app, game_id, 2, ann, "pardon?")
    report = {"player": bob, "reason": "abuse", "game_id": game_id, "line": 1, "text": " rude\x00\u202e "}
    filed = client.post("/v1/reports", json=report, headers=bearer(ann_token))
    assert filed.status_code == 201, filed.get_json()
    assert filed.get_json()["player"] == bob and filed.get_json()["reason"] == "abuse"
    # Refused, and nothing filed: another's line, no such line, oneself, no account, a line without a game.
    problem(
        client.post("/v1/reports", json={**report, "line": 2}, headers=bearer(ann_token)),
        422,
        "not_their_line",
    )
    problem(
        client.post("/v1/reports", json={**report, "line": 9}, headers=bearer(ann_token)),
        404,
        "chat_line_not_found",
    )
    problem(
        client.post("/v1/reports", json={**report, "player": ann.upper()}, headers=bearer(ann_token)),
        422,
        "report_self",
    )
    problem(
        client.post("/v1/reports", json={**report, "player": "nobody-here"}, headers=bearer(ann_token)),
        404,
        "player_not_found",
    )
    problem(
        client.post("/v1/reports", json={**report, "reason": "rude"}, headers=bearer(ann_token)),
        422,
        "validation_error",
    )
    problem(
        client.post(
            "/v1/reports", json={"player": bob, "reason": "spam", "line": 1}, headers=bearer(ann_token)
        ),
        404,
        "chat_line_not_found",
    )
    problem(client.post("/v1/reports", json=report), 401, "unauthorized")
    player_token = client.post("/v1/players", json={"name": unique("pt")}).get_json()["token"]
    problem(client.post("/v1/reports", json=report, headers=bearer(player_token)), 401, "account_required")
    # The moderators' list is theirs alone.
    problem(client.get("/v1/moderation/reports"), 401, "unauthorized")
    problem(client.get("/v1/moderation/reports", headers=bearer(ann_token)), 403, "not_moderator")
    _, mod_token = moderator(client, capsys)
    with services_of(app).database.connection() as conn:  # the line as it was reported is what is kept
        conn.execute("UPDATE chat_lines SET body = 'edited' WHERE game_id = %s AND n = 1", [game_id])
    listed = all_reports(client, mod_token, 100)
    mine = [r for r in listed if r["game_id"] == game_id]
    assert len(mine) == 1
    (shown,) = mine
    assert shown["id"] == filed.get_json()["id"] and shown["reporter"] == ann and shown["player"] == bob
    assert shown["text"] == "rude" and shown["closed"] is None
    assert shown["line"]["n"] == 1 and shown["line"]["author"] == bob
    assert shown["line"]["body"] == "you play like a potato"
    # Open ones first, newest first; the pages together are the whole list.
    order = [(r["closed"] is not None, -int(r["id"])) for r in listed]
    assert order == sorted(order)
    assert all_reports(client, mod_token, 2) == listed
    problem(client.get("/v1/moderation/reports?cursor=x", headers=bearer(mod_token)), 422, "bad_cursor")
    # Closing it: once; logged with the note.
    closed = client.post(
        f"/v1/moderation/reports/{shown['id']}/close", json={"note": "warned"}, headers=bearer(mod_token)
    )
    assert closed.status_code == 200 and closed.get_json()["closed"] is not None
    problem(
        client.post(f"/v1/moderation/reports/{shown['id']}/close", headers=bearer(mod_token)),
        409,
        "report_closed",
    )
    problem(
        client.post("/v1/moderation/reports/999999999/close", headers=bearer(mod_token)),
        404,
        "report_not_found",
    )
    problem(
        client.post(f"/v1/moderation/reports/{shown['id']}/close", headers=bearer(ann_token)),
        403,
        "not_moderator",
    )
    entries = client.get("/v1/moderation/log?limit=100", headers=bearer(mod_token)).get_json()["entries"]
    (logged,) = [e for e in entries if e["report"] == shown["id"]]
    assert logged["action"] == "close_report" and logged["player"] == bob and logged["detail"] == "warned"


def test_an_account_files_so_many_reports_a_day(client: FlaskClient) -> None:
    _, token = account(client, "eager")
    bob, _ = account(client, "bob")
    for _ in range(20):
        assert (
            client.post(
                "/v1/reports", json={"player": bob, "reason": "spam"}, headers=bearer(token)
            ).status_code
            == 201
        )
    refused = problem(
        client.post("/v1/reports", json={"player": bob, "reason": "spam"}, headers=bearer(token)),
        429,
        "too_many_reports",
    )
    assert refused["detail"]


def test_the_command_line_appoints_and_dismisses_a_moderator(app: Flask, client: FlaskClient) -> None:
    name, token = account(client, "cli")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "ginrummy.admin", "moderator", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, env=os.environ.copy())

    granted = run("grant", name.upper())
    assert granted.returncode == 0 and f"{name} is a moderator now" in granted.stdout, granted.stderr
    listed = run("list")
    assert listed.returncode == 0 and name in listed.stdout.splitlines()
    assert client.get("/v1/moderation/reports", headers=bearer(token)).status_code == 200
    revoked = run("revoke", name)
    assert revoked.returncode == 0 and f"{name} is no longer a moderator" in revoked.stdout
    problem(client.get("/v1/moderation/reports", headers=bearer(token)), 403, "not_moderator")
    unknown = run("grant", "nobody-here")
    assert unknown.returncode == 1 and "there is no player 'nobody-here'" in unknown.stderr
    # In this process, the refusals: a name-and-token player (no password), no database URL.
    player = client.post("/v1/players", json={"name": unique("pt")}).get_json()["name"]
    assert admin.main(["moderator", "grant", player]) == 1
    assert not store(app).player(player).moderator  # type: ignore[union-attr]
    url = os.environ.pop("DATABASE_URL")
    try:
        assert admin.main(["moderator", "list"]) == 2
    finally:
        os.environ["DATABASE_URL"] = url
    # The log names the command line (no moderator) for both.
    acts = [(e["action"], e["moderator"]) for e in store(app).log(None, 100) if e["player"] == name]
    assert acts == [("revoke_moderator", None), ("grant_moderator", None)]


def test_a_moderator_mutes_a_players_chat(
    app: Flask, client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    bob, bob_token = account(client, "bob")
    game = client.post("/v1/games", json={"opponent": {"type": "bot"}}, headers=bearer(bob_token)).get_json()

    def chat(text: str) -> Any:
        line = {"room": "player", "text": text}
        return client.post(f"/v1/games/{game['game_id']}/chat", json=line, headers=bearer(bob_token))

    assert chat("hello").status_code == 201
    body = {"minutes": 30, "reason": "insults"}
    problem(
        client.post(f"/v1/moderation/players/{bob}/chat-mute", json=body, headers=bearer(bob_token)),
        403,
        "not_moderator",
    )
    _, mod_token = moderator(client, capsys)
    for wrong in (
        {"minutes": 0, "reason": "x"},
        {"minutes": 10081, "reason": "x"},
        {"minutes": 5, "reason": ""},
    ):
        problem(
            client.post(f"/v1/moderation/players/{bob}/chat-mute", json=wrong, headers=bearer(mod_token)),
            422,
            "validation_error",
        )
    assert chat("still here").status_code == 201, "bad input changes nothing"
    problem(
        client.post("/v1/moderation/players/nobody-here/chat-mute", json=body, headers=bearer(mod_token)),
        404,
        "player_not_found",
    )
    # A read-only API token of a moderator reads, and does not act.
    reader = client.post(
        "/v1/account/tokens", json={"description": "r", "scopes": ["read"]}, headers=bearer(mod_token)
    ).get_json()["token"]
    assert client.get("/v1/moderation/log", headers=bearer(reader)).status_code == 200
    problem(
        client.post(f"/v1/moderation/players/{bob}/chat-mute", json=body, headers=bearer(reader)),
        403,
        "token_scope",
    )
    muted = client.post(f"/v1/moderation/players/{bob}/chat-mute", json=body, headers=bearer(mod_token))
    assert muted.status_code == 200, muted.get_json()
    assert muted.get_json()["chat_muted_until"] > time.time() + 25 * 60
    problem(chat("and now?"), 403, "chat_muted")
    (entry,) = [e for e in store(app).log(None, 100) if e["player"] == bob]
    assert entry["action"] == "chat_mute" and entry["detail"] == "30 min: insults"


def test_closing_an_account_ends_its_credentials_and_keeps_its_games(
    app: Flask, client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    # Bob: a name-and-token player who claimed his name, signed in twice, with an API token and a game.
    bob = unique("bob")
    player_token = client.post("/v1/players", json={"name": bob}).get_json()["token"]
    session = client.post(
        "/v1/account", json={"name": bob, "password": PASSWORD}, headers=bearer(player_token)
    )
    session_token = session.get_json()["token"]
    other_session = sign_in(client, bob).get_json()["token"]
    api_token = client.post(
        "/v1/account/tokens", json={"description": "bot", "scopes": ["play"]}, headers=bearer(session_token)
    ).get_json()["token"]
    game_id = rated_game(client, api_token, resign=True)
    assert client.get(f"/v1/players/{bob}").get_json()["closed"] is False
    mod, mod_token = moderator(client, capsys)
    problem(
        client.post(
            f"/v1/moderation/players/{bob}/close", json={"reason": "x"}, headers=bearer(session_token)
        ),
        403,
        "not_moderator",
    )
    problem(
        client.post(f"/v1/moderation/players/{bob}/close", json={}, headers=bearer(mod_token)),
        422,
        "validation_error",
    )

    closed = client.post(
        f"/v1/moderation/players/{bob}/close", json={"reason": "abuse"}, headers=bearer(mod_token)
    )
    assert closed.status_code == 200, closed.get_json()
    assert closed.get_json()["signed_out"] == 2 and closed.get_json()["tokens_revoked"] == 1
    for token in (session_token, other_session, api_token, player_token):
        problem(client.get("/v1/account", headers=bearer(token)), 401, "unknown_player")
    problem(sign_in(client, bob), 403, "account_closed")
    problem(sign_in(client, bob, "not the password"), 401, "bad_credentials")
    # Its games and archive stay; its profile says it is closed.
    profile = client.get(f"/v1/players/{bob}").get_json()
    assert profile["closed"] is True and profile["games"]["played"] == 1
    assert client.get(f"/v1/games/{game_id}/export").status_code == 200
    # Refused: again, a moderator (the caller itself too), a house bot.
    problem(
        client.post(f"/v1/moderation/players/{bob}/close", json={"reason": "x"}, headers=bearer(mod_token)),
        409,
        "already_closed",
    )
    other_mod, _ = moderator(client, capsys)
    for name in (other_mod, mod):
        problem(
            client.post(
                f"/v1/moderation/players/{name}/close", json={"reason": "x"}, headers=bearer(mod_token)
            ),
            403,
            "moderator_protected",
        )
    problem(
        client.post(
            "/v1/moderation/players/bot-simple/close", json={"reason": "x"}, headers=bearer(mod_token)
        ),
        403,
        "forbidden",
    )
    # The log says who closed whom and why; no token anywhere in what the moderators read.
    log = client.get("/v1/moderation/log", headers=bearer(mod_token))
    (entry,) = [e for e in log.get_json()["entries"] if e["player"] == bob]
    assert entry["action"] == "close_account" and entry["moderator"] == mod and entry["detail"] == "abuse"
    seen = log.get_data(as_text=True) + closed.get_data(as_text=True)
    seen += client.get("/v1/moderation/reports?limit=100", headers=bearer(mod_token)).get_data(as_text=True)
    for token in (session_token, other_session, api_token, player_token):
        assert token not in seen
