"""The terminal client honours Retry-After: against a real service with a tight budget, its requests are
refused with 429, wait, and go through — the player never sees the limit. (gin's requests are the SDK's:
this is the client gin makes, reading views as ``gin show`` and ``gin resume`` do.)"""

from __future__ import annotations

import re
from pathlib import Path

import requests
from ginrummy_client import Client

from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn


def test_the_client_waits_out_a_rate_limit(redis_url: str, tmp_path: Path) -> None:
    limits = {"GIN_RATE_LIMITS": "1", "GIN_LIMIT_READ": "2/second", "GIN_LIMIT_CREATE": "50/minute"}
    process, base = start_service(redis_url, tmp_path, workers=1, extra_env=limits)
    try:
        with Client(base) as client:
            created = client.games.create(bot="simple")
            views = [client.games.get(created.game_id, created.token).view for _ in range(6)]
        assert all(v["game_id"] == created.game_id for v in views)
        metrics = requests.get(f"{base}/metrics", timeout=10).text
        refused = re.search(r'gin_rate_limited_total\{budget="read"\} (\d+)', metrics)
        assert refused is not None and float(refused.group(1)) >= 1  # the limit was met, and waited out
    finally:
        stop_gunicorn(process)
