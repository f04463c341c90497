"""Bot tournament: plays two bots over full games to the target, with mirrored deals, and prints figures.

A thin report over the arena (``ginrummy.arena``, the ``ginrummy-arena`` command): the games are the
arena's — in-process on the real engine, each deal seed played twice with the seats swapped, a bot seeing
only its seat view — and so are the bots it takes: the house bots by name, and bots of your own as
``module:function`` or ``path/to/file.py:function`` (``choose(view) -> action``, as for ``gin-bot``).

    .venv/bin/python bench/tournament.py --bots expert simple --games 2000 --jobs 2
    .venv/bin/python bench/tournament.py --bots my_bot.py:choose simple --games 200
    .venv/bin/python bench/tournament.py --all --games 200 --jobs 2

Prints, per pairing: the first bot's win rate with a 95% Wilson interval, net points per game, how
hands ended (gin, knock, undercut, wall) and each bot's decision time p50/p99.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from ginrummy.arena import EntrantError, GameOutcome, Table, parse_entrants, percentile, run, wilson
from ginrummy.bots import BOTS
from ginrummy.engine.errors import BadRulesError
from ginrummy.engine.rules import Rules


def ends_of(outcome: GameOutcome, a_seat: int) -> tuple[Counter[str], Counter[str]]:
    """How the game's hands ended ("gin_a", "knock_b", "undercut_a", "wall", ...: a's point of view),
    and the hand points scored by the same keys."""
    ends: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for end, winner, scored in outcome.ends:
        if winner is None:
            ends["wall" if end in ("wall", "draw_limit") else end] += 1
            continue
        who = "a" if winner == a_seat else "b"
        kind = "gin" if end in ("gin", "big_gin") else "undercut" if end == "undercut" else "knock"
        ends[f"{kind}_{who}"] += 1
        points[f"{kind}_{who}"] += scored
    return ends, points


@dataclass
class Pairing:
    """The games of ``a`` (the arena's first entrant) against ``b``."""

    a: str
    b: str
    outcomes: list[GameOutcome]
    seconds: float

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def a_wins(self) -> int:
        return sum(o.winner == o.task.seats.index(0) for o in self.outcomes)

    def report(self) -> str:
        n = self.games
        wins = self.a_wins
        lo, hi = wilson(wins, n)
        hands = sum(o.hands for o in self.outcomes)
        ends: Counter[str] = Counter()
        points: Counter[str] = Counter()
        a_points: list[int] = []
        b_points: list[int] = []
        times: dict[str, list[float]] = {}
        for o in self.outcomes:
            a_seat = o.task.seats.index(0)
            game_ends, game_points = ends_of(o, a_seat)
            ends.update(game_ends)
            points.update(game_points)
            a_points.append(o.points[a_seat])
            b_points.append(o.points[1 - a_seat])
            times.setdefault(self.a, []).extend(o.decisions[a_seat])
            times.setdefault(self.b, []).extend(o.decisions[1 - a_seat])
        net = statistics.fmean(a - b for a, b in zip(a_points, b_points, strict=True))
        a_pts = statistics.fmean(a_points)
        b_pts = statistics.fmean(b_points)

        def rate(key: str) -> str:
            return f"{ends[key] / hands:.1%}"

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
    entrants = parse_entrants([a, b])
    results = run(Table(tuple(entrants), Rules.from_options(preset), seed), games, jobs=jobs)
    return Pairing(entrants[0].name, entrants[1].name, results.outcomes, results.seconds)


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
    if not args.all:
        try:
            pairing = run_pairing(args.bots[0], args.bots[1], args.games, args.jobs, args.preset, args.seed)
        except (EntrantError, BadRulesError) as error:
            parser.error(str(error))
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
