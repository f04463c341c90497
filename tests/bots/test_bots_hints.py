"""Hints: the expert's recommendation with an explanation and up to three alternatives."""

from __future__ import annotations

import json
import re

import pytest
from ginrummy.bots import hint, master_hint
from ginrummy.bots.review import judge

from .games import play
from .test_review_positions import UNDERCUT_TRAP, legal
from .views import DRAW, OFFER, discard_legal, make_view


def check_hint(view):
    result = hint(view)
    assert set(result) == {"action", "explanation", "alternatives", "by"} and result["by"] == "expert"
    assert any(result["action"] is legal for legal in view["legal_actions"])
    assert isinstance(result["explanation"], str) and result["explanation"]
    alternatives = result["alternatives"]
    assert 1 <= len(alternatives) <= 3
    assert alternatives[0]["action"] == result["action"]
    for alt in alternatives:
        assert set(alt) == {"action", "value", "explanation"}
        assert alt["action"] in view["legal_actions"]
        assert isinstance(alt["value"], (int, float))
        assert isinstance(alt["explanation"], str) and alt["explanation"]
    values = [alt["value"] for alt in alternatives]
    assert values == sorted(values, reverse=True)
    json.dumps(result)  # the service sends it as is
    return result


def test_hint_on_a_discard_explains_the_choice():
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"]
    result = check_hint(make_view(hand, legal=discard_legal(hand), phase="discard"))
    assert result["action"]["type"] == "discard"
    assert result["action"]["card"] in ("KS", "QH")
    assert len(result["alternatives"]) == 3
    assert result["action"]["card"] in result["explanation"]


def test_hint_recommends_gin():
    hand = ["AC", "2C", "3C", "4C", "5H", "5S", "5D", "9D", "9H", "9S", "KS"]
    result = check_hint(make_view(hand, legal=discard_legal(hand, knocks=["KS"]), phase="discard"))
    assert result["action"] == {"type": "knock", "discard": "KS"}
    assert "Gin" in result["explanation"]


@pytest.mark.parametrize("legal", [OFFER, DRAW], ids=["offer", "draw"])
def test_hint_takes_a_card_that_makes_a_meld(legal):
    hand = ["7H", "8H", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"]
    result = check_hint(make_view(hand, pile=["5C", "9H"], legal=[dict(a) for a in legal]))
    assert result["action"] == {"type": "draw", "source": "discard"}
    assert "9H" in result["explanation"]
    assert len(result["alternatives"]) == 2


def test_hint_for_lay_offs_and_deals():
    layoff = make_view(["AC"], legal=[{"type": "layoff", "best": True}, {"type": "layoff", "melds": []}])
    assert check_hint(layoff)["action"] == {"type": "layoff", "best": True}
    deal = make_view(["AC"], legal=[{"type": "deal"}], phase="hand_over")
    assert check_hint(deal)["action"] == {"type": "deal"}


def test_hints_over_whole_games_are_legal_and_reproducible():
    def on_view(seat, view, action):
        first = check_hint(view)
        assert hint(view) == first

    play(("novice", "knocker"), 5, options={"target": 40}, on_view=on_view)


def test_the_stock_alternative_speaks_of_the_deadwood_it_expects():
    # No meld in sight: a stock card leaves roughly the current deadwood, far above zero.
    hand = ["7H", "8H", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"]
    result = check_hint(make_view(hand, pile=["5C", "KD"], legal=[dict(a) for a in DRAW]))
    stock = next(a for a in result["alternatives"] if a["action"] == {"type": "draw", "source": "stock"})
    expected = float(stock["explanation"].split("deadwood is about ")[1].split(" ")[0])
    assert 20 < expected < 80


def test_where_a_knock_is_offered_and_the_advice_is_to_wait_the_words_say_dont_knock():
    """The undercut trap (tests/bots/test_review_positions.py): a knock with 4 is on offer, discarding 5C
    without knocking is better. The hint (the master's and the expert's) and the review of the knock say
    "Don't knock" and why, not only "discard 5C"."""
    view = UNDERCUT_TRAP.view()
    assert any(a["type"] == "knock" for a in view["legal_actions"])
    master = master_hint(view)
    assert master["action"]["type"] == "discard"
    assert re.match(
        r"Don't knock: over the same 64 sampled deals a knock averages [+-]\d+\.\d points "
        r"\(undercut risk \d+%\)\. Discard 5C: ",
        master["explanation"],
    ), master["explanation"]
    expert = check_hint(view)
    assert expert["action"]["type"] == "discard"
    assert re.match(r"Don't knock: the undercut risk is \d+%\. Discard ", expert["explanation"])

    judgement = judge(view, legal(view, "k:5C")).to_json()
    assert judgement["verdict"] is not None and judgement["best"]["type"] == "discard"
    best = next(e for e in judgement["estimates"] if e["action"] == judgement["best"])
    assert best["explanation"].startswith("Don't knock: over the same 128 sampled deals a knock averages ")
    knock = next(e for e in judgement["estimates"] if e["action"] == judgement["played"])
    assert 0 <= knock["undercut"] <= 1 and not knock["explanation"].startswith("Don't knock")


def test_no_dont_knock_where_no_knock_is_offered_or_the_advice_is_to_knock():
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"]
    assert (
        "knock" not in check_hint(make_view(hand, legal=discard_legal(hand), phase="discard"))["explanation"]
    )
    gin = ["AC", "2C", "3C", "4C", "5H", "5S", "5D", "9D", "9H", "9S", "KS"]
    said = check_hint(make_view(gin, legal=discard_legal(gin, knocks=["KS"]), phase="discard"))["explanation"]
    assert not said.startswith("Don't knock")
