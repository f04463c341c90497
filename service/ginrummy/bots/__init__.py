"""Computer opponents and hints.

A bot sees only its seat's view (the dict of :func:`ginrummy.engine.views.seat_view`) and answers
with one element of ``view["legal_actions"]``. Every bot owns a seeded ``random.Random``: given the
seed and the views, its moves are reproducible.

>>> [b["name"] for b in list_bots()]
['random', 'novice', 'simple', 'knocker', 'trapper', 'expert', 'master']
>>> make_bot("simple", seed=1)
SimpleBot(seed=1)
"""

from __future__ import annotations

from typing import Any

from .base import Bot, BotError, play_actions
from .expert import ExpertBot, TrapperBot
from .hints import hint, master_hint
from .master import MasterBot
from .simple import SimpleBot
from .styles import KnockerBot, NoviceBot, RandomBot

BOTS: dict[str, type[Bot]] = {
    cls.name: cls for cls in (RandomBot, NoviceBot, SimpleBot, KnockerBot, TrapperBot, ExpertBot, MasterBot)
}
"""Every bot by name, weakest first. A bot whose ``searches`` is true (the master) costs tens of
milliseconds a decision: the service plays it in its bot workers, off the web requests."""


class UnknownBotError(KeyError):
    """A bot name that is not one of :func:`list_bots`."""

    code = "unknown_bot"

    def __init__(self, name: object) -> None:
        self.name = name
        self.message = f"unknown bot {name!r}; choose one of: {', '.join(BOTS)}"
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


def list_bots() -> list[dict[str, Any]]:
    """Every bot with its name, level (0 random … 6 master) and a one-line description of its style."""
    return [{"name": cls.name, "level": cls.level, "description": cls.description} for cls in BOTS.values()]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot of that name with its own ``random.Random(seed)``.

    >>> make_bot("master", seed=1)
    MasterBot(seed=1)
    """
    cls = BOTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise UnknownBotError(name)
    return cls(seed)


__all__ = [
    "BOTS",
    "Bot",
    "BotError",
    "UnknownBotError",
    "hint",
    "list_bots",
    "make_bot",
    "master_hint",
    "play_actions",
]
