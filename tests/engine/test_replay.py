"""A recorded match's decisions rebuilt (ginrummy.engine.replay): the same seats, views and moves as in
play, for every preset's scoring (Oklahoma's knock limits, Hollywood's three games, the tournament's
fiftieth card)."""

from __future__ import annotations

from typing import Any

import pytest
from ginrummy.engine import Game, GinRummyError, Rules
from ginrummy.engine.replay import positions

from tests.support import bot_match


def played(
    preset: str, seed: int
) -> tuple[Game, list[tuple[int, dict[str, Any], dict[str, Any]]], list[Any]]:
    """A whole match of two bots: the game, every (seat, view, move) of its finished hands, the records."""
    decisions: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    game, records = bot_match(
        ("simple", "novice"), Rules.from_options(preset), seed, seen=lambda *d: decisions.append(d)
    )
    return game, decisions, records


@pytest.mark.parametrize(
    ("preset", "seed"), [("standard", 1), ("oklahoma", 2), ("hollywood", 3), ("tournament", 4)]
)
def test_every_decision_is_rebuilt_with_the_view_the_seat_had(preset: str, seed: int) -> None:
    game, decisions, records = played(preset, seed)
    rebuilt = list(positions(game.rules, records))
    assert [(p.seat, p.view) for p in rebuilt] == [(seat, view) for seat, view, _ in decisions]
    for p, (_, _, action) in zip(rebuilt, decisions, strict=True):
        assert p.action in p.view["legal_actions"]
        # A record keeps the lay-offs as they were resolved ("best" → the melds and lay-offs made).
        assert p.action == action or p.action["type"] == action["type"] == "layoff"
    assert [p.hand for p in rebuilt][-1] == len(records) == game.hand_number
    # Each view is the seat's own: never the other hand's cards.
    for p in rebuilt:
        assert "cards" not in (p.view.get("opponent") or {})


def test_a_record_that_does_not_follow_is_refused() -> None:
    game, _, records = played("standard", 5)
    assert len(records) >= 2
    with pytest.raises(ValueError, match="dealt by seat"):
        list(positions(game.rules, [records[0], {**records[1], "dealer": 1 - records[1]["dealer"]}]))
    bad = {
        **records[0],
        "actions": [{**records[0]["actions"][0], "seat": 1 - records[0]["actions"][0]["seat"]}],
    }
    with pytest.raises(GinRummyError):
        list(positions(game.rules, [bad]))
