"""Arena throughput: games and hands a second of bots playing each other in-process (``ginrummy.arena``).
Prints figures; asserts nothing.

    .venv/bin/python bench/bench_arena.py                   # simple and random pairs, 1 and 2 processes
    .venv/bin/python bench/bench_arena.py --games 400 --jobs 1 2 4
    .venv/bin/python bench/bench_arena.py --compare         # with .bench-env's python: OpenSpiel beside it

Each run is ``ginrummy.arena.run`` — what ``ginrummy-arena A B --games N --jobs J`` plays: whole
matches (standard rules, to 100; random players to 1 point, a quarter as many games), mirrored deals from
seed 1, every decision from a fresh seat view, the outcome of every game sent back from the workers —
timed from the first game to the last outcome. Besides wall-clock rates it prints rates per CPU second
(this process's CPU time plus its worker processes'), which move less when the machine is shared; the
load average is printed with them. ``--compare`` re-runs the script with the benchmark environment's
interpreter (``.bench-env``, bench/README.md), where OpenSpiel is installed, and times OpenSpiel's
gin_rummy random play — hands of its C++ state played at random from Python, the loop of
bench_engine.py — against random vs random in the arena.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The arena is standard-library only, so it runs from the source tree under any Python 3.11+.
sys.path[:0] = [str(ROOT / "service"), str(ROOT / "bench")]

from bench_engine import openspiel_random_hands  # noqa: E402
from ginrummy.arena import Table, parse_entrants, run  # noqa: E402
from ginrummy.engine import Rules  # noqa: E402

RANDOM_RULES = Rules.from_options(target=1)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the arena's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(bots: list[str], games: int, jobs: int, rules: Rules) -> tuple[float, float, float, float]:
    """(games/s, hands/s, games per CPU second, hands per CPU second) of one arena run."""
    table = Table(tuple(parse_entrants(bots)), rules, seed=1)
    cpu = cpu_seconds()
    results = run(table, games, jobs=jobs)
    used = cpu_seconds() - cpu
    played, hands = len(results.outcomes), results.hands
    return played / results.seconds, hands / results.seconds, played / used, hands / used


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games a run (200)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="process counts to measure (1 2)")
    parser.add_argument("--seconds", type=float, default=5.0, help="OpenSpiel's timing, with --compare")
    parser.add_argument("--compare", action="store_true", help="run with .bench-env's python (OpenSpiel)")
    args = parser.parse_args(argv)
    if args.compare and not os.environ.get("ARENA_BENCH_COMPARED"):
        python = ROOT / ".bench-env" / "bin" / "python"
        if not python.exists():
            print(f"no benchmark environment at {python.parent.parent}: see bench/README.md", file=sys.stderr)
            return 2
        command = [str(python), __file__, *(argv if argv is not None else sys.argv[1:])]
        return subprocess.call(command, env={**os.environ, "ARENA_BENCH_COMPARED": "1"})

    print(
        f"Python {sys.version.split()[0]} on {os.cpu_count()} CPUs; load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.games} games a run"
    )
    print(f"  {'':<24}{'jobs':>5}{'games/s':>10}{'hands/s':>10}{'games/CPU s':>13}{'hands/CPU s':>13}")
    random_rate = 0.0
    # Random players seldom knock: a match of theirs to 100 lasts dozens of hands, mostly walls. They play
    # to 1 point (the first hand won ends the match): the figure that compares is hands a second.
    pairs = (
        (["simple", "simple"], Rules(), args.games),
        (["random", "random"], RANDOM_RULES, max(2, args.games // 4)),
    )
    for bots, rules, games in pairs:
        for jobs in args.jobs:
            games_s, hands_s, games_cpu, hands_cpu = measure(bots, games, jobs, rules)
            if bots[0] == "random" and jobs == 1:
                random_rate = hands_s
            label = " vs ".join(bots) + (" (to 1)" if rules is RANDOM_RULES else "")
            rates = f"{games_s:>10.1f}{hands_s:>10.0f}{games_cpu:>13.1f}{hands_cpu:>13.0f}"
            print(f"  {label:<24}{jobs:>5}{rates}")
    if args.compare:
        openspiel = openspiel_random_hands(args.seconds)
        if openspiel is None:
            print("OpenSpiel: not installed here (python bench/bench_arena.py --compare uses .bench-env)")
        else:
            print(
                f"  {'OpenSpiel random play':<24}{1:>5}{'':>10}{openspiel:>10.0f}"
                f"   (arena random vs random, 1 process: {random_rate / openspiel:.2f}x)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
