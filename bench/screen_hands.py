"""Hand-level screening of two bots: one hand from 0–0 of a standard match per deal, each deal played twice
with the seats swapped, and the first bot's points a hand with the standard error of the mirrored pairs.

    .venv/bin/python bench/screen_hands.py master expert --deals 500
    .venv/bin/python bench/screen_hands.py my_master.py:choose expert --deals 500 --seed 7001

A whole match to 100 costs about five hands and its result is one bit; a hand's points say more for the
CPU. This is for comparing versions of a bot quickly (the master's play-out policy, say) before a
tournament over whole matches (bench/tournament.py) settles it: a hand is played from 0–0, where a bot
that plays the score (the expert) plays as at a match's start. Bots are named as for the arena (house
bots, or ``module:function`` / ``file.py:function``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from ginrummy.arena import parse_entrants  # noqa: E402
from ginrummy.arena.entrants import Entrant, load_function  # noqa: E402
from ginrummy.arena.games import HOUSE_VIEW_OMITS  # noqa: E402
from ginrummy.bots import make_bot  # noqa: E402
from ginrummy.engine import Game, Rules, seat_view  # noqa: E402

ENTRANTS: list[Entrant] = []


def one_hand(task: tuple[int, int]) -> tuple[int, int, str, bool | None]:
    """(deal seed, points of the first bot, how the hand ended, whether the first bot won it) for the
    deal ``seed`` with the first bot in seat ``first_seat``."""
    seed, first_seat = task
    rng = random.Random(seed)
    game = Game.new(Rules.from_options("standard"), rng)
    players = {}
    for index, entrant in enumerate(ENTRANTS):
        seat = first_seat if index == 0 else 1 - first_seat
        chooser = (
            make_bot(entrant.spec, seed * 2 + seat).choose if entrant.house else load_function(entrant.spec)
        )
        omit = HOUSE_VIEW_OMITS if entrant.house else frozenset[str]()
        players[seat] = (chooser, omit)
    if game.to_act is None:
        game.apply(0, {"type": "deal"}, rng=rng)
    while not game.hand_over:
        seat = game.to_act
        assert seat is not None
        chooser, omit = players[seat]
        game.apply(seat, chooser(seat_view(game, seat, omit)))
    summary = game.summaries[-1]
    if summary.winner is None:
        return seed, 0, summary.end.value, None
    won = summary.winner == first_seat
    return seed, summary.points if won else -summary.points, summary.end.value, won


def start(entrants: list[Entrant]) -> None:
    ENTRANTS[:] = entrants


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bots", nargs=2)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7001)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    entrants = parse_entrants(args.bots)
    tasks = [(seed, first) for seed in range(args.seed, args.seed + args.deals) for first in (0, 1)]
    with Pool(args.jobs, initializer=start, initargs=(entrants,)) as pool:
        results = pool.map(one_hand, tasks, chunksize=4)
    pairs: Counter[int] = Counter()
    ends: Counter[str] = Counter()
    for seed, points, end, won in results:
        pairs[seed] += points
        ends[end if won is None else f"{end} by {'first' if won else 'second'}"] += 1
    mean = sum(pairs.values()) / (2 * len(pairs))
    centre = sum(pairs.values()) / len(pairs)
    spread = math.sqrt(sum((p - centre) ** 2 for p in pairs.values()) / max(1, len(pairs) - 1))
    won = sum(1 for *_, w in results if w) / len(results)
    lost = sum(1 for *_, w in results if w is False) / len(results)
    first, second = (e.name for e in entrants)
    print(
        f"{first} against {second}: {len(results)} hands from 0-0 "
        f"({args.deals} deals mirrored, seed {args.seed})"
    )
    print(f"  {first}'s points a hand {mean:+.2f} (standard error {spread / math.sqrt(len(pairs)) / 2:.2f})")
    print(f"  hands won {won:.1%} against {lost:.1%}")
    print("  ends: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
