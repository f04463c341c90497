"""The only code that talks to Redis: the game, player and lobby stores, the Redis client factory, and the
embedded redis-server of local runs.

A new Redis key belongs to the store of its concept (``games``, ``players``, ``lobby``, ``notify``), whose
docstring lists its keys and their Cluster hash tags; the use cases (:mod:`ginrummy.app`) call the
stores' methods and never see a key.
"""

from .connection import make_client, rate_limit_storage
from .embedded import EmbeddedRedis
from .games import (
    GameExists,
    GameMissing,
    GameStore,
    Idempotency,
    IdempotencyKeyUsed,
    StaleVersion,
    Stored,
    StoreError,
    StoreTimeout,
    StoreUnavailable,
    TooManyLiveGames,
)
from .lobby import Lobby, SeekIncompatible, SeekNotFound, SeekNotOpen, new_seek_id
from .players import NameTaken, PlayerStore, RatingContention

__all__ = [
    "EmbeddedRedis",
    "GameExists",
    "GameMissing",
    "GameStore",
    "Idempotency",
    "IdempotencyKeyUsed",
    "Lobby",
    "NameTaken",
    "PlayerStore",
    "RatingContention",
    "SeekIncompatible",
    "SeekNotFound",
    "SeekNotOpen",
    "StaleVersion",
    "StoreError",
    "StoreTimeout",
    "StoreUnavailable",
    "TooManyLiveGames",
    "Stored",
    "make_client",
    "new_seek_id",
    "rate_limit_storage",
]
