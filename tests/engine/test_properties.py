"""Properties of random legal play, checked after every move.

- the 52 cards are always all accounted for, each exactly once;
- an action that `legal_actions` did not list is refused and changes nothing;
- every hand ends; the outcome is recomputed identically from the deal and the log;
- the saved form round-trips exactly;
- a seat's view never contains the opponent's hidden cards, the stock, or the face-down knock discard.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from ginrummy.engine import Action, Game, Phase, Rules, dumps, loads, seat_view
from ginrummy.engine.cards import FULL_DECK, mask_of, texts
from ginrummy.engine.errors import GinRummyError
from ginrummy.engine.game import replay_hand
from ginrummy.engine.views import hand_result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CARD_TOKEN = re.compile(r'"([A2-9TJQK][CDHS])"')
PRESETS = ["standard", "tournament", "big-gin-50", "oklahoma", "hollywood", "straight"]


def accounted(game: Game) -> None:
    hand = game.hand
    stock = mask_of(hand.deck[hand.stock_pos :])
    pile = mask_of(hand.discard_pile)
    knock = 0 if hand.knock_discard is None else 1 << hand.knock_discard
    parts = [hand.hands[0], hand.hands[1], pile, stock, knock]
    assert sum(p.bit_count() for p in parts) == 52
    assert parts[0] | parts[1] | pile | stock | knock == FULL_DECK


def ever_face_up(game: Game) -> int:
    """Cards that have been face up on the discard pile this hand: public knowledge at the table."""
    hand = game.hand
    seen = 1 << hand.upcard
    for entry in hand.log:
        if entry.action.type == "discard":
            seen |= 1 << entry.action.card
    return seen


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """Cards `seat` must not see while the hand is live."""
    hand = game.hand
    if hand.over:
        return set()
    hidden = mask_of(hand.deck[hand.stock_pos :])
    for other in (0, 1):
        if other == seat:
            continue
        public = hand.known[other]
        if hand.knocker == other:
            public = hand.hands[other]
        hidden |= hand.hands[other] & ~public
        if hand.knocker == other and hand.knock_discard is not None:
            hidden |= 1 << hand.knock_discard
    return set(texts(hidden & ~ever_face_up(game)))


def check_views(game: Game) -> None:
    for seat in (0, 1, None):
        view = seat_view(game, seat)
        seen = set(CARD_TOKEN.findall(json.dumps(view)))
        leaked = seen & hidden_from(game, seat)
        assert not leaked, f"seat {seat} sees {leaked} in phase {game.phase}"
        if seat is not None:
            listed = [*game.legal_actions(seat), *game.ending_actions(seat)]
            assert view["legal_actions"] == [a.listed() for a in listed]


def probe_illegal(game: Game, rng: random.Random) -> None:
    """Throw a few actions that were not listed at the game: each must be refused, changing nothing."""
    before = dumps(game)
    for seat in (0, 1):
        listed = set(game.legal_actions(seat))
        candidates = [
            Action.draw("stock"),
            Action.draw("discard"),
            Action.pass_(),
            Action.deal(),
            Action.discard(rng.randrange(52)),
            Action.knock(rng.randrange(52)),
            Action.knock(None),
            Action.layoff_best(),
        ]
        for action in candidates:
            if action in listed or (
                action.type == "layoff" and game.to_act == seat and game.phase == "layoff"
            ):
                continue
            try:
                game.apply(seat, action, rng=random.Random(0))
            except GinRummyError:
                pass
            else:
                raise AssertionError(f"seat {seat} was allowed unlisted {action.to_json()} in {game.phase}")
            assert dumps(game) == before


def play(preset: str, seed: int, hands: int) -> None:
    rng = random.Random(seed)
    game = Game.new(Rules.from_options(preset), rng)
    for _ in range(hands):
        steps = 0
        while not game.hand_over:
            steps += 1
            assert steps < 400, "a hand must end"
            accounted(game)
            check_views(game)
            if steps % 5 == 0:
                probe_illegal(game, rng)
            text = dumps(game)
            assert dumps(loads(text)) == text
            assert len(text) <= 2048
            seat = game.to_act
            actions = game.legal_actions(seat)
            assert actions and game.legal_actions(1 - seat) == []
            knocks = [a for a in actions if a.type == "knock"]
            action = rng.choice(knocks if knocks and rng.random() < 0.7 else actions)
            game.apply(seat, action)
        accounted(game)
        check_views(game)
        hand = game.hand
        again = replay_hand(hand)
        assert again.outcome == hand.outcome and hand_result(again) == hand_result(hand)
        summary = game.summaries[-1]
        assert summary.points == hand.outcome.points and summary.end == hand.outcome.end
        if game.match_over:
            break
        game.apply(rng.randrange(2), {"type": "deal"}, rng=rng)
    # The score sheets add up to the hand summaries.
    if not game.rules.hollywood:
        for seat in (0, 1):
            won = sum(s.points for s in game.summaries if s.winner == seat)
            assert sum(score.points[seat] for score in game.scores) == won


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(PRESETS))
def test_random_legal_play_keeps_every_invariant(seed: int, preset: str) -> None:
    play(preset, seed, hands=2)


def test_the_phase_enum_covers_every_state_reached() -> None:
    seen = set()
    for seed in range(30):
        rng = random.Random(seed)
        game = Game.new(Rules.from_options("tournament"), rng)
        while not game.hand_over:
            seen.add(game.hand.phase)
            seat = game.to_act
            actions = game.legal_actions(seat)
            knocks = [a for a in actions if a.type == "knock"]
            game.apply(seat, rng.choice(knocks) if knocks and rng.random() < 0.3 else rng.choice(actions))
    assert seen >= {Phase.UPCARD_NONDEALER, Phase.UPCARD_DEALER, Phase.DRAW, Phase.DISCARD, Phase.LAYOFF}
