"""Tournaments through the service on real Redis and PostgreSQL, with a real director stepping in this
process: create, list, join (entry codes, bot rules), the organiser's powers, a round robin of house bots
with duplicate deals played to its end, a Swiss with a bye, an arena with berserk, the stream and the
NDJSON results and games; two directors never act on one tournament at once, and a director that
stopped mid-tournament is replaced with nothing done twice."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.app.tournaments import Director
from ginrummy.store.tournaments import LeaseLost

from .conftest import services_of
from .test_accounts import bearer, sign_up, unique


def account(client: FlaskClient, prefix: str = "tn") -> tuple[str, str]:
    name = unique(prefix)
    return name, sign_up(client, name)["token"]


def bot_account(client: FlaskClient, prefix: str = "tbot") -> tuple[str, str]:
    """A bot account and an API token of it that plays."""
    name, session = account(client, prefix)
    assert client.post("/v1/account/bot", headers=bearer(session)).status_code == 200
    made = client.post(
        "/v1/account/tokens", json={"description": "engine", "scopes": ["bot"]}, headers=bearer(session)
    )
    return name, made.get_json()["token"]


def create(client: FlaskClient, token: str, **body: Any) -> Any:
    body.setdefault("name", "Test cup")
    body.setdefault("starts_in", 3600)
    return client.post("/v1/tournaments", json=body, headers=bearer(token))


def director(app: Flask, name: str | None = None) -> Director:
    found = services_of(app).director
    return Director(
        found.store,
        found.live,
        found.matches,
        found.work,
        found.life,
        found.bot_turns,
        found.relations,
        name=name,
    )


def run_until(step: Callable[[], object], done: Callable[[], bool], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the tournament did not get there in time"
        step()
        time.sleep(0.05)


def info(client: FlaskClient, tournament_id: str, token: str | None = None, page: int = 1) -> Any:
    response = client.get(
        f"/v1/tournaments/{tournament_id}?page={page}", headers=bearer(token) if token else {}
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def ndjson(client: FlaskClient, path: str) -> list[Any]:
    response = client.get(path, headers={"Accept": "application/x-ndjson"}, buffered=True)
    assert response.status_code == 200, response.get_data()
    assert response.mimetype == "application/x-ndjson"
    return [orjson.loads(line) for line in response.get_data().splitlines() if line]


def test_create_list_and_read_a_tournament(client: FlaskClient) -> None:
    organiser, token = account(client, "org")
    made = create(client, token, format="swiss", rounds=3, clock={"preset": "blitz"}, rated=True)
    assert made.status_code == 201, made.get_json()
    shown = made.get_json()["tournament"]
    assert made.headers["Location"] == shown["url"] == f"/v1/tournaments/{shown['id']}"
    assert made.get_json()["entry_code"] is None
    assert shown["status"] == "created" and shown["format"] == "swiss" and shown["organiser"] == organiser
    assert shown["settings"]["rounds"] == 3 and shown["settings"]["minutes"] is None
    assert shown["settings"]["clock"] == {"preset": "blitz", "per_move": None, "bank": 180, "increment": 2}
    listed = client.get("/v1/tournaments").get_json()
    assert shown["id"] in [t["id"] for t in listed["created"]]
    read = info(client, shown["id"])
    assert read["standings"] == {"page": 1, "pages": 1, "players": []} and read["me"] is None


def test_bad_settings_and_strangers_are_refused_and_change_nothing(client: FlaskClient) -> None:
    _, token = account(client, "org")
    assert create(client, token, format="arena").get_json()["code"] == "bad_tournament"  # no minutes
    assert create(client, token, format="swiss", rounds=3, minutes=5).status_code == 422
    no_preset = create(
        client,
        token,
        format="swiss",
        rounds=3,
        rated=True,
        rules={"preset": "standard", "options": {"target": 50}},
    )
    assert no_preset.status_code == 422 and no_preset.get_json()["code"] == "rated_needs_preset"
    assert (
        client.post("/v1/tournaments", json={"name": "x", "format": "swiss", "rounds": 2}).status_code == 401
    )
    made = create(client, token, format="swiss", rounds=3).get_json()["tournament"]
    _, stranger = account(client, "str")
    for path in ("start", "terminate"):
        refused = client.post(f"/v1/tournaments/{made['id']}/{path}", headers=bearer(stranger))
        assert refused.status_code == 403 and refused.get_json()["code"] == "forbidden"
    entered = client.post(
        f"/v1/tournaments/{made['id']}/join", json={"bot": "simple"}, headers=bearer(stranger)
    )
    assert entered.status_code == 403
    assert info(client, made["id"])["status"] == "created" and info(client, made["id"])["players"] == 0
    missing = client.get("/v1/tournaments/nope")
    assert missing.status_code == 404 and missing.get_json()["code"] == "tournament_not_found"


def test_an_account_creates_a_few_a_day(app: Flask, client: FlaskClient) -> None:
    _, token = account(client, "busy")
    per_day = services_of(app).config.tournaments_per_day
    for _ in range(per_day):
        assert create(client, token, format="round_robin").status_code == 201
    refused = create(client, token, format="round_robin")
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_tournaments"


def test_entry_codes_bots_and_pauses(client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    made = create(client, organiser, format="arena", minutes=10, private=True).get_json()
    code, tid = made["entry_code"], made["tournament"]["id"]
    assert code and made["tournament"]["private"] is True
    assert tid not in [t["id"] for t in client.get("/v1/tournaments").get_json()["created"]]
    player, token = account(client, "pl")
    wrong = client.post(f"/v1/tournaments/{tid}/join", json={"code": "nope"}, headers=bearer(token))
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "bad_entry_code"
    joined = client.post(f"/v1/tournaments/{tid}/join", json={"code": code}, headers=bearer(token))
    assert joined.status_code == 200 and joined.get_json() == {
        "tournament": tid,
        "player": player,
        "active": True,
    }
    assert info(client, tid, token)["me"] == {"player": player, "active": True, "playing": None}
    # Bot accounts only where the organiser allowed them.
    _, bot_token = bot_account(client)
    refused = client.post(f"/v1/tournaments/{tid}/join", json={"code": code}, headers=bearer(bot_token))
    assert refused.status_code == 403 and refused.get_json()["code"] == "bots_not_allowed"
    # Before the start, withdrawing leaves.
    left = client.post(f"/v1/tournaments/{tid}/withdraw", headers=bearer(token))
    assert left.status_code == 200 and left.get_json()["active"] is False
    assert info(client, tid)["players"] == 0
    again = client.post(f"/v1/tournaments/{tid}/withdraw", headers=bearer(token))
    assert again.status_code == 409 and again.get_json()["code"] == "not_entered"


def test_duplicate_deals_are_for_bots_only(client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="round_robin", duplicate=True, bots=True).get_json()["tournament"][
        "id"
    ]
    _, person = account(client, "pl")
    refused = client.post(f"/v1/tournaments/{tid}/join", headers=bearer(person))
    assert refused.status_code == 403 and refused.get_json()["code"] == "bots_only"
    _, bot_token = bot_account(client)
    assert client.post(f"/v1/tournaments/{tid}/join", headers=bearer(bot_token)).status_code == 200


def test_a_round_robin_of_house_bots_with_duplicate_deals(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="round_robin", duplicate=True, bots=True).get_json()["tournament"][
        "id"
    ]
    for bot in ("random", "novice", "simple", "knocker"):
        entered = client.post(f"/v1/tournaments/{tid}/join", json={"bot": bot}, headers=bearer(organiser))
        assert entered.status_code == 200, entered.get_json()
    started = client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    assert started.status_code == 200
    runner = director(app)
    run_until(runner.step, lambda: info(client, tid)["status"] == "finished")
    final = info(client, tid)
    assert final["rounds"] == 3 and final["round"] == 3
    rows = final["standings"]["players"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    # Everyone met everyone twice (the two legs of each pairing): 6 matches each.
    assert all(r["games"] == 6 and r["wins"] + r["losses"] + r["draws"] == 6 for r in rows)
    assert sum(r["points"] for r in rows) == 12
    assert all(r["bot"] and len(r["interval"]) == 2 and r["interval"][0] <= r["interval"][1] for r in rows)
    # Each pair of legs shares its deals, the seats swapped: the first hands are the same cards.
    games = ndjson(client, f"/v1/tournaments/{tid}/games")
    assert len(games) == 12 and all(g["tournament"] == {"id": tid, "berserk": [False, False]} for g in games)
    by_id = {g["game_id"]: g for g in games}
    store = services_of(app).tournaments.store
    state = store.state(tid)
    assert state is not None
    mirrors = [p for p in state.pairings if p["mirror_of"] is not None]
    assert len(mirrors) == 6
    for pairing in mirrors:
        first = next(p for p in state.pairings if p["number"] == pairing["mirror_of"])
        assert (first["seat0"], first["seat1"]) == (pairing["seat1"], pairing["seat0"])
        deal_a = by_id[first["game_id"]]["hands"][0]
        deal_b = by_id[pairing["game_id"]]["hands"][0]
        # The same deck and hands by seat: each player holds, in the second leg, the other's first hand.
        assert deal_a["deck"] == deal_b["deck"] and deal_a["initial_hands"] == deal_b["initial_hands"]
    # The results, as NDJSON, are the final standings.
    results = ndjson(client, f"/v1/tournaments/{tid}/results")
    assert [r["player"] for r in results] == [r["player"] for r in rows]
    assert all(r["tournament"] == tid for r in results)


def test_a_swiss_with_a_bye(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="swiss", rounds=2, round_interval=0, bots=True).get_json()[
        "tournament"
    ]["id"]
    for bot in ("random", "novice", "simple"):
        client.post(f"/v1/tournaments/{tid}/join", json={"bot": bot}, headers=bearer(organiser))
    client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    runner = director(app)
    run_until(runner.step, lambda: info(client, tid)["status"] == "finished")
    state = services_of(app).tournaments.store.state(tid)
    assert state is not None
    byes = [p for p in state.pairings if p["status"] == "bye"]
    assert len(byes) == 2 and len({p["seat0"] for p in byes}) == 2, "a player gets one bye at most"
    rows = info(client, tid)["standings"]["players"]
    assert sum(r["byes"] for r in rows) == 2
    assert sum(r["points"] for r in rows) == 4  # two matches and two byes, a point each


def test_the_stream_tells_pairings_results_and_standings(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="round_robin", bots=True).get_json()["tournament"]["id"]
    for bot in ("random", "novice"):
        client.post(f"/v1/tournaments/{tid}/join", json={"bot": bot}, headers=bearer(organiser))
    first = client.get(f"/v1/tournaments/{tid}/stream?wait=1", buffered=True)
    lines = [orjson.loads(x) for x in first.get_data().splitlines() if x]
    opening = [line for line in lines if line["type"] != "keepalive"]
    assert opening[0]["type"] == "standings" and opening[0]["tournament"]["status"] == "created"
    since = opening[0]["id"]
    client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    run_until(director(app).step, lambda: info(client, tid)["status"] == "finished")
    resumed = client.get(f"/v1/tournaments/{tid}/stream?wait=1&since={since}", buffered=True)
    kinds = [orjson.loads(x)["type"] for x in resumed.get_data().splitlines() if x]
    assert "pairing" in kinds and "result" in kinds and kinds.count("standings") >= 2
    sse = client.get(
        f"/v1/tournaments/{tid}/stream?wait=1&since={since}",
        headers={"Accept": "text/event-stream"},
        buffered=True,
    )
    assert sse.mimetype == "text/event-stream" and b"event: pairing" in sse.get_data()


def test_one_director_at_a_time_and_a_dead_one_is_replaced(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="round_robin", bots=True).get_json()["tournament"]["id"]
    for bot in ("random", "novice", "simple"):
        client.post(f"/v1/tournaments/{tid}/join", json={"bot": bot}, headers=bearer(organiser))
    first, second = director(app, "first"), director(app, "second")
    store = services_of(app).tournaments.store
    # (Not yet due: no other director of the suite acts on it while "first" takes it.)
    assert store.take_lease(tid, "first", 30)
    assert not store.take_lease(tid, "second", 30), "a lease held is not taken"
    first.direct(tid)  # starts it and pairs round 1
    second.step()  # acts on nothing of this one: "first" holds its lease
    state = store.state(tid)
    assert state is not None and state.row["director"] == "first" and state.row["status"] == "started"
    assert len(state.pairings) == 1  # 3 players: one match a round, the third sits out (no bye)
    # "first" stalls past its lease: its writes are refused from then on, and "second" takes over.
    with store.database.connection() as conn:
        conn.execute("UPDATE tournaments SET lease_until = now() - interval '1 second' WHERE id = %s", [tid])
    with pytest.raises(LeaseLost):
        store.add_pairings(tid, "first", [{"round": 9, "seat0": "x", "seat1": "y", "status": "bye"}])
    run_until(second.step, lambda: info(client, tid)["status"] == "finished")
    state = store.state(tid)
    assert state is not None
    games = [p["game_id"] for p in state.pairings if p["game_id"]]
    assert len(games) == len(set(games)) == 3, "every pairing once, each with its own game"
    assert sorted(p["finished_seq"] for p in state.pairings if p["status"] == "finished") == [1, 2, 3]


def test_an_arena_with_berserk_pause_and_the_end(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    made = create(client, organiser, format="arena", minutes=5, clock={"preset": "blitz"}, bots=True)
    tid = made.get_json()["tournament"]["id"]
    assert made.get_json()["tournament"]["settings"]["berserk"] is True
    person, token = account(client, "pl")
    assert client.post(f"/v1/tournaments/{tid}/join", headers=bearer(token)).status_code == 200
    client.post(f"/v1/tournaments/{tid}/join", json={"bot": "simple"}, headers=bearer(organiser))
    client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    runner = director(app)
    run_until(runner.step, lambda: info(client, tid, token)["me"]["playing"] is not None)
    game_id = info(client, tid, token)["me"]["playing"]
    # The game came to the person's account stream, with the tournament's id.
    starts = [e for e in account_events(client, token) if e["type"] == "gameStart"]
    assert [e["game"]["tournament"] for e in starts if e["game"]["game_id"] == game_id] == [tid]
    view = client.get(f"/v1/games/{game_id}", headers=bearer(token))
    seat = view.get_json()["seat"]
    banks = view.get_json()["clock"]["remaining"]
    berserked = client.post(
        f"/v1/games/{game_id}/berserk", headers={**bearer(token), "If-Match": view.headers["ETag"]}
    )
    assert berserked.status_code == 200, berserked.get_json()
    after = berserked.get_json()["view"]["clock"]
    assert after["remaining"][seat] <= banks[seat] / 2 + 1 and after["remaining"][1 - seat] == banks[1 - seat]
    assert [e["type"] for e in berserked.get_json()["events"]] == ["berserk"]
    again = client.post(
        f"/v1/games/{game_id}/berserk", headers={**bearer(token), "If-Match": berserked.headers["ETag"]}
    )
    assert again.status_code == 409 and again.get_json()["code"] == "berserk_not_allowed"
    # The person pauses, then resigns its game: the result is recorded, berserked; no new pairing while paused.
    assert client.post(f"/v1/tournaments/{tid}/withdraw", headers=bearer(token)).get_json()["active"] is False
    resigned = client.post(
        f"/v1/games/{game_id}/resign", headers={**bearer(token), "If-Match": berserked.headers["ETag"]}
    )
    assert resigned.status_code == 200, resigned.get_json()
    run_until(runner.step, lambda: not info(client, tid)["playing"])
    store = services_of(app).tournaments.store
    state = store.state(tid)
    assert state is not None and len(state.pairings) == 1
    (pairing,) = state.pairings
    assert pairing["status"] == "finished" and pairing[f"berserk{seat}"] is True
    assert pairing["outcome"] == f"seat{1 - seat}"
    rows = {r["player"]: r for r in info(client, tid)["standings"]["players"]}
    assert rows[person]["points"] == 0 and rows[person]["active"] is False and rows[person]["berserks"] == 0
    assert rows["bot-simple"]["points"] == 2 and rows["bot-simple"]["bot"] is True
    assert rows["bot-simple"]["sheet"] == [2]
    # The organiser ends it.
    assert client.post(f"/v1/tournaments/{tid}/terminate", headers=bearer(organiser)).status_code == 200
    run_until(runner.step, lambda: info(client, tid)["status"] == "finished")
    late = client.post(f"/v1/tournaments/{tid}/join", headers=bearer(token))
    assert late.status_code == 409 and late.get_json()["code"] == "tournament_over"


def test_a_swiss_no_show_loses_on_time_and_is_withdrawn(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    body = {"format": "swiss", "rounds": 2, "round_interval": 0, "clock": {"per_move": 1}, "bots": True}
    tid = create(client, organiser, **body).get_json()["tournament"]["id"]
    person, token = account(client, "absent")
    client.post(f"/v1/tournaments/{tid}/join", headers=bearer(token))
    client.post(f"/v1/tournaments/{tid}/join", json={"bot": "simple"}, headers=bearer(organiser))
    client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    runner = director(app)
    store = services_of(app).tournaments.store

    def recorded() -> bool:
        state = store.state(tid)
        return state is not None and any(p["status"] == "finished" for p in state.pairings)

    run_until(runner.step, recorded)  # the person never moves: its second runs out, the director ends it
    state = store.state(tid)
    assert state is not None
    (pairing,) = [p for p in state.pairings if p["status"] == "finished"]
    person_seat = 0 if pairing["seat0"] == person else 1
    assert pairing["end_reason"] == "timeout" and pairing["no_show"] == person_seat
    assert [e["active"] for e in state.entries if e["player"] == person] == [False]
    run_until(runner.step, lambda: info(client, tid)["status"] == "finished")  # one player left: it ends


def account_events(client: FlaskClient, token: str) -> list[Any]:
    response = client.get("/v1/account/stream?wait=0.5", headers=bearer(token), buffered=True)
    return [orjson.loads(x) for x in response.get_data().splitlines() if x]


def test_the_organiser_edits_before_the_start_only(app: Flask, client: FlaskClient) -> None:
    _, organiser = account(client, "org")
    tid = create(client, organiser, format="arena", minutes=5).get_json()["tournament"]["id"]
    edited = client.patch(
        f"/v1/tournaments/{tid}", json={"name": "Renamed", "minutes": 2.5}, headers=bearer(organiser)
    )
    assert edited.status_code == 200, edited.get_json()
    assert edited.get_json()["name"] == "Renamed" and edited.get_json()["settings"]["minutes"] == 2.5
    wrong = client.patch(f"/v1/tournaments/{tid}", json={"rounds": 3}, headers=bearer(organiser))
    assert wrong.status_code == 422
    assert info(client, tid)["settings"]["rounds"] is None
    _, other = account(client, "other")
    assert (
        client.patch(f"/v1/tournaments/{tid}", json={"name": "Mine"}, headers=bearer(other)).status_code
        == 403
    )
    client.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    run_until(director(app).step, lambda: info(client, tid)["status"] == "started")
    late = client.patch(f"/v1/tournaments/{tid}", json={"name": "Late"}, headers=bearer(organiser))
    assert late.status_code == 409 and late.get_json()["code"] == "tournament_started"
    assert info(client, tid)["name"] == "Renamed"
