"""Every screen of a real game, drawn plain and in colour: nothing breaks, plain text fits 80 columns."""

from __future__ import annotations

import io
import re
from typing import Any

from gin_cli.cards import display_card
from gin_cli.results import render_game_over, render_result
from gin_cli.screen import Screen
from gin_cli.table import moves_line, player_names, render_table
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
        game = client.games.create(bot="knocker", seed=31, options={"target": 60, "games": 2})
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
            # The pile's top card on the Moves line is drawn as every card is (10♠ in colour).
            pile = view["discard_pile"]
            if any(a["type"] == "draw" and a.get("source") == "discard" for a in view["legal_actions"]):
                assert f"pile {display_card(pile[-1], glyphs=True)} (p)" in _text(coloured), coloured
                assert f"pile {pile[-1]} (p)" in plain
                phases.add("pile offered")
            # The knocker's melds, named while the defender lays off, are numbered from 1.
            if view["phase"] == "layoff" and view.get("knock") and not view.get("result"):
                assert "  meld 1: " in plain and "meld 0" not in plain, plain
                phases.add("melds numbered")
            if view["scores"]["match_over"]:
                assert "Match over" in plain and "grand total" in plain
                break
            view = dict(game.act(_pick(view))["view"])
    assert {"draw", "discard", "hand_over", "game_over", "match_over"} <= phases
    assert {"pile offered", "melds numbered"} <= phases, phases


def _text(coloured: str) -> str:
    """What a coloured screen reads: its text without the terminal's colour codes."""
    return re.sub(r"\x1b\[[0-9;]*m", "", coloured)
