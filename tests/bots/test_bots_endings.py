"""A seat's view lists resign and abort beside the play; bots and hints never choose them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ginrummy.bots import BOTS, BotError, hint, make_bot
from ginrummy.engine.actions import ENDING_TYPES

from .games import play
from .views import DRAW, OFFER, discard_legal, make_view

NAMES = list(BOTS)
ENDINGS = [{"type": "resign"}, {"type": "abort"}]
HAND = ["AC", "2C", "3C", "5D", "5H", "5S", "9D", "8D", "KS", "QH", "2H"]
MADE_UP = [
    make_view(HAND[:10], pile=["7S"], legal=[dict(a) for a in OFFER], phase="upcard_nondealer"),
    make_view(HAND[:10], pile=["7S", "4C"], legal=[dict(a) for a in DRAW]),
    make_view(HAND, pile=["7S"], legal=discard_legal(HAND, knocks=["KS"]), phase="discard"),
]


def play_only(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "legal_actions": [a for a in view["legal_actions"] if a["type"] not in ENDING_TYPES]}


def with_endings(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The view with resign and abort put among its legal actions at random places."""
    legal = list(play_only(view)["legal_actions"])
    for ending in ENDINGS:
        legal.insert(rng.randrange(len(legal) + 1), dict(ending))
    return {**view, "legal_actions": legal}


@pytest.mark.parametrize(
    ("name", "preset"),
    # The master (a search: the costliest bot by far) under the standard rules only.
    [
        (n, p)
        for n in NAMES
        for p in ("standard", "tournament", "hollywood")
        if n != "master" or p == "standard"
    ],
)
def test_a_bot_plays_the_same_whether_or_not_the_view_offers_resign_and_abort(name, preset):
    rng = random.Random(f"{name} {preset}")
    views = 0

    def check(seat: int, view: dict[str, Any], action: dict[str, Any]) -> None:
        nonlocal views
        assert {"type": "resign", "kind": "match"} in view[
            "legal_actions"
        ]  # the engine's view offers it to every seat
        assert action["type"] not in ENDING_TYPES
        seed = rng.randrange(1 << 30)
        plain = make_bot(name, seed).choose(play_only(view))
        offered = make_bot(name, seed).choose(with_endings(view, rng))
        assert offered == plain and offered["type"] not in ENDING_TYPES
        views += 1

    play((name, "random"), 21, preset=preset, options={"target": 30}, on_view=check)
    assert views > 20


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("index", range(len(MADE_UP)))
def test_a_bot_never_resigns_or_aborts_wherever_they_are_listed(name, index):
    rng = random.Random(index)
    for seed in range(20):
        view = with_endings(MADE_UP[index], rng)
        action = make_bot(name, seed).choose(view)
        assert action["type"] not in ENDING_TYPES
        assert any(action is legal for legal in view["legal_actions"])


@pytest.mark.parametrize("index", range(len(MADE_UP)))
def test_a_hint_never_recommends_resign_or_abort(index):
    rng = random.Random(index)
    view = with_endings(MADE_UP[index], rng)
    result = hint(view)
    assert result == hint(play_only(view))
    assert all(alt["action"]["type"] not in ENDING_TYPES for alt in result["alternatives"])


@pytest.mark.parametrize("name", NAMES)
def test_a_view_offering_only_resign_and_abort_is_no_move_for_a_bot(name):
    view = make_view(HAND[:10], legal=[dict(a) for a in ENDINGS])
    with pytest.raises(BotError, match="no legal action"):
        make_bot(name, seed=1).choose(view)
    with pytest.raises(BotError):
        hint(view)
