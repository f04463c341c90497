"""Every screen of a real game, drawn plain and in colour: nothing breaks, plain text fits 80 columns."""

from __future__ import annotations

import io
from typing import Any

from gin_cli.screen import Screen, moves_line, player_names, render_game_over, render_result, render_table
from ginrummy_client import Client, is_play

PREFERENCE = ("deal", "layoff", "knock", "draw", "discard", "pass")


def _pick(view: dict[str, Any]) -> dict[str, Any]:
    legal = [a for a in view["legal_actions"] if is_play(a)]  # never resign or abort
    return min(legal, key=lambda a: (PREFERENCE.index(a["type"]), a.get("source") != "stock"))


def _draw(view: dict[str, Any], *, color: bool) -> str:
    out = io.StringIO()
    screen = Screen(color=color, out=out)
    names = player_names(view)
    if view.get("result"):
        render_result(screen, view, names)
        if view["phase"] in ("game_over", "match_over"):
            render_game_over(screen, view, names, all_games=True)
    else:
        render_table(screen, view, names)
    moves_line(screen, view)
    return out.getvalue()


def test_every_screen_of_a_game(live_service: str) -> None:
    phases: set[str] = set()
    with Client(live_service) as client:  # the SDK, as gin uses it
        game = client.create_game(bot="knocker", seed=31, options={"target": 60, "games": 2})
        view: dict[str, Any] = dict(game.refresh())
        for _ in range(2000):
            phases.add(view["phase"])
            plain = _draw(view, color=False)
            assert all(len(line) <= 80 for line in plain.splitlines()), plain
            assert "\x1b[" not in plain
            coloured = _draw(view, color=True)
            assert "\x1b[" in coloured
            if view["hand"]["cards"] and not view.get("result"):
                assert any(glyph in coloured for glyph in "♣♦♥♠")
            if view["scores"]["match_over"]:
                assert "Match over" in plain and "grand total" in plain
                break
            view = dict(game.act(_pick(view))["view"])
    assert {"draw", "discard", "hand_over", "game_over", "match_over"} <= phases
