"""The service's refusals: every one is a :class:`ServiceError` with a stable, machine-readable ``code``
(as :class:`ginrummy.engine.errors.GinRummyError` has for the rules), a sentence for people, and extra
members that help a client recover (``legal_actions``, ``turn``, ``version``, ``seconds_left``…).

The use cases raise them and know nothing of HTTP: the HTTP adapter's registry of codes
(:mod:`ginrummy.http.codes`) gives each code its status, title and sentence. A new refusal is a new code
here, in the use case that raises it, and a line in that registry (docs/design.md, "Adding an error
code").
"""

from __future__ import annotations

from typing import Any

from ginrummy.engine.errors import GinRummyError


class ServiceError(Exception):
    """A refusal by the service, with its stable code and extra members for the error body.

    ``retry_after``: seconds after which the same request may succeed (the service is full, the store is
    down); None when trying again would not help."""

    def __init__(self, code: str, detail: str, *, retry_after: int | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.retry_after = retry_after
        self.extra = extra


class ActionRefused(ServiceError):
    """The engine refused a seat's action: the engine's code and message, with the caller's legal
    actions and whose turn it is (they help a client recover and reveal nothing new)."""

    def __init__(self, error: GinRummyError, legal_actions: list[dict[str, Any]], turn: int | None) -> None:
        super().__init__(error.code, str(error) or error.code, legal_actions=legal_actions, turn=turn)
        self.engine_error = error


def game_not_found(game_id: str, detail: str = "") -> ServiceError:
    return ServiceError("game_not_found", detail or f"there is no game {game_id!r} (it may have expired)")


def stale(current: int, detail: str) -> ServiceError:
    """The move was chosen from an older view; ``version`` says which one is current."""
    return ServiceError("stale_version", detail, version=current)


def unauthorized(
    detail: str = "this request needs the seat token: Authorization: Bearer <token>",
) -> ServiceError:
    return ServiceError("unauthorized", detail)
