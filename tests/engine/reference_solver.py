"""A deliberately simple brute-force meld solver, used only to check the fast one.

It shares no code with ``ginrummy.engine.melds``: cards are ``(rank, suit)`` pairs, every possible
meld is listed explicitly, and the search tries every way of covering the hand's lowest card.
Slow (milliseconds per hand) and obviously right.
"""

from __future__ import annotations

import itertools
from functools import cache

RANKS = "A23456789TJQK"
SUITS = "CDHS"


def value(card: tuple[int, int]) -> int:
    """Ace 1, two to ten face value, court cards 10."""
    return min(card[0] + 1, 10)


def to_pair(card: int) -> tuple[int, int]:
    return (card % 13, card // 13)


def all_melds(hand: frozenset[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """Every set (3 or 4 of a rank) and every run (3+ consecutive of a suit) inside ``hand``."""
    melds: list[frozenset[tuple[int, int]]] = []
    for rank in range(13):
        same = [card for card in hand if card[0] == rank]
        for size in (3, 4):
            for combo in itertools.combinations(same, size):
                melds.append(frozenset(combo))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                run = frozenset((rank, suit) for rank in range(start, end))
                if run <= hand:
                    melds.append(run)
    return melds


def _partitions(hand: frozenset[tuple[int, int]]) -> list[tuple[frozenset[frozenset[tuple[int, int]]], int]]:
    """Every way to choose disjoint melds, with the deadwood it leaves."""
    melds = all_melds(hand)

    @cache
    def search(
        rest: frozenset[tuple[int, int]],
    ) -> tuple[tuple[frozenset[frozenset[tuple[int, int]]], int], ...]:
        if not rest:
            return ((frozenset(), 0),)
        lowest = min(rest)
        results = []
        # The lowest card is either deadwood …
        for chosen, dead in search(rest - {lowest}):
            results.append((chosen, dead + value(lowest)))
        # … or in some meld made only of cards still free.
        for meld in melds:
            if lowest in meld and meld <= rest:
                for chosen, dead in search(rest - meld):
                    results.append((chosen | {meld}, dead))
        return tuple(results)

    return list(search(hand))


def min_deadwood(cards: list[int]) -> int:
    """Least deadwood of the hand, keeping all cards."""
    hand = frozenset(to_pair(card) for card in cards)
    return min(dead for _, dead in _partitions(hand))


def knock_deadwood(cards: list[int]) -> int:
    """Least deadwood after discarding one card."""
    return min(min_deadwood([c for c in cards if c != card]) for card in cards)


def canonical(melds: frozenset[frozenset[tuple[int, int]]]) -> frozenset[frozenset[int]]:
    """Merge runs of one suit that touch into one run, and express cards as ints 0–51."""
    sets = [meld for meld in melds if len({rank for rank, _ in meld}) == 1]
    run_cards: dict[int, set[int]] = {}
    for meld in melds:
        if meld not in sets:
            for rank, suit in meld:
                run_cards.setdefault(suit, set()).add(rank)
    out = [frozenset(suit * 13 + rank for rank, suit in meld) for meld in sets]
    for suit, ranks in run_cards.items():
        stretch: list[int] = []
        for rank in sorted(ranks):
            if stretch and rank != stretch[-1] + 1:
                out.append(frozenset(suit * 13 + r for r in stretch))
                stretch = []
            stretch.append(rank)
        if stretch:
            out.append(frozenset(suit * 13 + r for r in stretch))
    return frozenset(out)


def best_arrangements(cards: list[int]) -> tuple[int, set[frozenset[frozenset[int]]]]:
    """Least deadwood and every arrangement reaching it (runs merged to maximal)."""
    hand = frozenset(to_pair(card) for card in cards)
    partitions = _partitions(hand)
    least = min(dead for _, dead in partitions)
    return least, {canonical(chosen) for chosen, dead in partitions if dead == least}


def is_meld(cards: list[int]) -> bool:
    pairs = frozenset(to_pair(card) for card in cards)
    return len(pairs) >= 3 and pairs in all_melds(pairs)


def best_layoff_deadwood(defender: list[int], knocker_melds: list[list[int]]) -> int:
    """Least defender deadwood: try every subset of cards to lay off and every way to place them.

    Only cards of a knocker meld's rank or suit could ever join it, so only those are tried (this
    keeps the search to a few subsets without changing its answer).
    """
    candidates = {
        card: [i for i, meld in enumerate(knocker_melds) if _same_rank_or_suit(card, meld)]
        for card in defender
    }
    hopeful = [card for card in defender if candidates[card]]
    best = min_deadwood(defender)
    for size in range(1, len(hopeful) + 1):
        for laid in itertools.combinations(hopeful, size):
            if _can_lay_off(list(laid), knocker_melds, candidates):
                rest = [card for card in defender if card not in laid]
                best = min(best, min_deadwood(rest))
    return best


def _same_rank_or_suit(card: int, meld: list[int]) -> bool:
    return all(c % 13 == card % 13 for c in meld) or all(c // 13 == card // 13 for c in meld)


def _can_lay_off(laid: list[int], knocker_melds: list[list[int]], candidates: dict[int, list[int]]) -> bool:
    """Whether the cards can be shared out so each knocker's meld plus its share is one meld."""
    for targets in itertools.product(*(candidates[card] for card in laid)):
        groups = [list(meld) for meld in knocker_melds]
        for card, target in zip(laid, targets, strict=True):
            groups[target].append(card)
        if all(is_meld(group) for group in groups):
            return True
    return False
