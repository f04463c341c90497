"""Bot tournament: plays two bots over full games to the target, with mirrored deals, and prints figures.

Each deal seed is played twice with the seats swapped, so luck of the cards cancels out. The games run
in-process on the real engine (``Game.new``, ``seat_view``, ``game.apply``); a bot sees only its seat
view, exactly as through the service.

    .venv/bin/python bench/tournament.py --bots expert simple --games 2000 --jobs 2
    .venv/bin/python bench/tournament.py --all --games 200 --jobs 2

Prints, per pairing: the first bot's win rate with a 95% Wilson interval, net points per game, how
hands ended (gin, knock, undercut, wall) and each bot's decision time p50/p99.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from ginrummy.bots import BOTS, make_bot
from ginrummy.engine.game import Game
from ginrummy.engine.rules import Rules
from ginrummy.engine.views import seat_view


@dataclass
class GameResult:
    """One full game between bot ``a`` and bot ``b`` (a's point of view)."""

    a_won: bool
    a_points: int  # grand total
    b_points: int
    hands: int
    ends: Counter[str] = field(default_factory=Counter)  # "gin_a", "knock_b", "undercut_a", "wall", ...
    end_points: Counter[str] = field(default_factory=Counter)  # hand points scored, by the same keys
    times: dict[str, list[float]] = field(default_factory=dict)


def play_game(a: str, b: str, deal_seed: int, a_seat: int, preset: str = "standard") -> GameResult:
    """One game (a match of the preset), bot ``a`` in ``a_seat``; the deals depend only on the seed."""
    rng = random.Random(deal_seed)
    game = Game.new(Rules.from_options(preset), rng)
    names = {a_seat: a, 1 - a_seat: b}
    bots = {seat: make_bot(names[seat], seed=deal_seed * 2 + seat) for seat in (0, 1)}
    times: dict[str, list[float]] = {a: [], b: []} if a != b else {a: []}
    steps = 0
    while not game.match_over:
        seat = game.to_act
        if seat is None:
            game.apply(0, {"type": "deal"}, rng=rng)
            continue
        view = seat_view(game, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view)
        times[names[seat]].append(time.perf_counter() - start)
        if not any(action is legal for legal in view["legal_actions"]):
            raise AssertionError(f"{names[seat]} returned an action not in legal_actions: {action}")
        game.apply(seat, action)
        steps += 1
        if steps > 100_000:  # pragma: no cover - a guard against a stuck match
            raise RuntimeError("match did not finish")
    ends: Counter[str] = Counter()
    end_points: Counter[str] = Counter()
    for summary in game.summaries:
        end = summary.end.value
        if summary.winner is None:
            ends["wall" if end in ("wall", "draw_limit") else end] += 1
            continue
        who = "a" if summary.winner == a_seat else "b"
        kind = "gin" if end in ("gin", "big_gin") else "undercut" if end == "undercut" else "knock"
        ends[f"{kind}_{who}"] += 1
        end_points[f"{kind}_{who}"] += summary.points
    totals = [0, 0]
    for score in game.scores:
        settled = score.settle(game.rules)
        for seat in (0, 1):
            totals[seat] += settled["grand_totals"][seat]
    return GameResult(
        a_won=game.match_winner == a_seat,
        a_points=totals[a_seat],
        b_points=totals[1 - a_seat],
        hands=len(game.summaries),
        ends=ends,
        end_points=end_points,
        times=times,
    )


def _job(args: tuple[str, str, int, int, str]) -> GameResult:
    return play_game(*args)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Pairing:
    a: str
    b: str
    results: list[GameResult]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def a_wins(self) -> int:
        return sum(r.a_won for r in self.results)

    def report(self) -> str:
        n = self.games
        wins = self.a_wins
        lo, hi = wilson(wins, n)
        hands = sum(r.hands for r in self.results)
        ends: Counter[str] = Counter()
        points: Counter[str] = Counter()
        for r in self.results:
            ends.update(r.ends)
            points.update(r.end_points)
        net = statistics.fmean(r.a_points - r.b_points for r in self.results)
        a_pts = statistics.fmean(r.a_points for r in self.results)
        b_pts = statistics.fmean(r.b_points for r in self.results)

        def rate(key: str) -> str:
            return f"{ends[key] / hands:.1%}"

        times: dict[str, list[float]] = {}
        for r in self.results:
            for name, ts in r.times.items():
                times.setdefault(name, []).extend(ts)
        lines = [
            f"{self.a} vs {self.b}: {n} games ({n // 2} mirrored deals), {hands} hands, {self.seconds:.0f}s",
            f"  {self.a} win rate {wins / n:.1%}  95% CI [{lo:.1%}, {hi:.1%}]",
            f"  points per game: {self.a} {a_pts:.1f}, {self.b} {b_pts:.1f} (net {net:+.1f} for {self.a})",
            f"  per hand: gin {self.a} {rate('gin_a')} / {self.b} {rate('gin_b')};"
            f" knock {self.a} {rate('knock_a')} / {self.b} {rate('knock_b')};"
            f" undercut by {self.a} {rate('undercut_a')} / by {self.b} {rate('undercut_b')};"
            f" wall {rate('wall')}",
            f"  hands won: {self.a} {_won(ends, 'a') / hands:.1%} / {self.b} {_won(ends, 'b') / hands:.1%};"
            f" share of hand points from undercuts: {self.a} {_undercut_share(points, 'a'):.1%}"
            f" / {self.b} {_undercut_share(points, 'b'):.1%}",
        ]
        for name, ts in times.items():
            lines.append(
                f"  {name} decision time p50 {percentile(ts, 0.5) * 1000:.2f} ms,"
                f" p99 {percentile(ts, 0.99) * 1000:.2f} ms, max {max(ts) * 1000:.1f} ms"
                f" ({len(ts)} decisions)"
            )
        return "\n".join(lines)


def _won(ends: Counter[str], who: str) -> int:
    return sum(ends[f"{kind}_{who}"] for kind in ("gin", "knock", "undercut"))


def _undercut_share(points: Counter[str], who: str) -> float:
    total = _won(points, who)
    return points[f"undercut_{who}"] / total if total else 0.0


def run_pairing(a: str, b: str, games: int, jobs: int, preset: str, seed: int) -> Pairing:
    """``games`` games (rounded up to even): each deal seed once with a in seat 0, once in seat 1."""
    deals = (games + 1) // 2
    tasks = [(a, b, seed + i, seat, preset) for i in range(deals) for seat in (0, 1)]
    start = time.perf_counter()
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_job, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))
    else:
        results = [_job(t) for t in tasks]
    return Pairing(a, b, results, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", nargs=2, metavar=("A", "B"), default=["expert", "simple"])
    parser.add_argument("--all", action="store_true", help="every pairing of every bot: a cross-table")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (rounded up to even)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--seed", type=int, default=1, help="first deal seed")
    parser.add_argument("--exclude", nargs="*", default=[], help="with --all: bots to leave out")
    args = parser.parse_args(argv)
    for name in args.bots:
        if name not in BOTS:
            parser.error(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if not args.all:
        pairing = run_pairing(args.bots[0], args.bots[1], args.games, args.jobs, args.preset, args.seed)
        print(pairing.report(), flush=True)
        return 0
    names = [n for n in BOTS if n not in args.exclude]
    table: dict[tuple[str, str], Pairing] = {}
    for a, b in combinations(reversed(names), 2):  # strongest first
        pairing = run_pairing(a, b, args.games, args.jobs, args.preset, args.seed)
        table[(a, b)] = pairing
        print(pairing.report(), flush=True)
    print("\nCross-table: row bot's win rate against column bot (games played)")
    order = list(reversed(names))
    print(f"{'':>9}" + "".join(f"{n:>16}" for n in order))
    for a in order:
        cells = []
        for b in order:
            if a == b:
                cells.append(f"{'-':>16}")
            elif (a, b) in table:
                p = table[(a, b)]
                cells.append(f"{p.a_wins / p.games:>9.1%} ({p.games:>4})")
            else:
                p = table[(b, a)]
                cells.append(f"{1 - p.a_wins / p.games:>9.1%} ({p.games:>4})")
        print(f"{a:>9}" + "".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
