"""Plays bots against each other on the real engine (shared by the bot tests)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from ginrummy.bots import Bot, make_bot
from ginrummy.engine.game import Game
from ginrummy.engine.rules import Rules
from ginrummy.engine.views import seat_view


def play(
    names: tuple[str, str],
    seed: int,
    *,
    preset: str = "standard",
    options: dict[str, Any] | None = None,
    on_view: Callable[[int, dict[str, Any], dict[str, Any]], None] | None = None,
    max_steps: int = 20_000,
    json_views: bool = False,
) -> tuple[Game, list[tuple[int, dict[str, Any]]]]:
    """One match between two bots; checks every returned action is one of the view's legal actions."""
    rng = random.Random(seed)
    game = Game.new(Rules.from_options(preset, **(options or {})), rng)
    bots: dict[int, Bot] = {seat: make_bot(names[seat], seed=seed * 10 + seat) for seat in (0, 1)}
    moves: list[tuple[int, dict[str, Any]]] = []
    for _ in range(max_steps):
        if game.match_over:
            return game, moves
        seat = game.to_act
        if seat is None:
            game.apply(0, {"type": "deal"}, rng=rng)
            continue
        view = seat_view(game, seat)
        if json_views:
            view = json.loads(json.dumps(view))
        action = bots[seat].choose(view)
        assert any(action is legal for legal in view["legal_actions"]), (names[seat], action)
        if on_view is not None:
            on_view(seat, view, action)
        moves.append((seat, action))
        game.apply(seat, action)
    raise AssertionError(f"match {names} did not finish in {max_steps} steps")
