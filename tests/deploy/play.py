"""Play complete games through the HTTP API, with a Flask test client or a requests.Session.

Shared by the deployment and topology tests: create a game against a bot, then keep posting one of the
view's ``legal_actions`` (as is) with ``If-Match`` until the game is over.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Short games keep the suite quick; they are still complete games (dealt, played, scored, over).
QUICK_RULES = {"preset": "standard", "options": {"target": 25}}
OVER_PHASES = {"game_over", "match_over"}


def body(response: Any) -> Any:
    """The JSON body of a Flask test response or a requests response."""
    return response.get_json() if hasattr(response, "get_json") else response.json()


@dataclass
class Seat:
    """One player's handle on a game: id, token, the last view and its ETag."""

    game_id: str
    token: str
    view: dict[str, Any]
    etag: str
    moves: int = 0
    hands: set[int] = field(default_factory=set)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def create_game(http: Any, base: str = "", bot: str = "simple", rules: dict[str, Any] | None = None) -> Seat:
    response = http.post(
        f"{base}/v1/games",
        json={"rules": rules or QUICK_RULES, "opponent": {"type": "bot", "bot": bot}, "name": "ops"},
    )
    assert response.status_code == 201, body(response)
    data = body(response)
    return Seat(data["game_id"], data["token"], data["view"], response.headers["ETag"])


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Knock or lay off when possible (hands then end with points), else anything but a deal, else deal;
    never resign, abort or rematch."""
    legal = [a for a in legal if a["type"] not in ("resign", "abort", "rematch")]
    for kind in ("knock", "layoff"):
        for action in legal:
            if action["type"] == kind:
                return action
    for action in legal:
        if action["type"] != "deal":
            return action
    return legal[0]


def over(view: dict[str, Any]) -> bool:
    return view.get("phase") in OVER_PHASES or not view.get("your_move")


def step(http: Any, seat: Seat, base: str = "", retry: Callable[[Any], bool] | None = None) -> None:
    """Post one legal action. ``retry(response)`` may ask to resend it (e.g. while Redis fails over)."""
    action = choose(seat.view["legal_actions"])
    headers = {**seat.auth, "If-Match": seat.etag, "Idempotency-Key": f"{seat.game_id}-{seat.moves}"}
    for _ in range(200):
        response = http.post(f"{base}/v1/games/{seat.game_id}/actions", json=action, headers=headers)
        if retry is None or not retry(response):
            break
        time.sleep(0.05)
    assert response.status_code == 200, (action, body(response))
    data = body(response)
    seat.view = data["view"]
    seat.etag = response.headers["ETag"]
    seat.moves += 1
    seat.hands.add(seat.view["hand_number"])


def play_to_end(
    http: Any,
    seat: Seat,
    base: str = "",
    *,
    max_moves: int = 3000,
    after_move: Callable[[Seat], None] | None = None,
    retry: Callable[[Any], bool] | None = None,
) -> dict[str, Any]:
    """Play ``seat`` until the game is over; returns the final view."""
    while not over(seat.view):
        assert seat.moves < max_moves, f"game {seat.game_id} did not end in {max_moves} moves"
        step(http, seat, base, retry)
        if after_move is not None:
            after_move(seat)
    return seat.view


def reload(
    http: Any, seat: Seat, base: str = "", retry: Callable[[Any], bool] | None = None
) -> dict[str, Any]:
    """GET the seat's view again (from Redis, through whichever instance answers)."""
    for _ in range(200):
        response = http.get(f"{base}/v1/games/{seat.game_id}", headers=seat.auth)
        if retry is None or not retry(response):
            break
        time.sleep(0.05)
    assert response.status_code == 200, body(response)
    seat.view = body(response)
    seat.etag = response.headers["ETag"]
    return seat.view
