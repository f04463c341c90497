"""Table chat through the service on real Redis and PostgreSQL: the players' room and the spectators' room
and who reads which, preset phrases and free text (an account's), cleaning and limits, a table mute and a
block that hide lines from one reader without telling the author, lines on the game's NDJSON stream, and
the chat of an archived match read as it was."""

from __future__ import annotations

import threading
from typing import Any

import orjson
from flask.testing import FlaskClient

from .gameplay import Table, archived
from .test_accounts import bearer
from .test_tournaments import account, bot_account


def accounts_game(client: FlaskClient, ann_token: str, bob: str, bob_token: str) -> str:
    made = client.post("/v1/challenges", json={"opponent": bob}, headers=bearer(ann_token)).get_json()
    accepted = client.post(f"/v1/challenges/{made['challenge']['id']}/accept", headers=bearer(bob_token))
    assert accepted.status_code == 201, accepted.get_json()
    game_id: str = accepted.get_json()["game_id"]
    return game_id


def say(client: FlaskClient, game_id: str, token: str | None, **body: Any) -> Any:
    return client.post(f"/v1/games/{game_id}/chat", json=body, headers=bearer(token) if token else {})


def read(client: FlaskClient, game_id: str, token: str | None = None, after: int = 0) -> Any:
    response = client.get(f"/v1/games/{game_id}/chat?after={after}", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def texts(page: Any) -> list[str]:
    return [line["text"] for line in page["lines"]]


def test_two_rooms_presets_free_text_and_who_reads_what(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    eve, eve_token = account(client, "eve")
    game_id = accounts_game(client, ann_token, bob, bob_token)

    said = say(client, game_id, ann_token, room="player", preset="good_luck")
    assert said.status_code == 201, said.get_json()
    line = said.get_json()
    assert line["type"] == "chatLine" and line["n"] == 1 and line["author"] == ann and line["seat"] == 0
    assert line["text"] == "Good luck!" and line["preset"] == "good_luck" and line["room"] == "player"
    typed = say(client, game_id, bob_token, room="player", text="  you too\n\x1b[31m\u202e see https://x.y ")
    assert typed.status_code == 201 and typed.get_json()["text"] == "you too [31m see https://x.y"
    spoken = say(client, game_id, eve_token, room="spectator", text="nice game to watch")
    assert spoken.status_code == 201 and spoken.get_json()["seat"] is None

    # While the match is live, the players read their room only; watchers read the spectators' room.
    page = read(client, game_id, bob_token)
    assert texts(page) == ["Good luck!", "you too [31m see https://x.y"] and page["rooms"] == ["player"]
    assert texts(read(client, game_id)) == ["nice game to watch"]
    assert texts(read(client, game_id, eve_token)) == ["nice game to watch"]
    assert texts(read(client, game_id, ann_token, after=1)) == ["you too [31m see https://x.y"]

    # Refusals change nothing: a watcher in the players' room, a player in the spectators' room, bad lines.
    for token, body, status, code in [
        (eve_token, {"room": "player", "preset": "hello"}, 403, "chat_forbidden"),
        (ann_token, {"room": "spectator", "preset": "hello"}, 403, "chat_forbidden"),
        (ann_token, {"room": "player", "text": "x" * 141}, 422, "chat_too_long"),
        (ann_token, {"room": "player", "text": "\x00\x07 \t"}, 422, "chat_empty"),
        (ann_token, {"room": "player", "preset": "hello", "text": "hi"}, 422, "chat_empty"),
        (ann_token, {"room": "player", "preset": "gloat"}, 422, "validation_error"),
        (None, {"room": "player", "preset": "hello"}, 401, "unauthorized"),
    ]:
        refused = say(client, game_id, token, **body)
        assert (refused.status_code, refused.get_json()["code"]) == (status, code), body
    assert read(client, game_id, ann_token)["last"] == 2
    presets = client.get("/v1/chat/presets").get_json()["presets"]
    assert {"id": "good_game", "text": "Good game!"} in presets

    # Once the match is over, the players read the spectators' room too.
    resigned = client.post(f"/v1/games/{game_id}/resign", headers={**bearer(ann_token), "If-Match": "*"})
    assert resigned.status_code == 200, resigned.get_json()
    after = read(client, game_id, ann_token)
    assert after["rooms"] == ["player", "spectator"] and "nice game to watch" in texts(after)
    assert say(client, game_id, bob_token, room="player", preset="good_game").status_code == 201
    # The archived match keeps its chat, as it was.
    archived(client, game_id)
    assert "Good game!" in texts(read(client, game_id, bob_token))
    assert texts(read(client, game_id)) == ["nice game to watch"]


def test_anonymous_seats_say_presets_only_and_lines_are_paced(table: Table, client: FlaskClient) -> None:
    first, second = table.human_game()
    chat = f"/v1/games/{first.game_id}/chat"
    refused = client.post(chat, json={"room": "player", "text": "hi"}, headers=first.auth)
    assert refused.status_code == 403 and refused.get_json()["code"] == "chat_presets_only"
    said = client.post(chat, json={"room": "player", "preset": "hello"}, headers=second.auth)
    assert said.status_code == 201 and said.get_json()["author"] == "Bob" and said.get_json()["seat"] == 1
    statuses = [
        client.post(chat, json={"room": "player", "preset": "smile"}, headers=first.auth).status_code
        for _ in range(11)
    ]
    assert statuses == [201] * 10 + [429]
    assert client.get(chat, headers=first.auth).get_json()["lines"][-1]["text"] == "🙂"


def test_a_table_mute_and_a_block_hide_lines_without_telling_the_author(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    bob, bob_token = account(client, "bob")
    eve, eve_token = account(client, "eve")
    game_id = accounts_game(client, ann_token, bob, bob_token)
    muted = client.post(f"/v1/games/{game_id}/chat/mute", headers=bearer(ann_token))
    assert muted.status_code == 200 and muted.get_json() == {"game_id": game_id, "muted": True, "player": bob}
    assert say(client, game_id, bob_token, room="player", preset="hello").status_code == 201
    assert say(client, game_id, ann_token, room="player", preset="thanks").status_code == 201
    assert (
        texts(read(client, game_id, ann_token)) == ["Thanks!"] and read(client, game_id, ann_token)["muted"]
    )
    assert texts(read(client, game_id, bob_token)) == ["Hello!", "Thanks!"]  # Bob is not told
    client.post(f"/v1/games/{game_id}/chat/unmute", headers=bearer(ann_token))
    assert texts(read(client, game_id, ann_token)) == ["Hello!", "Thanks!"]
    assert client.post(f"/v1/games/{game_id}/chat/mute", headers=bearer(eve_token)).status_code == 403

    # A watcher who blocks Eve never reads her; everyone else does, and Eve is answered as ever.
    _, zed_token = account(client, "zed")
    client.post(f"/v1/players/{eve}/block", headers=bearer(zed_token))
    assert say(client, game_id, eve_token, room="spectator", text="hello all").status_code == 201
    assert texts(read(client, game_id, zed_token)) == []
    assert texts(read(client, game_id)) == ["hello all"]


def test_a_bot_account_reads_the_chat_on_its_game_stream_and_answers(client: FlaskClient) -> None:
    ann, ann_token = account(client, "ann")
    botty, bot_token = bot_account(client)
    game_id = accounts_game(client, ann_token, botty, bot_token)
    assert say(client, game_id, ann_token, room="player", text="hi bot").status_code == 201
    # The stream sends the lines after ?chat_after= first, then those said while it is open (none here).
    response = client.get(
        f"/v1/games/{game_id}/events?chat=true&chat_after=0&wait=1",
        headers={**bearer(bot_token), "Accept": "application/x-ndjson"},
        buffered=False,
    )
    lines = [orjson.loads(raw) for raw in b"".join(response.response).splitlines() if raw]
    said = [line for line in lines if line["type"] == "chatLine"]
    assert [(line["author"], line["text"]) for line in said] == [(ann, "hi bot")]
    answered = say(client, game_id, bot_token, room="player", text="hello human")
    assert answered.status_code == 201 and answered.get_json()["bot"] is True
    assert texts(read(client, game_id, ann_token, after=1)) == ["hello human"]


def test_a_long_poll_wakes_for_a_line(client: FlaskClient, table: Table) -> None:
    first, second = table.human_game()
    got: list[Any] = []
    waiter = threading.Thread(
        target=lambda: got.append(
            client.get(f"/v1/games/{first.game_id}/chat?wait=20", headers=first.auth).get_json()
        )
    )
    waiter.start()
    client.post(
        f"/v1/games/{first.game_id}/chat", json={"room": "player", "preset": "wow"}, headers=second.auth
    )
    waiter.join(30)
    assert got and texts(got[0]) == ["😮"]
