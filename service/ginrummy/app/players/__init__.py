"""Players: who a bearer token stands for (:mod:`.identity`), players' profiles and the leaderboard
(:mod:`.profiles`), ratings (:mod:`.ratings`), the events of each player's account stream (:mod:`.feed`),
and follows and blocks (:mod:`.relations`). The lowest context: it imports no other."""

from .profiles import People
from .relations import Relations

__all__ = ["People", "Relations"]
