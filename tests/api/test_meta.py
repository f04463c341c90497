"""Rules, bots, stateless analysis, health, the OpenAPI document and the docs page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask.testing import FlaskClient
from ginrummy.http.openapi_export import render

from .gameplay import problem

ROOT = Path(__file__).resolve().parents[2]


def test_rules_list_presets_and_options(client: FlaskClient) -> None:
    body = client.get("/v1/rules").get_json()
    names = [p["name"] for p in body["presets"]]
    assert {"standard", "tournament", "big-gin-50", "oklahoma", "hollywood", "straight"} <= set(names)
    tournament = next(p for p in body["presets"] if p["name"] == "tournament")
    assert tournament["rules"]["target"] == 250
    assert any(o["name"] == "knock_limit" for o in body["options"]) or "knock_limit" in json.dumps(
        body["options"]
    )


def test_bots_are_listed(client: FlaskClient) -> None:
    body = client.get("/v1/bots").get_json()
    assert "simple" in [b["name"] for b in body["bots"]]
    assert all({"name", "level", "description"} <= set(b) for b in body["bots"])


def test_analyze_a_hand(client: FlaskClient) -> None:
    body = client.post(
        "/v1/analyze", json={"cards": ["7S", "7H", "7D", "4C", "5C", "6C", "2H", "3D", "9S", "10s"]}
    ).get_json()
    assert body["deadwood"] == 24
    assert sorted(map(sorted, body["melds"])) == [["4C", "5C", "6C"], ["7D", "7H", "7S"]]
    assert body["can_knock"] is False and body["can_gin"] is False
    eleven = client.post(
        "/v1/analyze",
        json={"cards": ["AS", "2S", "3S", "JH", "JD", "JC", "4H", "3H", "5D", "9C", "KD"], "knock_limit": 10},
    ).get_json()
    assert eleven["discards"][0] == {"card": "KD", "deadwood": 21} and eleven["can_knock"] is False
    assert len(eleven["discards"]) == 11


def test_analyze_gives_no_knock_verdict_on_part_of_a_hand(client: FlaskClient) -> None:
    body = client.post("/v1/analyze", json={"cards": ["7H", "8H", "9H"]}).get_json()
    assert body["deadwood"] == 0 and body["melds"] == [["7H", "8H", "9H"]]
    assert body["can_knock"] is None and body["can_gin"] is None and body["big_gin"] is None
    gin = client.post(
        "/v1/analyze", json={"cards": ["7H", "8H", "9H", "2C", "2D", "2S", "JC", "QC", "KC", "TC"]}
    ).get_json()
    assert gin["can_knock"] is True and gin["can_gin"] is True


def test_analyze_refuses_bad_cards(client: FlaskClient) -> None:
    problem(client.post("/v1/analyze", json={"cards": ["7S", "XX"]}), 422, "bad_card")
    problem(client.post("/v1/analyze", json={"cards": ["7S", "7S"]}), 422, "duplicate_card")
    problem(client.post("/v1/analyze", json={"cards": []}), 422, "validation_error")


def test_health_and_readiness(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ready" and set(ready["archive"]) == {"pending", "lag_seconds"}


def test_readiness_fails_without_redis() -> None:
    from ginrummy.http import create_app

    app = create_app({"redis_url": "redis://127.0.0.1:1/0?socket_connect_timeout=0.5"})
    problem(app.test_client().get("/readyz"), 503, "store_unavailable")
    problem(app.test_client().get("/v1/games/abcdefghij"), 503, "store_unavailable")


def test_the_checked_in_openapi_document_is_current() -> None:
    checked_in = (ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8")
    assert checked_in == render(), "openapi/openapi.json is stale: run `make openapi`"


def test_the_openapi_document_is_served_and_documents_errors(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert "/v1/games/{game_id}/actions" in spec["paths"]
    post = spec["paths"]["/v1/games/{game_id}/actions"]["post"]
    assert "412" in post["responses"] and "428" in post["responses"]
    assert any(p["name"] == "If-Match" for p in post["parameters"])
    assert "application/problem+json" in post["responses"]["409"]["content"]


def test_the_docs_page(client: FlaskClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200 and "swagger" in response.get_data(as_text=True).lower()


def test_the_docs_page_needs_nothing_from_outside(client: FlaskClient) -> None:
    page = client.get("/docs").get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', page)
    assert assets and all(a.startswith("/docs/static/") for a in assets), assets
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200 and len(response.data) > 1000
    assert client.get("/docs/static/../../pyproject.toml").status_code == 404
