"""The bot interface: a bot reads one seat view and returns one of its legal actions.

A bot plays: it never resigns or aborts. It reads the view's legal actions through
:func:`play_actions`, which leaves those two out (the view lists them for a human's sake).

A bot never receives the game object, only the view the engine produces for its seat, so it can
see exactly what a human in that seat sees. Each bot owns a ``random.Random(seed)`` and uses no
global random state, so a bot is deterministic given its seed and the views it is shown.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from ginrummy.engine.actions import KINDS, PLAY
from ginrummy.engine.cards import parse_card
from ginrummy.engine.melds import knock_min

from .analysis import Action, Knowledge, View, read_view


class BotError(RuntimeError):
    """A view a bot cannot act on (no legal action for its seat)."""

    code = "no_legal_action"


@dataclass
class Turn:
    """The legal actions of a view, sorted by what kind of decision they are."""

    kind: str  # "deal", "layoff", "offer", "fiftieth", "draw", "discard", "other"
    legal: list[Action]
    take: Action | None = None  # draw from the discard pile
    stock: Action | None = None  # draw from the stock
    pass_: Action | None = None
    discards: dict[int, Action] | None = None  # card -> discard action
    knocks: dict[int, Action] | None = None  # discarded card -> knock action
    big_gin: Action | None = None
    layoff_best: Action | None = None


def play_actions(view: View) -> list[Action]:
    """The view's legal actions less the ones that end the match early (resign, abort), as they are."""
    return [a for a in view.get("legal_actions") or [] if KINDS.get(a.get("type")) == PLAY]


def read_turn(view: View) -> Turn:
    """Classifies the view's legal actions (the play only: see :func:`play_actions`)."""
    legal = play_actions(view)
    if not legal:
        raise BotError("the view lists no legal action for this seat to play (bots never resign or abort)")
    turn = Turn(kind="other", legal=legal)
    discards: dict[int, Action] = {}
    knocks: dict[int, Action] = {}
    for action in legal:
        kind = action.get("type")
        if kind == "deal":
            turn.kind = "deal"
        elif kind == "draw":
            if action.get("source") == "discard":
                turn.take = action
            else:
                turn.stock = action
        elif kind == "pass":
            turn.pass_ = action
        elif kind == "discard":
            discards[parse_card(action["card"])] = action
        elif kind == "knock":
            if action.get("discard") is None:
                turn.big_gin = action
            elif "melds" not in action:
                knocks.setdefault(parse_card(action["discard"]), action)
        elif kind == "layoff" and (action.get("best") is True or turn.layoff_best is None):
            turn.layoff_best = action
    if turn.kind == "deal":
        return turn
    if turn.layoff_best is not None:
        turn.kind = "layoff"
    elif discards or knocks or turn.big_gin:
        turn.kind = "discard"
        turn.discards, turn.knocks = discards, knocks
    elif turn.pass_ is not None:
        turn.kind = "fiftieth" if view.get("phase") == "fiftieth_card" else "offer"
    elif turn.take is not None or turn.stock is not None:
        turn.kind = "draw"
    return turn


class Bot:
    """Base class: dispatches on the kind of decision; subclasses implement the choices."""

    name: ClassVar[str] = "bot"
    level: ClassVar[int] = 0
    description: ClassVar[str] = ""
    # A decision costs more than a few milliseconds of CPU (a search): the service plays this bot's turns
    # in its bot workers (``ginrummy-bots``), never inside a web request.
    searches: ClassVar[bool] = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def choose(self, view: View) -> Action:
        """One element of ``view["legal_actions"]``, returned as is."""
        turn = read_turn(view)
        if len(turn.legal) == 1:
            return turn.legal[0]
        if turn.kind == "deal":
            return next(a for a in turn.legal if a.get("type") == "deal")
        if turn.kind == "layoff":
            assert turn.layoff_best is not None
            return turn.layoff_best
        know = read_view(view)
        if turn.kind in ("offer", "draw"):
            return self.choose_draw(view, know, turn)
        if turn.kind == "fiftieth":
            return self.choose_fiftieth(view, know, turn)
        if turn.kind == "discard":
            return self.choose_discard(view, know, turn)
        return self.rng.choice(turn.legal)

    # Subclasses override these three.
    def choose_draw(self, view: View, know: Knowledge, turn: Turn) -> Action:
        """Upcard offer or normal draw: take the top discard, pass or draw from the stock."""
        return self.rng.choice(turn.legal)

    def choose_discard(self, view: View, know: Knowledge, turn: Turn) -> Action:
        """After drawing: discard, knock or big gin."""
        return self.rng.choice(turn.legal)

    def choose_fiftieth(self, view: View, know: Knowledge, turn: Turn) -> Action:
        """Tournament wall rule: take the 50th card only when it lets this seat knock or gin."""
        top = know.top
        if top is not None and turn.take is not None:
            after = knock_min(know.hand | (1 << top), forbidden=top)
            limit = know.knock_limit
            if after <= limit:
                return turn.take
        assert turn.pass_ is not None
        return turn.pass_


def draw_action(turn: Turn, take: bool) -> Action:
    """The action taking the top discard (``take``), else passing or drawing from the stock."""
    if take and turn.take is not None:
        return turn.take
    if turn.pass_ is not None:
        return turn.pass_
    if turn.stock is not None:
        return turn.stock
    assert turn.take is not None
    return turn.take


def scores_of(view: View) -> tuple[int, int, int]:
    """(own points, opponent's points, target) in the game being played (Hollywood: the first open one)."""
    seat = view.get("seat") or 0
    rules: dict[str, Any] = view.get("rules") or {}
    target = int(rules.get("target", 100))
    games = (view.get("scores") or {}).get("games") or []
    current = next((g for g in games if not g.get("over")), games[-1] if games else None)
    if not current:
        return 0, 0, target
    points = current.get("points") or [0, 0]
    return int(points[seat]), int(points[1 - seat]), target
