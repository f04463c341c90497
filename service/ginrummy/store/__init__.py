"""The only code that talks to Redis and PostgreSQL: the game, player and lobby stores, the Redis client
factory, the PostgreSQL pool and schema migrations, and the embedded servers of local runs.

A new Redis key belongs to the store of its concept (``games``, ``players``, ``lobby``, ``notify``), whose
docstring lists its keys and their Cluster hash tags; a new table or index, to a new numbered file of
``migrations/`` (:mod:`~ginrummy.store.schema`). The use cases (:mod:`ginrummy.app`) call the stores'
methods and never see a key or a query.
"""

from .connection import make_client, rate_limit_storage
from .database import (
    Database,
    DatabaseBusy,
    DatabaseRefusedValue,
    DatabaseUnavailable,
    DatabaseUnreachable,
    DatabaseUrlError,
)
from .embedded import EmbeddedRedis
from .embedded_postgres import EmbeddedPostgres
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
from .players import NameTaken, PlayerStore

__all__ = [
    "Database",
    "DatabaseBusy",
    "DatabaseRefusedValue",
    "DatabaseUnavailable",
    "DatabaseUnreachable",
    "DatabaseUrlError",
    "EmbeddedPostgres",
    "EmbeddedRedis",
    "GameExists",
    "GameMissing",
    "GameStore",
    "Idempotency",
    "IdempotencyKeyUsed",
    "Lobby",
    "NameTaken",
    "PlayerStore",
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
