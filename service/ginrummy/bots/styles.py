"""The plainer opponents: a random legal player, the novice and the knocker."""

from __future__ import annotations

from ginrummy.engine.cards import CARD_VALUES
from ginrummy.engine.melds import knock_min, min_deadwood

from .analysis import NEIGHBOURS, Action, Knowledge, View, in_some_meld, melded_mask
from .base import Bot, Turn, draw_action, play_actions
from .simple import SimpleBot


class RandomBot(Bot):
    """Any legal action, uniformly at random (a baseline for tests and benchmarks)."""

    name = "random"
    level = 0
    description = "Plays any legal move at random; a baseline, not an opponent."

    def choose(self, view: View) -> Action:
        legal = play_actions(view)
        if not legal:
            return super().choose(view)  # raises the clear error
        action: Action = legal[self.rng.randrange(len(legal))]
        return action


def _allowed(turn: Turn) -> list[int]:
    return sorted(set(turn.discards or {}) | set(turn.knocks or {}))


def _play(turn: Turn, card: int, knock: bool) -> Action:
    """The discard of ``card``, as a knock when asked for and allowed."""
    knocks = turn.knocks or {}
    discards = turn.discards or {}
    if (knock and card in knocks) or card not in discards:
        return knocks[card]
    return discards[card]


class NoviceBot(Bot):
    """A beginner: sometimes throws a careless card, knocks the moment it can."""

    name = "novice"
    level = 1
    description = "A beginner: takes the upcard for a meld, sometimes throws a careless card, knocks at once."

    careless = 0.3

    def choose_draw(self, view: View, know: Knowledge, turn: Turn) -> Action:
        top = know.top
        return draw_action(turn, top is not None and in_some_meld(know.hand, top))

    def choose_discard(self, view: View, know: Knowledge, turn: Turn) -> Action:
        if turn.big_gin is not None:
            return turn.big_gin
        allowed = _allowed(turn)
        knocks = turn.knocks or {}
        if knocks:  # knocks at once, with the lowest deadwood it sees
            card = min(knocks, key=lambda c: (min_deadwood(know.hand & ~(1 << c)), c))
            return knocks[card]
        melded = melded_mask(know.hand)
        loose = [c for c in allowed if not melded >> c & 1]
        if loose and self.rng.random() < self.careless:
            # A careless throw: any card outside a meld, ignoring pairs and runs in the making.
            return _play(turn, loose[self.rng.randrange(len(loose))], knock=False)
        candidates = SimpleBot.min_deadwood_discards(know, allowed)
        return _play(turn, candidates[self.rng.randrange(len(candidates))], knock=False)


class KnockerBot(Bot):
    """Aggressive: takes cards that cut deadwood, dumps high cards, knocks at the first chance."""

    name = "knocker"
    level = 3
    description = "Aggressive: grabs cards that cut deadwood, dumps high cards, knocks at the first chance."

    def choose_draw(self, view: View, know: Knowledge, turn: Turn) -> Action:
        top = know.top
        if top is None or turn.take is None:
            return draw_action(turn, False)
        if in_some_meld(know.hand, top):
            return draw_action(turn, True)
        after = knock_min(know.hand | (1 << top), forbidden=top)
        # A low card replacing a high loose one brings the knock closer.
        return draw_action(turn, CARD_VALUES[top] <= 3 and after <= min_deadwood(know.hand) - 6)

    def choose_discard(self, view: View, know: Knowledge, turn: Turn) -> Action:
        if turn.big_gin is not None:
            return turn.big_gin
        allowed = _allowed(turn)
        knocks = turn.knocks or {}

        def key(card: int) -> tuple[int, int, int, int]:
            rest = know.hand & ~(1 << card)
            # Keeps cards with partners (pairs, near runs) over lone ones of the same value, and
            # never feeds a card the opponent is known to be collecting.
            feeds = 1 if know.opp_known & NEIGHBOURS[card] else 0
            lone = 0 if rest & NEIGHBOURS[card] else 1
            return (min_deadwood(rest), feeds, -CARD_VALUES[card] - lone, card)

        card = min(allowed, key=key)
        if knocks:
            best = min(knocks, key=lambda c: (min_deadwood(know.hand & ~(1 << c)), c))
            return knocks[best]
        return _play(turn, card, knock=False)


__all__ = ["KnockerBot", "NoviceBot", "RandomBot"]
