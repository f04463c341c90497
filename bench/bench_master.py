"""The master's decision time: every decision of the master in whole matches against the expert (standard
rules, seeded deals), timed in CPU (``time.process_time``: what a decision costs a bot worker, however
busy the machine) and wall-clock time, with the kinds of decision apart (draw, discard).

    .venv/bin/python bench/bench_master.py [--games 6] [--seed 1]

Exits 0 whatever the figures: it measures, it does not judge (issue 21's target: p50 <= 50 ms, p99 <= 300
ms on this 2-core machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from ginrummy.bots import make_bot  # noqa: E402
from ginrummy.bots.base import read_turn  # noqa: E402
from ginrummy.engine import Game, Rules, seat_view  # noqa: E402


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"p50 {statistics.median(ordered) * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms  "
        f"max {ordered[-1] * 1000:6.1f} ms  (n={len(ordered)})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    cpu: dict[str, list[float]] = {"all": []}
    wall: list[float] = []
    for n in range(args.games):
        seed = args.seed + n
        rng = random.Random(seed)
        game = Game.new(Rules.from_options("standard"), rng)
        master_seat = n % 2
        players = {master_seat: make_bot("master", seed), 1 - master_seat: make_bot("expert", seed)}
        while not game.match_over:
            seat = game.to_act
            if seat is None:
                game.apply(0, {"type": "deal"}, rng=rng)
                continue
            view = seat_view(game, seat)
            if seat != master_seat:
                game.apply(seat, players[seat].choose(view))
                continue
            kind = read_turn(view).kind
            started_cpu, started = time.process_time(), time.perf_counter()
            action = players[seat].choose(view)
            spent = time.process_time() - started_cpu
            wall.append(time.perf_counter() - started)
            cpu["all"].append(spent)
            cpu.setdefault(kind, []).append(spent)
            game.apply(seat, action)
    print(f"master against expert, {args.games} matches, standard rules, from seed {args.seed}")
    for kind, values in cpu.items():
        print(f"CPU  {kind:<8} {quantiles(values)}")
    print(f"wall all      {quantiles(wall)}  (includes waiting for a core on a busy machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
