"""Tournaments: arenas, Swiss and round robins for people and bot accounts (lila's ``tournament`` and
``swiss`` modules are the anchor). The use cases of players and organisers (:class:`Tournaments`) and the
director that runs them (:class:`Director`, ``ginrummy-director``); pairing and scoring are pure modules
(:mod:`.arena_pairing`, :mod:`.swiss_pairing`, :mod:`.berger`, :mod:`.scoring`)."""

from .directing import Director
from .organising import Tournaments

__all__ = ["Director", "Tournaments"]
