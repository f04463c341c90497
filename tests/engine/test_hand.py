"""The hand state machine: the upcard offer, turns, knocking, gin, big gin, lay-offs, walls and limits."""

from __future__ import annotations

import pytest
from ginrummy.engine import Action, HandEnd, Phase, Rules, texts
from ginrummy.engine.errors import (
    BadActionError,
    DeadwoodTooHighError,
    IllegalActionError,
    InvalidLayoffError,
    InvalidMeldError,
    NotYourTurnError,
)
from ginrummy.engine.hand import Hand
from ginrummy.engine.serialize import _hand_state

from tests.engine.stacking import GIN_HAND, LOSER_HAND, stacked_hand

A = Action.from_json
PASS = {"type": "pass"}
STOCK = {"type": "draw", "source": "stock"}
PILE = {"type": "draw", "source": "discard"}

# Seed 002, example 1, filled out to ten cards: the knocker has 5 deadwood, the defender 21 after lay-offs.
KNOCKER_1 = ["7S", "7H", "7D", "2C", "3C", "4C", "5C", "6C", "2H", "3D"]
DEFENDER_1 = ["KS", "KH", "KD", "9D", "TD", "JD", "QD", "9S", "8H", "4D"]


def knock_after_passes(nondealer, dealer, drawn, rules=None, melds=None, discard=None, upcard="QS"):
    """Both pass the upcard; the non-dealer draws `drawn` and knocks with it (or with `discard`)."""
    hand = stacked_hand(nondealer, dealer, upcard, [drawn], rules=rules)
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    knock = {"type": "knock", "discard": discard or drawn}
    if melds is not None:
        knock["melds"] = melds
    hand.apply(1, A(knock))
    return hand


def snapshot(hand: Hand) -> dict:
    return _hand_state(hand)


def test_upcard_goes_to_the_non_dealer_then_the_dealer_then_the_stock_is_forced():
    hand = stacked_hand(GIN_HAND, LOSER_HAND, "6S")
    assert (hand.phase, hand.turn) == (Phase.UPCARD_NONDEALER, 1)
    hand.apply(1, A(PASS))
    assert (hand.phase, hand.turn) == (Phase.UPCARD_DEALER, 0)
    assert [a.to_json() for a in hand.legal_actions(0)] == [PILE, PASS]
    hand.apply(0, A(PASS))
    assert (hand.phase, hand.turn) == (Phase.DRAW, 1)
    assert [a.to_json() for a in hand.legal_actions(1)] == [STOCK]
    with pytest.raises(IllegalActionError, match="must draw from the stock"):
        hand.apply(1, A(PILE))


def test_taking_the_upcard_forbids_discarding_it_the_same_turn():
    hand = stacked_hand(GIN_HAND, LOSER_HAND, "6S")
    hand.apply(1, A(PILE))
    assert (
        hand.phase is Phase.DISCARD
        and hand.known[1] == 1 << Action.from_json({"type": "discard", "card": "6S"}).card
    )
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="just taken from the discard pile"):
        hand.apply(1, A({"type": "discard", "card": "6S"}))
    assert snapshot(hand) == before
    hand.apply(1, A({"type": "discard", "card": "KS"}))
    assert (hand.phase, hand.turn, hand.discard_pile[-1]) == (
        Phase.DRAW,
        0,
        A({"type": "discard", "card": "KS"}).card,
    )


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    hand = stacked_hand(GIN_HAND, LOSER_HAND, "6S", ["9C"])
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    hand.apply(1, A({"type": "discard", "card": "9C"}))
    assert hand.turn == 0 and hand.stock_size == 30


def test_moves_out_of_turn_and_cards_not_held_are_refused_and_change_nothing():
    hand = stacked_hand(GIN_HAND, LOSER_HAND, "6S")
    before = snapshot(hand)
    with pytest.raises(NotYourTurnError):
        hand.apply(0, A(PASS))
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="you do not hold 9H"):
        hand.apply(1, A({"type": "discard", "card": "9H"}))
    with pytest.raises(IllegalActionError):
        hand.apply(1, A(STOCK))
    assert snapshot(hand) == before


def test_malformed_actions_are_rejected_before_anything_else():
    with pytest.raises(BadActionError):
        A({"type": "fold"})
    with pytest.raises(BadActionError):
        A({"type": "discard"})
    with pytest.raises(BadActionError):
        A({"type": "pass", "card": "7H"})
    with pytest.raises(BadActionError):
        A({"type": "layoff", "best": True, "melds": []})


def test_seed_002_example_1_knock_scores_the_difference():
    hand = knock_after_passes(KNOCKER_1, DEFENDER_1, "9H")
    assert hand.phase is Phase.LAYOFF and hand.turn == 0
    assert hand.knock_arrangement.deadwood == 5
    hand.apply(0, A({"type": "layoff", "best": True}))
    outcome = hand.outcome
    assert (outcome.end, outcome.winner, outcome.points) == (HandEnd.KNOCK, 1, 16)
    assert (outcome.knocker_deadwood, outcome.defender_deadwood) == (5, 21)


def test_seed_002_example_2_undercut_scores_difference_plus_bonus_for_the_defender():
    knocker = ["5S", "5H", "5D", "8D", "9D", "TD", "QC", "QH", "QS", "9C"]
    defender = ["AS", "2S", "3S", "JH", "JD", "JC", "6H", "7H", "8H", "4H"]
    hand = knock_after_passes(knocker, defender, "KC", upcard="KS")
    hand.apply(0, A({"type": "layoff", "best": True}))
    outcome = hand.outcome
    assert (outcome.end, outcome.winner, outcome.points) == (HandEnd.UNDERCUT, 0, 30)


def test_seed_002_example_3_gin_scores_deadwood_plus_25_without_lay_offs():
    hand = knock_after_passes(GIN_HAND, LOSER_HAND, "6H")
    outcome = hand.outcome
    assert hand.phase is Phase.OVER
    assert (outcome.end, outcome.winner, outcome.points) == (HandEnd.GIN, 1, 43)


def test_gin_is_never_undercut_even_by_a_defender_with_no_deadwood():
    defender = ["9H", "TH", "JH", "QH", "AD", "2D", "3D", "4D", "6C", "7C"]  # 6C 7C: 13 deadwood
    melded = ["9H", "TH", "JH", "AD", "2D", "3D", "4D", "AS", "2S", "3S"]  # all melded
    hand = knock_after_passes(GIN_HAND, melded, "6H")
    assert (hand.outcome.end, hand.outcome.winner, hand.outcome.points) == (HandEnd.GIN, 1, 25)
    hand = knock_after_passes(GIN_HAND, defender, "6H")
    assert hand.outcome.points == 38


SCATTERED = ["AC", "3H", "5S", "7C", "9D", "KH", "2D", "4D", "6D", "8H"]
SCATTERED_TOO = ["2H", "4H", "6S", "8D", "TC", "QD", "KS", "3C", "5H", "9S"]


def test_seed_001_knocking_card_is_not_counted():
    # Melds plus 3 and 5 of deadwood; the drawn 9 makes 3, 5, 9: knocking with the 9 leaves 8.
    melds_and_3_5 = ["AS", "2S", "3S", "4S", "JH", "JD", "JC", "JS", "3C", "5D"]
    hand = stacked_hand(melds_and_3_5, SCATTERED, "QS", ["9S"])
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    knocks = [a.to_json()["discard"] for a in hand.legal_actions(1) if a.type == "knock"]
    assert knocks == ["9S"]
    with pytest.raises(DeadwoodTooHighError, match="leaves 12 deadwood; the knock limit is 10"):
        hand.apply(1, A({"type": "knock", "discard": "5D"}))
    hand.apply(1, A({"type": "knock", "discard": "9S"}))
    assert hand.knock_arrangement.deadwood == 8


def test_the_defender_lays_off_in_chains_onto_runs():
    knocker = ["4H", "5H", "6H", "KS", "KD", "KC", "2C", "3C", "4C", "AD"]
    defender = ["7H", "8H", "KH", "9S", "9D", "9C", "QD", "JS", "TS", "5S"]
    hand = knock_after_passes(knocker, defender, "QC")
    hand.apply(0, A({"type": "layoff", "best": True}))
    laid = sorted(hand.defender_result.layoffs)
    assert {c for c, _ in laid} == {A({"type": "discard", "card": t}).card for t in ("7H", "8H", "KH")}
    assert hand.defender_result.deadwood == 9 + 9 + 10 + 5  # 9S TS JS run; 9D 9C QD 5S left


def test_an_explicit_lay_off_is_validated():
    knocker = ["4H", "5H", "6H", "KS", "KD", "KC", "2C", "3C", "4C", "AD"]
    defender = ["7H", "8H", "KH", "9S", "9D", "9C", "QD", "JS", "TS", "5S"]
    hand = knock_after_passes(knocker, defender, "QC")
    melds = [m.mask for m in hand.knock_arrangement.melds]
    run_index = next(i for i, m in enumerate(hand.knock_arrangement.melds) if "4H" in m.texts())
    before = snapshot(hand)
    with pytest.raises(InvalidLayoffError):
        hand.apply(
            0,
            A(
                {
                    "type": "layoff",
                    "melds": [["9S", "9D", "9C"]],
                    "layoffs": [{"card": "8H", "meld": run_index}],
                }
            ),
        )  # 8H alone leaves a gap
    with pytest.raises(InvalidMeldError):
        hand.apply(0, A({"type": "layoff", "melds": [["9S", "9D", "QD"]], "layoffs": []}))
    assert snapshot(hand) == before and melds
    hand.apply(
        0,
        A({"type": "layoff", "melds": [["9S", "9D", "9C"]], "layoffs": [{"card": "7H", "meld": run_index}]}),
    )
    assert hand.defender_result.deadwood == 8 + 10 + 10 + 10 + 10 + 5


def test_the_knocker_may_choose_an_arrangement_that_blocks_lay_offs():
    # 4H5H6H7H + 7S 7D: as a run of four, 7S 7D are 14 deadwood (too much); as 4H5H6H + 7H7S7D: 0.
    knocker = ["4H", "5H", "6H", "7H", "7S", "7D", "2C", "3C", "4C", "AD"]
    defender = ["8H", "7C", "9S", "9D", "9C", "QD", "JS", "TS", "5S", "KC"]
    with pytest.raises(DeadwoodTooHighError):
        knock_after_passes(knocker, defender, "QC", melds=[["4H", "5H", "6H", "7H"], ["2C", "3C", "4C"]])
    hand = knock_after_passes(
        knocker, defender, "QC", melds=[["4H", "5H", "6H"], ["7H", "7S", "7D"], ["2C", "3C", "4C"]]
    )
    assert hand.knock_arrangement.deadwood == 1


def test_big_gin_needs_no_discard_and_scores_31():
    eleven = ["8S", "8H", "8D", "2C", "3C", "4C", "5C", "KS", "KH", "KD"]
    hand = stacked_hand(eleven, LOSER_HAND, "QS", ["6C"])
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    assert {"type": "knock", "discard": None} in [a.to_json() for a in hand.legal_actions(1)]
    hand.apply(1, A({"type": "knock", "discard": None}))
    assert (hand.outcome.end, hand.outcome.points) == (HandEnd.BIG_GIN, 18 + 31)


def test_big_gin_is_not_offered_when_the_option_is_off():
    eleven = ["8S", "8H", "8D", "2C", "3C", "4C", "5C", "KS", "KH", "KD"]
    hand = stacked_hand(eleven, LOSER_HAND, "QS", ["6C"], rules=Rules(big_gin=False))
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    assert {"type": "knock", "discard": None} not in [a.to_json() for a in hand.legal_actions(1)]
    with pytest.raises(IllegalActionError, match="big gin is not played"):
        hand.apply(1, A({"type": "knock", "discard": None}))


@pytest.mark.parametrize(
    ("undercut_on_tie", "end", "winner", "points"),
    [(True, HandEnd.UNDERCUT, 0, 25), (False, HandEnd.TIE, None, 0)],
)
def test_equal_deadwood_is_an_undercut_or_a_tie_by_option(undercut_on_tie, end, winner, points):
    knocker = ["5S", "5H", "5D", "8D", "9D", "TD", "QC", "QH", "QS", "4C"]  # 4 deadwood
    defender = ["AS", "2S", "3S", "JH", "JD", "JC", "6H", "7H", "8H", "4H"]  # 4 deadwood
    hand = knock_after_passes(
        knocker, defender, "KC", rules=Rules(undercut_on_tie=undercut_on_tie), upcard="KS"
    )
    hand.apply(0, A({"type": "layoff", "best": True}))
    assert (hand.outcome.end, hand.outcome.winner, hand.outcome.points) == (end, winner, points)


def test_straight_gin_allows_only_gin():
    hand = stacked_hand(KNOCKER_1, DEFENDER_1, "QS", ["9H"], rules=Rules.from_options("straight"))
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    hand.apply(1, A(STOCK))
    assert not [a for a in hand.legal_actions(1) if a.type == "knock"]
    with pytest.raises(DeadwoodTooHighError, match="only gin"):
        hand.apply(1, A({"type": "knock", "discard": "9H"}))


@pytest.mark.parametrize(
    ("upcard", "limit", "doubled"), [("7C", 7, False), ("QS", 10, True), ("AH", 0, False)]
)
def test_oklahoma_upcard_sets_the_knock_limit_and_spades_double(upcard, limit, doubled):
    hand = stacked_hand(KNOCKER_1, DEFENDER_1, upcard, ["9H"], rules=Rules.from_options("oklahoma"))
    assert (hand.knock_limit, hand.spades_double) == (limit, doubled)


def test_oklahoma_spade_upcard_doubles_the_hand():
    hand = knock_after_passes(GIN_HAND, LOSER_HAND, "6H", rules=Rules.from_options("oklahoma"))
    # knock_after_passes turns up the QS: a spade, limit 10.
    assert (hand.outcome.points, hand.outcome.multiplier) == (86, 2)


def _play_to_wall(hand: Hand) -> None:
    """Both draw from the stock and throw the drawn card back until the stock is nearly gone."""
    hand.apply(1, A(PASS))
    hand.apply(0, A(PASS))
    while hand.phase is Phase.DRAW:
        seat = hand.turn
        hand.apply(seat, A(STOCK))
        drawn = hand.log[-1].card
        hand.apply(seat, Action.discard(drawn))


def test_the_wall_cancels_the_hand_when_two_stock_cards_remain():
    hand = stacked_hand(SCATTERED_TOO, SCATTERED, "QS")
    _play_to_wall(hand)
    assert hand.phase is Phase.OVER and hand.stock_size == 2
    assert (hand.outcome.end, hand.outcome.winner, hand.outcome.points) == (HandEnd.WALL, None, 0)


def _stock_with(card_29: str, *held: list[str], upcard: str = "QS") -> list[str]:
    """A stock whose 29th card (the fiftieth of the deck, drawn by the non-dealer) is `card_29`."""
    used = {upcard, card_29, *held[0], *held[1]}
    rest = [t for t in texts(list(range(52))) if t not in used]
    return rest[:28] + [card_29] + rest[28:]


def test_fiftieth_card_refused_cancels_the_hand():
    dealer_hand = ["7S", "7H", "2C", "3C", "4C", "JH", "JD", "JC", "AS", "2S"]
    stock = _stock_with("KS", SCATTERED, dealer_hand)
    hand = stacked_hand(SCATTERED, dealer_hand, "QS", stock, rules=Rules.from_options("tournament"))
    _play_to_wall(hand)
    assert (hand.phase, hand.turn, hand.stock_size) == (Phase.FIFTIETH_CARD, 0, 2)
    assert [a.to_json() for a in hand.legal_actions(0)] == [PASS]  # the KS does not let seat 0 knock
    with pytest.raises(IllegalActionError, match="only allowed when it lets you knock"):
        hand.apply(0, A(PILE))
    hand.apply(0, A(PASS))
    assert hand.outcome.end is HandEnd.WALL


def test_fiftieth_card_taken_then_the_taker_must_knock():
    dealer_hand = ["7S", "7H", "2C", "3C", "4C", "JH", "JD", "JC", "AS", "2S"]
    stock = _stock_with("7D", SCATTERED, dealer_hand)
    hand = stacked_hand(SCATTERED, dealer_hand, "QS", stock, rules=Rules.from_options("tournament"))
    _play_to_wall(hand)
    assert hand.phase is Phase.FIFTIETH_CARD
    assert [a.to_json() for a in hand.legal_actions(0)] == [PILE, PASS]
    hand.apply(0, A(PILE))
    legal = [a.to_json() for a in hand.legal_actions(0)]
    # Breaking the club run still leaves at most 10; breaking the jacks does not.
    assert [a["discard"] for a in legal] == ["2C", "3C", "4C", "AS", "2S"]
    assert all(a["type"] == "knock" for a in legal)
    with pytest.raises(IllegalActionError, match="must knock"):
        hand.apply(0, A({"type": "discard", "card": "AS"}))
    hand.apply(0, A({"type": "knock", "discard": "AS"}))
    assert (hand.knocker, hand.knock_arrangement.deadwood) == (0, 2)


def test_max_discard_draws_ends_the_hand_cancelled():
    rules = Rules(max_discard_draws=3)
    hand = stacked_hand(SCATTERED_TOO, SCATTERED, "QS", rules=rules)
    hand.apply(1, A(PILE))  # 1
    hand.apply(1, A({"type": "discard", "card": "KS"}))
    hand.apply(0, A(PILE))  # 2
    hand.apply(0, A({"type": "discard", "card": "AC"}))
    hand.apply(1, A(PILE))  # 3
    assert hand.phase is Phase.DISCARD
    hand.apply(1, A({"type": "discard", "card": "8D"}))
    assert hand.outcome.end is HandEnd.DRAW_LIMIT


def test_nothing_is_accepted_after_the_hand_is_over():
    hand = knock_after_passes(GIN_HAND, LOSER_HAND, "6H")
    with pytest.raises(IllegalActionError, match="hand is over"):
        hand.apply(0, A(STOCK))
    assert hand.legal_actions(0) == hand.legal_actions(1) == []
