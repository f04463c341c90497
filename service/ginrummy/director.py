"""``ginrummy-director``: the tournament director — the process that starts tournaments at their time,
pairs, opens the matches, records their results and ends them (:mod:`ginrummy.app.tournaments.directing`).

Any number may run: each tournament is directed by one at a time, under a lease in PostgreSQL renewed at
every step; one killed (even with SIGKILL) is replaced by another within the lease's 5 seconds, and
nothing it did is lost or done twice. It also runs an archive drainer, for the matches it finishes (a
loss on time it enforces). SIGTERM or SIGINT: the step in hand is finished, the leases handed back.

    ginrummy-director               # REDIS_URL and DATABASE_URL as the service's

``ginrummy-serve`` starts one beside gunicorn; a deployment runs one or two as a service of their own
(deploy/compose.yaml ``director``, deploy/k8s ``ginrummy-director``).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from types import FrameType

from ginrummy.app import connect
from ginrummy.app.archive import Drainer
from ginrummy.app.config import Config, ConfigError
from ginrummy.app.tournaments import Director
from ginrummy.store import StoreUnavailable
from ginrummy.store.database import DatabaseUnavailable

log = logging.getLogger("ginrummy.director")

STEP_EVERY = 1.0  # seconds between two steps: a free arena player waits about this long for a pairing


def run(director: Director, stopping: threading.Event, every: float = STEP_EVERY) -> None:
    """Step until ``stopping`` is set; a store that does not answer is waited out."""
    while not stopping.is_set():
        started = time.monotonic()
        try:
            director.step()
        except (StoreUnavailable, DatabaseUnavailable) as error:
            log.warning("director %s: a store does not answer (%s); retrying", director.name, error)
        except Exception:  # one tournament's bug must not stop the others: logged, tried again next step
            log.exception("director %s: a step failed", director.name)
        stopping.wait(max(0.05, every - (time.monotonic() - started)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ginrummy-director",
        description="Run the tournament director: starts, pairs, follows and ends tournaments. REDIS_URL "
        "and DATABASE_URL as for the service.",
    )
    parser.add_argument("--every", type=float, default=STEP_EVERY, help="seconds between steps (default 1)")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=os.environ.get("GIN_LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s",
    )
    try:
        config = Config.load()
        if not config.database_url:
            raise ConfigError("DATABASE_URL is not set: tournaments are kept in PostgreSQL")
    except ConfigError as error:
        print(f"ginrummy-director: {error}", file=sys.stderr)
        return 2
    services = connect(config)
    director = services.director
    drainer = Drainer(services.archiving)
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)
    drainer.start()
    log.info("director %s: ready", director.name)
    try:
        run(director, stopping, args.every)
    finally:
        with contextlib.suppress(StoreUnavailable, DatabaseUnavailable):
            director.release()
        drainer.stop()
        services.database.close()
        log.info("director %s: stopped", director.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
