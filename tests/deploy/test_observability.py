"""/metrics, request ids and JSON logs of ginrummy.http.observability, through the real app and Redis."""

from __future__ import annotations

import json
import logging

import pytest
from flask import Flask
from flask.testing import FlaskClient
from ginrummy.app import metrics
from ginrummy.http import create_app
from ginrummy.http import observability as obs
from prometheus_client import REGISTRY

from tests.deploy.play import create_game, step


@pytest.fixture
def client(redis_url: str) -> FlaskClient:
    app: Flask = create_app({"REDIS_URL": redis_url})
    return app.test_client()


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_request_id_is_accepted_or_made_and_always_returned(client: FlaskClient) -> None:
    assert (
        client.get("/healthz", headers={"X-Request-ID": "abc-123.x:y"}).headers["X-Request-ID"]
        == "abc-123.x:y"
    )
    for bad in ("has space", "x" * 129, 'quote"s', "{json}", ""):
        returned = client.get("/healthz", headers={"X-Request-ID": bad}).headers["X-Request-ID"]
        assert returned != bad and len(returned) == 32
    # Errors carry one too.
    assert client.get("/no/such/page").headers["X-Request-ID"]


def test_metrics_count_requests_actions_and_games(client: FlaskClient) -> None:
    labels = {"endpoint": "/v1/games/<game_id>/actions", "method": "POST", "status": "200"}
    moves_before = _sample("gin_http_request_duration_seconds_count", **labels)
    created_before = _sample("gin_games_created_total")
    unmatched_before = _sample("gin_http_request_duration_seconds_count", endpoint="unmatched", method="GET",
                               status="404")  # fmt: skip
    seat = create_game(client)
    step(client, seat)
    client.get("/no/such/page")
    assert _sample("gin_http_request_duration_seconds_count", **labels) == moves_before + 1
    assert _sample("gin_http_request_duration_seconds_count", endpoint="unmatched", method="GET",
                   status="404") == unmatched_before + 1  # fmt: skip
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    names = ["gin_http_request_duration_seconds_bucket", "gin_actions_total", "gin_games_created_total"]
    names += ["gin_games_finished_total", "gin_bot_decision_seconds", "gin_redis_errors_total"]
    for name in names:
        assert name in text
    # The service reports games and actions through the helpers (at least our game and our move).
    assert _sample("gin_games_created_total") >= created_before + 1


def test_the_helpers_keep_label_values_bounded() -> None:
    before = _sample("gin_actions_total", type="other")
    metrics.record_action("draw")
    metrics.record_action("drop table")
    assert _sample("gin_actions_total", type="other") == before + 1
    metrics.observe_bot_decision(0.002, "simple")
    metrics.observe_bot_decision(0.002, "a{weird}\nname")
    assert _sample("gin_bot_decision_seconds_count", bot="other") >= 1
    obs.record_redis_error("ConnectionError")
    assert _sample("gin_redis_errors_total", kind="ConnectionError") >= 1
    metrics.record_game_created()
    metrics.record_game_finished()


def test_logs_are_json_with_the_request_id_and_no_token(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    seat = create_game(client)
    with caplog.at_level(logging.INFO, logger="ginrummy"):
        client.get(f"/v1/games/{seat.game_id}", headers={**seat.auth, "X-Request-ID": "log-test-7"})
        logging.getLogger("ginrummy.test").warning("oops with Authorization: Bearer %s", seat.token)
    formatter = obs.JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records]
    entries = [json.loads(line) for line in lines]
    access = [e for e in entries if e["logger"] == "ginrummy.access" and e["method"] == "GET"]
    assert access and access[0]["request_id"] == "log-test-7" and access[0]["status"] == 200
    assert access[0]["path"] == f"/v1/games/{seat.game_id}"
    assert all(seat.token not in line for line in lines)
    assert any("Bearer" not in e["msg"] and "oops" in e["msg"] for e in entries)


def test_redact_blanks_tokens() -> None:
    assert obs.redact("Authorization: Bearer abc.def") == "Authorization: ***"
    assert obs.redact('{"token": "t0k", "invitation": "inv"}') == '{"token": "***", "invitation": "***"}'
    assert obs.redact("nothing secret") == "nothing secret"
