"""A review's cost: the CPU time of reviewing whole matches
(``ginrummy.app.archive.reviews.review_match``), hand counts and decisions judged, on matches of bots
played here with the engine (the records an export holds).

    .venv/bin/python bench/bench_review.py [--matches 3] [--hands 10] [--samples 48]

Prints per match: hands, decisions judged, CPU seconds (``time.process_time``: what the review costs a
bot worker, whatever else the machine does), per decision, and the verdicts found. Exits 0 whatever the
figures: it measures, it does not judge.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "service"), str(ROOT)]

from ginrummy.app.archive.reviews import review_match  # noqa: E402
from ginrummy.bots.review import REVIEW_SAMPLES  # noqa: E402
from ginrummy.engine import Rules  # noqa: E402

from tests.support import bot_match  # noqa: E402


def match_of(hands: int, seed: int) -> tuple[Rules, list[dict[str, Any]]]:
    """The first match from ``seed`` on (expert against knocker, a target high enough) with at least
    ``hands`` finished hands, cut to exactly that many records."""
    while True:
        game, records = bot_match(
            ("expert", "knocker"), Rules.from_options("standard", target=400), seed, hands=hands
        )
        if len(records) == hands:
            return game.rules, records
        seed += 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--hands", type=int, default=10, help="hands per match (default 10)")
    parser.add_argument("--samples", type=int, default=REVIEW_SAMPLES, help="deals per candidate move")
    args = parser.parse_args(argv)
    total_cpu, total_decisions = 0.0, 0
    for n in range(args.matches):
        rules, records = match_of(args.hands, 100 + n)
        started = time.process_time()
        done = review_match(rules, records, args.samples)
        cpu = time.process_time() - started
        judged = len(done["moves"])
        verdicts = Counter(move["verdict"] for move in done["moves"] if move["verdict"])
        accuracy = ", ".join(f"seat {s['seat']} {s['accuracy']}%" for s in done["seats"])
        print(
            f"match {n + 1}: {len(records)} hands, {judged} decisions judged, CPU {cpu:6.2f} s "
            f"({cpu / judged * 1000:5.1f} ms a decision); {dict(verdicts)}; accuracy {accuracy}"
        )
        total_cpu += cpu
        total_decisions += judged
    print(
        f"{args.matches} matches of {args.hands} hands, {args.samples} deals a candidate: "
        f"CPU {total_cpu / args.matches:.2f} s a match (target <= 30), "
        f"{total_cpu / total_decisions * 1000:.1f} ms a decision"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
