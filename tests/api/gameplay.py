"""Story helpers for the API tests: a table where players create, join and play games through HTTP
(choosing their moves with ``tests.support.choose``)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.support import choose

PROBLEM = "application/problem+json"


@dataclass
class Seat:
    """One player at the table: their game, seat and token, and every JSON body they received."""

    client: FlaskClient
    game_id: str
    seat: int
    token: str
    seen: list[str] = field(default_factory=list)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def _record(self, response: TestResponse) -> TestResponse:
        self.seen.append(response.get_data(as_text=True))
        return response

    def get(self, path: str = "", **kwargs: Any) -> TestResponse:
        headers = {**self.auth, **kwargs.pop("headers", {})}
        return self._record(self.client.get(f"/v1/games/{self.game_id}{path}", headers=headers, **kwargs))

    def post(self, path: str, body: Any = None, *, version: int | None = None, **kwargs: Any) -> TestResponse:
        headers = {**self.auth, **kwargs.pop("headers", {})}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        return self._record(
            self.client.post(f"/v1/games/{self.game_id}{path}", json=body, headers=headers, **kwargs)
        )

    def view(self) -> dict[str, Any]:
        response = self.get()
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        assert response.headers["ETag"] == f'"{body["version"]}"'
        return body

    def act(self, action: dict[str, Any], version: int | None = None) -> dict[str, Any]:
        """Post an action from the current view; assert it applied."""
        if version is None:
            version = self.view()["version"]
        response = self.post("/actions", action, version=version)
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body

    def play_one(self) -> dict[str, Any]:
        view = self.view()
        return self.act(choose(view), view["version"])


class Table:
    """Creates games through the API."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def create(self, **body: Any) -> tuple[Seat, dict[str, Any]]:
        body.setdefault("seed", 7)
        response = self.client.post("/v1/games", json=body)
        assert response.status_code == 201, response.get_json()
        created: dict[str, Any] = response.get_json()
        seat = Seat(self.client, created["game_id"], created["seat"], created["token"])
        seat.seen.append(response.get_data(as_text=True))
        return seat, created

    def bot_game(self, **body: Any) -> Seat:
        body.setdefault("opponent", {"type": "bot", "bot": "simple"})
        return self.create(**body)[0]

    def human_game(self, **body: Any) -> tuple[Seat, Seat]:
        first, created = self.create(opponent={"type": "human"}, name="Ann", **body)
        response = self.client.post(
            f"/v1/games/{first.game_id}/join", json={"invitation": created["invitation"], "name": "Bob"}
        )
        assert response.status_code == 200, response.get_json()
        joined = response.get_json()
        second = Seat(self.client, first.game_id, joined["seat"], joined["token"])
        second.seen.append(response.get_data(as_text=True))
        return first, second


def to_act(seats: tuple[Seat, Seat]) -> Seat:
    """The seat whose turn it is (either one when the next action is a deal)."""
    view = seats[0].view()
    return seats[view["turn"]] if view["turn"] is not None else seats[0]


def play_hand(seats: tuple[Seat, Seat], max_moves: int = 400) -> dict[str, Any]:
    """Both humans play until the hand is over; returns the last view."""
    for _ in range(max_moves):
        seat = to_act(seats)
        view = seat.view()
        if view["phase"] in ("hand_over", "game_over", "match_over"):
            return view
        seat.act(choose(view), view["version"])
    raise AssertionError("the hand did not end")


def archived(client: FlaskClient, game_id: str, timeout: float = 15.0) -> dict[str, Any]:
    """The finished match's export, once the archive has it (the process's drainer writes it a moment
    after the match ends: profiles and ratings change then)."""
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/v1/games/{game_id}/export")
        if response.status_code == 200:
            export: dict[str, Any] = response.get_json()
            return export
        assert response.status_code == 404 and time.monotonic() < deadline, response.get_data(as_text=True)
        time.sleep(0.02)


def problem(response: TestResponse, status: int, code: str) -> dict[str, Any]:
    """Assert a problem+json error with this status and code; returns its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body: dict[str, Any] = json.loads(response.get_data(as_text=True))
    assert body["code"] == code, body
    assert body["status"] == status
    assert body["title"] and body["detail"] and body["type"]
    return body
