"""The master: legal moves only, a function of its view and seed alone, and obvious moves found.

Small play-out budgets keep these fast; the strength is measured by bench/tournament.py, not here.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from ginrummy.bots import BOTS, list_bots, make_bot
from ginrummy.bots.master import MasterBot, decision_seed
from ginrummy.engine.cards import parse_card
from ginrummy.engine.game import Game
from ginrummy.engine.rules import Rules
from ginrummy.engine.views import seat_view

from .views import DRAW, discard_legal, make_view


class QuickMaster(MasterBot):
    """The master on a small budget (the same search, fewer play-outs)."""

    first_samples = 4
    second_samples = 8
    knock_samples = 32


def positions(seed: int, preset: str = "standard", opponent: str = "simple") -> Iterator[tuple[Game, int]]:
    """Every position of one match where the master (seat 0) is to act; the match goes on after each."""
    rng = random.Random(seed)
    game = Game.new(Rules.from_options(preset), rng)
    other = make_bot(opponent, seed=seed)
    for _ in range(5000):
        if game.match_over:
            return
        seat = game.to_act
        if seat is None:
            game.apply(0, {"type": "deal"}, rng=rng)
        elif seat == 0:
            yield game, seat
        else:
            game.apply(seat, other.choose(seat_view(game, seat)))
    raise AssertionError("the match did not finish")


# ---------------------------------------------------------------------------------------- registry


def test_master_is_the_strongest_level_and_the_only_one_that_searches():
    assert BOTS["master"] is MasterBot and isinstance(make_bot("master", seed=1), MasterBot)
    listed = list_bots()
    assert listed[-1]["name"] == "master" and listed[-1]["level"] == max(b["level"] for b in listed)
    assert [name for name, cls in BOTS.items() if cls.searches] == ["master"]


# ---------------------------------------------------------------------------------------- legality


@pytest.mark.parametrize(
    ("preset", "opponent", "seed"),
    [
        ("standard", "expert", 1),
        ("standard", "random", 2),
        ("oklahoma", "simple", 3),
        ("tournament", "simple", 4),
    ],
)
def test_plays_only_legal_actions_through_whole_matches(preset, opponent, seed):
    master = QuickMaster(seed)
    decisions = 0
    for game, seat in positions(seed, preset, opponent):
        view = seat_view(game, seat)
        action = master.choose(view)
        assert any(action is legal for legal in view["legal_actions"]), action
        game.apply(seat, action)
        decisions += 1
        if decisions >= 120:  # a few hands are enough (a game to 250 is long)
            break
    assert decisions > 20


# ---------------------------------------------------------------------------------------- determinism


def sample_views(seed: int, count: int) -> list[dict[str, Any]]:
    """Views of the master's searched decisions (draws with a pile card, discards) in one match."""
    views = []
    for game, seat in positions(seed):
        view = seat_view(game, seat)
        if len(view["legal_actions"]) > 3:
            views.append(view)
            if len(views) == count:
                break
        game.apply(seat, QuickMaster(seed).choose(view))
    return views


def test_same_view_and_seed_same_action_whatever_was_asked_before():
    views = sample_views(5, 8)
    first = [QuickMaster(7).choose(v) for v in views]
    bot = QuickMaster(7)
    for v in reversed(views):  # one bot, asked in another order, after other decisions
        bot.choose(v)
    assert [bot.choose(v) for v in views] == first
    assert [QuickMaster(7).choose(json.loads(json.dumps(v))) for v in views] == first


def test_the_seed_of_a_decision_depends_on_the_bot_seed_and_the_view():
    view = sample_views(6, 1)[0]
    assert decision_seed(1, view) == decision_seed(1, copy.deepcopy(view))
    assert decision_seed(1, view) != decision_seed(2, view)


def twin_with_other_hidden_cards(game: Game, seat: int) -> Game | None:
    """A copy of the game in which an opponent's hidden card and a stock card trade places."""
    twin = copy.deepcopy(game)
    hand = twin.hand
    assert hand is not None
    opponent = 1 - seat
    hidden = hand.hands[opponent] & ~hand.known[opponent]
    stock = hand.deck[hand.stock_pos :]
    if not hidden or len(stock) < 2:
        return None
    card = (hidden & -hidden).bit_length() - 1
    other = stock[len(stock) // 2]
    deck = list(hand.deck)
    i, j = deck.index(card), deck.index(other)
    deck[i], deck[j] = other, card
    hand.deck = tuple(deck)
    hand.hands[opponent] = hand.hands[opponent] & ~(1 << card) | 1 << other
    hand._legal = None
    return twin


def test_decides_from_the_view_alone_not_the_hidden_cards():
    """Two games that differ in the opponent's hidden cards and the stock, seen alike, get one answer."""
    compared = 0
    for game, seat in positions(8):
        view = seat_view(game, seat)
        twin = twin_with_other_hidden_cards(game, seat) if game.hand and not game.hand.over else None
        if twin is not None and len(view["legal_actions"]) > 3:
            twin_view = seat_view(twin, seat)
            assert twin_view == view
            assert twin.hand is not None and game.hand is not None
            assert twin.hand.hands[1 - seat] != game.hand.hands[1 - seat]
            assert QuickMaster(3).choose(twin_view) == QuickMaster(3).choose(view)
            compared += 1
        game.apply(seat, QuickMaster(3).choose(view))
        if compared >= 15:
            break
    assert compared >= 10


# ---------------------------------------------------------------------------------------- positions


def test_goes_gin_when_it_can():
    hand = ["2C", "3C", "4C", "5C", "7D", "7H", "7S", "JH", "QH", "KH", "9S"]
    view = make_view(hand, legal=discard_legal(hand, knocks=["9S"]), phase="discard")
    assert QuickMaster(1).choose(view) == {"type": "knock", "discard": "9S"}


def test_takes_the_discard_that_makes_gin():
    hand = ["2C", "3C", "4C", "5C", "7D", "7H", "7S", "JH", "QH", "9S"]
    view = make_view(hand, pile=["4D", "KH"], legal=[dict(a) for a in DRAW], stock_size=25)
    assert QuickMaster(1).choose(view) == {"type": "draw", "source": "discard"}


def test_does_not_break_a_made_meld():
    hand = ["5H", "6H", "7H", "9C", "9D", "9S", "KS", "QD", "2C", "4S", "JC"]
    melded = {"5H", "6H", "7H", "9C", "9D", "9S"}
    view = make_view(hand, pile=["3D"], legal=discard_legal(hand), phase="discard", stock_size=25)
    for seed in range(3):
        action = QuickMaster(seed).choose(view)
        assert action["type"] == "discard" and action["card"] not in melded, action


def test_waits_instead_of_knocking_into_a_likely_undercut():
    # It could knock with 9 early in the hand, but the opponent took three aces and two deuces from
    # the pile: their deadwood is surely lower. Knocking now would be undercut.
    hand = ["5H", "6H", "7H", "9C", "9D", "9S", "JS", "QS", "KS", "4D", "5C"]
    opp = ["AS", "AD", "AC", "2D", "2H"]
    history = [{"seat": 1, "type": "draw", "source": "discard", "card": c} for c in opp]
    view = make_view(
        hand,
        pile=["TC", "8D"],
        legal=discard_legal(hand, knocks=["5C"]),
        phase="discard",
        history=history,
        opp_known=opp,
        stock_size=22,
    )
    for seed in range(3):
        assert QuickMaster(seed).choose(view)["type"] == "discard"


def test_knocks_low_late_in_the_hand():
    hand = ["5H", "6H", "7H", "9C", "9D", "9S", "JS", "QS", "KS", "AD", "KC"]
    view = make_view(
        hand, pile=["TC", "8D"], legal=discard_legal(hand, knocks=["KC"]), phase="discard", stock_size=4
    )
    for seed in range(3):
        assert QuickMaster(seed).choose(view) == {"type": "knock", "discard": "KC"}


def test_never_discards_the_card_it_just_took():
    hand = ["5H", "6H", "7H", "9C", "9D", "9S", "KS", "QD", "2C", "4S", "JC"]
    history = [{"seat": 0, "type": "draw", "source": "discard", "card": "QD"}]
    view = make_view(hand, legal=discard_legal(hand, exclude="QD"), phase="discard", history=history)
    action = QuickMaster(2).choose(view)
    assert action["type"] == "discard" and parse_card(action["card"]) != parse_card("QD")
