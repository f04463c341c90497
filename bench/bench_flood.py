"""A flood from one client while another plays: what the rate limits refuse, and what still gets through.

On loopback, one redis-server and one gunicorn instance with the DEFAULT rate limits. Two clients on two
loopback addresses (127.0.0.2 and 127.0.0.3, so that each has its own per-address budget):

- the flooder: ``--flooders`` connections that create games and then hammer one game with reads and
  moves as fast as they can, for ``--duration`` seconds;
- the player: one connection playing moves against a bot at a human-ish pace (``--pace`` moves/s).

Prints, per client, the answers by status (how many 429s the flood met) and the player's latencies.
Exits 0 whatever the figures: it measures, it does not judge.

    .venv/bin/python bench/bench_flood.py [--duration 15] [--flooders 8] [--pace 5]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT / "bench"), str(ROOT)]

from bench_load import Connection, bench_postgres, figures, service_env  # noqa: E402
from ginrummy.store.embedded import EmbeddedRedis  # noqa: E402

from tests.support import choose, start_gunicorn, stop_gunicorn  # noqa: E402


class BoundConnection(Connection):
    """A keep-alive connection from a given loopback address (so clients have addresses of their own)."""

    def __init__(self, port: int, address: str) -> None:
        super().__init__(port)
        self.address = address

    async def request(self, method: str, path: str, body: Any = None, headers: Any = None) -> Any:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.address, 0)
            )
        return await super().request(method, path, body, headers)


async def flooder(port: int, stop_at: float, statuses: collections.Counter[int]) -> None:
    conn = BoundConnection(port, "127.0.0.2")
    game = token = None
    while time.monotonic() < stop_at:
        if game is None:
            status, _, data = await conn.request("POST", "/v1/games", {"opponent": {"type": "bot"}})
            statuses[status] += 1
            if status == 201:
                created = orjson.loads(data)
                game, token = created["game_id"], created["token"]
            continue
        auth = {"Authorization": f"Bearer {token}"}
        status, _, data = await conn.request("GET", f"/v1/games/{game}", None, auth)
        statuses[status] += 1
        if status == 200:
            view = orjson.loads(data)
            if not view["your_move"]:
                game = None
                continue
            status, _, _ = await conn.request(
                "POST",
                f"/v1/games/{game}/actions",
                choose(view),
                {**auth, "If-Match": f'"{view["version"]}"'},
            )
            statuses[status] += 1


async def player(
    port: int, stop_at: float, pace: float, statuses: collections.Counter[int], lat: list[float]
) -> None:
    conn = BoundConnection(port, "127.0.0.3")
    view: dict[str, Any] | None = None
    game = token = ""
    while time.monotonic() < stop_at:
        if view is None or not view["your_move"]:
            status, _, data = await conn.request("POST", "/v1/games", {"opponent": {"type": "bot"}})
            statuses[status] += 1
            created = orjson.loads(data)
            game, token, view = created["game_id"], created["token"], created["view"]
            continue
        started = time.perf_counter()
        status, _, data = await conn.request(
            "POST",
            f"/v1/games/{game}/actions",
            choose(view),
            {"Authorization": f"Bearer {token}", "If-Match": f'"{view["version"]}"'},
        )
        lat.append(time.perf_counter() - started)
        statuses[status] += 1
        view = orjson.loads(data)["view"] if status == 200 else None
        await asyncio.sleep(1 / pace)


async def run(port: int, args: argparse.Namespace) -> None:
    stop_at = time.monotonic() + args.duration
    flood: collections.Counter[int] = collections.Counter()
    played: collections.Counter[int] = collections.Counter()
    latencies: list[float] = []
    await asyncio.gather(
        *(flooder(port, stop_at, flood) for _ in range(args.flooders)),
        player(port, stop_at, args.pace, played, latencies),
    )
    print(
        f"flooder (127.0.0.2, {args.flooders} connections): "
        + ", ".join(f"{s}: {n}" for s, n in sorted(flood.items()))
    )
    print("player  (127.0.0.3, 1 connection):  " + ", ".join(f"{s}: {n}" for s, n in sorted(played.items())))
    print(f"player's moves: {figures(latencies)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=15.0)
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--pace", type=float, default=5.0, help="the player's moves per second")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="gin-bench-flood-"))
    with EmbeddedRedis(workdir / "redis") as server, bench_postgres(workdir) as (database_url, _):
        env = service_env(server.url, database_url, rate_limits="default")
        game, port = start_gunicorn(env, workdir, name="game", cwd=workdir)
        print(f"default rate limits; {args.duration:g} s")
        try:
            asyncio.run(run(port, args))
        finally:
            stop_gunicorn(game)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
