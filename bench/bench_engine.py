"""Benchmark of the rules engine's meld solver (and of full random play). Prints figures; asserts nothing.

    python bench/bench_engine.py [--seconds N] [--compare]

Measures hands per second for ``deadwood`` on random 10-card hands and on meld-dense hands (10 cards
from a 4-rank window of all four suits), ``min_deadwood`` on the same hands as bitmasks,
``knock_deadwood`` on random 11-card hands, and full random-play hands per second. When RLCard
(``rlcard==1.2.0``) or OpenSpiel (``open-spiel``) is importable, their melding is timed on the SAME
hands and checked for agreement. ``--compare`` re-runs this script with the benchmark environment's
interpreter (``.bench-env``, see bench/README.md), where those packages are installed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The engine is standard-library only, so it runs from the source tree under any Python 3.11+.
sys.path.insert(0, str(ROOT / "service"))

from ginrummy.engine.cards import card_text, mask_of  # noqa: E402
from ginrummy.engine.melds import deadwood, knock_deadwood, min_deadwood  # noqa: E402

POOL = 20_000


def random_hands(rng: random.Random, size: int) -> list[list[int]]:
    return [rng.sample(range(52), size) for _ in range(POOL)]


def dense_hands(rng: random.Random, size: int) -> list[list[int]]:
    hands = []
    for _ in range(POOL):
        low = rng.randrange(0, 10)
        window = [suit * 13 + rank for suit in range(4) for rank in range(low, low + 4)]
        hands.append(rng.sample(window, size))
    return hands


def rate(function: Callable[[object], object], items: Sequence[object], seconds: float) -> float:
    """Calls per second of ``function`` over ``items`` (cycled), for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for item in items[:2000] if seconds < 0.2 else items:
            function(item)
        done += len(items[:2000]) if seconds < 0.2 else len(items)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def show(label: str, per_second: float, note: str = "") -> None:
    print(f"  {label:<52} {per_second:>12,.0f} /s {note}")


def bench_ours(sets: dict[str, list[list[int]]], seconds: float) -> dict[str, float]:
    figures = {}
    print("ginrummy.engine.melds")
    for name in ("random10", "dense10"):
        figures[f"deadwood {name}"] = rate(deadwood, sets[name], seconds)  # type: ignore[arg-type]
        show(f"deadwood(), {name} (list of card ints)", figures[f"deadwood {name}"])
        texts = [[card_text(c) for c in hand] for hand in sets[name]]
        show(f"deadwood(), {name} (list of card texts)", rate(deadwood, texts, seconds))  # type: ignore[arg-type]
        masks = [mask_of(hand) for hand in sets[name]]
        show(f"min_deadwood(), {name} (bitmask)", rate(min_deadwood, masks, seconds))  # type: ignore[arg-type]
    figures["knock random11"] = rate(knock_deadwood, sets["random11"], seconds)  # type: ignore[arg-type]
    show("knock_deadwood(), random11 (list of card ints)", figures["knock random11"])
    return figures


def bench_rlcard(sets: dict[str, list[list[int]]], seconds: float, ours: dict[str, float]) -> None:
    try:
        from rlcard.games.gin_rummy.utils import melding, utils  # type: ignore[import-not-found]
    except ImportError:
        print("RLCard: not installed here (python bench/bench_engine.py --compare uses .bench-env)")
        return

    def rl_deadwood(hand: list[object]) -> int:
        clusters = melding.get_best_meld_clusters(hand=hand)
        if not clusters:
            return sum(utils.get_deadwood_value(card) for card in hand)
        return int(utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0]))

    import rlcard  # type: ignore[import-not-found]

    print(f"RLCard {getattr(rlcard, '__version__', '?')} melding.get_best_meld_clusters + get_deadwood_count")
    for name in ("random10", "dense10"):
        hands = [[utils.card_from_text(card_text(c)) for c in hand] for hand in sets[name]]
        per_second = rate(rl_deadwood, hands, seconds)  # type: ignore[arg-type]
        ratio = ours[f"deadwood {name}"] / per_second
        show(f"deadwood, {name}", per_second, f"(ours is {ratio:.1f}x)")
        disagree = sum(
            rl_deadwood(h) != deadwood(o) for h, o in zip(hands[:3000], sets[name][:3000], strict=True)
        )
        print(f"    disagreements with ours on 3000 hands: {disagree}")


def bench_openspiel(sets: dict[str, list[list[int]]], seconds: float, ours: dict[str, float]) -> None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("OpenSpiel: not installed here")
        return
    utils = pyspiel.gin_rummy.GinRummyUtils(52, 4, 10)
    print("OpenSpiel GinRummyUtils.min_deadwood (C++ via pybind11)")

    def to_openspiel(hand: list[int]) -> list[int]:
        return list(
            utils.card_strings_to_card_ints([card_text(c)[0] + card_text(c)[1].lower() for c in hand])
        )

    for name, ours_key in (
        ("random10", "deadwood random10"),
        ("dense10", "deadwood dense10"),
        ("dense11", None),
    ):
        hands = [to_openspiel(hand) for hand in sets[name]]
        per_second = rate(utils.min_deadwood, hands, seconds)
        note = f"(ours is {ours[ours_key] / per_second:.1f}x)" if ours_key else ""
        show(f"min_deadwood, {name}", per_second, note)
        # For 11 cards OpenSpiel's min_deadwood is after the best discard: compare with knock_deadwood.
        ours_fn = knock_deadwood if name.endswith("11") else deadwood
        pairs = list(zip(hands[:3000], sets[name][:3000], strict=True))
        over = sum(utils.min_deadwood(h) > ours_fn(o) for h, o in pairs)
        under = sum(utils.min_deadwood(h) < ours_fn(o) for h, o in pairs)
        print(f"    vs ours on 3000 hands: OpenSpiel higher {over}, lower {under}")


def bench_play(seconds: float) -> None:
    try:
        from ginrummy.engine.game import Game
        from ginrummy.engine.rules import Rules
    except ImportError as error:
        print(f"Random play: skipped ({error})")
        return
    rng = random.Random(5)
    hands = 0
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(Rules(), rng)
        while not game.hand_over:
            seat = game.to_act
            assert seat is not None
            choices = game.legal_actions(seat)
            game.apply(seat, rng.choice(choices))
            actions += 1
        hands += 1
    elapsed = time.perf_counter() - start
    print("Random play (Game.new, legal_actions, apply until the hand is over)")
    show("hands", hands / elapsed)
    show("actions", actions / elapsed)
    bench_openspiel_play(seconds, hands / elapsed)


def openspiel_random_hands(seconds: float) -> float | None:
    """Hands per second of OpenSpiel's C++ gin_rummy played at random from Python (chance nodes and
    moves drawn with a seeded ``random.Random``), or None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(5)
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        hands += 1
    return hands / (time.perf_counter() - start)


def bench_openspiel_play(seconds: float, ours: float) -> None:
    """OpenSpiel's C++ gin_rummy played at random from Python, the same loop as ours."""
    per_second = openspiel_random_hands(seconds)
    if per_second is None:
        return
    print("OpenSpiel gin_rummy random play (C++ state, same Python loop)")
    show("hands", per_second, f"(ours is {ours / per_second:.2f}x)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    parser.add_argument(
        "--compare", action="store_true", help="run with .bench-env's python (RLCard, OpenSpiel)"
    )
    args = parser.parse_args(argv)
    if args.compare:
        python = ROOT / ".bench-env" / "bin" / "python"
        if not python.exists():
            print(f"no benchmark environment at {python.parent.parent}: see bench/README.md", file=sys.stderr)
            return 2
        command = [str(python), __file__, "--seconds", str(args.seconds)]
        return subprocess.call(command, env={**os.environ, "PYTHONHASHSEED": "0"})

    print(
        f"Python {sys.version.split()[0]} on {os.cpu_count()} CPUs; "
        f"{POOL} hands per set; {args.seconds}s each"
    )
    rng = random.Random(2026)
    sets = {
        "random10": random_hands(rng, 10),
        "dense10": dense_hands(rng, 10),
        "random11": random_hands(rng, 11),
        "dense11": dense_hands(rng, 11),
    }
    ours = bench_ours(sets, args.seconds)
    bench_rlcard(sets, args.seconds, ours)
    bench_openspiel(sets, args.seconds, ours)
    bench_play(args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
