"""Every failure the SDK raises, under one base, :class:`GinClientError`.

An error answer of the service (``application/problem+json``, RFC 9457, with a stable ``code``) becomes
an :class:`ApiError` of the class named for its code; a code this SDK does not know yet falls back to the
class of its HTTP status, so ``except NotFound`` keeps working when the service adds a new 404. Network
failures that outlast the retries are :class:`ConnectionFailed`.

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
from typing import Any, ClassVar

from .models import Action, Problem, ReviewStatus


class GinClientError(Exception):
    """Base class of everything the SDK raises."""


class ConnectionFailed(GinClientError):
    """The service could not be reached, or the connection broke, and retrying did not help.

    ``reason`` says why in a few words (connection refused, timed out, the connection broke), for a
    message of the application's own."""

    def __init__(self, message: str, *, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason


class ReviewTimeout(GinClientError, TimeoutError):
    """A review was still being computed when :meth:`~ginrummy_client.Client.wait_for_review` stopped
    waiting for it. It goes on in the service: read it later (:meth:`~ginrummy_client.Client.review`).
    ``status`` is the last answer read (``pending``), ``waited`` the seconds waited."""

    def __init__(self, game_id: str, waited: float, status: ReviewStatus) -> None:
        super().__init__(
            f"the review of {game_id} was still being computed after {waited:.0f} s"
            " (it goes on in the service: read it again later)"
        )
        self.game_id = game_id
        self.waited = waited
        self.status = status


class ApiError(GinClientError):
    """The service answered with an error: its status, stable ``code`` and whole problem body.

    ``legal_actions`` (refused actions) and ``turn`` are there when the service sent them; ``retry_after``
    is the seconds to wait before trying again (429, 503), from the ``Retry-After`` header."""

    codes: ClassVar[tuple[str, ...]] = ()
    """The service's codes this class stands for (the first one is its usual code)."""

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


class BadRequest(ApiError):
    """400: the request could not be read (a body that is not JSON, a bad If-Match or Idempotency-Key)."""

    codes = ("bad_request", "bad_if_match", "bad_idempotency_key")


class Unauthorized(ApiError):
    """401: this call needs a seat token, and there was none (or not a ``Bearer`` one)."""

    codes: ClassVar[tuple[str, ...]] = ("unauthorized",)


class UnknownPlayer(Unauthorized):
    """401: the bearer token sent to create, join or seek a game is no player's token."""

    codes = ("unknown_player",)


class BadCredentials(Unauthorized):
    """401: the name or the password is wrong (the same answer for a name that does not exist)."""

    codes = ("bad_credentials",)


class SessionExpired(Unauthorized):
    """401: the session has expired (unused for its lifetime): sign in again."""

    codes = ("session_expired",)


class Forbidden(ApiError):
    """403: the token is no seat token of this game, or the invitation is wrong or already used."""

    codes: ClassVar[tuple[str, ...]] = ("forbidden", "bad_invitation")


class TokenScope(Forbidden):
    """403: this API token may only read (scope ``read``): acting needs ``play`` or ``bot``."""

    codes = ("token_scope",)


class SessionRequired(Forbidden):
    """403: managing sessions, API tokens and the password needs a session token (sign in)."""

    codes = ("session_required",)


class NotFound(ApiError):
    """404: no such game (or it expired), no such finished hand kept, no such path."""

    codes: ClassVar[tuple[str, ...]] = ("not_found", "game_not_found", "hand_not_found")


class PlayerNotFound(NotFound):
    """404: there is no player of that name."""

    codes = ("player_not_found",)


class SeekNotFound(NotFound):
    """404: there is no such seek (it was taken, withdrawn or has expired)."""

    codes = ("seek_not_found",)


class SessionNotFound(NotFound):
    """404: the account has no session of that id."""

    codes = ("session_not_found",)


class TokenNotFound(NotFound):
    """404: the account has no API token of that id (or it is revoked already)."""

    codes = ("token_not_found",)


class NotArchived(NotFound):
    """404: the game is not in the archive (still being played, unknown, or its record is on its way)."""

    codes = ("not_archived",)


class ReviewNotFound(NotFound):
    """404: no review of that finished match was asked for yet."""

    codes = ("review_not_found",)


class ChallengeNotFound(NotFound):
    """404: no such challenge — or not one of yours: a challenge is private to its two sides."""

    codes = ("challenge_not_found",)


class Conflict(ApiError):
    """409: the game's state refuses the request now."""

    codes = ("conflict",)


class IllegalAction(Conflict):
    """409: the rules do not allow this action now; ``legal_actions`` lists what is allowed."""

    codes = ("illegal_action",)


class NotYourTurn(IllegalAction):
    """409: it is the other seat's turn."""

    codes = ("not_your_turn",)


class GameOver(IllegalAction):
    """409: the match is over."""

    codes = ("game_over",)


class CannotUndo(IllegalAction):
    """409: this seat has no move of the live hand to take back."""

    codes = ("cannot_undo",)


class UndoNotAllowed(Conflict):
    """409: undo is allowed only in games against a bot."""

    codes = ("undo_not_allowed",)


class HintNotAllowed(Conflict):
    """409: hints are offered only in games against a bot."""

    codes = ("hint_not_allowed",)


class WaitingForOpponent(Conflict):
    """409: the invited player has not joined yet."""

    codes = ("waiting_for_opponent",)


class NothingToDo(Conflict):
    """409: this seat has no legal action now (a hint asked out of turn)."""

    codes = ("nothing_to_do",)


class JoinConflict(Conflict):
    """409: the game changed while joining; join again."""

    codes = ("join_conflict",)


class AccountExists(Conflict):
    """409: the name is taken (names ignore case), or a claimed player has a password already."""

    codes = ("account_exists",)


class NameTaken(Conflict):
    """409: another player has this name (names ignore case)."""

    codes = ("name_taken",)


class SeekTaken(Conflict):
    """409: the seek was taken by someone else, or withdrawn (or, cancelling it: it was just taken)."""

    codes = ("seek_taken",)


class SeekIncompatible(Conflict):
    """409: the seek is not open to this player (its own seek, or a rating outside its range)."""

    codes = ("seek_incompatible",)


class OwnGame(Conflict):
    """409: a player cannot take both seats of a game."""

    codes = ("own_game",)


class RatedGame(Conflict):
    """409: a rated game offers no hints and no undo."""

    codes = ("rated_game",)


class TooEarly(Conflict):
    """409: the victory cannot be claimed yet: the opponent still has time. ``seconds_left`` says how
    long until it may be claimed."""

    codes = ("too_early",)

    @property
    def seconds_left(self) -> float | None:
        left = self.problem.get("seconds_left")
        return float(left) if isinstance(left, int | float) else None


class NothingToClaim(Conflict):
    """409: there is no victory to claim: it is not the opponent's move (or the opponent is a bot)."""

    codes = ("nothing_to_claim",)


class NotOver(Conflict):
    """409: a rematch is offered once the match is over."""

    codes = ("not_over",)


class RematchExists(Conflict):
    """409: the rematch was already made; ``game_id`` is its game (the same seat token plays it)."""

    codes = ("rematch_exists",)

    @property
    def game_id(self) -> str | None:
        game_id = self.problem.get("game_id")
        return game_id if isinstance(game_id, str) else None


class RematchOffered(Conflict):
    """409: this seat already offered a rematch; the opponent may accept it."""

    codes = ("rematch_offered",)


class GameArchived(Conflict):
    """409: the match is over and archived: it no longer changes (a rematch is offered before that)."""

    codes = ("game_archived",)


class ChallengeClosed(Conflict):
    """409: the challenge is no longer open: ``challenge_status`` says what became of it (accepted,
    declined, canceled, expired)."""

    codes = ("challenge_closed",)

    @property
    def challenge_status(self) -> str | None:
        status = self.problem.get("challenge_status")
        return status if isinstance(status, str) else None


class AlreadyBot(Conflict):
    """409: this account is a bot account already."""

    codes = ("already_bot",)


class AccountHasGames(Conflict):
    """409: only an account that has not played a game may become a bot account."""

    codes = ("account_has_games",)


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
    def errors(self) -> dict[str, Any]:
        """Per location and field, as the service reports a body that does not match its schema."""
        errors = self.problem.get("errors")
        return errors if isinstance(errors, dict) else {}


class WeakPassword(ValidationError):
    """422: the password is too short (at least 10 characters)."""

    codes = ("weak_password",)


class BadCard(ValidationError):
    """422: a text or number that names no card, or a card given twice."""

    codes = ("bad_card",)


class DuplicateCard(BadCard):
    """422: the same card given twice in one list (``7S`` and ``7s`` are the same card)."""

    codes = ("duplicate_card",)


class BadAction(ValidationError):
    """422: a malformed action (unknown type, missing or unexpected members)."""

    codes = ("bad_action",)


class InvalidMeld(ValidationError):
    """422: an arrangement with a group that is no meld, overlaps, or uses cards not held."""

    codes = ("invalid_meld",)


class InvalidLayoff(ValidationError):
    """422: a lay-off onto a meld the card does not extend."""

    codes = ("invalid_layoff",)


class DeadwoodTooHigh(ValidationError):
    """422: a knock with more deadwood than the knock limit in force."""

    codes = ("deadwood_too_high",)


class BadRules(ValidationError):
    """422: an unknown preset or option, a bad value or a bad combination of options."""

    codes = ("bad_rules",)


class UnknownBot(ValidationError):
    """422: no bot of that name (``problem["bots"]`` lists them)."""

    codes = ("unknown_bot",)


class SeedNotAllowed(ValidationError):
    """422: the service deals from a secure random source and refuses a seed."""

    codes = ("seed_not_allowed",)


class IdempotencyKeyReused(ValidationError):
    """422: an Idempotency-Key already used for another request."""

    codes = ("idempotency_key_reused",)


class BadCursor(ValidationError):
    """422: an event cursor that is not an event id such as ``12-3``."""

    codes = ("bad_cursor",)


class BadFilter(ValidationError):
    """422: filters of a list that cannot go together or name nothing ('since' after 'until', …)."""

    codes = ("bad_filter",)


class NameReserved(ValidationError):
    """422: names starting with ``bot-`` are the house bots'."""

    codes = ("name_reserved",)


class PlayerRequired(ValidationError):
    """422: a rated game needs a player on each seat: send a player token (``Client(token=…)``)."""

    codes = ("player_required",)


class RatedNeedsPreset(ValidationError):
    """422: a rated game is played under a preset, without option overrides."""

    codes = ("rated_needs_preset",)


class ChallengeSelf(ValidationError):
    """422: one cannot challenge oneself."""

    codes = ("challenge_self",)


class PreconditionRequired(ApiError):
    """428: an action without ``If-Match`` (the SDK always sends it)."""

    codes = ("precondition_required",)


class RateLimited(ApiError):
    """429: over a rate limit, or the service overloaded for a moment (``overloaded``: more requests need
    PostgreSQL than it has connections); ``retry_after`` says when to come back."""

    codes: ClassVar[tuple[str, ...]] = ("rate_limited", "too_many_requests", "overloaded")


class TooManyGames(RateLimited):
    """429: this client has as many games in play as it may; finish some first (no use waiting)."""

    codes = ("too_many_games",)


class ServerError(ApiError):
    """500 (or another 5xx): a bug in the service; nothing was changed."""

    codes = ("internal_error",)


class ServiceUnavailable(ApiError):
    """503: the game store does not answer, or the service is full; ``retry_after`` says when to retry."""

    codes: ClassVar[tuple[str, ...]] = ("store_unavailable", "service_full", "unavailable")


class ArchiveUnavailable(ServiceUnavailable):
    """503: the archive of finished games (PostgreSQL) does not answer; games in play go on."""

    codes = ("archive_unavailable",)


class BotsUnavailable(ServiceUnavailable):
    """503: the bot asked for (the master) is played by the service's bot workers and none runs now;
    the other bots play; ``retry_after`` says when to try again."""

    codes = ("bots_unavailable",)


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
