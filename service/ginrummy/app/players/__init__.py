"""Players: who a bearer token stands for (:mod:`.identity`), players' profiles and the leaderboard
(:mod:`.profiles`), ratings (:mod:`.ratings`), the events of each player's account stream (:mod:`.feed`),
follows and blocks (:mod:`.relations`), reports and moderation (:mod:`.moderation`). The lowest context:
it imports no other."""

from .moderation import Moderation
from .profiles import People
from .relations import Relations

__all__ = ["Moderation", "People", "Relations"]
