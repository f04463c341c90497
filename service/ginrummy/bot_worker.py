"""``ginrummy-bots``: the bot workers — the processes that play the searching bots' turns (the master's)
and find the master's hints, off the web requests. See :mod:`ginrummy.app.bot_turns` for why and
:mod:`ginrummy.store.bot_jobs` for the queue.

Each process takes one job at a time from the queue's consumer group (a job a dead worker took goes to
another one after 30 s), plays it, acknowledges it, and says every few seconds that it is alive (the
service offers a searching bot only while some worker is). It also runs an archive drainer, for the
matches its moves finish. SIGTERM or SIGINT: the job in hand is finished, then the process exits.

    ginrummy-bots                       # one process; REDIS_URL and DATABASE_URL as the service's
    ginrummy-bots --processes 2         # one per core to spare (env GIN_BOT_PROCESSES)

``ginrummy-serve`` starts one beside gunicorn; a deployment runs them as a service of their own
(deploy/compose.yaml ``bots``, deploy/kubernetes ``ginrummy-bots``), scaled by CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter
from types import FrameType

from ginrummy.app import Services, connect
from ginrummy.app.archiving import Drainer
from ginrummy.app.config import Config, ConfigError
from ginrummy.store import StoreUnavailable
from ginrummy.store.bot_jobs import consumer_name

log = logging.getLogger("ginrummy.bots")

# The longest wait for a job (a worker says it is alive at least this often): shorter than a Redis
# command's socket timeout (ginrummy.store.connection.SOCKET_TIMEOUT), since the wait is a command.
BLOCK_MS = 500
RETRY_S = 1.0  # pause after Redis failed to answer


class Worker:
    """One bot worker: takes jobs and plays them until told to stop."""

    def __init__(self, services: Services, name: str | None = None) -> None:
        self.services = services
        self.name = name or consumer_name()
        self.stopping = threading.Event()
        self.played = 0  # turns played
        self.outcomes: Counter[str] = Counter()  # jobs by outcome: played, hinted, done, failed, stale, gone
        self.block_ms = BLOCK_MS

    def run(self) -> None:
        queue = self.services.bot_queue
        while not self.stopping.is_set():
            try:
                queue.prepare()
                break
            except StoreUnavailable as error:
                log.warning("bot worker %s: Redis does not answer (%s); retrying", self.name, error)
                self.stopping.wait(RETRY_S)
        while not self.stopping.is_set():
            try:
                self.run_once(self.block_ms)
            except StoreUnavailable as error:
                log.warning("bot worker %s: Redis does not answer (%s); retrying", self.name, error)
                self.stopping.wait(RETRY_S)
        with contextlib.suppress(StoreUnavailable):
            queue.leave(self.name)

    def run_once(self, block_ms: int) -> int:
        """Say it is alive, then take and play the next jobs (waiting up to ``block_ms`` for one);
        returns how many it played."""
        queue = self.services.bot_queue
        queue.beat(self.name)
        played = 0
        for job in queue.take(self.name, block_ms):
            started = time.perf_counter()
            turns = self.services.bot_turns
            outcome: str
            if job.kind == "hint" and job.seat is not None:
                outcome = turns.hint(job.game_id, job.version, job.seat)
            elif job.kind == "review":
                outcome = self.services.reviews.compute(job.game_id)
            else:
                outcome = turns.play(job.game_id, job.version)
            queue.done(job)
            log.info(
                "bot %s %s v%d: %s in %.0f ms",
                job.kind,
                job.game_id,
                job.version,
                outcome,
                (time.perf_counter() - started) * 1000,
            )
            played += outcome == "played"
            self.outcomes[outcome] += 1
        self.played += played
        return played

    def stop(self) -> None:
        self.stopping.set()


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="ginrummy-bots",
        description="Run bot workers: they play the searching bots' turns (the master's) off the web "
        "requests. REDIS_URL and DATABASE_URL as for the service.",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=int(os.environ.get("GIN_BOT_PROCESSES", "1")),
        help="worker processes (env GIN_BOT_PROCESSES; default 1): one per core to spare",
    )
    return parser.parse_args(argv)


def serve(config: Config) -> None:
    """One worker process until SIGTERM/SIGINT."""
    services = connect(config)
    drainer = Drainer(services.archiving)
    worker = Worker(services)

    def stop(signum: int, frame: FrameType | None) -> None:
        worker.stop()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    drainer.start()
    log.info("bot worker %s: ready", worker.name)
    try:
        worker.run()
    finally:
        drainer.stop()
        services.database.close()
        log.info("bot worker %s: stopped after %d turns", worker.name, worker.played)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    logging.basicConfig(
        level=os.environ.get("GIN_LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s",
    )
    try:
        config = Config.load()
        if not config.database_url:
            raise ConfigError("DATABASE_URL is not set: the bot workers write finished matches to PostgreSQL")
    except ConfigError as error:
        print(f"ginrummy-bots: {error}", file=sys.stderr)
        return 2
    if args.processes <= 1:
        serve(config)
        return 0
    children = [multiprocessing.Process(target=serve, args=(config,)) for _ in range(args.processes)]
    for child in children:
        child.start()

    def forward(signum: int, frame: FrameType | None) -> None:
        for child in children:
            if child.pid is not None and child.is_alive():
                os.kill(child.pid, signal.SIGTERM)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, forward)
    for child in children:
        child.join()
    return max((child.exitcode or 0) for child in children)


if __name__ == "__main__":
    sys.exit(main())
