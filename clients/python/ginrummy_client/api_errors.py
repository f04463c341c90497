"""The exception classes of the service's error answers that are written by hand: :class:`ApiError`, the
class of each HTTP status (an error of a code this SDK does not know becomes it), and the classes with
members of their own. Every other code's class is generated from the OpenAPI document (``_codes``);
``errors`` exports them all.
"""

from __future__ import annotations

from typing import ClassVar

from .models import Action, Problem, ValidationMessages

__all__ = [
    "ApiError",
    "BadRequest",
    "ChallengeClosed",
    "Conflict",
    "Forbidden",
    "GinClientError",
    "NotFound",
    "PayloadTooLarge",
    "PreconditionRequired",
    "RateLimited",
    "RematchExists",
    "ServerError",
    "ServiceUnavailable",
    "StaleVersion",
    "TooEarly",
    "Unauthorized",
    "ValidationError",
]


class GinClientError(Exception):
    """Base class of everything the SDK raises."""


class ApiError(GinClientError):
    """The service answered with an error: its status, stable ``code`` and whole problem body.

    ``legal_actions`` (refused actions) and ``turn`` are there when the service sent them; ``retry_after``
    is the seconds to wait before trying again (429, 503), from the ``Retry-After`` header."""

    codes: ClassVar[tuple[str, ...]] = ()
    """The service's code this class stands for."""

    def __init__(self, status: int, problem: Problem, *, retry_after: float | None = None) -> None:
        self.status = status
        self.problem = problem
        self.code: str = str(problem.get("code") or (self.codes[0] if self.codes else "http_error"))
        self.title: str = str(problem.get("title") or "")
        self.detail: str = str(problem.get("detail") or self.title or f"HTTP {status}")
        actions = problem.get("legal_actions")
        self.legal_actions: list[Action] | None = actions if isinstance(actions, list) else None
        turn = problem.get("turn")
        self.turn: int | None = turn if isinstance(turn, int) else None
        self.retry_after = retry_after
        super().__init__(f"{self.detail} ({self.code}, HTTP {status})")


# --- the class of each status ---------------------------------------------------------------------------


class BadRequest(ApiError):
    """400: the request could not be read (a body that is not JSON, a bad If-Match or Idempotency-Key)."""

    codes = ("bad_request",)


class Unauthorized(ApiError):
    """401: this call needs a token (a seat's, a session's or an API token), and there was none valid."""

    codes = ("unauthorized",)


class Forbidden(ApiError):
    """403: the token does not allow this (no seat token of this game, a wrong invitation, a scope)."""

    codes = ("forbidden",)


class NotFound(ApiError):
    """404: no such game, player, hand, seek, challenge… or no such path."""

    codes = ("not_found",)


class Conflict(ApiError):
    """409: the game's (or the account's, the challenge's) state refuses the request now."""

    codes = ("conflict",)


class StaleVersion(ApiError):
    """412: the action was chosen from an older view. ``version`` is the game's current one: re-read the
    view (:meth:`Game.refresh`) and choose again."""

    codes = ("stale_version",)

    def __init__(self, status: int, problem: Problem, *, retry_after: float | None = None) -> None:
        super().__init__(status, problem, retry_after=retry_after)
        version = problem.get("version")
        self.version: int | None = version if isinstance(version, int) else None


class PayloadTooLarge(ApiError):
    """413: the body is over the service's limit."""

    codes = ("payload_too_large",)


class ValidationError(ApiError):
    """422: the request's content is refused; ``errors`` has the per-field messages of schema errors."""

    codes = ("validation_error",)

    @property
    def errors(self) -> ValidationMessages:
        """Per location and field, as the service reports a body that does not match its schema."""
        errors = self.problem.get("errors")
        return errors if isinstance(errors, dict) else {}


class PreconditionRequired(ApiError):
    """428: an action without ``If-Match`` (the SDK always sends it)."""

    codes = ("precondition_required",)


class RateLimited(ApiError):
    """429: over a rate limit, or the service busy for a moment; ``retry_after`` says when to come back."""

    codes = ("rate_limited",)


class ServerError(ApiError):
    """500 (or another 5xx): a bug in the service; nothing was changed."""

    codes = ("internal_error",)


class ServiceUnavailable(ApiError):
    """503: the service cannot serve this now (a store does not answer, it is full); ``retry_after`` says
    when to try again."""

    codes = ("unavailable",)


# --- the classes with members of their own --------------------------------------------------------------


class TooEarly(Conflict):
    """409: the victory cannot be claimed yet: the opponent still has time. ``seconds_left`` says how
    long until it may be claimed."""

    codes = ("too_early",)

    @property
    def seconds_left(self) -> float | None:
        left = self.problem.get("seconds_left")
        return float(left) if isinstance(left, int | float) else None


class RematchExists(Conflict):
    """409: the rematch was already made; ``game_id`` is its game (the same seat token plays it)."""

    codes = ("rematch_exists",)

    @property
    def game_id(self) -> str | None:
        game_id = self.problem.get("game_id")
        return game_id if isinstance(game_id, str) else None


class ChallengeClosed(Conflict):
    """409: the challenge is no longer open: ``challenge_status`` says what became of it (accepted,
    declined, canceled, expired)."""

    codes = ("challenge_closed",)

    @property
    def challenge_status(self) -> str | None:
        status = self.problem.get("challenge_status")
        return status if isinstance(status, str) else None
