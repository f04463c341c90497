"""Optimistic concurrency: If-Match is required (428), a stale one is 412, and of two racing moves exactly
one applies."""

from __future__ import annotations

import threading

from flask import Flask

from tests.support import choose

from .gameplay import Table, problem


def test_an_action_without_if_match_is_428_and_changes_nothing(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    problem(me.post("/actions", choose(view)), 428, "precondition_required")
    assert me.view()["version"] == view["version"]


def test_a_stale_if_match_is_412_with_the_current_version(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    me.act(choose(view), view["version"])
    response = me.post("/actions", choose(me.view()), version=view["version"])
    body = problem(response, 412, "stale_version")
    assert body["version"] == view["version"] + 1
    assert response.headers["ETag"] == f'"{view["version"] + 1}"'
    assert me.view()["version"] == view["version"] + 1


def test_a_malformed_if_match_is_400(table: Table) -> None:
    me = table.bot_game()
    problem(me.post("/actions", {"type": "pass"}, headers={"If-Match": "yesterday"}), 400, "bad_if_match")


def test_if_none_match_answers_304_while_nothing_changed(table: Table) -> None:
    me = table.bot_game()
    view = me.view()
    response = me.get(headers={"If-None-Match": f'"{view["version"]}"'})
    assert response.status_code == 304


def test_of_two_racing_moves_exactly_one_applies(table: Table, app: Flask) -> None:
    me = table.bot_game()
    view = me.view()
    action = choose(view)
    barrier = threading.Barrier(6)
    statuses: list[int] = []

    def move() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(
            f"/v1/games/{me.game_id}/actions",
            json=action,
            headers={"Authorization": f"Bearer {me.token}", "If-Match": f'"{view["version"]}"'},
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=move) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 412, 412, 412, 412, 412]
    assert me.view()["version"] == view["version"] + 1


def test_of_two_racing_joins_exactly_one_takes_the_seat(table: Table, app: Flask) -> None:
    ann, created = table.create(opponent={"type": "human"})
    barrier = threading.Barrier(4)
    statuses: list[int] = []

    def join() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(f"/v1/games/{ann.game_id}/join", json={"invitation": created["invitation"]})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=join) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses.count(200) == 1 and all(s in (200, 403, 409) for s in statuses)
    assert ann.view()["players"][1]["joined"] is True
