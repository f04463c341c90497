"""The simple bot follows Neller's SimpleGinRummyPlayer rule for rule (table tests on single views)."""

from __future__ import annotations

import pytest
from ginrummy.bots import make_bot
from ginrummy.bots.analysis import card_mask, read_view
from ginrummy.bots.simple import SimpleBot

from .views import DRAW, OFFER, discard_legal, make_view

TAKE = {"type": "draw", "source": "discard"}

# Rule 1: take the face-up card only if it becomes part of a meld, else pass / draw from the stock.
UPCARD_CASES = [
    # hand (10 cards), upcard, takes?
    (["7H", "8H", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"], "9H", True),  # run 7-8-9
    (["7H", "8H", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"], "6H", True),  # run 6-7-8
    (["9C", "9D", "2C", "4D", "6S", "7C", "JD", "QS", "KC", "3H"], "9S", True),  # set of nines
    (["7H", "9H", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"], "8H", True),  # fills the gap
    (["7H", "8H", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"], "AS", False),  # a low card, no meld
    (["7H", "TH", "2C", "4D", "6S", "9C", "JD", "QS", "KC", "3H"], "9H", False),  # 7-9-T is not a run
    (["QH", "KH", "2C", "4D", "6S", "9C", "JD", "5S", "8C", "3H"], "AH", False),  # no wrap Q-K-A
]


@pytest.mark.parametrize(("hand", "upcard", "takes"), UPCARD_CASES)
@pytest.mark.parametrize("legal", [OFFER, DRAW], ids=["upcard-offer", "normal-draw"])
def test_takes_the_face_up_card_only_for_a_meld(hand, upcard, takes, legal):
    view = make_view(hand, pile=["5C", upcard], legal=[dict(a) for a in legal])
    action = make_bot("simple", seed=3).choose(view)
    if takes:
        assert action == TAKE
    else:
        assert action["type"] in ("pass", "draw") and action != TAKE


# Rule 2: discard to minimum deadwood.
def test_discards_the_card_leaving_minimum_deadwood():
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"]
    view = make_view(hand, legal=discard_legal(hand), phase="discard")
    for seed in range(10):
        action = make_bot("simple", seed=seed).choose(view)
        # KS or QH leave 9D 8D QH/KS 2H: deadwood 29 either way; the minimum, whichever tie is drawn.
        assert action in ({"type": "discard", "card": "KS"}, {"type": "discard", "card": "QH"})


def test_breaks_ties_at_random_with_its_own_seed():
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"]
    view = make_view(hand, legal=discard_legal(hand), phase="discard")
    seen = {make_bot("simple", seed=seed).choose(view)["card"] for seed in range(40)}
    assert seen == {"KS", "QH"}


def test_never_discards_the_card_just_taken_from_the_pile():
    # KS was just taken from the pile; it is the worst card but the engine does not list it.
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "TD", "KS", "4H", "2H"]
    history = [{"seat": 0, "type": "draw", "source": "discard", "card": "KS"}]
    view = make_view(hand, legal=discard_legal(hand, exclude="KS"), phase="discard", history=history)
    for seed in range(20):
        assert make_bot("simple", seed=seed).choose(view)["card"] == "TD"


def test_does_not_repeat_a_draw_discard_pair_of_this_hand():
    hand = card_mask(["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"])
    view = make_view(["AC"], phase="discard")
    know = read_view(view)
    know.hand = hand
    know.last_drawn = card_mask(["2H"]).bit_length() - 1
    ks = card_mask(["KS"]).bit_length() - 1
    qh = card_mask(["QH"]).bit_length() - 1
    know.my_turn_pairs = {(know.last_drawn, ks)}
    assert SimpleBot.min_deadwood_discards(know, [ks, qh]) == [qh]


def test_when_every_discard_repeats_a_pair_it_falls_back_to_all_of_them():
    view = make_view(["AC"], phase="discard")
    know = read_view(view)
    know.hand = card_mask(["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"])
    know.last_drawn = card_mask(["2H"]).bit_length() - 1
    ks = card_mask(["KS"]).bit_length() - 1
    qh = card_mask(["QH"]).bit_length() - 1
    pairs = {(know.last_drawn, ks), (know.last_drawn, qh)}
    know.my_turn_pairs = set(pairs)
    assert SimpleBot.min_deadwood_discards(know, [ks, qh]) == [qh, ks]
    assert know.my_turn_pairs == pairs  # the fallback works on a copy


def test_reads_its_draw_discard_pairs_from_the_history():
    history = [
        {"seat": 0, "type": "draw", "source": "stock", "card": "2H"},
        {"seat": 0, "type": "discard", "card": "KS"},
        {"seat": 1, "type": "draw", "source": "discard", "card": "KS"},
        {"seat": 1, "type": "discard", "card": "4C"},
    ]
    know = read_view(make_view(["AC"], pile=["4C"], history=history))
    assert know.my_turn_pairs == {(card_mask(["2H"]).bit_length() - 1, card_mask(["KS"]).bit_length() - 1)}


# Rule 3: knock as soon as the deadwood is within the knock limit.
@pytest.mark.parametrize(
    ("hand", "discard", "deadwood"),
    [
        (["AC", "2C", "3C", "5D", "5H", "5S", "9D", "9H", "9S", "KS", "4H"], "KS", 4),
        (["AC", "2C", "3C", "5D", "5H", "5S", "9D", "9H", "9S", "KS", "8D"], "KS", 8),
        (["AC", "2C", "3C", "4C", "5H", "5S", "5D", "9D", "9H", "9S", "KS"], "KS", 0),  # gin
    ],
)
def test_knocks_as_soon_as_it_can(hand, discard, deadwood):
    legal = discard_legal(hand, knocks=[discard])
    view = make_view(hand, legal=legal, phase="discard")
    assert make_bot("simple", seed=1).choose(view) == {"type": "knock", "discard": discard}


def test_no_knock_when_the_limit_in_force_forbids_it():
    # Oklahoma with a 3 upcard: the engine lists no knock for deadwood 4; the bot just discards.
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "9H", "9S", "KS", "4H"]
    view = make_view(hand, legal=discard_legal(hand), phase="discard", knock_limit=3)
    assert make_bot("simple", seed=1).choose(view) == {"type": "discard", "card": "KS"}


# Rule 4: lay-offs are chosen optimally (the engine's best lay-off).
def test_lays_off_with_the_best_layoff():
    legal = [
        {"type": "layoff", "melds": [], "layoffs": []},
        {"type": "layoff", "best": True},
    ]
    view = make_view(["AC"], legal=legal, phase="layoff")
    assert make_bot("simple", seed=1).choose(view) == {"type": "layoff", "best": True}


# Tournament wall rule: the 50th card is taken only when it lets the bot knock or gin.
FIFTIETH = [{"type": "draw", "source": "discard"}, {"type": "pass"}]


@pytest.mark.parametrize("name", ["novice", "simple", "knocker", "trapper", "expert"])
@pytest.mark.parametrize(("top", "takes"), [("9S", True), ("4H", False)])
def test_the_fiftieth_card_only_when_it_allows_a_knock(name, top, takes):
    # Deadwood 38 now; the 9S makes a set and leaves 10 after discarding KS; the 4H does not help.
    hand = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "9H", "KS", "QH"]
    view = make_view(hand, pile=["7C", top], legal=[dict(a) for a in FIFTIETH], phase="fiftieth_card")
    action = make_bot(name, seed=2).choose(view)
    assert action == (FIFTIETH[0] if takes else FIFTIETH[1])
