"""Players: who a bearer token stands for (:mod:`.identity`), players' profiles and the leaderboard
(:mod:`.profiles`), ratings (:mod:`.ratings`), and the events of each player's account stream
(:mod:`.feed`). The lowest context: it imports no other."""

from .profiles import People

__all__ = ["People"]
