"""Every failure the SDK raises, under one base, :class:`GinClientError`.

An error answer of the service (``application/problem+json``, RFC 9457, with a stable ``code``) becomes
an :class:`ApiError` of the class named for its code; a code this SDK does not know yet falls back to the
class of its HTTP status, so ``except NotFound`` keeps working when the service adds a new 404. Network
failures that outlast the retries are :class:`ConnectionFailed`.

The classes of the service's answers come from two modules: ``api_errors`` (written by hand: ApiError, the
class of each status, the classes with members of their own) and ``_codes`` (a class for every other code,
generated from the OpenAPI document by clients/generate.py). This module exports them all.

>>> error = error_from_problem(409, {"code": "not_your_turn", "detail": "it is seat 1's turn",
...                                  "legal_actions": [], "turn": 1})
>>> type(error).__name__, isinstance(error, IllegalAction), error.turn
('NotYourTurn', True, 1)
>>> str(error)
"it is seat 1's turn (not_your_turn, HTTP 409)"
>>> type(error_from_problem(404, {"code": "a_new_kind_of_404"})).__name__
'NotFound'
"""

from __future__ import annotations

from collections.abc import Iterable

# Every class of the service's answers is exported here, whether written by hand or generated.
from ._codes import *  # noqa: F403
from .api_errors import *  # noqa: F403
from .api_errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    GinClientError,
    NotFound,
    PayloadTooLarge,
    PreconditionRequired,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    StaleVersion,
    Unauthorized,
    ValidationError,
)
from .models import Problem, Review


class ConnectionFailed(GinClientError):
    """The service could not be reached, or the connection broke, and retrying did not help.

    ``reason`` says why in a few words (connection refused, timed out, the connection broke), for a
    message of the application's own."""

    def __init__(self, message: str, *, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason


class ReviewTimeout(GinClientError, TimeoutError):
    """A review was still being computed when ``client.reviews.wait()`` stopped waiting for it. It goes on
    in the service: read it later (``client.reviews.get()``). ``status`` is the last answer read
    (``pending``), ``waited`` the seconds waited."""

    def __init__(self, game_id: str, waited: float, status: Review) -> None:
        super().__init__(
            f"the review of {game_id} was still being computed after {waited:.0f} s"
            " (it goes on in the service: read it again later)"
        )
        self.game_id = game_id
        self.waited = waited
        self.status = status


def _leaves(cls: type[ApiError]) -> Iterable[type[ApiError]]:
    yield cls
    for sub in cls.__subclasses__():
        yield from _leaves(sub)


ERRORS_BY_CODE: dict[str, type[ApiError]] = {code: cls for cls in _leaves(ApiError) for code in cls.codes}
"""Every code the service documents, to its class."""

ERRORS_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    412: StaleVersion,
    413: PayloadTooLarge,
    422: ValidationError,
    428: PreconditionRequired,
    429: RateLimited,
    500: ServerError,
    503: ServiceUnavailable,
}
"""The class of an error whose code is unknown, by its HTTP status."""


def error_from_problem(status: int, problem: Problem, *, retry_after: float | None = None) -> ApiError:
    """The exception for an error answer: by its ``code``, else by its status (any other 5xx is a
    :class:`ServerError`), else a plain :class:`ApiError`."""
    cls = ERRORS_BY_CODE.get(str(problem.get("code") or ""))
    if cls is None:
        cls = ERRORS_BY_STATUS.get(status, ServerError if status >= 500 else ApiError)
    return cls(status, problem, retry_after=retry_after)
