"""Retries through the SDK against the real service: a POST whose response the network lost is resent
with the same Idempotency-Key and applied once; 429 and 503 answers are waited out as Retry-After says
(or raised when that is too long); requests that are not safe to resend are not."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from ginrummy.store.embedded import free_port
from ginrummy_client import Client, ConnectionFailed, RateLimited

from tests.fixtures.live_service import start_service
from tests.support import choose, stop_gunicorn

from .proxy import Proxy, problem_response


def test_a_move_whose_response_was_lost_is_applied_once(live_service: str, proxy: Proxy) -> None:
    with Client(proxy.url) as client:
        game = client.games.create(bot="simple", seed=31337)
        before = game.version
        actions = f"POST /v1/games/{game.game_id}/actions "
        proxy.swallow(actions)
        result = game.act(choose(game.view))
    assert result["version"] == game.version == before + 1
    with Client(live_service) as direct:
        assert direct.games.get(game.game_id, game.token).version == before + 1  # applied once
    sent = proxy.requests_to(actions)
    assert len(sent) == 2
    assert sent[0].headers["idempotency-key"] == sent[1].headers["idempotency-key"]
    assert sent[0].headers["if-match"] == sent[1].headers["if-match"] == f'"{before}"'
    assert [head.line.split()[1] for head in proxy.swallowed] == ["200"]  # the service did the move…
    assert "idempotent-replayed" not in proxy.swallowed[0].headers
    replayed = [h for h in proxy.responses if h.headers.get("idempotent-replayed") == "true"]
    assert len(replayed) == 1  # …and answered the resend with its stored response


def test_a_create_whose_response_was_lost_gives_the_same_game(proxy: Proxy) -> None:
    proxy.swallow("POST /v1/games ")
    with Client(proxy.url) as client:
        game = client.games.create(bot="simple", seed=1)
        assert game.version == 1 and game.token
        game.refresh()  # the replayed token (stored encrypted) is the seat's token
    sent = proxy.requests_to("POST /v1/games ")
    assert len(sent) == 2 and sent[0].headers["idempotency-key"] == sent[1].headers["idempotency-key"]


def test_a_503_with_retry_after_is_waited_out(proxy: Proxy) -> None:
    with Client(proxy.url) as client:
        game = client.games.create(bot="simple", seed=2)
        actions = f"POST /v1/games/{game.game_id}/actions "
        proxy.answer(
            actions, problem_response(503, "Service Unavailable", "store_unavailable", retry_after=1)
        )
        started = time.monotonic()
        result = game.act(choose(game.view))
        assert time.monotonic() - started >= 1.0
    assert result["version"] == 2
    assert len(proxy.requests_to(actions)) == 2


def test_a_request_unsafe_to_resend_is_not_resent(proxy: Proxy) -> None:
    """Only GETs and POSTs with an Idempotency-Key are resent after a network error: a DELETE (which
    the API does not have: the SDK would send one only if it grew such a call) is not."""
    proxy.swallow("DELETE /v1/games/x ")
    with Client(proxy.url) as client, pytest.raises(ConnectionFailed) as failed:
        client._request("DELETE", "/v1/games/x")
    assert len(proxy.requests_to("DELETE ")) == 1 and "cannot reach" in str(failed.value)


def test_an_unreachable_service_fails_after_the_retries() -> None:
    with Client(f"http://127.0.0.1:{free_port()}", retries=2) as client:  # nothing listens there
        started = time.monotonic()
        with pytest.raises(ConnectionFailed, match="connection refused"):
            client.service.rules()
        assert time.monotonic() - started >= 0.2 + 0.4  # two resends, after 0.2 and 0.4 s


# --- a real service with tight rate limits -----------------------------------------------------------


@pytest.fixture(scope="module")
def limited(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service with its rate limits on: 2 moves a second, and 1 read an hour, per seat token."""
    env = {
        "GIN_RATE_LIMITS": "1",  # the suite turns them off (conftest.py)
        "GIN_LIMIT_MOVE": "2/second",
        "GIN_LIMIT_READ": "1/hour",
        "GIN_GRACEFUL_TIMEOUT": "1",
    }
    process, base = start_service(
        redis_url, Path(tmp_path_factory.mktemp("limited")), workers=1, extra_env=env
    )
    try:
        yield base
    finally:
        stop_gunicorn(process)


def refused(base: str, budget: str) -> float:
    metrics = requests.get(f"{base}/metrics", timeout=10).text
    found = re.search(rf'gin_rate_limited_total\{{budget="{budget}"\}} (\d+)', metrics)
    return float(found.group(1)) if found else 0.0


def test_429_is_waited_out_as_retry_after_says(limited: str) -> None:
    with Client(limited) as client:
        game = client.games.create(bot="simple", seed=3)
        before = refused(limited, "move")
        started = time.monotonic()
        for _ in range(5):
            game.act(choose(game.view))
        assert time.monotonic() - started >= 1.0  # at least one wait of Retry-After: 1
    assert game.version == 6
    assert refused(limited, "move") > before


def test_a_retry_after_longer_than_max_retry_wait_is_raised_at_once(limited: str) -> None:
    with Client(limited, max_retry_wait=5) as client:
        game = client.games.create(bot="simple", seed=4)
        game.refresh()  # the one read of the hour
        started = time.monotonic()
        with pytest.raises(RateLimited) as limit:
            game.refresh()
        assert time.monotonic() - started < 1.0
    assert limit.value.status == 429 and limit.value.code == "rate_limited"
    assert limit.value.retry_after is not None and limit.value.retry_after > 5
