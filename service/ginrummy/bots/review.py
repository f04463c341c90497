"""Judging a decision after the game, from what the seat knew then: the master's estimate of the points
the move played gave up against the best move it found, and a verdict by fixed thresholds — lichess's
computer analysis, in Gin Rummy's currency (hand points).

>>> verdict(1.5), verdict(2.0), verdict(6.0), verdict(12.0)
(None, 'inaccuracy', 'mistake', 'blunder')
>>> accuracy([0.0, 0.0]), accuracy([25.0]), accuracy([5.0, 0.0]), accuracy([])
(100.0, 0.0, 90.0, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .analysis import Action, View
from .base import read_turn
from .hints import dont_knock, is_knock
from .master import SEARCHED, Estimate, MasterBot

REVIEW_SEED = 2021
"""The sampling seed of every judgement: a position is always judged the same."""
REVIEW_SAMPLES = 48
"""Deals each candidate move is played out over (common to all the candidates of a decision)."""
CONFIRM_SAMPLES = 128
"""Deals over which a move is weighed again, before it is marked, with the best three of the first look
and the master's own choice: over 48 deals the noise of a difference reaches a few points (a good
discard was once called a mistake by 5 points that 800 deals put at under 1, and the best move can
come out fourth). Half the marks of the first look are gone after it."""
CONFIRMED = 3
"""How many of the best moves of the first look are weighed again with the move played."""

THRESHOLDS = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
"""Points given up (at least) for each verdict, worst first. Under 2 points two moves are equal within the
sampling noise of the confirming play-outs; 5 is about a knock's margin; 10 is a gin bonus lost or an
undercut."""
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
ACCURACY_SCALE = 25.0
"""A decision's accuracy falls linearly from 1 (nothing given up) to 0 at this loss (a gin's worth)."""


@dataclass(frozen=True)
class Judgement:
    """One decision judged: the move played, the best the master found, the points given up, the verdict,
    and the best estimates (the played move's among them)."""

    played: Action
    best: Action
    loss: float
    verdict: str | None
    estimates: list[Estimate]

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "best": self.best,
            "loss": round(self.loss, 2),
            "verdict": self.verdict,
            "estimates": [
                {
                    "action": e.action,
                    "points": round(e.points, 2),
                    "explanation": e.explanation,
                    **({} if e.undercut is None else {"undercut": round(e.undercut, 2)}),
                }
                for e in self.estimates
            ],
        }


def verdict(loss: float) -> str | None:
    """The verdict of a move that gave up ``loss`` points (None: a good move)."""
    return next((name for name, points in THRESHOLDS if loss >= points), None)


def accuracy(losses: Sequence[float]) -> float | None:
    """A seat's accuracy over its judged decisions, 0–100: the mean of ``1 - loss / 25`` (at least 0);
    None when it made none (nothing to judge: not a perfect score)."""
    if not losses:
        return None
    scores = [max(0.0, 1.0 - loss / ACCURACY_SCALE) for loss in losses]
    return round(100.0 * sum(scores) / len(scores), 1)


def judged(view: View) -> bool:
    """Whether the decision of this view is one a review judges: a choice of draw, discard or knock
    (not a deal, the lay-offs' best arrangement, a forced move)."""
    turn = read_turn(view)
    return len(turn.legal) > 1 and turn.kind in SEARCHED


def judge(view: View, played: Action, samples: int = REVIEW_SAMPLES) -> Judgement:
    """``played`` (one of the view's legal actions) judged against the moves the master weighs there."""
    master = MasterBot(REVIEW_SEED)

    def weigh(deals: int, only: list[Action] | None = None) -> tuple[list[Estimate], Estimate, Estimate]:
        estimates = master.analyse(view, also=[played], samples=deals, only=only)
        return estimates, estimates[0], next(e for e in estimates if e.action == played)

    estimates, best, mine = weigh(samples)
    first = estimates
    if verdict(best.points - mine.points) is not None:
        # A mark to give: the best moves, the master's own choice and the move played again over more
        # deals; the verdict from those.
        again = [e.action for e in estimates[:CONFIRMED]]
        chosen = master.choose(view)
        again += [chosen] if chosen not in again else []
        estimates, best, mine = weigh(CONFIRM_SAMPLES, [*again, played])
    loss = round(max(0.0, best.points - mine.points), 2)  # as shown: the verdict agrees with the figure
    shown = estimates[:3] if mine in estimates[:3] else [*estimates[:2], mine]
    # A knock on offer and the best move another: its words say so first ("Don't knock: …", and why).
    # The knock weighed: the one played, else the master's (its figures over the last deals if it has any).
    knocks = [e for e in [mine, *estimates, *first] if is_knock(e.action)]
    undercut = next(
        (e.undercut for e in knocks if e.action == knocks[0].action and e.undercut is not None), None
    )
    advice = dont_knock(view, best.action, undercut, knocks[0] if knocks else None)
    if advice:
        shown = [replace(e, explanation=advice + e.explanation) if e is best else e for e in shown]
    return Judgement(played, best.action, loss, verdict(loss), shown)
