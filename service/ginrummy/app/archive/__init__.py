"""The archive: finished hands and matches on their way into PostgreSQL and back — the outboxes drained
exactly once (:mod:`.writing`), a match's export, a player's finished matches and rating history
(:mod:`.reading`), reviews of finished matches (:mod:`.reviews`). It keeps records, not matches in play:
it imports :mod:`ginrummy.app.players` only (what a match records is
:mod:`ginrummy.app.playing.recording`'s)."""

from .reading import Records
from .reviews import Reviews
from .writing import Archiving, Drainer

__all__ = ["Archiving", "Drainer", "Records", "Reviews"]
