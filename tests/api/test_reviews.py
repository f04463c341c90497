"""Reviews of finished matches through the API: asked for (202, the bot worker computes it), read (202
while pending, 200 once done), kept with the match (asking again makes no new job); refused for a game
that is not archived."""

from __future__ import annotations

import time
from typing import Any

import pytest
from ginrummy.bot_worker import Worker

from tests.support import choose

from .gameplay import Table, archived, problem

SHORT = {"preset": "standard", "options": {"target": 30}}


def finished_match(table: Table) -> str:
    me = table.create(opponent={"type": "bot", "bot": "simple"}, rules=SHORT, seed=13)[0]
    for _ in range(2000):
        view = me.view()
        if view["phase"] == "match_over":
            archived(table.client, me.game_id)
            return me.game_id
        me.act(choose(view), view["version"])
    raise AssertionError("the match did not end")


def reviewed(table: Table, game_id: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        response = table.client.get(f"/v1/games/{game_id}/review")
        if response.status_code == 200:
            body: dict[str, Any] = response.get_json()
            return body
        assert response.status_code == 202 and time.monotonic() < deadline, response.get_json()
        assert response.get_json()["status"] == "pending"
        time.sleep(0.1)


@pytest.mark.slow
def test_a_finished_match_is_reviewed_by_a_worker_and_the_review_is_kept(
    lonely: Table, worker: Worker
) -> None:
    game_id = finished_match(lonely)
    before = problem(lonely.client.get(f"/v1/games/{game_id}/review"), 404, "review_not_found")
    assert "POST" in before["detail"]
    asked = lonely.client.post(f"/v1/games/{game_id}/review")
    assert asked.status_code == 202 and asked.headers["Location"] == f"/v1/games/{game_id}/review"
    assert asked.headers["Retry-After"] == "2"
    assert asked.get_json()["status"] == "pending" and asked.get_json()["review"] is None
    done = reviewed(lonely, game_id)
    assert done["status"] == "done" and done["finished_at"]
    review = done["review"]
    export = lonely.client.get(f"/v1/games/{game_id}/export").get_json()
    assert [s["seat"] for s in review["seats"]] == [0, 1]
    assert {m["hand"] for m in review["moves"]} <= set(range(1, export["hand_count"] + 1))
    for move in review["moves"]:
        record = export["hands"][move["hand"] - 1]
        assert record["actions"][move["index"]]["seat"] == move["seat"]  # the decision the record holds
        assert move["verdict"] in (None, "inaccuracy", "mistake", "blunder")
    assert sum(s["decisions"] for s in review["seats"]) == len(review["moves"]) > 10
    deadline = time.monotonic() + 10  # the worker counts its job once acknowledged, a moment after the save
    while not worker.outcomes["done"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert worker.outcomes["done"] == 1
    again = lonely.client.post(f"/v1/games/{game_id}/review")
    assert again.status_code == 200 and again.get_json() == done  # kept: no second computation
    assert worker.outcomes["done"] == 1


def test_a_game_not_in_the_archive_has_no_review(lonely: Table) -> None:
    me = lonely.create(opponent={"type": "bot", "bot": "simple"}, seed=2)[0]
    problem(lonely.client.post(f"/v1/games/{me.game_id}/review"), 404, "not_archived")
    problem(lonely.client.get(f"/v1/games/{me.game_id}/review"), 404, "not_archived")
    problem(lonely.client.post("/v1/games/g0000000000000000000000/review"), 404, "not_archived")


def test_a_match_without_a_decision_has_no_accuracy(lonely: Table, worker: Worker) -> None:
    """Resigned before a card was played: nothing was judged, so no seat has an accuracy (null), rather
    than a perfect 100."""
    # The player to move first (else the bot's first move would be a decision of the hand the resignation
    # cuts short, which the archive keeps): the seeds decide who deals.
    games = (
        lonely.create(opponent={"type": "bot", "bot": "simple"}, rules=SHORT, seed=s)[0]
        for s in range(13, 60)
    )
    me = next(seat for seat in games if not seat.view()["history"])  # nobody has moved yet
    view = me.view()
    me.act(next(a for a in view["legal_actions"] if a["type"] == "resign"), view["version"])
    archived(lonely.client, me.game_id)
    assert lonely.client.post(f"/v1/games/{me.game_id}/review").status_code in (200, 202)
    review = reviewed(lonely, me.game_id)["review"]
    assert review["moves"] == []
    assert [(s["seat"], s["decisions"], s["accuracy"]) for s in review["seats"]] == [
        (0, 0, None),
        (1, 0, None),
    ]
