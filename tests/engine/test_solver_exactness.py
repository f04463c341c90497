"""The fast solver against the brute-force reference on thousands of random and meld-dense hands.

Meld-dense hands (10 or 11 cards from a 4-rank window of all four suits) are where sets and runs
compete for the same cards; OpenSpiel's 11-card search is known to overstate some of them by 1.
"""

from __future__ import annotations

import random

import pytest
from ginrummy.engine.cards import cards_of, mask_of
from ginrummy.engine.melds import best_arrangement, best_melds, knock_deadwood, min_deadwood

from tests.engine import reference_solver


def dense(rng: random.Random, size: int, width: int = 4) -> list[int]:
    low = rng.randrange(0, 14 - width)
    pool = [suit * 13 + rank for suit in range(4) for rank in range(low, low + width)]
    return rng.sample(pool, size)


def arrangement_sets(cards: list[int]) -> set[frozenset[frozenset[int]]]:
    return {frozenset(frozenset(cards_of(m.mask)) for m in a.melds) for a in best_melds(cards)}


@pytest.mark.parametrize("kind", ["random", "dense4", "dense5"])
@pytest.mark.parametrize("size", [10, 11])
def test_min_deadwood_and_every_arrangement_match_reference(kind: str, size: int) -> None:
    rng = random.Random(f"{kind}-{size}")
    for _ in range(400):
        if kind == "random":
            cards = rng.sample(range(52), size)
        else:
            cards = dense(rng, size, width=4 if kind == "dense4" else 5)
        least, arrangements = reference_solver.best_arrangements(cards)
        mask = mask_of(cards)
        assert min_deadwood(mask) == least, cards
        assert best_arrangement(mask).deadwood == least, cards
        assert arrangement_sets(cards) == arrangements, cards
        assert len(best_melds(cards)) == len(arrangements)


@pytest.mark.parametrize("kind", ["random", "dense4"])
def test_knock_deadwood_matches_reference(kind: str) -> None:
    rng = random.Random(f"knock-{kind}")
    for _ in range(150):
        cards = rng.sample(range(52), 11) if kind == "random" else dense(rng, 11)
        assert knock_deadwood(cards) == reference_solver.knock_deadwood(cards), cards


def test_small_hands_match_reference() -> None:
    rng = random.Random(3)
    for size in range(0, 10):
        for _ in range(40):
            cards = rng.sample(range(52), size) if size % 2 else dense(rng, min(size, 16))
            assert min_deadwood(mask_of(cards)) == reference_solver.min_deadwood(cards), cards
