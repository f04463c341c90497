"""Hints: the recommended action for a seat, with a short explanation and alternatives — the master's
(:func:`master_hint`: its search, tens to hundreds of milliseconds, for the service's bot workers) or the
expert's (:func:`hint`: a few milliseconds)."""

from __future__ import annotations

from typing import Any

from .analysis import Action, View, read_view
from .base import read_turn
from .expert import ExpertBot, Scored
from .master import Estimate, MasterBot

HINT_SEED = 2021
"""The hint's sampling seed: the same view always gets the same hint."""


def hint(view: View) -> dict[str, Any]:
    """``{"action", "explanation", "alternatives": [{"action", "value", "explanation"}, ...]}``.

    ``action`` is an element of ``view["legal_actions"]``; ``alternatives`` lists up to three of the
    considered actions (the recommended one first), ``value`` higher is better.
    """
    expert = ExpertBot(HINT_SEED)
    turn = read_turn(view)
    if len(turn.legal) == 1 or turn.kind in ("deal", "layoff", "fiftieth", "other"):
        action = expert.choose(view)
        ranked = [Scored(action, 0.0, _plain(action, turn.kind))]
    else:
        ranked = expert.rank(view, read_view(view), turn)
    best = ranked[0]
    knock = next((s for s in ranked if is_knock(s.action)), None)
    return {
        "action": best.action,
        "explanation": dont_knock(view, best.action, knock.undercut if knock else None) + best.explanation,
        "alternatives": [
            {"action": s.action, "value": round(s.value, 2), "explanation": s.explanation} for s in ranked[:3]
        ],
        "by": "expert",
    }


def master_hint(view: View) -> dict[str, Any]:
    """The master's hint: up to three moves with their ``value``, the mean hand points each gave over the
    same sampled deals (higher is better). The recommended move (first) is the master's own, unless
    another averages more than :attr:`~ginrummy.bots.master.MasterBot.margin` points better over the
    hint's deals (closer than that, two moves are equal within the sampling noise)."""
    master = MasterBot(HINT_SEED)
    action = master.choose(view)
    estimates = master.analyse(view, also=[action])
    chosen = next(e for e in estimates if e.action == action)
    if estimates[0].points > chosen.points + master.margin:
        chosen = estimates[0]
    ranked = [chosen, *(e for e in estimates if e is not chosen)]
    knock = next((e for e in estimates if is_knock(e.action)), None)
    explanation = dont_knock(view, chosen.action, knock.undercut if knock else None, knock)
    explanation += chosen.explanation or _plain(chosen.action, read_turn(view).kind)
    if chosen.deals:
        explanation += f" Over {chosen.deals} sampled deals this move averages {chosen.points:+.1f} points."
    return {
        "action": chosen.action,
        "explanation": explanation,
        "alternatives": [
            {"action": e.action, "value": round(e.points, 2), "explanation": e.explanation or ""}
            for e in ranked[:3]
        ],
        "by": "master",
    }


def dont_knock(
    view: View, advice: Action, undercut: float | None = None, knock: Estimate | None = None
) -> str:
    """``Don't knock: …`` and why, when the position offers a knock and ``advice`` is another move (a
    discard: the player who knocks anyway knocks against the advice); else "". Why: the knock's sampled
    ``undercut`` risk (0–1), and what the knock averaged over the same deals (``knock``: its estimate).

    >>> view = {"legal_actions": [{"type": "discard", "card": "6H"}, {"type": "knock", "discard": "6H"}]}
    >>> dont_knock(view, {"type": "discard", "card": "6H"}, 0.42)
    "Don't knock: the undercut risk is 42%. "
    >>> dont_knock(view, {"type": "knock", "discard": "6H"}, 0.42)
    ''
    """
    turn = read_turn(view)
    if turn.kind != "discard" or not turn.knocks or advice.get("type") == "knock":
        return ""
    if knock is not None and knock.deals:
        risk = "" if undercut is None else f" (undercut risk {undercut:.0%})"
        return (
            f"Don't knock: over the same {knock.deals} sampled deals a knock averages "
            f"{knock.points:+.1f} points{risk}. "
        )
    return "Don't knock. " if undercut is None else f"Don't knock: the undercut risk is {undercut:.0%}. "


def is_knock(action: Action) -> bool:
    """A knock with a discard (big gin, with none, is no knock to advise against)."""
    return action.get("type") == "knock" and action.get("discard") is not None


def _plain(action: dict[str, Any], kind: str) -> str:
    kind_of = action.get("type")
    if kind_of == "deal":
        return "Deal the next hand."
    if kind_of == "layoff":
        return "Lay down your melds and lay off what you can: this leaves you the least deadwood."
    if kind == "fiftieth":
        if kind_of == "pass":
            return "Pass: taking this card would not let you knock."
        return "Take the card: it lets you knock."
    if kind_of == "draw":
        return "Draw from the stock: it is your only move."
    return "Your only legal move."
