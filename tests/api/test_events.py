"""Events: resumable pages, long polls, NDJSON and Server-Sent Events streams."""

from __future__ import annotations

import json
import threading

from flask import Flask
from flask.testing import FlaskClient

from tests.support import choose

from .gameplay import Table, problem, to_act


def test_events_resume_from_a_cursor(table: Table) -> None:
    me = table.bot_game()
    first = me.get("/events").get_json()
    assert first["events"] and first["events"][0]["type"] == "deal"
    cursor = first["cursor"]
    assert me.get(f"/events?after={cursor}").get_json() == {
        "events": [],
        "cursor": cursor,
        "truncated": False,
        "opponent_gone": None,  # (a bot's game: nobody leaves)
    }
    moved = me.act(choose(me.view()))
    page = me.get(f"/events?after={cursor}").get_json()
    assert [e["id"] for e in page["events"]] == [e["id"] for e in moved["events"]]
    assert page["events"] == moved["events"]
    assert page["cursor"] == moved["events"][-1]["id"]


def test_a_bad_cursor_is_422(table: Table) -> None:
    me = table.bot_game()
    problem(me.get("/events?after=yesterday"), 422, "validation_error")


def test_a_long_poll_returns_when_the_opponent_moves(table: Table, app: Flask) -> None:
    ann, bob = table.human_game()
    mover = to_act((ann, bob))
    waiter = bob if mover is ann else ann
    cursor = waiter.get("/events").get_json()["cursor"]
    result: dict = {}

    def poll() -> None:
        client = app.test_client()
        response = client.get(f"/v1/games/{ann.game_id}/events?after={cursor}&wait=20", headers=waiter.auth)
        result["body"] = response.get_json()

    poller = threading.Thread(target=poll)
    poller.start()
    view = mover.view()
    moved = mover.act(choose(view), view["version"])
    poller.join()
    events = result["body"]["events"]
    assert [e["id"] for e in events] == [e["id"] for e in moved["events"]]
    assert all(e["seat"] == mover.seat for e in events)


def test_a_long_poll_without_news_returns_empty(table: Table) -> None:
    me = table.bot_game()
    cursor = me.get("/events").get_json()["cursor"]
    assert me.get(f"/events?after={cursor}&wait=0.3").get_json()["events"] == []


def test_a_trimmed_history_is_flagged(table: Table) -> None:
    me = table.bot_game()
    first = me.get("/events").get_json()["events"][0]["id"]
    for _ in range(15):
        view = me.view()
        if view["phase"] != "hand_over" and not view["legal_actions"]:
            break
        me.act(choose(view), view["version"])
    page = me.get("/events?after=1-0").get_json()
    oldest = page["events"][0]["id"]
    assert page["truncated"] is (oldest != first)


def read_stream(client: FlaskClient, path: str, headers: dict[str, str], until: int) -> list[str]:
    response = client.get(path, headers=headers, buffered=False)
    assert response.status_code == 200
    chunks: list[str] = []
    for chunk in response.response:  # type: ignore[union-attr]
        chunks.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        if sum(c.count("\n") for c in chunks) >= until:
            break
    response.close()
    return chunks


def test_an_ndjson_stream_sends_events_and_keepalives(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    total = len(me.get("/events").get_json()["events"])
    chunks = read_stream(
        client,
        f"/v1/games/{me.game_id}/events?wait=5",
        {**me.auth, "Accept": "application/x-ndjson"},
        until=total + 2,
    )
    lines = [json.loads(line) for line in "".join(chunks).splitlines() if line]
    # A keep-alive at once (the stream is open), the events, then keep-alives while nothing happens.
    assert lines[0] == {"type": "keepalive"}
    events = lines[1 : total + 1]
    assert [e["type"] for e in events] == [e["type"] for e in me.get("/events").get_json()["events"]]
    assert lines[total + 1] == {"type": "keepalive"}


def test_an_sse_stream_resumes_from_last_event_id(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    events = me.get("/events").get_json()["events"]
    chunks = read_stream(
        client,
        f"/v1/games/{me.game_id}/events?wait=5",
        {**me.auth, "Accept": "text/event-stream", "Last-Event-ID": events[0]["id"]},
        until=6,
    )
    text = "".join(chunks)
    assert text.startswith("retry:")
    if len(events) > 1:
        assert f"id: {events[1]['id']}\nevent: {events[1]['type']}\ndata: " in text
        assert f"id: {events[0]['id']}\n" not in text
    else:
        assert ": keep-alive" in text


def test_a_stream_ends_after_its_wait(table: Table, client: FlaskClient) -> None:
    me = table.bot_game()
    cursor = me.get("/events").get_json()["cursor"]
    response = client.get(
        f"/v1/games/{me.game_id}/events?after={cursor}&wait=1.5",
        headers={**me.auth, "Accept": "application/x-ndjson"},
    )
    lines = [json.loads(x) for x in response.get_data(as_text=True).splitlines() if x]
    assert lines and all(line == {"type": "keepalive"} for line in lines)
