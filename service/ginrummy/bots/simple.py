"""Neller's SimpleGinRummyPlayer (EAAI 2021 Gin Rummy challenge baseline), rule for rule.

The published player:

1. takes the face-up card only if it would be part of a meld with the cards in hand, otherwise draws
   from the stock (at the upcard offer: passes);
2. discards a card leaving the minimum deadwood, choosing at random among ties, never the card just
   taken from the discard pile, and never repeating a (drawn card, discarded card) pair already played
   this hand;
3. knocks as soon as the deadwood after that discard is within the knock limit (gin at 0);
4. lets the lay-offs be chosen optimally (the EAAI framework lays off for the defender).

The EAAI framework has no big gin, so this player, like the original, never declares it: with 11
melded cards it discards and goes gin.
"""

from __future__ import annotations

import dataclasses

from ginrummy.engine.melds import min_deadwood

from .analysis import Action, Knowledge, View, in_some_meld
from .base import Bot, Turn, draw_action


class SimpleBot(Bot):
    """The EAAI 2021 baseline player."""

    name = "simple"
    level = 2
    description = "The EAAI 2021 baseline: upcard only for a meld, minimum deadwood, knocks at once."

    def choose_draw(self, view: View, know: Knowledge, turn: Turn) -> Action:
        top = know.top
        take = top is not None and in_some_meld(know.hand, top)
        return draw_action(turn, take)

    def choose_discard(self, view: View, know: Knowledge, turn: Turn) -> Action:
        discards = turn.discards or {}
        knocks = turn.knocks or {}
        allowed = sorted(set(discards) | set(knocks))
        if not allowed:  # only big gin is left (after the 50th card)
            assert turn.big_gin is not None
            return turn.big_gin
        candidates = self.min_deadwood_discards(know, allowed)
        card = candidates[self.rng.randrange(len(candidates))]
        return knocks[card] if card in knocks else discards[card]

    @staticmethod
    def min_deadwood_discards(know: Knowledge, allowed: list[int]) -> list[int]:
        """The allowed discards that leave the least deadwood, skipping repeated draw/discard pairs."""
        drawn = know.last_drawn
        seen_pairs = {frozenset(pair) for pair in know.my_turn_pairs}
        best = 1 << 30
        candidates: list[int] = []
        for card in sorted(allowed):
            if drawn is not None and frozenset((drawn, card)) in seen_pairs:
                continue
            value = min_deadwood(know.hand & ~(1 << card))
            if value < best:
                best, candidates = value, [card]
            elif value == best:
                candidates.append(card)
        if not candidates:  # the original would fail here; fall back to all allowed cards
            return SimpleBot.min_deadwood_discards(dataclasses.replace(know, my_turn_pairs=set()), allowed)
        return candidates
