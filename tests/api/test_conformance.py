"""The response check the whole suite runs under (GIN_CHECK_RESPONSES, tests/conftest.py) catches a shape
that drifts from the document: a wrong body, a wrong stream line, an undocumented status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from ginrummy.http import create_app, reference
from ginrummy.http.conformance import Conformance


def test_a_body_that_disagrees_with_its_schema_is_reported_and_sent_unchanged(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "disagreements.log"
    app = create_app({"redis_url": redis_url, "check_responses": str(log)})
    # The analysis as a careless change would write it: a member renamed, one of another type.
    monkeypatch.setattr(
        reference, "analyze_hand", lambda cards, limit: {**_analysis(), "deadwood": "12", "melded": []}
    )
    response = app.test_client().post("/v1/analyze", json={"cards": ["7H", "8H", "9H"]})
    assert response.status_code == 200 and response.get_json()["deadwood"] == "12"  # unchanged
    found = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    problems = " | ".join(line["problem"] for line in found)
    assert {(line["method"], line["path"], line["status"]) for line in found} == {
        ("POST", "/v1/analyze", 200)
    }
    assert "'12' is not of type \"integer\" (at /deadwood)" in problems.replace('"12"', "'12'")
    assert "melded" in problems


def test_a_good_body_is_not_reported(redis_url: str, tmp_path: Path) -> None:
    log = tmp_path / "disagreements.log"
    app = create_app({"redis_url": redis_url, "check_responses": str(log)})
    response = app.test_client().post("/v1/analyze", json={"cards": ["7H", "8H", "9H"]})
    assert response.status_code == 200
    assert not log.exists() or log.read_text(encoding="utf-8") == ""


def test_each_stream_line_is_checked_against_the_item_schema(client: FlaskClient) -> None:
    checker = Conformance(client.get("/openapi.json").get_json())
    path, good = "/v1/games/{game_id}/events", b'{"type":"keepalive"}\n{"id":"3-1","seat":0,"type":"pass"}\n'
    assert checker.problems(path, "get", 200, "application/x-ndjson", good) == []
    bad = good + b'{"id":"4-1","seat":0,"type":"pass","card":"7H"}\n'
    assert len(checker.problems(path, "get", 200, "application/x-ndjson", bad)) == 1
    sse = b'retry: 2000\n\nid: 3-1\nevent: pass\ndata: {"id":"3-1","seat":5,"type":"pass"}\n\n'
    assert checker.problems(path, "get", 200, "text/event-stream", sse) != []  # seat 5: no such seat


def test_an_undocumented_status_or_media_type_is_reported(client: FlaskClient) -> None:
    checker = Conformance(client.get("/openapi.json").get_json())
    # Any status may be an error (the "default" response: problem+json), but no other body.
    wrong = checker.problems("/v1/rules", "get", 201, "application/json", b"{}")
    assert wrong == ["application/json is not documented for status 201 (only application/problem+json)"]
    assert "text/csv is not documented" in checker.problems("/v1/rules", "get", 200, "text/csv", b"a,b")[0]


def _analysis() -> dict[str, object]:
    return {
        "cards": ["7H", "8H", "9H"],
        "melds": [["7H", "8H", "9H"]],
        "deadwood_cards": [],
        "deadwood": 0,
        "arrangements": 1,
        "can_knock": None,
        "can_gin": None,
        "big_gin": None,
        "discards": [],
    }
