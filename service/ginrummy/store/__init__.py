"""The only code that talks to Redis: the game store and the Redis client factory."""

from .connection import EmbeddedRedis, make_client, rate_limit_storage
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

__all__ = [
    "EmbeddedRedis",
    "GameExists",
    "GameMissing",
    "GameStore",
    "Idempotency",
    "IdempotencyKeyUsed",
    "StaleVersion",
    "StoreError",
    "StoreTimeout",
    "StoreUnavailable",
    "TooManyLiveGames",
    "Stored",
    "make_client",
    "rate_limit_storage",
]
