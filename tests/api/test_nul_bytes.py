"""A NUL character (which PostgreSQL cannot store) in a name, a path or a token description is bad input or
names nobody: a 4xx (or an empty list) that changes nothing — never the 503 "PostgreSQL does not answer"
that clients retry and monitoring counts as an outage."""

from __future__ import annotations

import uuid

import pytest
from flask.testing import FlaskClient

PASSWORD = "correct horse battery"


@pytest.fixture
def session(client: FlaskClient) -> str:
    made = client.post("/v1/account", json={"name": f"nul{uuid.uuid4().hex[:8]}", "password": PASSWORD})
    return str(made.get_json()["token"])


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/v1/account", {"name": "Ann\u0000x", "password": PASSWORD}),
        ("post", "/v1/account/sessions", {"name": "Ann\u0000x", "password": PASSWORD}),
        ("post", "/v1/players", {"name": "Bob\u0000"}),
        ("get", "/v1/players/Ann%00x", None),
        ("get", "/v1/players/Ann%00x/games", None),
        ("get", "/v1/players/Ann%00x/rating-history", None),
        ("get", "/v1/players/bot-simple/games?opponent=Ann%00x", None),
        ("post", "/v1/challenges", {"opponent": "Ann\u0000x"}),
        ("post", "/v1/account/tokens", {"description": "my\u0000bot", "scopes": ["play"]}),
    ],
)
def test_a_nul_character_is_refused_as_bad_input(
    client: FlaskClient, session: str, method: str, path: str, body: object
) -> None:
    answer = getattr(client, method)(path, json=body, headers={"Authorization": f"Bearer {session}"})
    assert answer.status_code < 500, (answer.status_code, answer.get_json())
    if answer.status_code == 200:  # a filter naming nobody: nothing passes it
        assert answer.get_json()["games"] == []
    assert "Retry-After" not in answer.headers
    assert answer.get_json().get("code") != "store_unavailable"
