"""Reading the past, against real Redis and PostgreSQL: every finished hand and match reaches the archive;
a finished game's view and every hand stay readable after its Redis keys are gone; the export document;
a player's games paged by an opaque cursor, filtered, and streamed as NDJSON; the rating history."""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.app import Services
from ginrummy.http import create_app

from tests.support import choose

from .gameplay import Seat, Table, problem

GRACE = 1  # GIN_FINISHED_TTL here: seconds a finished, archived match stays in Redis


@pytest.fixture(scope="module")
def app(redis_url: str) -> Iterator[Flask]:
    app = create_app({"redis_url": redis_url, "allow_seed": True, "finished_ttl": GRACE})
    yield app
    app.extensions["ginrummy"].database.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def services(client: FlaskClient) -> Services:
    assert client.application is not None
    found: Services = client.application.extensions["ginrummy"]
    return found


def new_player(client: FlaskClient, prefix: str = "Ann") -> tuple[str, str]:
    name = f"{prefix}{uuid.uuid4().hex[:8]}"
    body = client.post("/v1/players", json={"name": name}).get_json()
    return name, body["token"]


def play_to_the_end(seat: Seat) -> dict[str, Any]:
    for _ in range(3000):
        view = seat.view()
        if view["phase"] == "match_over":
            return view
        seat.act(choose(view), view["version"])
    raise AssertionError("the match did not end")


def rated_game(client: FlaskClient, token: str, *, resign: bool) -> str:
    """A rated game against the simple bot, resigned at once (a quick rated result) or played out."""
    response = client.post(
        "/v1/games",
        json={"opponent": {"type": "bot", "bot": "simple"}, "rated": True},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    seat = Seat(client, created["game_id"], created["seat"], created["token"])
    if resign:
        seat.act({"type": "resign"})
    else:
        play_to_the_end(seat)
    archived_export(client, seat.game_id)
    return seat.game_id


def wait_until(check: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out")


def archived_export(client: FlaskClient, game_id: str) -> dict[str, Any]:
    """The match's export once the archive has it."""
    response = wait_until(
        lambda: (found := client.get(f"/v1/games/{game_id}/export")).status_code == 200 and found
    )
    export: dict[str, Any] = response.get_json()
    return export


def test_a_finished_match_is_archived_whole_and_readable_after_redis_forgets_it(client: FlaskClient) -> None:
    me = Table(client).bot_game(rules={"preset": "standard", "options": {"target": 40}}, seed=11)
    final = play_to_the_end(me)
    export = archived_export(client, me.game_id)  # the drainer writes it a moment after the end
    assert me.view()["archived"] is True  # (while its keys are still in Redis)
    numbers = [hand["number"] for hand in final["hands"]]
    hands = {n: me.get(f"/hands/{n}").get_json() for n in numbers}  # Redis keeps the last, PostgreSQL all
    assert (export["format"], export["version"], export["game_id"]) == ("ginrummy.match", 1, me.game_id)
    assert export["hand_count"] == len(numbers) == len(export["hands"]) == len(export["hand_summaries"]) >= 1
    assert export["hand_summaries"] == final["hands"]  # the view's per-hand summaries, as they were
    assert [hand["number"] for hand in export["hands"]] == numbers
    assert export["hands"] == [hands[n] for n in numbers]
    assert export["result"]["winner"] == final["scores"]["match_winner"]
    assert (
        export["result"]["end_reason"] == "finished" and export["result"]["games"] == final["scores"]["games"]
    )
    assert export["stats"] == final["stats"] and export["ratings"] == [None, None]
    assert [p["name"] for p in export["players"]] == [p["name"] for p in final["players"]]
    assert "token" not in json.dumps(export) and export["started_at"] <= export["finished_at"]
    # Each hand's record proves its shuffle: the commitment is SHA-256(salt + deck).
    assert all(
        len(hand["shuffle"]["commitment"]) == 64 and hand["shuffle"]["salt"] for hand in export["hands"]
    )

    store = services(client).store
    wait_until(lambda: store.keys_of(me.game_id) == [], timeout=GRACE + 10)  # 0 bytes left in Redis
    archived = me.view()
    assert archived["archived"] is True and archived["legal_actions"] == [] and not archived["your_move"]
    assert archived["version"] == final["version"] and archived["scores"] == final["scores"]
    assert archived["hand"] == final["hand"]  # the seat's own view, as it was
    assert {n: me.get(f"/hands/{n}").get_json() for n in numbers} == hands
    spectator = client.get(f"/v1/games/{me.game_id}").get_json()  # spectators too
    assert [p["name"] for p in spectator["players"]] == [p["name"] for p in final["players"]]
    problem(me.post("/actions", {"type": "rematch"}, version=final["version"]), 409, "game_archived")
    problem(me.get(f"/hands/{numbers[-1] + 1}"), 404, "hand_not_found")
    problem(client.get(f"/v1/games/{me.game_id}", headers={"Authorization": "Bearer nope"}), 403, "forbidden")


def test_a_game_in_play_is_not_exported_and_unknown_games_are_404(client: FlaskClient) -> None:
    me = Table(client).bot_game()
    problem(client.get(f"/v1/games/{me.game_id}/export"), 404, "not_archived")
    problem(client.get("/v1/games/no-such-game-xyz/export"), 404, "not_archived")
    problem(client.get("/v1/games/no-such-game-xyz"), 404, "game_not_found")


def test_a_players_games_newest_first_paged_by_an_opaque_cursor_and_filtered(client: FlaskClient) -> None:
    name, token = new_player(client)
    ids = [rated_game(client, token, resign=True) for _ in range(5)]
    page = client.get(f"/v1/players/{name}/games?limit=2").get_json()
    assert page["player"] == name and [g["game_id"] for g in page["games"]] == ids[::-1][:2]
    seen = [g["game_id"] for g in page["games"]]
    while page["next"] is not None:
        page = client.get(f"/v1/players/{name}/games?limit=2&cursor={page['next']}").get_json()
        seen += [g["game_id"] for g in page["games"]]
    assert seen == ids[::-1]
    first = client.get(f"/v1/players/{name}/games").get_json()["games"][-1]
    assert first["result"] == "lost" and first["end_reason"] == "resigned" and first["rated"] is True
    assert first["family"] == "standard" and first["opponent"] == "bot-simple" and first["seat"] == 0
    assert first["rating"]["before"] is None and first["rating"]["after"]["rating"] < 1500
    assert first["export"] == f"/v1/games/{ids[0]}/export"

    def listed(query: str) -> list[str]:
        response = client.get(f"/v1/players/{name}/games?{query}")
        assert response.status_code == 200, response.get_json()
        return [g["game_id"] for g in response.get_json()["games"]]

    assert listed("result=lost") == ids[::-1] and listed("result=won") == []
    assert listed("rated=true") == ids[::-1] and listed("rated=false") == []
    assert listed("family=standard") == ids[::-1] and listed("family=oklahoma") == []
    assert listed("family=casual") == []  # rules with overrides: none yet
    response = client.post(
        "/v1/games",
        json={"opponent": {"type": "bot", "bot": "simple"}, "rules": {"options": {"target": 40}}},
        headers={"Authorization": f"Bearer {token}"},
    )
    casual = Seat(client, response.get_json()["game_id"], 0, response.get_json()["token"])
    casual.act({"type": "resign"})
    archived_export(client, casual.game_id)
    assert listed("family=casual") == [casual.game_id]
    assert listed("rated=false") == [casual.game_id] and listed("family=standard") == ids[::-1]
    # names ignore case; a casual game's bot is no player (only rated games tie a bot to bot-<name>)
    assert listed("opponent=BOT-SIMPLE") == ids[::-1]
    ids.append(casual.game_id)  # the newest from here on
    now = dt.datetime.now(dt.UTC)
    assert listed(f"since={(now - dt.timedelta(hours=1)).isoformat().replace('+00:00', 'Z')}") == ids[::-1]
    assert listed(f"until={(now - dt.timedelta(hours=1)).isoformat().replace('+00:00', 'Z')}") == []

    for query, code in (
        ("cursor=bm90LWEtY3Vyc29y", "bad_cursor"),
        ("cursor=%%%", "bad_cursor"),
        ("since=yesterday", "validation_error"),
        ("result=maybe", "validation_error"),
        ("limit=0", "validation_error"),
        ("since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z", "bad_filter"),
    ):
        problem(client.get(f"/v1/players/{name}/games?{query}"), 422, code)
    problem(client.get(f"/v1/players/nobody-{uuid.uuid4().hex[:6]}/games"), 404, "player_not_found")


def test_the_ndjson_export_streams_every_game_as_its_export_document(client: FlaskClient) -> None:
    name, token = new_player(client, "Nd")
    ids = [rated_game(client, token, resign=True) for _ in range(3)]
    response = client.get(f"/v1/players/{name}/games", headers={"Accept": "application/x-ndjson"})
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert [line["game_id"] for line in lines] == ids[::-1]
    assert lines[0] == client.get(f"/v1/games/{ids[-1]}/export").get_json()
    assert all(line["format"] == "ginrummy.match" and line["ratings"][0] is not None for line in lines)
    filtered = client.get(f"/v1/players/{name}/games?result=won", headers={"Accept": "application/x-ndjson"})
    assert filtered.get_data() == b""


def test_the_rating_history_and_the_profile_follow_each_rated_game_once(client: FlaskClient) -> None:
    name, token = new_player(client, "Rh")
    ids = [rated_game(client, token, resign=True) for _ in range(3)]
    history = client.get(f"/v1/players/{name}/rating-history").get_json()
    points = history["families"]["standard"]
    assert [p["game_id"] for p in points] == ids
    assert points[0]["before"] is None
    for earlier, later in zip(points, points[1:], strict=False):
        assert later["before"] == earlier["after"] and later["after"]["rating"] < earlier["after"]["rating"]
    profile = client.get(f"/v1/players/{name}").get_json()
    assert profile["games"] == {"played": 3, "won": 0, "lost": 3}
    assert profile["ratings"]["standard"]["rating"] == points[-1]["after"]["rating"]
    assert profile["ratings"]["standard"]["games"] == 3
    assert [g["game_id"] for g in profile["recent"]] == ids[::-1]
    assert client.get(f"/v1/players/{name}/rating-history?family=oklahoma").get_json()["families"] == {}
    problem(client.get(f"/v1/players/{name}/rating-history?family=nope"), 422, "validation_error")
    problem(client.get(f"/v1/players/nobody-{uuid.uuid4().hex[:6]}/rating-history"), 404, "player_not_found")
    # A name in another case is the same player, shown as they typed it.
    assert client.get(f"/v1/players/{name.upper()}/rating-history").get_json() == history
    assert client.get(f"/v1/players/{name.lower()}/games").get_json()["player"] == name
    # The house bot has a profile and a rating that moved with these games.
    bot = client.get("/v1/players/bot-simple").get_json()
    assert bot["ratings"]["standard"]["games"] >= 3


def test_a_played_out_rated_match_archives_every_hand_with_its_rating(client: FlaskClient) -> None:
    name, token = new_player(client, "Full")
    game_id = rated_game(client, token, resign=False)
    export = archived_export(client, game_id)
    assert export["rated"] is True and export["family"] == "standard"
    assert export["hand_count"] == len(export["hands"]) >= 2
    won = export["result"]["winner"] == 0
    change = export["ratings"][0]
    assert change["before"] is None and (change["after"]["rating"] > 1500) == won
    listed = client.get(f"/v1/players/{name}/games").get_json()["games"]
    assert listed[0]["game_id"] == game_id and listed[0]["hands"] == export["hand_count"]
    assert listed[0]["points"][0] == sum(g["grand_totals"][0] for g in export["result"]["games"])


def test_a_private_game_is_left_out_of_its_players_public_lists_but_not_their_own(
    client: FlaskClient,
) -> None:
    name, token = new_player(client, "Pv")
    public_id = rated_game(client, token, resign=True)
    response = client.post(
        "/v1/games",
        json={"opponent": {"type": "bot", "bot": "simple"}, "rated": True, "private": True},
        headers={"Authorization": f"Bearer {token}"},
    )
    created = response.get_json()
    Seat(client, created["game_id"], created["seat"], created["token"]).act({"type": "resign"})
    private_id = created["game_id"]
    assert archived_export(client, private_id)["game_id"] == private_id  # whoever has its id may read it
    me = {"Authorization": f"Bearer {token}"}
    stranger = {"Authorization": f"Bearer {new_player(client, 'Other')[1]}"}
    for headers in ({}, stranger):
        assert [
            g["game_id"] for g in client.get(f"/v1/players/{name}/games", headers=headers).get_json()["games"]
        ] == [public_id]
        lines = client.get(
            f"/v1/players/{name}/games", headers={**headers, "Accept": "application/x-ndjson"}
        ).get_data(as_text=True)
        assert [json.loads(line)["game_id"] for line in lines.splitlines()] == [public_id]
        history = client.get(f"/v1/players/{name}/rating-history", headers=headers).get_json()
        assert [p["game_id"] for p in history["families"]["standard"]] == [public_id, None]
    assert [g["game_id"] for g in client.get(f"/v1/players/{name}").get_json()["recent"]] == [public_id]
    # The player itself sees every one of its games.
    mine = client.get(f"/v1/players/{name}/games", headers=me).get_json()["games"]
    assert [g["game_id"] for g in mine] == [private_id, public_id]
    history = client.get(f"/v1/players/{name}/rating-history", headers=me).get_json()
    assert [p["game_id"] for p in history["families"]["standard"]] == [public_id, private_id]
    # The counters and the rating count it: a private game is played all the same.
    assert client.get(f"/v1/players/{name}").get_json()["games"]["played"] == 2


def test_a_match_resigned_mid_hand_keeps_that_hands_moves(client: FlaskClient) -> None:
    """The hand a resignation cuts short is archived too (result null, ``ended``), so its moves replay."""
    _, token = new_player(client, "Cut")
    created = client.post(
        "/v1/games",
        json={"opponent": {"type": "bot", "bot": "simple"}, "seed": 5},
        headers={"Authorization": f"Bearer {token}"},
    ).get_json()
    seat = Seat(client, created["game_id"], created["seat"], created["token"])
    for _ in range(4):
        view = seat.view()
        seat.act(next(a for a in view["legal_actions"] if a["type"] not in ("resign", "abort", "knock")))
    assert seat.view()["phase"] not in ("hand_over", "match_over")
    seat.act({"type": "resign"})
    export = archived_export(client, seat.game_id)
    assert export["hand_count"] == 0 and len(export["hands"]) == 1
    cut = export["hands"][0]
    assert cut["result"] is None and cut["ended"] == "resigned" and len(cut["actions"]) >= 4
    assert cut["shuffle"]["salt"] and len(cut["deck"]) == 52  # the fair shuffle can be checked too
    from ginrummy.engine import Rules
    from ginrummy.engine.replay import positions

    replayed = list(positions(Rules.from_options("standard"), export["hands"]))
    assert len(replayed) == len(cut["actions"])
