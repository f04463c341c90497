"""People playing people, as stories through the service on a real Redis: players find each other by
quick match, play, resign; ratings move and the leaderboard shows it; games are aborted, lost on time
(exactly once, however many requests find it), claimed after abandonment, rematched; spectators list
the public games — and no token ever shows in the lobby, a profile, the leaderboard or an event."""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any

import orjson
import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.http import create_app

from tests.support import choose

from .gameplay import Seat, archived, problem


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


class Person:
    """A player with a name and token, who seeks, takes seats and reads profiles."""

    def __init__(self, client: FlaskClient, name: str | None = None) -> None:
        self.client = client
        self.name = name or unique("p")
        response = client.post("/v1/players", json={"name": self.name})
        assert response.status_code == 201, response.get_json()
        self.token = response.get_json()["token"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def seek(self, **body: Any) -> Any:
        return self.client.post("/v1/seeks", json=body, headers=self.auth)

    def profile(self) -> dict[str, Any]:
        response = self.client.get(f"/v1/players/{self.name}")
        assert response.status_code == 200, response.get_json()
        return response.get_json()  # type: ignore[no-any-return]


def quick_match(client: FlaskClient, **body: Any) -> tuple[Person, Person, Seat, Seat]:
    """Ann seeks and waits; Bob's quick seek pairs with hers; Ann learns of the game by a long poll."""
    ann, bob = Person(client, unique("ann")), Person(client, unique("bob"))
    rules = {"rules": {"preset": "standard"}, **body}
    waiting = ann.seek(**rules)
    assert waiting.status_code == 202, waiting.get_json()
    seek_id, seek_token = waiting.get_json()["seek"]["id"], waiting.get_json()["token"]
    lobby = client.get("/v1/lobby").get_json()["seeks"]
    assert any(s["id"] == seek_id and s["player"] == ann.name for s in lobby)
    started = bob.seek(**rules)
    assert started.status_code == 201, started.get_json()
    game = started.get_json()
    status = client.get(
        f"/v1/seeks/{seek_id}?wait=5", headers={"Authorization": f"Bearer {seek_token}"}
    ).get_json()
    assert status["status"] == "matched" and status["game_id"] == game["game_id"] and status["seat"] == 0
    assert not any(s["id"] == seek_id for s in client.get("/v1/lobby").get_json()["seeks"])
    return (
        ann,
        bob,
        Seat(client, game["game_id"], 0, seek_token),
        Seat(client, game["game_id"], 1, game["token"]),
    )


def play(seats: tuple[Seat, Seat], moves: int) -> dict[str, Any]:
    view = seats[0].view()
    for _ in range(moves):
        turn = view["turn"] if view["turn"] is not None else 0
        seat = seats[turn]
        view = seat.view()
        if view["phase"] in ("match_over", "game_over"):
            break
        seat.act(
            choose(
                {
                    **view,
                    "legal_actions": [
                        a for a in view["legal_actions"] if a["type"] not in ("resign", "abort")
                    ],
                }
            ),
            view["version"],
        )
        view = seats[0].view()
    return view


def test_quick_match_play_resign_ratings_and_leaderboard(client: FlaskClient) -> None:
    ann, bob, ann_seat, bob_seat = quick_match(client, rated=True)
    view = play((ann_seat, bob_seat), 6)
    assert view["rated"] is True and [p["player"] for p in view["players"]] == [ann.name, bob.name]
    assert {"type": "resign", "kind": "match"} in bob_seat.view()[
        "legal_actions"
    ]  # at any time, whoever's turn it is
    resigned = bob_seat.post("/resign", version=bob_seat.view()["version"])
    assert resigned.status_code == 200, resigned.get_json()
    final = ann_seat.view()
    assert final["phase"] == "match_over" and final["end_reason"] == "resigned" and final["forfeited_by"] == 1
    assert any(e["type"] == "match_over" for e in resigned.get_json()["events"])
    archived(client, final["game_id"])
    a, b = ann.profile(), bob.profile()
    assert (a["games"]["won"], b["games"]["lost"]) == (1, 1)
    assert a["ratings"]["standard"]["rating"] > 1500 > b["ratings"]["standard"]["rating"]
    assert a["recent"][0]["game_id"] == final["game_id"] and a["recent"][0]["hands"].startswith("/v1/games/")
    ranks = a["ratings"]["standard"]["rank"], b["ratings"]["standard"]["rank"]
    assert ranks[0] < ranks[1]
    # Other tests on this Redis rate players too: look at the leaderboard around Ann's rank.
    board = client.get("/v1/leaderboard?family=standard&limit=200").get_json()["players"]
    assert board[ranks[0] - 1]["name"] == ann.name
    # Reading the finished game again applies nothing twice.
    ann_seat.view()
    assert ann.profile()["games"]["played"] == 1


def test_a_game_aborted_before_the_first_draw_has_no_result(client: FlaskClient) -> None:
    ann, bob, ann_seat, bob_seat = quick_match(client, rated=True)
    view = bob_seat.view()
    assert {"type": "abort", "kind": "match"} in view["legal_actions"]
    response = bob_seat.post("/abort", version=view["version"])
    assert response.status_code == 200, response.get_json()
    final = ann_seat.view()
    assert final["phase"] == "match_over" and final["end_reason"] == "aborted"
    assert archived(client, final["game_id"])["result"]["end_reason"] == "aborted"
    for person in (ann, bob):
        profile = person.profile()
        assert profile["games"]["played"] == 0 and "standard" not in profile["ratings"]


def test_abort_is_refused_once_a_card_was_drawn(client: FlaskClient) -> None:
    _, _, ann_seat, bob_seat = quick_match(client)
    view = play((ann_seat, bob_seat), 4)
    assert {"type": "abort", "kind": "match"} not in view["legal_actions"]
    problem(ann_seat.post("/abort", version=view["version"]), 409, "illegal_action")


def test_a_loss_on_time_is_applied_exactly_once(client: FlaskClient) -> None:
    ann, bob, ann_seat, bob_seat = quick_match(client, rated=True, clock={"per_move": 1})
    view = ann_seat.view()
    assert view["clock"]["per_move"] == 1 and view["clock"]["running"] == view["turn"]
    loser = view["turn"]
    time.sleep(1.3)
    seats = (ann_seat, bob_seat)
    statuses: list[int] = []

    def look(seat: Seat) -> None:
        statuses.append(seat.client.get(f"/v1/games/{seat.game_id}", headers=seat.auth).status_code)

    threads = [threading.Thread(target=look, args=(seats[i % 2],)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 12
    final = ann_seat.view()
    assert final["end_reason"] == "timeout" and final["forfeited_by"] == loser
    events = ann_seat.get("/events").get_json()["events"]
    assert [e["type"] for e in events].count("match_over") == 1
    archived(client, final["game_id"])
    assert ann.profile()["games"]["played"] == bob.profile()["games"]["played"] == 1
    winner = (ann, bob)[1 - loser]
    assert winner.profile()["games"]["won"] == 1


def test_a_streams_keep_alive_applies_the_loss_on_time(client: FlaskClient) -> None:
    _, _, ann_seat, bob_seat = quick_match(client, clock={"per_move": 1})
    view = ann_seat.view()
    waiting = (ann_seat, bob_seat)[1 - view["turn"]]
    cursor = waiting.get("/events").get_json()["cursor"]
    # Nobody reads the view any more: only the stream's keep-alives (1 s here) look at the clock.
    stream = waiting.get(f"/events?after={cursor}&wait=4", headers={"Accept": "application/x-ndjson"})
    lines = [json.loads(line) for line in stream.get_data(as_text=True).splitlines()]
    ends = [e for e in lines if e["type"] == "match_over"]
    assert len(ends) == 1 and ends[0]["reason"] == "timeout" and ends[0]["forfeited_by"] == view["turn"]


def test_a_long_poll_on_the_events_applies_the_loss_on_time(client: FlaskClient) -> None:
    _, _, ann_seat, bob_seat = quick_match(client, clock={"per_move": 1})
    view = ann_seat.view()
    waiting = (ann_seat, bob_seat)[1 - view["turn"]]
    cursor = waiting.get("/events").get_json()["cursor"]
    page = waiting.get(f"/events?after={cursor}&wait=5").get_json()
    assert [e["reason"] for e in page["events"] if e["type"] == "match_over"] == ["timeout"]


def test_a_move_after_the_time_ran_out_is_refused(client: FlaskClient) -> None:
    _, _, ann_seat, bob_seat = quick_match(client, clock={"per_move": 1})
    view = ann_seat.view()
    mover = (ann_seat, bob_seat)[view["turn"]]
    time.sleep(1.2)
    problem(mover.post("/actions", choose(view), version=view["version"]), 409, "game_over")


@pytest.fixture(scope="module")
def quick_abandon_app(redis_url: str) -> Flask:
    # 4 s: long enough that the claims below come before it on a loaded machine, short for a test.
    return create_app({"redis_url": redis_url, "allow_seed": True, "abandon_after": 4})


def test_an_idle_opponent_can_be_claimed_after_the_abandon_time(quick_abandon_app: Flask) -> None:
    client = quick_abandon_app.test_client()
    _, _, ann_seat, bob_seat = quick_match(client)
    view = ann_seat.view()
    waiting = (ann_seat, bob_seat)[1 - view["turn"]]
    body = problem(waiting.post("/claim-victory"), 409, "too_early")
    assert body["seconds_left"] > 0
    mover = (ann_seat, bob_seat)[view["turn"]]
    problem(mover.post("/claim-victory"), 409, "nothing_to_claim")
    time.sleep(body["seconds_left"])
    deadline = time.monotonic() + 30
    while (claimed := waiting.post("/claim-victory")).status_code == 409:
        assert claimed.get_json()["code"] == "too_early" and time.monotonic() < deadline
        time.sleep(0.1)
    assert claimed.status_code == 200, claimed.get_json()
    final = waiting.view()
    assert final["end_reason"] == "abandoned" and final["forfeited_by"] == view["turn"]


@pytest.fixture(scope="module")
def gone_app(redis_url: str) -> Flask:
    # opponentGone after a fifth of the abandon time (1 s); a stream's keep-alive every second
    return create_app({"redis_url": redis_url, "abandon_after": 5, "stream_keepalive": 1})


def test_the_waiting_seat_is_told_when_it_may_claim_and_that_the_opponent_seems_gone(gone_app: Flask) -> None:
    client = gone_app.test_client()
    _, _, ann_seat, bob_seat = quick_match(client)
    view = ann_seat.view()
    waiting, mover = (ann_seat, bob_seat)[1 - view["turn"]], (ann_seat, bob_seat)[view["turn"]]
    assert 0 < waiting.view()["claim_after"] <= 5
    assert mover.view()["claim_after"] is None  # its own move: nothing to claim
    # The waiting seat's stream: keep-alives, then — the opponent idle for a second — opponentGone.
    streamed = client.get(
        f"/v1/games/{view['game_id']}/events?wait=30",
        headers={**waiting.auth, "Accept": "application/x-ndjson"},
        buffered=False,
    )
    gone = None
    for line in streamed.response:
        item = orjson.loads(line)
        if item["type"] == "opponentGone":
            gone = item
            break
    streamed.close()
    assert gone is not None and gone["gone"] is True and 0 <= gone["claim_in"] <= 5
    # The opponent's own stream says nothing of the kind; a page does, once there is no event.
    page = client.get(f"/v1/games/{view['game_id']}/events?after={view['cursor']}", headers=waiting.auth)
    assert page.get_json()["opponent_gone"]["type"] == "opponentGone"
    assert (
        client.get(
            f"/v1/games/{view['game_id']}/events?after={view['cursor']}", headers=mover.auth
        ).get_json()["opponent_gone"]
        is None
    )
    deadline = time.monotonic() + 30  # until the view says the claim is open (a guard, not a timing)
    while waiting.view()["claim_after"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert waiting.post("/claim-victory").status_code == 200


def test_a_rematch_is_offered_and_accepted(client: FlaskClient) -> None:
    _, _, ann_seat, bob_seat = quick_match(client)
    first = ann_seat.view()
    bob_seat.post("/resign", version=first["version"])
    assert ann_seat.view()["legal_actions"] == [{"type": "rematch", "kind": "match"}]
    offered = ann_seat.post("/rematch", version=ann_seat.view()["version"])
    assert offered.status_code == 200 and offered.get_json()["events"][0]["type"] == "rematch_offered"
    assert bob_seat.view()["rematch"]["offered_by"] == [0]
    accepted = bob_seat.post("/actions", {"type": "rematch"}, version=bob_seat.view()["version"])
    assert accepted.status_code == 200, accepted.get_json()
    new_id = accepted.get_json()["events"][0]["game_id"]
    assert ann_seat.view()["rematch"]["game_id"] == new_id
    ann_events = [e["type"] for e in ann_seat.get("/events").get_json()["events"]]
    assert "rematch" in ann_events
    # The same seat tokens play the rematch; the other player deals first.
    ann2, bob2 = Seat(client, new_id, 0, ann_seat.token), Seat(client, new_id, 1, bob_seat.token)
    second = ann2.view()
    assert second["hand_number"] == 1 and bob2.view()["seat"] == 1
    assert second["dealer"] != first["dealer"] or first["hand_number"] > 1


def test_rated_games_offer_no_hint_and_no_undo_and_bots_are_rated_players(client: FlaskClient) -> None:
    ann = Person(client)
    created = client.post(
        "/v1/games", json={"rated": True, "opponent": {"type": "bot", "bot": "simple"}}, headers=ann.auth
    )
    assert created.status_code == 201, created.get_json()
    seat = Seat(client, created.get_json()["game_id"], 0, created.get_json()["token"])
    problem(seat.get("/hint"), 409, "rated_game")
    view = seat.view()
    problem(seat.post("/undo", version=view["version"]), 409, "rated_game")
    assert seat.post("/resign", version=view["version"]).status_code == 200
    archived(client, seat.game_id)
    bot = client.get("/v1/players/bot-simple").get_json()
    assert bot["games"]["won"] >= 1 and "standard" in bot["ratings"]
    problem(client.post("/v1/players", json={"name": "Bot-Expert"}), 422, "name_reserved")
    problem(client.post("/v1/games", json={"rated": True}), 422, "player_required")


def test_names_are_unique_ignoring_case_and_unknown_player_tokens_are_refused(client: FlaskClient) -> None:
    name = unique("Carol")
    Person(client, name)
    problem(client.post("/v1/players", json={"name": name.upper()}), 409, "name_taken")
    problem(client.get(f"/v1/players/{unique('nobody')}"), 404, "player_not_found")
    problem(
        client.post("/v1/seeks", json={}, headers={"Authorization": "Bearer nope"}), 401, "unknown_player"
    )


def test_public_games_are_listed_and_private_ones_are_not(client: FlaskClient) -> None:
    public = client.post("/v1/games", json={}).get_json()["game_id"]
    private = client.post("/v1/games", json={"private": True}).get_json()["game_id"]
    listed = [g["game_id"] for g in client.get("/v1/games?status=live&limit=200").get_json()["games"]]
    assert public in listed and private not in listed
    spectator = client.get(f"/v1/games/{public}").get_json()
    assert spectator["seat"] is None and "hand" not in spectator


def test_no_token_in_the_lobby_profiles_leaderboard_or_events(client: FlaskClient) -> None:
    ann, bob, ann_seat, bob_seat = quick_match(client, rated=True)
    secret_seek = ann.seek(rules={"preset": "oklahoma"})
    tokens = {ann.token, bob.token, ann_seat.token, bob_seat.token, secret_seek.get_json()["token"]}
    bob_seat.post("/resign", version=bob_seat.view()["version"])
    archived(client, bob_seat.game_id)
    bodies = [
        client.get("/v1/lobby").get_data(as_text=True),
        client.get(f"/v1/players/{ann.name}").get_data(as_text=True),
        client.get(f"/v1/players/{bob.name}").get_data(as_text=True),
        client.get("/v1/leaderboard?limit=200").get_data(as_text=True),
        client.get("/v1/games?status=live").get_data(as_text=True),
        ann_seat.get("/events").get_data(as_text=True),
        bob_seat.get("/events").get_data(as_text=True),
        client.get(f"/v1/games/{ann_seat.game_id}/events").get_data(as_text=True),
    ]
    for body in bodies:
        for token in tokens:
            assert token not in body
    client.delete(f"/v1/seeks/{secret_seek.get_json()['seek']['id']}", headers=ann.auth)


def test_no_clock_runs_before_the_invited_player_joins(client: FlaskClient) -> None:
    created = client.post("/v1/games", json={"opponent": {"type": "human"}, "clock": {"per_move": 1}})
    game = created.get_json()
    assert game["view"]["clock"]["running"] is None
    time.sleep(1.2)
    host = Seat(client, game["game_id"], 0, game["token"])
    assert host.view()["end_reason"] is None
    joined = client.post(f"/v1/games/{game['game_id']}/join", json={"invitation": game["invitation"]})
    assert joined.get_json()["view"]["clock"]["running"] == joined.get_json()["view"]["turn"]


def test_the_seek_owner_may_poll_with_the_player_token_too(client: FlaskClient) -> None:
    ann = Person(client)
    waiting = ann.seek(rules={"preset": "hollywood"}, quick=False).get_json()
    seek_id = waiting["seek"]["id"]
    assert client.get(f"/v1/seeks/{seek_id}", headers=ann.auth).get_json()["status"] == "open"
    problem(client.get(f"/v1/seeks/{seek_id}", headers=Person(client).auth), 403, "forbidden")
    assert client.delete(f"/v1/seeks/{seek_id}", headers=ann.auth).get_json()["status"] == "cancelled"
    started = time.monotonic()
    assert client.get(f"/v1/seeks/{seek_id}?wait=20", headers=ann.auth).get_json()["status"] == "cancelled"
    assert time.monotonic() - started < 10  # a cancelled seek does not hold its 20 s long poll


def test_a_players_new_seek_replaces_its_older_one(client: FlaskClient) -> None:
    ann = Person(client)
    first = ann.seek(rules={"preset": "straight"}, quick=False).get_json()["seek"]["id"]
    second = ann.seek(rules={"preset": "straight"}, quick=False).get_json()["seek"]["id"]
    mine = [s["id"] for s in client.get("/v1/lobby").get_json()["seeks"] if s["player"] == ann.name]
    assert mine == [second] and first != second
    assert client.get(f"/v1/seeks/{first}", headers=ann.auth).get_json()["status"] == "cancelled"
    client.delete(f"/v1/seeks/{second}", headers=ann.auth)


def test_player_names_are_plain_and_url_safe(client: FlaskClient) -> None:
    for name in ("a b", "   ", "-dash", "x" * 31, "name/with/slash"):
        problem(client.post("/v1/players", json={"name": name}), 422, "validation_error")
