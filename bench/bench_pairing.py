"""Pairing time of the tournaments' pure modules (ginrummy.app.tournaments). Prints figures; asserts nothing.

    .venv/bin/python bench/bench_pairing.py [--only arena|swiss] [--players 1000] [--runs 7]

arena: one wave of ``--players`` waiting players of an arena — ranks shuffled, ratings drawn around 1500
(σ 300), each with three recent opponents — paired by ``arena_pairing.pair_wave``; ``--runs`` waves, each
from its own seed. Prints the median and the max, wall-clock and CPU (the machine is shared: the CPU
figure moves less with the load), and how many players were paired.

swiss: round 5 of a 7-round Swiss of ``--players`` players (ratings around 1500, σ 300) paired by
``swiss_pairing.pair_round`` (py4swiss's FIDE Dutch system), after four rounds of random results whose
pairings a quick stand-in made (score groups paired in order, no pair twice, seats alternating); at most
3 runs (a round of 1,000 takes tens of seconds), each from its own seed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "service"))

from ginrummy.app.tournaments import arena_pairing, swiss_pairing  # noqa: E402
from ginrummy.app.tournaments.scoring import MATCH_POINTS, Played  # noqa: E402


def report(label: str, walls: list[float], cpus: list[float], note: str) -> None:
    wall = f"wall median {statistics.median(walls) * 1000:5.0f} ms, max {max(walls) * 1000:5.0f} ms"
    cpu = f"CPU median {statistics.median(cpus) * 1000:5.0f} ms, max {max(cpus) * 1000:5.0f} ms"
    print(f"  {label:<24} {wall}; {cpu}  {note}")


def arena_wave(players: int, seed: int) -> list[arena_pairing.Waiting]:
    rng = random.Random(seed)
    names = [f"player{i}" for i in range(players)]
    ranks = rng.sample(range(1, players + 1), players)
    return [
        arena_pairing.Waiting(name, rank, rng.gauss(1500, 300), tuple(rng.sample(names, 3)))
        for name, rank in zip(names, ranks, strict=True)
    ]


def bench_arena(players: int, runs: int) -> None:
    print(
        f"arena: pair_wave, {players} waiting players (groups of {arena_pairing.GROUP_SIZE},"
        f" window {arena_pairing.WINDOW})"
    )
    walls, cpus, paired = [], [], []
    for seed in range(runs):
        wave = arena_wave(players, seed)
        wall, cpu = time.perf_counter(), time.process_time()
        pairs = arena_pairing.pair_wave(wave)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        paired.append(2 * len(pairs))
    report(f"one wave, {runs} runs", walls, cpus, f"paired {min(paired)}–{max(paired)} of {players}")


SWISS_ROUNDS = 7
SWISS_PLAYED = 4  # rounds played before the one timed
OTHER_SIDE = {"won": "lost", "lost": "won", "drawn": "drawn"}


def swiss_field(players: int, seed: int) -> list[swiss_pairing.SwissPlayer]:
    """The players of a Swiss after ``SWISS_PLAYED`` rounds of random results (stand-in pairings)."""
    rng = random.Random(seed)
    ratings = {f"player{i}": rng.gauss(1500, 300) for i in range(players)}
    played: dict[str, list[Played]] = {name: [] for name in ratings}
    seats: dict[str, list[int]] = {name: [] for name in ratings}
    for _ in range(SWISS_PLAYED):
        waiting = sorted(
            ratings, key=lambda n: (-sum(MATCH_POINTS[m.result] for m in played[n]), -ratings[n])
        )
        if len(waiting) % 2:
            bye = next(n for n in reversed(waiting) if all(m.opponent for m in played[n]))
            waiting.remove(bye)
            played[bye].append(Played(None, "won", None))
        while waiting:
            first = waiting.pop(0)
            met = {m.opponent for m in played[first]}
            second = next((n for n in waiting if n not in met), waiting[0])
            waiting.remove(second)
            white, black = (
                (first, second) if seats[first].count(0) <= seats[first].count(1) else (second, first)
            )
            result = rng.choice(["won", "lost", "drawn"])
            played[white].append(Played(black, result, ratings[black]))
            played[black].append(Played(white, OTHER_SIDE[result], ratings[white]))
            seats[white].append(0)
            seats[black].append(1)
    return [
        swiss_pairing.SwissPlayer(
            player=name,
            rating=ratings[name],
            points=sum(MATCH_POINTS[m.result] for m in played[name]),
            opponents=tuple(m.opponent for m in played[name] if m.opponent is not None),
            seats=tuple(seats[name]),
            had_bye=any(m.opponent is None for m in played[name]),
            played=tuple(played[name]),
        )
        for name in ratings
    ]


def bench_swiss(players: int, runs: int) -> None:
    runs = min(runs, 3)
    print(f"swiss: pair_round, round {SWISS_PLAYED + 1} of {SWISS_ROUNDS}, {players} players")
    walls, cpus, paired = [], [], []
    for seed in range(runs):
        field = swiss_field(players, seed)
        wall, cpu = time.perf_counter(), time.process_time()
        pairs, bye = swiss_pairing.pair_round(field, SWISS_PLAYED + 1, SWISS_ROUNDS)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        paired.append(2 * len(pairs) + (bye is not None))
    report(
        f"one round, {runs} runs",
        walls,
        cpus,
        f"paired (bye included) {min(paired)}–{max(paired)} of {players}",
    )


FIGURES: dict[str, Callable[[int, int], None]] = {"arena": bench_arena, "swiss": bench_swiss}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", choices=sorted(FIGURES), help="run one figure (default: all)")
    parser.add_argument("--players", type=int, default=1000, help="players paired at once (default 1000)")
    parser.add_argument("--runs", type=int, default=7, help="pairings timed per figure (default 7)")
    args = parser.parse_args(argv)
    print(f"Python {sys.version.split()[0]}")
    for name, figure in FIGURES.items():
        if args.only in (None, name):
            figure(args.players, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
