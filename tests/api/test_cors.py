"""CORS for third-party frontends, configured by GIN_CORS_ORIGINS, and the web client's files at /play."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from ginrummy.http import create_app

PREFLIGHT = {
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "Authorization, If-Match, Idempotency-Key, Content-Type",
}


@pytest.fixture(scope="module")
def allowing(redis_url: str) -> Flask:
    return create_app(
        {"redis_url": redis_url, "cors_origins": "https://cards.example, http://localhost:5173"}
    )


def test_a_preflight_from_an_allowed_origin_allows_the_apis_methods_and_headers(allowing: Flask) -> None:
    response = allowing.test_client().options(
        "/v1/games/gabcdefgh/draw", headers={"Origin": "https://cards.example", **PREFLIGHT}
    )
    assert response.status_code == 200
    headers = response.headers
    assert headers["Access-Control-Allow-Origin"] == "https://cards.example"
    allowed = {h.strip().lower() for h in headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "if-match", "idempotency-key", "content-type"} <= allowed
    assert "POST" in headers["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in headers  # bearer tokens, never cookies


def test_responses_expose_the_headers_a_client_needs(allowing: Flask) -> None:
    response = allowing.test_client().post(
        "/v1/games", json={"opponent": {"type": "bot"}}, headers={"Origin": "http://localhost:5173"}
    )
    assert response.status_code == 201
    assert response.headers["Access-Control-Allow-Origin"] == "http://localhost:5173"
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Idempotent-Replayed", "Retry-After", "Location"} <= exposed
    assert "Origin" in response.headers.get("Vary", "")


def test_another_origin_gets_no_cors_headers(allowing: Flask) -> None:
    response = allowing.test_client().options(
        "/v1/games/gabcdefgh/draw", headers={"Origin": "https://evil.example", **PREFLIGHT}
    )
    assert "Access-Control-Allow-Origin" not in response.headers


def test_without_the_setting_only_the_services_own_origin_may_call(redis_url: str) -> None:
    client = create_app({"redis_url": redis_url}).test_client()
    response = client.get("/v1/rules", headers={"Origin": "https://cards.example"})
    assert response.status_code == 200 and "Access-Control-Allow-Origin" not in response.headers


def test_a_star_lets_any_origin_call(redis_url: str) -> None:
    client = create_app({"redis_url": redis_url, "cors_origins": "*"}).test_client()
    response = client.get("/v1/bots", headers={"Origin": "https://anyone.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_the_web_client_is_served_at_play(redis_url: str, tmp_path: Path) -> None:
    client = create_app({"redis_url": redis_url}).test_client()
    assert client.get("/play").status_code == 308
    page = client.get("/play/")
    assert page.status_code == 200 and b"<html" in page.data
    assert page.headers["X-Frame-Options"] == "DENY" and page.headers["Referrer-Policy"] == "no-referrer"
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    missing = client.get("/play/no-such-file.js")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"
    empty = create_app({"redis_url": redis_url, "web_dir": str(tmp_path)}).test_client().get("/play/")
    assert empty.status_code == 404 and empty.get_json()["code"] == "web_client_missing"
