"""How right are the bots' knock estimates? Each knock a seat could make is scored against the opponent's
real hand and compared with the estimate from sampled opponent hands — the plain sampler the expert uses
(``sample_opponent_hands``) and the master's model (``modeled_opponent_hands``: conditioned on the
opponent's last discard, as an eager or a patient player).

    .venv/bin/python bench/calibrate_knocks.py --opponent expert --deals 400
    .venv/bin/python bench/calibrate_knocks.py --opponent simple --deals 400

The expert plays seat 0 against ``--opponent`` in seat 1, one hand from 0–0 per deal (standard rules);
at each of seat 0's discard decisions where a knock is legal, every legal knock but gin is estimated
over 32 sampled opponent hands and scored against the real one after its lay-offs. Prints, per
sampler: the Brier score of the undercut forecasts, the mean absolute error of the points, and a
table by estimated points (predicted against real undercut rate and points) — the rows from 0 to 20
points are where knocks are decided. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from ginrummy.arena.games import HOUSE_VIEW_OMITS  # noqa: E402
from ginrummy.bots import make_bot  # noqa: E402
from ginrummy.bots.analysis import Knowledge, arrangement_melds, defender_deadwood, read_view  # noqa: E402
from ginrummy.bots.evaluate import knock_against, modeled_opponent_hands, sample_opponent_hands  # noqa: E402
from ginrummy.engine import Game, Rules, seat_view  # noqa: E402
from ginrummy.engine.cards import parse_card  # noqa: E402
from ginrummy.engine.melds import min_deadwood  # noqa: E402

SAMPLES = 32
UNDERCUT_BONUS = 25
Sampler = Callable[[Knowledge, random.Random], list[int]]
SAMPLERS: dict[str, Sampler] = {
    "plain (the expert's)": lambda know, rng: sample_opponent_hands(know, rng, SAMPLES),
    "modelled, eager": lambda know, rng: modeled_opponent_hands(know, rng, SAMPLES, eager=1.0),
    "modelled, patient": lambda know, rng: modeled_opponent_hands(know, rng, SAMPLES, eager=0.0),
    "modelled, 50/50": lambda know, rng: modeled_opponent_hands(know, rng, SAMPLES, eager=0.5),
}
BANDS = ((-999, 0), (0, 5), (5, 10), (10, 20), (20, 999))


def rows_of_deal(seed: int, opponent: str) -> list[tuple[str, float, bool, float, int]]:
    """(sampler, predicted undercut chance, undercut, predicted points, real points) for every legal
    knock of seat 0 in the hand dealt from ``seed``."""
    rng = random.Random(seed)
    game = Game.new(Rules.from_options("standard"), rng)
    bots = [make_bot("expert", seed * 2), make_bot(opponent, seed * 2 + 1)]
    if game.to_act is None:
        game.apply(0, {"type": "deal"}, rng=rng)
    rows = []
    while not game.hand_over:
        seat = game.to_act
        assert seat is not None and game.hand is not None
        view = seat_view(game, seat, HOUSE_VIEW_OMITS)
        knocks = [a for a in view["legal_actions"] if a["type"] == "knock" and a.get("discard")]
        if seat == 0 and knocks:
            know = read_view(view)
            real_hand = game.hand.hands[1]
            sampled = {name: sampler(know, random.Random(seed)) for name, sampler in SAMPLERS.items()}
            for knock in knocks:
                hand10 = know.hand & ~(1 << parse_card(knock["discard"]))
                dw = min_deadwood(hand10)
                if dw == 0:
                    continue
                od = defender_deadwood(real_hand, arrangement_melds(hand10))
                real = od - dw if od > dw else -(dw - od + UNDERCUT_BONUS)
                for name, hands in sampled.items():
                    estimate = knock_against(hand10, hands, UNDERCUT_BONUS)
                    rows.append(
                        (name, estimate.undercut_probability, od <= dw, estimate.expected_points, real)
                    )
        game.apply(seat, bots[seat].choose(view))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--opponent", default="expert", help="the bot in seat 1 (expert)")
    parser.add_argument("--deals", type=int, default=400, help="hands, one per deal seed from 0 (400)")
    args = parser.parse_args(argv)
    rows = [row for seed in range(args.deals) for row in rows_of_deal(seed, args.opponent)]
    print(f"expert's knocks against {args.opponent}: {args.deals} hands, {SAMPLES} sampled hands an estimate")
    for name in SAMPLERS:
        mine = [r for r in rows if r[0] == name]
        if not mine:
            continue
        brier = statistics.mean((p - undercut) ** 2 for _, p, undercut, _, _ in mine)
        error = statistics.mean(abs(predicted - real) for _, _, _, predicted, real in mine)
        print(f"\n{name}: {len(mine)} knocks, Brier {brier:.3f}, mean absolute error {error:.1f} points")
        print("  estimated points   knocks   undercut: predicted  real   points: predicted  real")
        for low, high in BANDS:
            band = [r for r in mine if low <= r[3] < high]
            if band:
                label = f"[{max(low, -99)}, {min(high, 99)})"
                predicted, undercut, points, real = (
                    statistics.mean(r[i] for r in band) for i in (1, 2, 3, 4)
                )
                figures = f"{predicted:19.2f} {undercut:5.2f}   {points:16.1f} {real:5.1f}"
                print(f"  {label:>15} {len(band):8}   {figures}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
