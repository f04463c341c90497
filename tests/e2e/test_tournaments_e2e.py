"""The suite's short tournaments on the real service (issue 32), through bench/bench_tournaments.py's runs:
a 30-second arena of 4 bot accounts and a person who berserks, a 3-round Swiss of 5 (one joins after
round 1: a bye in each later round), a round robin of 4 with duplicate deals — all three at once, each bot
account a real ``gin-bot`` process, beside ``live_service`` with two directors, the one holding each
tournament's lease SIGKILLed mid-run. Every game is archived once, nothing is paired twice, the standings
equal a recomputation from the exported games, and another director took each lease over."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fixtures.live_service import start_director

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
try:
    from bench_tournaments import RUNS, SHORT, Directors, Service
finally:
    sys.path.remove(str(ROOT / "bench"))


@pytest.fixture(scope="session")
def directors(
    tournament_director: subprocess.Popen[bytes],
    redis_url: str,
    database_url: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Directors]:
    """Two directors: the suite's (every director of this worker acts on its tournaments: it must be one
    that may be killed) and one of this module's. A director killed is replaced by a new one that lives to
    the session's end, so that the tests after these still have a director."""
    folder = tmp_path_factory.mktemp("directors")
    numbers = itertools.count(1)

    def start() -> subprocess.Popen[bytes]:
        log_dir = folder / str(next(numbers))
        log_dir.mkdir()
        return start_director(redis_url, log_dir)

    pool = Directors(start, database_url, running=[tournament_director])
    try:
        yield pool
    finally:
        pool.stop()


@pytest.mark.slow
def test_an_arena_a_swiss_and_a_round_robin_lose_nothing_to_a_killed_director(
    live_service: str, database_url: str, directors: Directors, tmp_path: Path
) -> None:
    service = Service(live_service, database_url, tmp_path, directors)
    with ThreadPoolExecutor(len(RUNS)) as pool:
        arena, swiss, round_robin = pool.map(lambda run: run(service, SHORT), RUNS.values())
    for report in (arena, swiss, round_robin):
        # The checks: archived once, no pairing twice, the standings equal to the games' recomputation.
        assert not report.failures, (report.name, report.failures, report.lines)
        (takeover,) = report.takeovers
        assert takeover.by is not None and takeover.by != takeover.killed, report.lines
    assert arena.counts["players"] == 5 and arena.counts["berserked"] >= 1, arena.lines
    assert swiss.counts["players"] == 5 and swiss.counts["byes"] == 2, swiss.lines
    assert round_robin.counts["matches"] == 12, round_robin.lines  # 6 pairs, twice each
