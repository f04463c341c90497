"""Evaluation used by the stronger bots and the hints: lookahead, discard safety, undercut risk.

All estimates use only a seat's :class:`~ginrummy.bots.analysis.Knowledge`: the unseen cards are
the stock plus the opponent's hidden cards, and each unseen card is equally likely to be any of them
except where the opponent's public moves (cards taken, passed, discarded) say otherwise.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from ginrummy.engine.cards import CARD_VALUES, cards_of
from ginrummy.engine.melds import knock_min, min_deadwood

from .analysis import NEIGHBOURS, Knowledge, arrangement_melds, defender_deadwood, melded_mask


def draw_score(dw: int, knock_limit: int, knock_bonus: float, gin_bonus: float) -> float:
    """Lower is better: deadwood, minus a bonus when the hand can knock, more when it is gin."""
    score = float(dw)
    if dw <= knock_limit:
        score -= knock_bonus
    if dw == 0:
        score -= gin_bonus
    return score


def expected_after_draw(
    hand10: int, unseen: int, knock_limit: int, knock_bonus: float = 6.0, gin_bonus: float = 6.0
) -> float:
    """Mean :func:`draw_score` of the best 10 cards after drawing one unseen card.

    A drawn card that cannot meld with anything held is pure deadwood: the best discard is then
    either that card or the highest deadwood card, which needs no search.
    """
    cards = cards_of(unseen)
    if not cards:
        return draw_score(min_deadwood(hand10), knock_limit, knock_bonus, gin_bonus)
    base = min_deadwood(hand10)
    dead = hand10 & ~melded_mask(hand10)
    max_dead = max((CARD_VALUES[c] for c in cards_of(dead)), default=0)
    total = 0.0
    for u in cards:
        if hand10 & NEIGHBOURS[u]:
            dw = knock_min(hand10 | (1 << u))
        else:
            dw = base - max(0, max_dead - CARD_VALUES[u])
        total += draw_score(dw, knock_limit, knock_bonus, gin_bonus)
    return total / len(cards)


def card_hold_probability(know: Knowledge) -> float:
    """Chance that one given unseen card is in the opponent's hand."""
    unseen = know.unseen.bit_count()
    return min(1.0, know.opp_unknown_count / unseen) if unseen else 0.0


def danger(know: Knowledge, card: int) -> float:
    """Estimated chance that discarding ``card`` gives the opponent a meld card.

    Counts the pairs of cards that would make a meld with it (same rank, or adjacent in its suit),
    each pair weighted by the chance the opponent holds both: 1 for a card known to be in their hand,
    the base rate for an unseen card, less when the opponent threw or passed a card of that rank or
    next to it in suit (they were not collecting it), 0 for a card that is dead.
    """
    p = card_hold_probability(know)
    declined = know.opp_discarded | know.opp_passed

    def prob(x: int) -> float:
        if know.opp_known >> x & 1:
            return 1.0
        if not know.unseen >> x & 1:
            return 0.0
        if declined & NEIGHBOURS[x]:
            return p * 0.5
        return p

    rank, suit = card % 13, card // 13
    pairs: list[tuple[int, int]] = []
    same = [s * 13 + rank for s in range(4) if s != suit]
    pairs += [(same[0], same[1]), (same[0], same[2]), (same[1], same[2])]
    base = suit * 13
    for lo, hi in ((rank - 2, rank - 1), (rank - 1, rank + 1), (rank + 1, rank + 2)):
        if lo >= 0 and hi <= 12:
            pairs.append((base + lo, base + hi))
    miss = 1.0
    for a, b in pairs:
        miss *= 1.0 - prob(a) * prob(b)
    risk = 1.0 - miss
    if declined >> card & 1:  # they already let this very card go once
        risk *= 0.5
    return risk


def opponent_stock_draws(know: Knowledge) -> int:
    """How many cards the opponent has drawn this hand (each one a chance to improve their hand)."""
    return know.opp_draws


MAX_EXTRA = 8
"""At most this many extra cards per sampled hand (the opponent kept the best of what they saw)."""


def sample_opponent_hands(
    know: Knowledge, rng: random.Random, samples: int, max_extra: int = MAX_EXTRA
) -> list[int]:
    """Opponent hands consistent with what this seat knows.

    The opponent holds their known cards plus unknown cards drawn from the unseen ones. They have been
    keeping the best cards they saw, so each sample draws a few extra cards and keeps the ones that
    meld, then the lowest: random ten-card hands would be far worse than a real player's.
    """
    if know.opp_unknown_count <= 0 or not know.unseen:
        return [know.opp_known] * max(1, samples)
    return list(itertools.islice(opponent_hand_draws(know, rng, max_extra), samples))


def opponent_hand_draws(know: Knowledge, rng: random.Random, max_extra: int = MAX_EXTRA) -> Iterator[int]:
    """The hands of :func:`sample_opponent_hands`, one at a time, for as long as they are asked for."""
    unknown = know.opp_unknown_count
    pool = cards_of(know.unseen)
    if unknown <= 0 or not pool:
        while True:
            yield know.opp_known
    extra = min(max_extra, opponent_stock_draws(know), max(0, len(pool) - unknown))
    while True:
        drawn = rng.sample(pool, min(len(pool), unknown + extra))
        if extra:
            mask = know.opp_known
            for c in drawn:
                mask |= 1 << c
            melded = melded_mask(mask)
            drawn.sort(key=lambda c: (not melded >> c & 1, CARD_VALUES[c]))
        hand = know.opp_known
        for c in drawn[:unknown]:
            hand |= 1 << c
        yield hand


def modeled_opponent_hands(
    know: Knowledge,
    rng: random.Random,
    samples: int,
    eager: float,
    max_extra: int = MAX_EXTRA,
    tries: int = 8,
    slack: int = 2,
) -> list[int]:
    """Opponent hands as :func:`sample_opponent_hands` draws them, then conditioned on the opponent's
    last discard, which says much of the ten cards it kept (its hand has not changed since):

    - an *eager* opponent (one who knocks as soon as the rules let it, as the EAAI baseline does) would
      have knocked: those ten cards leave more deadwood than the knock limit;
    - a *patient* one (which may sit on a knockable hand, to undercut or to go gin) threw its worst
      card: no card left out of its melds is worth more than that discard (+ ``slack``).

    ``eager`` is the share of samples drawn from the first model (the rest from the second). Each sample
    is the most likely of up to ``tries`` candidates (the first that breaks no condition, else the one
    that breaks it least). Before the opponent's first discard of the hand nothing is conditioned.

    Checked against real hands (bench/calibrate_knocks.py): the plain sampler's knock estimates are
    right on average but ten points too hopeful where a knock is worth considering (a patient opponent
    undercuts a quarter of the knocks it calls safe) and twenty points too gloomy against an eager one.
    """
    last = know.opp_last_discard
    if last is None:
        return sample_opponent_hands(know, rng, samples, max_extra)
    ceiling = CARD_VALUES[last] + slack
    limit = know.knock_limit
    draws = opponent_hand_draws(know, rng, max_extra)
    hands = []
    for _ in range(samples):
        eager_hand = rng.random() < eager
        best, best_cost = 0, -1
        for _ in range(tries):
            hand = next(draws)
            if eager_hand:
                cost = 1 if min_deadwood(hand) <= limit else 0
            else:
                cost = sum(max(0, CARD_VALUES[c] - ceiling) for c in cards_of(hand & ~melded_mask(hand)))
            if best_cost < 0 or cost < best_cost:
                best, best_cost = hand, cost
            if cost == 0:
                break
        hands.append(best)
    return hands


@dataclass
class KnockEstimate:
    """What knocking now is worth, estimated over sampled opponent hands."""

    deadwood: int
    expected_points: float  # mean points for this seat (negative when undercut)
    undercut_probability: float
    samples: int


def estimate_knock(
    know: Knowledge,
    hand10: int,
    rng: random.Random,
    samples: int,
    undercut_bonus: int = 25,
    undercut_on_tie: bool = True,
    max_extra: int = MAX_EXTRA,
) -> KnockEstimate:
    """Points from knocking with ``hand10`` laid down, over sampled defender hands after lay-offs."""
    hands = sample_opponent_hands(know, rng, samples, max_extra)
    return knock_against(hand10, hands, undercut_bonus, undercut_on_tie)


def knock_against(
    hand10: int, hands: list[int], undercut_bonus: int = 25, undercut_on_tie: bool = True
) -> KnockEstimate:
    """Points from knocking with ``hand10`` laid down against each of the defender ``hands`` after its
    lay-offs."""
    dw = min_deadwood(hand10)
    melds = arrangement_melds(hand10)
    total = 0.0
    undercuts = 0
    for opp in hands:
        od = defender_deadwood(opp, melds)
        if od > dw:
            total += od - dw
        elif od < dw or undercut_on_tie:
            total -= dw - od + undercut_bonus
            undercuts += 1
    n = len(hands)
    return KnockEstimate(dw, total / n, undercuts / n, n)
