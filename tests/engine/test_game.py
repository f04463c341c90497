"""Games and matches: running totals, bonuses, shutouts, the winner, dealers, Hollywood, best of N, undo."""

from __future__ import annotations

import random

import pytest
from ginrummy.engine import Action, Game, HandEnd, Rules, seat_view
from ginrummy.engine.errors import BadRulesError, CannotUndoError, GameOverError, IllegalActionError
from ginrummy.engine.game import GameScore

from tests.engine.stacking import StackedRandom, gin_deck, play_gin, run_gins


def test_gins_add_up_and_the_game_ends_at_the_target_with_bonuses():
    # Dealer 0: the non-dealer (seat 1) gins twice... the loser deals, so seat 0 deals again.
    game = run_gins(Rules(), [True, True, True])
    sheet = seat_view(game, 0)["scores"]["games"][0]
    assert sheet["points"] == [0, 129] and sheet["hands_won"] == [0, 3]
    assert sheet["over"] and sheet["reached_target"] == 1
    # Shutout doubles the hand points before the box bonus: 258 + 100 + 3 * 25.
    assert sheet["bonuses"] == {
        "game": [0, 100],
        "box": [0, 75],
        "shutout": True,
        "shutout_hand_points": [0, 129],
    }
    assert sheet["grand_totals"] == [0, 258 + 100 + 75] and sheet["winner"] == 1
    assert game.match_over and game.match_winner == 1 and game.phase == "match_over"
    with pytest.raises(GameOverError):
        game.apply(0, {"type": "deal"}, rng=random.Random(0))


@pytest.mark.parametrize(
    ("shutout", "grand"),
    [("double_hand_points", 258 + 100 + 75), ("double_bonuses", 129 + 200 + 150), ("none", 129 + 100 + 75)],
)
def test_shutout_options(shutout, grand):
    game = run_gins(Rules(shutout=shutout), [True, True, True])
    assert game.scores[0].settle(game.rules)["grand_totals"][1] == grand


def test_the_loser_deals_the_next_hand_by_default():
    game = run_gins(Rules(), [True])
    assert game.summaries[0].winner == 1 and game.dealer == 0
    game = run_gins(Rules(next_dealer="winner"), [True])
    assert game.dealer == 1
    game = run_gins(Rules(next_dealer="alternate"), [True])
    assert game.dealer == 1


def test_the_game_winner_is_the_higher_grand_total_not_who_reached_the_target():
    score = GameScore(1, points=[100, 90], hands_won=[1, 6], reached_target=0)
    sheet = score.settle(Rules())
    assert sheet["grand_totals"] == [100 + 100 + 25, 90 + 150]
    assert sheet["winner"] == 1


def test_a_tie_in_grand_total_goes_to_who_reached_the_target():
    score = GameScore(1, points=[100, 125], hands_won=[1, 4], reached_target=0)
    sheet = score.settle(Rules())
    assert sheet["grand_totals"] == [225, 225] and sheet["winner"] == 0


def test_a_best_of_three_match_needs_two_games():
    rules = Rules(games=3, target=40)
    game = run_gins(rules, [True])
    assert game.phase == "game_over" and not game.match_over and game.games_won == [0, 1]
    rng = StackedRandom([gin_deck(True)])
    game.apply(1, {"type": "deal"}, rng=rng)
    assert len(game.scores) == 2 and game.scores[1].points == [0, 0]
    play_gin(game, rng)
    assert game.match_over and game.games_won == [0, 2] and game.match_winner == 1


def test_hollywood_scores_the_nth_win_in_the_first_n_games():
    game = run_gins(Rules.from_options("hollywood"), [True, True, True])
    points = [s.points[1] for s in game.scores]
    assert points == [129, 86, 43]
    assert game.scores[0].over and not game.scores[1].over and not game.match_over
    # Game 1 is decided the moment it ends, while games 2 and 3 go on.
    assert game.games_won == [0, 1] and game.phase == "game_over"
    assert [a.to_json() for a in game.legal_actions(0)] == [{"type": "deal"}]
    assert [h.games for h in game.summaries] == [(1,), (1, 2), (1, 2, 3)]


def test_hollywood_finished_games_take_no_more_points_and_the_match_waits_for_all_three():
    game = run_gins(Rules.from_options("hollywood"), [True] * 5)
    assert [s.points[1] for s in game.scores] == [129, 129, 129]
    assert game.match_over and game.games_won == [0, 3]
    assert [h.games for h in game.summaries][-2:] == [(2, 3), (3,)]


def test_a_wall_keeps_the_same_dealer_by_default():
    rng = random.Random(3)
    game = Game.new(Rules(), rng, first_dealer=1)
    hand = game.hand
    game.apply(0, {"type": "pass"})
    game.apply(1, {"type": "pass"})
    while not game.hand_over:
        seat = game.to_act
        game.apply(seat, {"type": "draw", "source": "stock"})
        game.apply(seat, Action.discard(hand.log[-1].card))
    assert game.summaries[-1].end is HandEnd.WALL and game.dealer == 1
    assert game.legal_actions(0) == game.legal_actions(1)
    assert [a.to_json() for a in game.legal_actions(0)] == [{"type": "deal"}]


def test_actions_between_hands_other_than_deal_are_refused():
    game = run_gins(Rules(target=500), [True])
    with pytest.raises(IllegalActionError, match="next action is a deal"):
        game.apply(0, {"type": "draw", "source": "stock"})
    with pytest.raises(IllegalActionError, match="still being played"):
        game2 = Game.new(Rules(), random.Random(1))
        game2.apply(0, {"type": "deal"}, rng=random.Random(1))


def test_undo_takes_back_the_seats_last_move_and_what_followed_with_the_same_stock():
    rng = random.Random(11)
    game = Game.new(Rules(), rng, first_dealer=0)
    game.apply(1, {"type": "pass"})
    game.apply(0, {"type": "pass"})
    game.apply(1, {"type": "draw", "source": "stock"})
    drawn = game.hand.log[-1].card
    discard = next(a for a in game.legal_actions(1) if a.type == "discard")
    game.apply(1, discard)
    game.apply(0, {"type": "draw", "source": "stock"})
    assert game.undo(1) == 2
    assert game.to_act == 1 and game.hand.phase.value == "discard" and game.hand.hands[1] >> drawn & 1
    assert game.undo(1) == 1  # the draw itself
    game.apply(1, {"type": "draw", "source": "stock"})
    assert game.hand.log[-1].card == drawn  # the stock stayed as it was
    with pytest.raises(CannotUndoError):
        Game.new(Rules(), random.Random(1), first_dealer=0).undo(0)


@pytest.mark.parametrize(
    ("preset", "options", "message"),
    [
        ("nope", {}, "unknown preset"),
        ("standard", {"knock_limt": 5}, "unknown option knock_limt"),
        ("standard", {"knock_limit": -1}, "between 0 and 100"),
        ("standard", {"wall": "sometimes"}, "must be one of cancel, fiftieth_card"),
        ("standard", {"big_gin": "yes"}, "true or false"),
        ("oklahoma", {"knock_limit": 5}, "oklahoma sets the knock limit"),
        ("hollywood", {"games": 3}, "games must be 1"),
        ("standard", {"target": True}, "whole number"),
    ],
)
def test_bad_rules_get_a_clear_error(preset, options, message):
    with pytest.raises(BadRulesError, match=message):
        Rules.from_options(preset, **options)


def test_presets_set_what_rules_md_says():
    assert Rules.from_options("tournament").to_dict() == {
        **Rules().to_dict(),
        "target": 250,
        "games": 5,
        "wall": "fiftieth_card",
    }
    assert Rules.from_options("big-gin-50").changes() == {"undercut_bonus": 20, "big_gin_bonus": 50}
    assert Rules.from_options("straight").changes() == {"knock_limit": 0}
    assert Rules.from_options("oklahoma").changes() == {"oklahoma": True}
    assert Rules.from_options("hollywood").changes() == {"hollywood": True}
    assert Rules.from_options("standard").changes() == {}
    assert Rules.from_options("tournament", games=3).games == 3


def test_statistics_count_what_happened():
    # Seat 1 gins as non-dealer; seat 0 then gins as dealer, then as non-dealer (the loser deals).
    game = run_gins(Rules(), [True, False, True])
    assert [h.winner for h in game.summaries] == [1, 0, 0]
    stats = game.stats()
    assert (stats[0]["hands_won"], stats[0]["gins"], stats[0]["knocks"]) == (2, 2, 2)
    assert (stats[1]["hands_won"], stats[1]["gins"], stats[1]["knocks"]) == (1, 1, 1)
    assert stats[0]["avg_deadwood"] == 6.0 and stats[1]["avg_deadwood"] == 12.0
    assert stats[0]["points_per_hand"] == round(86 / 3, 2)


def test_nothing_is_taken_back_once_someone_has_knocked():
    """The knocker's melds are laid down for both to see: an undo by the defender would hand back a
    live hand whose other cards it has seen (issue 22, found against the knocker bot)."""
    for seed in range(50):
        game = Game.new(Rules(), random.Random(seed), first_dealer=0)
        while not game.hand_over:
            seat = game.to_act
            legal = game.legal_actions(seat)
            knocks = [a for a in legal if a.type == "knock"]
            if knocks:
                game.apply(seat, knocks[0])
                break
            game.apply(seat, next(a for a in legal if a.type != "knock"))
        if game.hand_over or game.hand.knocker is None:
            continue
        defender = 1 - game.hand.knocker
        assert game.can_undo(defender) is False and game.can_undo(game.hand.knocker) is False
        with pytest.raises(CannotUndoError, match="knock"):
            game.undo(defender)
        return
    raise AssertionError("no seed led to a knock")
