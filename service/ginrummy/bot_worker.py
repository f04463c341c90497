"""``ginrummy-bots``: the bot workers — the processes that play the searching bots' turns (the master's)
and find the master's hints, off the web requests. See :mod:`ginrummy.app.playing.bot_turns` for why and
:mod:`ginrummy.store.bot_jobs` for the queue.

Each process takes one job at a time from the queue's consumer group, plays it, acknowledges it, and
renews its lease every second from a thread of its own, also while it plays (the service offers a
searching bot only while some worker is alive). A job whose worker's lease ended (it was killed) is taken
over by a running worker within about 4 s, at once by one that starts later. It also runs an archive
drainer, for the matches its moves finish. SIGTERM or SIGINT: the job in hand is finished, then the
process exits.

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
from ginrummy.app.archive import Drainer
from ginrummy.app.config import Config, ConfigError
from ginrummy.store import StoreUnavailable
from ginrummy.store.bot_jobs import BEAT_EVERY, consumer_name
from ginrummy.store.embedded import die_with_parent

log = logging.getLogger("ginrummy.bots")

# The longest wait for a job (a worker looks for a dead worker's jobs between two waits): shorter than a
# Redis command's socket timeout (ginrummy.store.connection.SOCKET_TIMEOUT), since the wait is a command.
BLOCK_MS = 500
RETRY_S = 1.0  # pause after Redis failed to answer


class Worker:
    """One bot worker: takes jobs and plays them until told to stop."""

    def __init__(self, services: Services, name: str | None = None) -> None:
        self.services = services
        self.name = name or consumer_name()
        self.stopping = threading.Event()
        self.played = 0  # turns played
        self.taken_over = 0  # jobs taken over from dead workers
        self.outcomes: Counter[str] = Counter()  # jobs by outcome: played, hinted, done, failed, stale, gone
        self.block_ms = BLOCK_MS

    def run(self) -> None:
        queue = self.services.bot_queue
        while not self.stopping.is_set():
            try:
                queue.prepare()
                queue.beat(self.name)
                break
            except StoreUnavailable as error:
                log.warning("bot worker %s: Redis does not answer (%s); retrying", self.name, error)
                self.stopping.wait(RETRY_S)
        beating = threading.Thread(target=self.beat, name=f"lease {self.name}", daemon=True)
        beating.start()
        while not self.stopping.is_set():
            try:
                self.run_once(self.block_ms)
            except StoreUnavailable as error:
                log.warning("bot worker %s: Redis does not answer (%s); retrying", self.name, error)
                self.stopping.wait(RETRY_S)
                with contextlib.suppress(StoreUnavailable):
                    queue.prepare()  # (a Redis that came back empty has lost the stream and its group)
        beating.join()
        with contextlib.suppress(StoreUnavailable):
            queue.leave(self.name)

    def beat(self) -> None:
        """Renew the worker's lease every :data:`BEAT_EVERY` seconds until it stops — a thread of its
        own, so that a long job (a review) does not let the lease end while the worker lives."""
        while not self.stopping.wait(BEAT_EVERY):
            try:
                self.services.bot_queue.beat(self.name)
            except StoreUnavailable as error:
                log.warning("bot worker %s: could not renew its lease (%s)", self.name, error)

    def run_once(self, block_ms: int) -> int:
        """Take and play the next jobs (waiting up to ``block_ms`` for one); returns how many it
        played."""
        queue = self.services.bot_queue
        played = 0
        for job in queue.take(self.name, block_ms):
            if job.taken_over is not None:
                log.warning(
                    "bot worker %s: took over job %s (%s %s v%d) of %s, whose lease ended",
                    self.name,
                    job.entry,
                    job.kind,
                    job.game_id,
                    job.version,
                    job.taken_over,
                )
                self.taken_over += 1
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


def serve_child(config: Config, parent: int) -> None:
    """One worker process of ``--processes N``: it gets SIGTERM (finish the job in hand, exit) when its
    parent dies, even by SIGKILL — no worker is left behind by a killed ``ginrummy-bots``."""
    preexec = die_with_parent()
    if preexec is not None:
        preexec()
    if os.getppid() != parent:  # the parent died before the line above: nobody to work for
        return
    serve(config)


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
    children = [
        multiprocessing.Process(target=serve_child, args=(config, os.getpid())) for _ in range(args.processes)
    ]
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
