"""Leaks at scale: the no-hidden-card property over every channel a seat can read, for many random games.

Each game is one hand between two humans played to its end through the HTTP API (the Flask app over a
real redis-server, in-process for speed), with random illegal probes by both seats; before every move,
a random share (``--sample``) of the channels — events as a page, NDJSON and SSE, hints, the live hand's
record — is read by both seats and a spectator, besides the views and the probes' errors, and everything
received is scanned for cards the reader may not see (tests/api/leaks.py). Prints games, moves, reads,
probes and leaks found. ``--processes`` runs that many at once, each with its own games.

    .venv/bin/python bench/bench_leaks.py [--games 1000] [--processes 2] [--sample 0.34]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT)]
os.environ["GIN_RATE_LIMITS"] = "0"  # one client calling fast from one address

from bench_load import bench_postgres  # noqa: E402
from ginrummy.http import create_app  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis  # noqa: E402

from tests.api.leaks import Figures, play_one  # noqa: E402


def worker(args: tuple[str, int, int, float]) -> Figures:
    redis_url, games, seed, sample = args
    client = create_app({"redis_url": redis_url, "allow_seed": True}).test_client()
    rng = random.Random(seed)
    figures = Figures()
    for _ in range(games):
        play_one(client, rng, figures, sample=sample)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--sample", type=float, default=0.34, help="share of channels read at each moment")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    os.environ["GIN_ACCESS_LOG"] = "0"
    started = time.perf_counter()
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-leaks-"))
    with EmbeddedRedis(workdir / "redis") as server, bench_postgres(workdir) as (database_url, _):
        os.environ["DATABASE_URL"] = database_url  # the workers' apps (forked) find it there
        share = [
            args.games // args.processes + (1 if i < args.games % args.processes else 0)
            for i in range(args.processes)
        ]
        jobs = [(server.url, n, args.seed * 1000 + i, args.sample) for i, n in enumerate(share)]
        with multiprocessing.Pool(args.processes) as pool:
            results = pool.map(worker, jobs)
    total = Figures()
    for figures in results:
        total.games += figures.games
        total.moves += figures.moves
        total.reads += figures.reads
        total.probes += figures.probes
        total.leaks += figures.leaks
    took = time.perf_counter() - started
    print(
        f"{total.games} games, {total.moves} moves, {total.reads} reads, {total.probes} illegal/random "
        f"probes in {took:.0f} s: {len(total.leaks)} leaks"
    )
    for leak in total.leaks[:20]:
        print("  LEAK", leak)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
