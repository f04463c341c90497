"""Hand-written seat views in the form of docs/design.md, for table tests of single decisions, and short
names for actions."""

from __future__ import annotations

from typing import Any


def make_view(
    hand: list[str],
    *,
    pile: list[str] | None = None,
    legal: list[dict[str, Any]] | None = None,
    phase: str = "draw",
    history: list[dict[str, Any]] | None = None,
    opp_known: list[str] | None = None,
    knock_limit: int = 10,
    stock_size: int = 20,
    seat: int = 0,
    points: tuple[int, int] = (0, 0),
    target: int = 100,
) -> dict[str, Any]:
    """A seat view with only what a player may see; ``legal`` defaults to the draw choice."""
    pile = pile if pile is not None else []
    if legal is None:
        legal = [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
    return {
        "seat": seat,
        "phase": phase,
        "turn": seat,
        "dealer": 1 - seat,
        "hand_number": 1,
        "rules": {"knock_limit": 10, "target": target, "undercut_bonus": 25, "undercut_on_tie": True},
        "knock_limit": knock_limit,
        "spades_double": False,
        "hand": {"cards": list(hand)},
        "opponent": {
            "seat": 1 - seat,
            "card_count": 10,
            "known_cards": list(opp_known or []),
        },
        "discard_pile": pile,
        "stock_size": stock_size,
        "knock": None,
        "result": None,
        "legal_actions": legal,
        "history": list(history or []),
        "scores": {
            "games": [{"number": 1, "points": list(points), "over": False}],
            "games_won": [0, 0],
            "match_over": False,
            "match_winner": None,
        },
    }


def discard_legal(
    hand: list[str], *, knocks: list[str] = (), exclude: str | None = None
) -> list[dict[str, Any]]:
    """Discard actions for every card but ``exclude``, plus knocks with the given discards."""
    legal: list[dict[str, Any]] = [{"type": "discard", "card": c} for c in hand if c != exclude]
    legal += [{"type": "knock", "discard": c} for c in knocks]
    return legal


OFFER = [{"type": "draw", "source": "discard"}, {"type": "pass"}]
DRAW = [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]


def token(action: dict[str, Any]) -> str:
    """A short name for an action: ``take``, ``stock``, ``pass``, ``d:KS`` (discard), ``k:KS`` (knock)."""
    kind = action["type"]
    if kind == "draw":
        return "take" if action["source"] == "discard" else "stock"
    if kind == "discard":
        return f"d:{action['card']}"
    if kind == "knock":
        return f"k:{action['discard']}" if action.get("discard") else "big-gin"
    return str(kind)
