"""Ending a match early: resign, abort, and a forfeit claimed by the service (timeout, abandoned) or the
arena (disqualified)."""

from __future__ import annotations

import json
import random

import pytest
from ginrummy.engine import Action, Game, MatchEnd, Rules, dumps, loads, seat_view
from ginrummy.engine.errors import (
    BadActionError,
    BadStateError,
    CannotUndoError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
)
from ginrummy.engine.views import hand_history

from tests.engine.stacking import StackedRandom, gin_deck, run_gins

RESIGN = {"type": "resign"}
ABORT = {"type": "abort"}
EVERY_ACTION = [
    Action.deal(),
    Action.draw("stock"),
    Action.pass_(),
    Action.discard(0),
    Action.knock(0),
    Action.layoff_best(),
    Action.resign(),
    Action.abort(),
]


def new_game(rules: Rules | None = None) -> Game:
    """Dealer 0: seat 1 has the upcard offer first."""
    return Game.new(rules or Rules(), random.Random(4), first_dealer=0)


def deal_gin_hand(game: Game) -> None:
    game.apply(0, {"type": "deal"}, rng=StackedRandom([gin_deck(True)]))


def assert_nothing_more(game: Game) -> None:
    assert game.match_over and game.phase == "match_over" and game.to_act is None
    for seat in (0, 1):
        assert game.legal_actions(seat) == [] and game.ending_actions(seat) == []
        for action in EVERY_ACTION:
            with pytest.raises(GameOverError):
                game.apply(seat, action, rng=random.Random(0))
        with pytest.raises(GameOverError):
            game.forfeit(seat, "timeout")
        with pytest.raises(CannotUndoError):
            game.undo(seat)


def kinds(events: list) -> list[tuple[str, int | None]]:
    return [(e.type, e.seat) for e in events]


# -- resign -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [1, 0], ids=["the seat to act", "the other seat"])
def test_either_seat_may_resign_and_the_other_wins(seat):
    game = new_game()
    assert game.to_act == 1
    events = game.apply(seat, RESIGN)
    assert kinds(events) == [("game_over", 1 - seat), ("match_over", 1 - seat)]
    assert events[-1].data == {"games_won": game.games_won, "reason": "resigned", "forfeited_by": seat}
    assert game.match_winner == 1 - seat and game.forfeited_by == seat
    assert game.end_reason is MatchEnd.RESIGNED and game.end_reason == "resigned"
    assert_nothing_more(game)


def test_a_resignation_settles_the_game_as_if_the_opponent_reached_the_target():
    # Seat 1 gins hand 1, seat 0 gins hand 2: 43 points and one hand each. Hand 3 is dealt and seat 0
    # resigns while seat 1 is to act: the hand in play scores nothing.
    game = run_gins(Rules(), [True, False])
    game.apply(1, {"type": "deal"}, rng=StackedRandom([gin_deck(True)]))
    game.apply(0, {"type": "pass"})
    assert game.to_act == 1
    stats, history = game.stats(), hand_history(game.hand, 0)
    events = game.apply(0, RESIGN)
    sheet = game.scores[0].settle(game.rules)
    assert sheet["points"] == [43, 43] and sheet["hands_won"] == [1, 1]
    assert sheet["over"] and sheet["reached_target"] is None and sheet["forfeited_by"] == 0
    assert sheet["bonuses"] == {
        "game": [0, 100],
        "box": [25, 25],
        "shutout": False,
        "shutout_hand_points": [0, 0],
    }
    assert sheet["grand_totals"] == [68, 168] and sheet["winner"] == 1
    assert events[0].data == {"reason": "resigned", **sheet}
    assert game.games_won == [0, 1] and len(game.summaries) == 2
    assert game.stats() == stats and hand_history(game.hand, 0) == history


def test_the_forfeiting_seat_loses_the_game_even_with_the_higher_grand_total():
    game = run_gins(Rules(), [True, True])  # seat 1: 86 points, two hands won
    assert game.phase == "hand_over"
    game.apply(1, RESIGN)  # between hands
    sheet = game.scores[0].settle(game.rules)
    assert sheet["bonuses"]["game"] == [100, 0] and sheet["bonuses"]["box"] == [0, 50]
    assert sheet["grand_totals"] == [100, 136] and sheet["winner"] == 0
    assert game.match_winner == 0 and game.games_won == [1, 0]


def test_a_forfeiting_seat_that_won_no_hand_is_shut_out():
    game = run_gins(Rules(), [True, True])
    game.apply(0, RESIGN)
    sheet = game.scores[0].settle(game.rules)
    assert sheet["bonuses"]["shutout"] and sheet["bonuses"]["shutout_hand_points"] == [0, 86]
    assert sheet["grand_totals"] == [0, 172 + 100 + 50] and sheet["winner"] == 1


def test_resigning_in_a_best_of_five_gives_the_opponent_the_games_it_still_needed():
    rules = Rules.from_options("tournament", target=40)  # one gin wins a game
    game = run_gins(rules, [True])
    assert game.phase == "game_over" and game.games_won == [0, 1]
    deal_gin_hand(game)
    events = game.apply(1, RESIGN)
    assert kinds(events) == [("game_over", 0), ("match_over", 0)]
    sheet = events[0].data
    assert sheet["number"] == 2 and sheet["points"] == [0, 0] and sheet["forfeited_by"] == 1
    assert sheet["bonuses"]["shutout"] and sheet["grand_totals"] == [100, 0] and sheet["winner"] == 0
    # Games 1 and 2 are 1-1; games 3 and 4 are never played and go to seat 0: three wins of five.
    assert game.games_won == [3, 1] and events[1].data["games_won"] == [3, 1]
    assert game.match_winner == 0 and len(game.scores) == 2


def test_resigning_between_games_settles_no_game():
    game = run_gins(Rules.from_options("tournament", target=40), [True])
    events = game.apply(1, RESIGN)  # game 1 is over, game 2 not yet dealt
    assert kinds(events) == [("match_over", 0)]
    assert game.games_won == [3, 1] and game.scores[0].settle(game.rules)["forfeited_by"] is None


def test_resigning_at_the_first_move_of_a_best_of_five():
    game = new_game(Rules.from_options("tournament"))
    game.apply(0, RESIGN)
    assert game.games_won == [0, 3] and game.match_winner == 1


def test_under_hollywood_each_unfinished_game_is_settled():
    game = run_gins(Rules.from_options("hollywood"), [True] * 3)  # game 1 over, won by seat 1
    assert game.phase == "game_over" and game.games_won == [0, 1]
    events = game.apply(1, RESIGN)
    assert kinds(events) == [("game_over", 0), ("game_over", 0), ("match_over", 0)]
    sheets = [s.settle(game.rules) for s in game.scores]
    assert [s["winner"] for s in sheets] == [1, 0, 0]
    assert [s["forfeited_by"] for s in sheets] == [None, 1, 1]
    assert sheets[1]["grand_totals"] == [100, 86 + 50] and sheets[2]["grand_totals"] == [100, 43 + 25]
    # No game is left unplayed in Hollywood: seat 0 wins the match with two of the three.
    assert game.games_won == [2, 1] and game.match_winner == 0
    assert_nothing_more(game)


# -- abort ------------------------------------------------------------------------------------------


def test_abort_is_offered_to_both_seats_until_the_first_card_is_drawn():
    game = new_game()
    for passer in (1, 0):
        assert [a.type for a in game.ending_actions(0)] == [a.type for a in game.ending_actions(1)]
        assert [a.type for a in game.ending_actions(1)] == ["resign", "abort"]
        game.apply(passer, {"type": "pass"})
    assert game.phase == "draw" and game.abort_allowed  # both passed: nothing drawn yet
    game.apply(1, {"type": "draw", "source": "stock"})
    assert not game.abort_allowed and [a.type for a in game.ending_actions(0)] == ["resign"]
    with pytest.raises(IllegalActionError, match="resign instead"):
        game.apply(0, ABORT)


def test_taking_the_upcard_ends_the_time_for_an_abort():
    game = new_game()
    game.apply(1, {"type": "draw", "source": "discard"})
    with pytest.raises(IllegalActionError):
        game.apply(0, ABORT)


def test_abort_is_refused_after_hand_one():
    game = run_gins(Rules(target=500), [True])
    with pytest.raises(IllegalActionError):
        game.apply(0, ABORT)  # between hands
    deal_gin_hand(game)
    assert game.hand_number == 2 and game.hand.untouched
    with pytest.raises(IllegalActionError):
        game.apply(1, ABORT)
    assert not game.match_over


@pytest.mark.parametrize("seat", [0, 1])
def test_an_aborted_match_is_over_with_no_winner_and_nothing_scored(seat):
    game = new_game()
    game.apply(1, {"type": "pass"})
    events = game.apply(seat, ABORT)
    assert kinds(events) == [("match_over", None)]
    assert events[0].data == {"games_won": [0, 0], "reason": "aborted", "aborted_by": seat}
    assert game.match_winner is None and game.forfeited_by is None
    assert game.end_reason is MatchEnd.ABORTED and game.games_won == [0, 0]
    sheet = game.scores[0].settle(game.rules)
    assert not sheet["over"] and sheet["winner"] is None and sheet["grand_totals"] == [0, 0]
    assert_nothing_more(game)


# -- forfeits claimed by the service ----------------------------------------------------------------


@pytest.mark.parametrize("reason", ["timeout", "abandoned", "disqualified"])  # the last: the arena's
def test_a_seat_out_of_time_or_gone_forfeits(reason):
    game = new_game()
    game.apply(1, {"type": "pass"})
    events = game.forfeit(0, reason)
    assert [e.data["reason"] for e in events] == [reason, reason]
    assert events[0].data["forfeited_by"] == 0 and events[1].data["forfeited_by"] == 0
    assert game.end_reason == reason and game.forfeited_by == 0 and game.match_winner == 1
    assert_nothing_more(game)


def test_a_forfeit_needs_a_seat_and_a_forfeit_reason():
    game = new_game()
    with pytest.raises(ValueError, match="resigned, timeout, abandoned"):
        game.forfeit(0, "aborted")
    with pytest.raises(NotYourTurnError):
        game.forfeit(2, "timeout")
    assert not game.match_over


# -- the rest: parsing, undo, views, saving ---------------------------------------------------------


def test_resign_and_abort_parse_exactly():
    assert Action.from_json(RESIGN) == Action.resign() and Action.resign().to_json() == RESIGN
    assert Action.from_json(ABORT) == Action.abort() and Action.abort().to_json() == ABORT
    with pytest.raises(BadActionError, match="resign takes no field x"):
        Action.from_json({"type": "resign", "x": 1})
    with pytest.raises(BadActionError, match="abort takes no field seat"):
        Action.from_json({"type": "abort", "seat": 0})


def test_legal_actions_stay_the_play_and_the_view_adds_the_ending_actions():
    game = new_game()
    assert [a.type for a in game.legal_actions(1)] == ["draw", "pass"] and game.legal_actions(0) == []
    assert [a["type"] for a in seat_view(game, 1)["legal_actions"]] == ["draw", "pass", "resign", "abort"]
    assert seat_view(game, 0)["legal_actions"] == [{**RESIGN, "kind": "match"}, {**ABORT, "kind": "match"}]
    assert seat_view(game, None)["legal_actions"] == []
    view = seat_view(game, 0)
    assert view["end_reason"] is None and view["forfeited_by"] is None


def test_the_views_show_how_the_match_ended():
    game = new_game()
    game.apply(1, RESIGN)
    for seat in (0, 1, None):
        view = seat_view(game, seat)
        assert view["end_reason"] == "resigned" and view["forfeited_by"] == 1
        assert view["phase"] == "match_over" and view["turn"] is None and view["legal_actions"] == []
        assert view["scores"]["match_over"] and view["scores"]["match_winner"] == 0
        assert view["result"] is None  # the abandoned hand is not revealed
        json.dumps(view)
    assert "cards" not in seat_view(game, 0)["opponent"]


def test_undo_cannot_take_back_the_end_of_a_match():
    game = new_game()
    game.apply(1, {"type": "pass"})
    game.apply(1, RESIGN)
    with pytest.raises(CannotUndoError, match="the match is over"):
        game.undo(1)


def ended(how: str) -> Game:
    """A match ended mid-hand 2 (resign, timeout) or at its start (abort)."""
    if how == "abort":
        game = new_game()
        game.apply(1, ABORT)
        return game
    game = run_gins(Rules(), [True])
    deal_gin_hand(game)
    if how == "resign":
        game.apply(0, RESIGN)
    else:
        game.forfeit(1, "timeout")
    return game


@pytest.mark.parametrize("how", ["resign", "abort", "timeout"])
def test_a_game_ended_early_round_trips(how):
    game = ended(how)
    text = dumps(game)
    back = loads(text)
    assert dumps(back) == text
    assert (back.end_reason, back.forfeited_by, back.match_winner, back.phase) == (
        game.end_reason,
        game.forfeited_by,
        game.match_winner,
        game.phase,
    )
    assert isinstance(back.end_reason, MatchEnd)
    for seat in (0, 1, None):
        assert seat_view(back, seat) == seat_view(game, seat)
    assert_nothing_more(back)


def test_a_game_saved_without_an_ending_is_stored_as_before_and_loads():
    game = run_gins(Rules(), [True])
    state = json.loads(dumps(game))
    assert "e" not in state and all(len(row) == 5 for row in state["s"])
    back = loads(json.dumps(state))
    assert back.end_reason is None and back.forfeited_by is None and not back.match_over
    assert [a.type for a in back.ending_actions(0)] == ["resign"]


def test_a_saved_ending_that_is_no_ending_is_refused():
    game = new_game()
    game.apply(0, RESIGN)
    state = json.loads(dumps(game))
    state["e"][0] = "bored"
    with pytest.raises(BadStateError):
        loads(json.dumps(state))


def test_a_match_played_out_has_no_end_reason():
    game = run_gins(Rules(), [True, True, True])
    assert game.match_over and game.end_reason is None and game.forfeited_by is None
    assert seat_view(game, 0)["end_reason"] is None
    assert "e" not in json.loads(dumps(game))
