"""schemathesis over the whole OpenAPI document against the real service, in all its phases (examples,
coverage, fuzzing, and stateful sequences through the document's links): no request, however odd, makes
the service fail (no 5xx); every response conforms to the document — its status code, content type,
headers and body schema; every request the document forbids is refused (negative data), and every
request it allows is accepted unless the game refuses it for a reason of the game (an illegal move, a
stale version: ``schemathesis_hooks.accepted_unless_game_reason``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from tests.fixtures.live_service import start_bot_worker, start_service, stop_bot_worker
from tests.support import stop_gunicorn

ST = Path(sys.executable).with_name("st")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A service of its own, whose long polls and streams end within schemathesis's request timeout
    (a generated ?wait=3000 would otherwise hold a request open for GIN_MAX_WAIT = 30 s; a stream of
    the account or of a game opened by a generated request lasts a second)."""
    env = {"GIN_MAX_WAIT": "1", "GIN_STREAM_MAX": "1", "GIN_GRACEFUL_TIMEOUT": "1"}
    # A database of its own: the fuzzer's hundreds of seeks must not wait in the other tests' lobby.
    own_db = redis_url.rsplit("/", 1)[0] + "/1"
    logs = tmp_path_factory.mktemp("fuzzed")
    process, base = start_service(own_db, logs, extra_env=env)
    bots = start_bot_worker(own_db, logs)  # the master's turns and hints, as in a deployment
    try:
        yield base
    finally:
        stop_bot_worker(bots)
        stop_gunicorn(process)


@pytest.mark.slow
def test_no_generated_request_makes_the_service_fail_or_stray_from_its_document(
    service: str, tmp_path: Path
) -> None:
    live_service = service
    # One player's token for everything: it creates games (tied to the player), acts in them, seeks.
    name = f"fuzz{uuid.uuid4().hex[:8]}"
    player = requests.post(f"{live_service}/v1/players", json={"name": name}, timeout=10).json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    requests.post(f"{live_service}/v1/games", json={}, headers=auth, timeout=10).raise_for_status()
    command = [
        str(ST if ST.exists() else shutil.which("st")),
        "run",
        f"{live_service}/openapi.json",
        "--checks",
        "not_a_server_error,status_code_conformance,content_type_conformance,"
        "response_schema_conformance,response_headers_conformance,negative_data_rejection,"
        "accepted_unless_game_reason",
        "--max-examples",
        "4",
        "--workers",
        "2",
        "--request-timeout",
        "10",
        "--seed",
        "2026",
        "-H",
        f"Authorization: Bearer {player['token']}",
        "--no-color",
    ]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.e2e.schemathesis_hooks", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    summary = result.stdout[-3000:]
    # What failed, request by request (with a curl line to replay each), then the summary.
    failures = result.stdout[result.stdout.find("FAILURES") :][:12000] if "FAILURES" in result.stdout else ""
    assert result.returncode == 0, failures + "\n…\n" + summary
    assert " passed" in summary and "generated" in summary, summary
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):  # stateful: through the links
        assert f"✅ {phase}" in summary, summary
