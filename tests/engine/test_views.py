"""The engine's JSON renderers: melds and deadwood, a hand's history, result and record, hand analysis."""

from __future__ import annotations

import random

import pytest
from ginrummy.engine import Game, Rules, dumps, loads
from ginrummy.engine.cards import mask_of, parse_cards, texts
from ginrummy.engine.errors import BadCardError, IllegalActionError
from ginrummy.engine.hand import deal_hands
from ginrummy.engine.melds import best_arrangement, best_layoff, validate_arrangement
from ginrummy.engine.views import (
    analyze_hand,
    arrangement_json,
    hand_history,
    hand_record,
    hand_result,
    seat_view,
)

from tests.engine.stacking import StackedRandom, stacked_deck

KNOCKER = ["7S", "7H", "7D", "2C", "3C", "4C", "5C", "6C", "2H", "3D"]  # deadwood 5
DEFENDER = ["KS", "KH", "KD", "9D", "TD", "JD", "QD", "9S", "8H", "4D"]  # deadwood 21, nothing to lay off
KNOCK = {"type": "knock", "discard": "KC", "melds": [["7D", "7H", "7S"], ["2C", "3C", "4C", "5C", "6C"]]}


def knocked_game() -> Game:
    """Seat 1 (the non-dealer) is dealt KNOCKER, both pass the upcard, it draws KC and knocks with it."""
    deck = stacked_deck(KNOCKER, DEFENDER, "QS", ["KC"])
    game = Game.new(Rules(), StackedRandom([deck]), first_dealer=0)
    for seat, action in ((1, {"type": "pass"}), (0, {"type": "pass"})):
        game.apply(seat, action)
    game.apply(1, {"type": "draw", "source": "stock"})
    game.apply(1, KNOCK)
    return game


def test_melds_and_deadwood_have_one_shape_and_a_defender_adds_layoffs_after_the_melds():
    arrangement = best_arrangement(mask_of(["7C", "7D", "7H", "4S", "5S", "6S", "KD"]))
    assert list(arrangement_json(arrangement).items()) == [
        ("melds", [["4S", "5S", "6S"], ["7C", "7D", "7H"]]),
        ("deadwood_cards", ["KD"]),
        ("deadwood", 10),
    ]
    knocker = validate_arrangement(mask_of(["TH", "JH", "QH"]), [mask_of(["TH", "JH", "QH"])])
    defence = best_layoff(mask_of(["7C", "7S", "7H", "8H", "9H", "2D"]), knocker.melds)
    assert list(arrangement_json(defence).items()) == [
        ("melds", [["7C", "7H", "7S"]]),
        ("layoffs", [{"card": "9H", "meld": 0}, {"card": "8H", "meld": 0}]),
        ("deadwood_cards", ["2D"]),
        ("deadwood", 2),
    ]


def test_the_deal_alternates_from_the_non_dealer():
    deck = stacked_deck(KNOCKER, DEFENDER, "QS")
    for dealer in (0, 1):
        hands = deal_hands(dealer, deck)
        assert hands[1 - dealer] == mask_of(KNOCKER) and hands[dealer] == mask_of(DEFENDER)


def test_the_history_hides_the_drawn_card_and_the_knock_discard_from_the_opponent_until_the_end():
    game = knocked_game()
    hand = game.hand
    assert hand_history(hand, 0) == [
        {"seat": 1, "type": "pass"},
        {"seat": 0, "type": "pass"},
        {"seat": 1, "type": "draw", "source": "stock"},
        {"seat": 1, "type": "knock"},
    ]
    assert hand_history(hand, None) == hand_history(hand, 0)
    assert hand_history(hand, 1)[2:] == [
        {"seat": 1, "type": "draw", "source": "stock", "card": "KC"},
        {"seat": 1, "type": "knock", "discard": "KC"},
    ]
    game.apply(0, {"type": "layoff", "best": True})
    assert hand_history(hand, None)[2:] == [
        {"seat": 1, "type": "draw", "source": "stock", "card": "KC"},
        {"seat": 1, "type": "knock", "discard": "KC"},
        {"seat": 0, "type": "layoff"},
    ]


def test_a_history_rendered_move_by_move_is_the_history_rendered_afresh():
    """hand_history keeps what it rendered for the next view of the same hand: at every move, for every
    viewer, it equals the history of a copy that never rendered one (loads), and changing a view's
    history changes no later one."""
    rng = random.Random(3)
    game = Game.new(Rules(), rng)
    for _ in range(400):
        if game.match_over:
            break
        seat = game.to_act if game.to_act is not None else 0
        assert game.hand is not None
        for viewer in (0, 1, None):
            shown = hand_history(game.hand, viewer)
            fresh = loads(dumps(game)).hand
            assert fresh is not None and shown == hand_history(fresh, viewer)
            for item in shown:
                item["seat"] = "changed by the caller"
            assert hand_history(game.hand, viewer) == hand_history(fresh, viewer)
        legal = seat_view(game, seat)["legal_actions"]
        moves = [a for a in legal if a["kind"] == "play"]
        game.apply(seat, rng.choice([a for a in moves if a["type"] == "knock"] or moves), rng=rng)
    assert game.hand_number > 1


def test_the_result_lays_both_hands_down_and_the_record_reveals_the_whole_hand():
    game = knocked_game()
    with pytest.raises(IllegalActionError, match="only once it is over"):
        hand_record(game)
    events = game.apply(0, {"type": "layoff", "best": True})
    hand = game.hand
    result = hand_result(hand)
    over = next(e for e in events if e.type == "hand_over")
    assert over.for_seat(None) == {"type": "hand_over", "seat": 1, **result}
    assert result["outcome"]["end"] == "knock" and result["outcome"]["points"] == 16
    assert result["knocker"] == {
        "seat": 1,
        "discard": "KC",
        "melds": [["7D", "7H", "7S"], ["2C", "3C", "4C", "5C", "6C"]],  # in the order laid down
        "deadwood_cards": ["3D", "2H"],
        "deadwood": 5,
    }
    assert result["defender"] == {
        "seat": 0,
        "melds": [["9D", "TD", "JD", "QD"], ["KD", "KH", "KS"]],
        "layoffs": [],
        "deadwood_cards": ["4D", "8H", "9S"],
        "deadwood": 21,
    }
    assert seat_view(game, 0)["result"] == result

    record = hand_record(game)
    assert list(record) == [
        "dealer", "deck", "initial_hands", "upcard", "knock_limit", "spades_double", "actions", "result",
        "number",
    ]  # fmt: skip
    assert record["initial_hands"] == [texts(mask_of(DEFENDER)), texts(mask_of(KNOCKER))]
    assert record["deck"] == texts(list(hand.deck)) and record["upcard"] == "QS"
    assert record["actions"][2:4] == [
        {"seat": 1, "type": "draw", "source": "stock", "card": "KC"},
        {"seat": 1, **KNOCK},
    ]
    assert record["result"] == result and record["number"] == 1
    assert hand_record(loads(dumps(game))) == record  # a saved game reveals the same hand


def test_there_is_no_record_before_a_deal():
    with pytest.raises(IllegalActionError, match="no hand has been dealt"):
        hand_record(Game(Rules(), 0))


# The answers POST /v1/analyze gave before the analysis moved into the engine, byte for byte.
ANALYSES = [
    (
        ["9H", "7H", "8H", "2C", "2D", "2S", "JC", "QC", "KC"],
        {
            "cards": ["2C", "JC", "QC", "KC", "2D", "7H", "8H", "9H", "2S"],
            "melds": [["2C", "2D", "2S"], ["7H", "8H", "9H"], ["JC", "QC", "KC"]],
            "deadwood_cards": [],
            "deadwood": 0,
            "arrangements": 1,
            "can_knock": None,
            "can_gin": None,
            "big_gin": None,
            "discards": [],
        },
    ),
    (
        ["7S", "7H", "7D", "4C", "5C", "6C", "2H", "3D", "9S", "10s"],
        {
            "cards": ["4C", "5C", "6C", "3D", "7D", "2H", "7H", "7S", "9S", "TS"],
            "melds": [["4C", "5C", "6C"], ["7D", "7H", "7S"]],
            "deadwood_cards": ["3D", "2H", "9S", "TS"],
            "deadwood": 24,
            "arrangements": 1,
            "can_knock": False,
            "can_gin": False,
            "big_gin": False,
            "discards": [],
        },
    ),
    (
        ["7C", "8C", "9C", "TC", "7D", "7H", "AS", "2S", "3S", "4S", "5S"],
        {
            "cards": ["7C", "8C", "9C", "TC", "7D", "7H", "AS", "2S", "3S", "4S", "5S"],
            "melds": [["AS", "2S", "3S", "4S", "5S"], ["7C", "7D", "7H"], ["8C", "9C", "TC"]],
            "deadwood_cards": [],
            "deadwood": 0,
            "arrangements": 1,
            "discards": [
                {"card": "AS", "deadwood": 0},
                {"card": "5S", "deadwood": 0},
                {"card": "2S", "deadwood": 1},
                {"card": "4S", "deadwood": 5},
                {"card": "7D", "deadwood": 7},
                {"card": "7H", "deadwood": 7},
                {"card": "3S", "deadwood": 12},
                {"card": "7C", "deadwood": 14},
                {"card": "TC", "deadwood": 14},
                {"card": "9C", "deadwood": 18},
                {"card": "8C", "deadwood": 19},
            ],
            "can_knock": True,
            "can_gin": True,
            "big_gin": True,
        },
    ),
]


@pytest.mark.parametrize(("cards", "expected"), ANALYSES, ids=["9 cards", "10 cards", "11 cards"])
def test_analysis_of_a_hand(cards, expected):
    out = analyze_hand(cards, 10)
    assert out == expected
    assert list(out) == list(expected)  # the key order is part of the answer's bytes


def test_analysis_verdicts_follow_the_knock_limit():
    ten = ["7S", "7H", "7D", "4C", "5C", "6C", "2H", "3D", "9S", "TS"]
    assert analyze_hand(ten, 24)["can_knock"] is True
    eleven = ["TH", "TD", "TS", "9S", "9D", "2C", "3C", "KD", "QD", "JS", "9C"]
    out = analyze_hand(parse_cards(eleven), 25)  # card numbers work as well as texts
    assert (out["can_knock"], out["can_gin"], out["big_gin"]) == (True, False, False)
    assert analyze_hand(eleven, 24)["can_knock"] is False


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["7S", "7S"], "card given twice: 7S"),
        (["7S", "7s"], "card given twice: 7S"),
        (["7S", "XX"], "not a card: 'XX'"),
        ("7S 8S 9S", "expected a list of cards"),
    ],
)
def test_analysis_refuses_bad_cards(cards, message):
    with pytest.raises(BadCardError, match=message):
        analyze_hand(cards, 10)
