"""Hostile and broken clients: odd bodies, odd text, wrong seats, every action in every phase. Every answer
is a clear 4xx problem (never a 500) and changes nothing."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.support import choose

from .gameplay import PROBLEM, Seat, Table, problem


@pytest.fixture
def me(table: Table) -> Seat:
    return table.bot_game()


ACTIONS = [
    {"type": "deal"},
    {"type": "draw", "source": "stock"},
    {"type": "draw", "source": "discard"},
    {"type": "pass"},
    {"type": "discard", "card": "AS"},
    {"type": "knock", "discard": "AS"},
    {"type": "knock", "discard": None},
    {"type": "layoff", "best": True},
    {"type": "layoff", "melds": [], "layoffs": []},
]


def test_deeply_nested_json_is_a_400_not_a_crash(client: FlaskClient) -> None:
    for depth in (1100, 20_000):  # past orjson's limit of 1,024 levels, and far past Python's stack
        body = "[" * depth + "]" * depth
        response = client.post("/v1/analyze", data=body, content_type="application/json")
        assert response.status_code == 400 and response.mimetype == PROBLEM
    nested = '{"cards": ' + "[" * 50 + "]" * 50 + "}"
    assert client.post("/v1/analyze", data=nested, content_type="application/json").status_code == 422


def test_wrong_content_types_and_broken_bodies(client: FlaskClient) -> None:
    cases = [
        ('{"cards": ["7H"]}', "text/plain"),
        ("cards=7H", "application/x-www-form-urlencoded"),
        ("\xff\xfe not utf-8", "application/json"),
        ('{"cards": ["7H"],}', "application/json"),
        ("", "application/json"),
    ]
    for body, content_type in cases:
        response = client.post("/v1/analyze", data=body, content_type=content_type)
        assert response.status_code in (400, 415, 422), (body, response.status_code)
        assert response.mimetype == PROBLEM


def test_bodies_at_and_over_the_limit(client: FlaskClient) -> None:
    filler = "x" * (64 * 1024 - 100)
    at_limit = client.post("/v1/games", json={"name": "Ann", "pad": filler})
    assert at_limit.status_code == 422  # read and refused for its unknown member, not for its size
    over = client.post("/v1/games", json={"name": "Ann", "pad": filler * 2})
    problem(over, 413, "payload_too_large")


@pytest.mark.parametrize(
    "card",
    ["７Ｈ", "\u202e7H", "7H\x00", "7\u200bH", "", " ", "7HH", "1H", "0S", "-1", "52", "𝟕H", "7Ｈ", "🂧"],
)
def test_odd_card_texts_are_bad_cards(client: FlaskClient, card: str) -> None:
    response = client.post("/v1/analyze", json={"cards": ["2C", card]})
    assert response.status_code == 422, card
    assert response.get_json()["code"] in ("bad_card", "validation_error")


@pytest.mark.parametrize(
    "name", ["Ann\x07", "\x1b[31mred", "left\u202eright", "a\nb", "\u2028", "x" * 41, ""]
)
def test_names_are_printable_text(client: FlaskClient, name: str) -> None:
    problem(client.post("/v1/games", json={"name": name}), 422, "validation_error")


def test_unicode_names_that_are_text_are_welcome(client: FlaskClient) -> None:
    for name in ("Zoë", "李雷", "Ана", "😀 Bob"):
        assert client.post("/v1/games", json={"name": name}).status_code == 201


def test_very_long_or_odd_game_ids_are_404(client: FlaskClient) -> None:
    for game_id in ("g" * 10_000, "..%2F..%2Fetc", "g%00abc", "-" * 20):
        response = client.get(f"/v1/games/{game_id}")
        assert response.status_code == 404 and response.mimetype == PROBLEM


def test_duplicated_cards_are_refused(me: Seat) -> None:
    view = me.view()
    response = me.post("/knock", {"discard": "AS", "melds": [["7H", "7H", "7D"]]}, version=view["version"])
    assert response.status_code in (409, 422)
    assert me.view()["version"] == view["version"]


def test_other_seats_and_other_games_tokens_are_refused(table: Table) -> None:
    ann, bob = table.human_game()
    other, _ = table.human_game()
    view = ann.view()
    for token in (other.token, bob.token + "x", bob.token.upper()):
        intruder = Seat(ann.client, ann.game_id, 0, token)
        problem(intruder.post("/actions", {"type": "pass"}, version=view["version"]), 403, "forbidden")
        problem(intruder.get("/hint"), 403, "forbidden")
    assert ann.view()["version"] == view["version"]


def test_every_action_in_every_phase_by_both_seats(table: Table) -> None:
    """Through a whole hand and the next deal: each seat posts every kind of action at every step; only
    a legal one may apply, the rest are 409/422 problems that change nothing."""
    ann, bob = table.human_game(seed=13)
    seats = (ann, bob)
    phases = set()
    for _ in range(300):
        views = [ann.view(), bob.view()]
        phases.add(views[0]["phase"])
        if views[0]["phase"] == "match_over" or (len(phases) > 1 and views[0]["hand_number"] == 2):
            break
        version = views[0]["version"]
        for seat, view in zip(seats, views, strict=True):
            # An action whose type is legal now may be legal with these very cards: try the other types.
            legal_types = {a["type"] for a in view["legal_actions"]}
            for action in ACTIONS:
                if action["type"] in legal_types:
                    continue
                response = seat.post("/actions", action, version=version)
                assert response.status_code in (409, 422), (view["phase"], action, response.get_json())
                assert response.mimetype == PROBLEM
                assert seat.view()["version"] == version
        mover = seats[views[0]["turn"]] if views[0]["turn"] is not None else ann
        mover.act(choose(views[mover.seat]), version)
    assert {"draw", "discard", "hand_over"} <= phases or "layoff" in phases


def test_a_seed_beyond_64_bits_is_422_not_500(client: FlaskClient) -> None:
    """Found by schemathesis: the seed is stored as a JSON number, which orjson writes up to 64 bits."""
    for seed in (-4683577762467227369472, 2**64, -1):
        problem(client.post("/v1/games", json={"seed": seed}), 422, "validation_error")
    assert client.post("/v1/games", json={"seed": 2**63 - 1}).status_code == 201


@pytest.mark.parametrize("header", ['"²"', "²", '"1', 'W/"x"', '"' + "9" * 19 + '"'])
def test_if_match_that_is_no_version_is_400(me: Seat, header: str) -> None:
    view = me.view()
    response = me.client.post(
        f"/v1/games/{me.game_id}/pass", headers={**me.auth, "If-Match": header}, json={}
    )
    assert response.status_code in (400, 409), response.get_data(as_text=True)
    if response.status_code == 400:
        assert response.get_json()["code"] == "bad_if_match"
    assert me.view()["version"] == view["version"]


def test_a_query_parameter_given_twice_is_refused(me: Seat) -> None:
    response = me.client.get(f"/v1/games/{me.game_id}/events?wait=0&wait=1", headers=me.auth)
    assert response.status_code == 422 and response.get_json()["code"] == "validation_error"
