"""``ginrummy_client``: the Python SDK of the Gin Rummy service's HTTP API.

::

    from ginrummy_client import Client

    with Client("http://127.0.0.1:8000") as client:
        game = client.create_game(bot="simple")
        while game.legal_actions:                   # none once the match is over
            game.act(game.legal_actions[0])

It depends on ``requests`` only and imports nothing of the service. Modules: ``client`` (the
:class:`Client`, through whose ``_request`` every call passes), ``game`` (a :class:`Game` as one seat sees
it: view, moves, If-Match), ``events`` (the resuming :class:`EventFeed`), ``errors`` (an exception class
per error code), ``models`` (the JSON bodies as TypedDicts), ``transport`` (helpers of the requests).
"""

from ._version import __version__
from .client import Client, parse_invitation
from .errors import (
    ApiError,
    BadAction,
    BadCard,
    BadCursor,
    BadRequest,
    BadRules,
    CannotUndo,
    Conflict,
    ConnectionFailed,
    DeadwoodTooHigh,
    DuplicateCard,
    Forbidden,
    GameOver,
    GinClientError,
    IdempotencyKeyReused,
    IllegalAction,
    InvalidLayoff,
    InvalidMeld,
    JoinConflict,
    NotFound,
    NothingToDo,
    NotYourTurn,
    PayloadTooLarge,
    PreconditionRequired,
    RateLimited,
    SeedNotAllowed,
    ServerError,
    ServiceUnavailable,
    StaleVersion,
    TooManyGames,
    Unauthorized,
    UndoNotAllowed,
    UnknownBot,
    ValidationError,
    WaitingForOpponent,
)
from .events import EventFeed
from .game import Game
from .models import (
    Action,
    Analysis,
    BotsInfo,
    Created,
    Event,
    EventsPage,
    HandRecord,
    Hint,
    MoveResult,
    Problem,
    RulesInfo,
    View,
)

__all__ = [
    "Action",
    "Analysis",
    "ApiError",
    "BadAction",
    "BadCard",
    "BadCursor",
    "BadRequest",
    "BadRules",
    "BotsInfo",
    "CannotUndo",
    "Client",
    "Conflict",
    "ConnectionFailed",
    "Created",
    "DeadwoodTooHigh",
    "DuplicateCard",
    "Event",
    "EventFeed",
    "EventsPage",
    "Forbidden",
    "Game",
    "GameOver",
    "GinClientError",
    "HandRecord",
    "Hint",
    "IdempotencyKeyReused",
    "IllegalAction",
    "InvalidLayoff",
    "InvalidMeld",
    "JoinConflict",
    "MoveResult",
    "NotFound",
    "NotYourTurn",
    "NothingToDo",
    "PayloadTooLarge",
    "PreconditionRequired",
    "Problem",
    "RateLimited",
    "RulesInfo",
    "SeedNotAllowed",
    "ServerError",
    "ServiceUnavailable",
    "StaleVersion",
    "TooManyGames",
    "Unauthorized",
    "UndoNotAllowed",
    "UnknownBot",
    "ValidationError",
    "View",
    "WaitingForOpponent",
    "__version__",
    "parse_invitation",
]
