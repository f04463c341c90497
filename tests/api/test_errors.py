"""Every error is application/problem+json with a stable code, and changes nothing."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.http import create_app

from .gameplay import Seat, Table, problem


def unchanged(me: Seat, version: int) -> None:
    assert me.view()["version"] == version


@pytest.fixture
def me(table: Table) -> Seat:
    return table.bot_game()


def my_turn(me: Seat) -> dict:
    view = me.view()
    assert view["turn"] == 0
    return view


def test_a_bad_card_is_422_bad_card(me: Seat) -> None:
    view = my_turn(me)
    body = problem(me.post("/discard", {"card": "ZZ"}, version=view["version"]), 422, "bad_card")
    assert "ZZ" in body["detail"]
    unchanged(me, view["version"])


def test_an_illegal_action_names_the_legal_ones(me: Seat) -> None:
    view = my_turn(me)
    if any(a["type"] == "discard" for a in view["legal_actions"]):
        wrong = {"type": "draw", "source": "stock"}
    else:
        wrong = {"type": "discard", "card": view["hand"]["cards"][0]}
    body = problem(me.post("/actions", wrong, version=view["version"]), 409, "illegal_action")
    assert body["legal_actions"] == view["legal_actions"]
    unchanged(me, view["version"])


def test_a_malformed_action_is_422(me: Seat) -> None:
    view = my_turn(me)
    problem(me.post("/actions", {"type": "fly"}, version=view["version"]), 422, "validation_error")
    problem(
        me.post("/actions", {"type": "draw", "source": "sky"}, version=view["version"]), 422, "bad_action"
    )
    body = problem(me.post("/draw", {}, version=view["version"]), 422, "validation_error")
    assert "source" in body["detail"] and "errors" in body
    problem(me.post("/layoff", {"layoffs": []}, version=view["version"]), 422, "bad_action")
    unchanged(me, view["version"])


def test_a_body_that_is_not_json_is_an_error(me: Seat) -> None:
    view = my_turn(me)
    response = me.client.post(
        f"/v1/games/{me.game_id}/draw",
        data="{not json",
        content_type="application/json",
        headers={**me.auth, "If-Match": f'"{view["version"]}"'},
    )
    assert response.status_code in (400, 422) and response.mimetype == "application/problem+json"
    unchanged(me, view["version"])


def test_an_unknown_game_is_404(client: FlaskClient) -> None:
    problem(client.get("/v1/games/NoSuchGame123"), 404, "game_not_found")
    problem(client.get("/v1/games/bad%7Bid%7D"), 404, "game_not_found")
    problem(
        client.post(
            "/v1/games/NoSuchGame123/actions",
            json={"type": "pass"},
            headers={"Authorization": "Bearer x", "If-Match": '"1"'},
        ),
        404,
        "game_not_found",
    )


def test_unknown_paths_and_methods_are_problems_too(client: FlaskClient) -> None:
    problem(client.get("/v1/nothing-here"), 404, "not_found")
    response = client.delete("/v1/games")
    problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["Allow"]


def test_an_unexpected_failure_is_a_500_problem(redis_url: str) -> None:
    app = create_app({"redis_url": redis_url})

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("kaboom")

    response = app.test_client().get("/boom")
    body = problem(response, 500, "internal_error")
    assert "kaboom" not in response.get_data(as_text=True)
    assert body["detail"]


def test_bad_rules_and_bots_at_creation(client: FlaskClient) -> None:
    problem(client.post("/v1/games", json={"rules": {"preset": "martian"}}), 422, "bad_rules")
    problem(client.post("/v1/games", json={"rules": {"options": {"knock_limit": -3}}}), 422, "bad_rules")
    problem(client.post("/v1/games", json={"rules": {"options": {"colour": "red"}}}), 422, "bad_rules")
    problem(client.post("/v1/games", json={"rules": {"options": {"preset": "straight"}}}), 422, "bad_rules")
    problem(client.post("/v1/games", json={"rules": {"options": {"target": "lots"}}}), 422, "bad_rules")
    body = problem(
        client.post("/v1/games", json={"opponent": {"type": "bot", "bot": "nobody"}}), 422, "unknown_bot"
    )
    assert "simple" in body["bots"]
    problem(client.post("/v1/games", json={"opponent": {"type": "alien"}}), 422, "validation_error")


def test_a_seed_is_refused_unless_the_service_allows_it(redis_url: str) -> None:
    strict: Flask = create_app({"redis_url": redis_url, "allow_seed": False})
    problem(strict.test_client().post("/v1/games", json={"seed": 1}), 422, "seed_not_allowed")


def test_a_hand_that_is_not_over_is_not_revealed(me: Seat) -> None:
    problem(me.get("/hands/1"), 404, "hand_not_found")
    problem(me.get("/hands/99"), 404, "hand_not_found")


def test_undo_between_humans_is_refused(table: Table) -> None:
    ann, bob = table.human_game()
    view = ann.view()
    problem(ann.post("/undo", None, version=view["version"]), 409, "undo_not_allowed")


def test_undo_with_nothing_to_undo(table: Table) -> None:
    me = table.bot_game(seed=11)
    view = me.view()
    assert not any(e["seat"] == 0 for e in view["history"])  # a new game: I have not moved yet
    problem(me.post("/undo", None, version=view["version"]), 409, "cannot_undo")


def test_oversized_bodies_and_keys_are_refused(me: Seat) -> None:
    view = my_turn(me)
    big = {"type": "pass", "padding": "x" * 70_000}
    problem(me.post("/actions", big, version=view["version"]), 413, "payload_too_large")
    long_key = {"Idempotency-Key": "k" * 201}
    problem(
        me.post("/actions", {"type": "pass"}, version=view["version"], headers=long_key),
        400,
        "bad_idempotency_key",
    )
    unchanged(me, view["version"])


def test_validation_errors_inside_lists_are_422_not_500(me: Seat, client: FlaskClient) -> None:
    """A null among cards, melds or lay-offs: the errors are keyed by list index (found by schemathesis)."""
    view = me.view()
    analyzed = client.post("/v1/analyze", json={"cards": [None]})
    assert analyzed.status_code == 422 and analyzed.get_json()["errors"]["json"]["cards"]["0"]
    for path, body in (
        ("/knock", {"discard": None, "melds": [None, None]}),
        ("/layoff", {"best": None, "layoffs": [None, None], "melds": []}),
    ):
        response = me.post(path, body, version=view["version"])
        assert response.status_code == 422, response.get_data(as_text=True)
        assert response.get_json()["code"] == "validation_error"
