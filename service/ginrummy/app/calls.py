"""What a use case is given besides its arguments (:class:`Caller`) and what it gives back
(:class:`Result`). The HTTP adapter reads a request into a ``Caller`` and writes a ``Result`` out as a
response; the use cases know neither requests nor responses.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from . import security
from .errors import ServiceError


@dataclass(frozen=True)
class Precondition:
    """The game version a change was chosen from (the ``If-Match`` of HTTP): checked by the move
    pipeline after the caller's seat, so that a stranger learns nothing of the game's version."""

    given: bool = False
    version: int | None = None  # None: any version (``*``)
    malformed: str | None = None  # the text given, when it names no version

    def wanted(self) -> int | None:
        """The version the change needs (None: any); refused when none or a malformed one was given."""
        if not self.given:
            raise ServiceError(
                "precondition_required",
                'actions need If-Match: "<version>" with the ETag of the view they were chosen from',
            )
        if self.malformed is not None:
            raise ServiceError(
                "bad_if_match", f'If-Match must be a quoted version such as "12", not {self.malformed!r}'
            )
        return self.version


@dataclass(frozen=True)
class Caller:
    """Who asks, and the guarantees the request asks for."""

    token: str | None = None  # the bearer token: a seat's, a seek's, a player's, a session's, an API token's
    player: str | None = None  # the player's name, when the token is a player's (create, join)
    precondition: Precondition = field(default_factory=Precondition)
    idempotency_key: str | None = None
    fingerprint: str = ""  # a hash of the request: a reused Idempotency-Key with another one is refused
    client: str = ""  # the client's address: bounds the games in play it may have
    user_agent: str = ""  # the client's User-Agent (a session list shows it to tell devices apart)

    @property
    def key_owner(self) -> str:
        """Whose Idempotency-Key this is: the bearer token's (by a digest) or, without one, the client
        address's. A stored answer is found again only by the caller that sent the key, so another caller
        replaying the same key and body never gets that answer (and its secrets).

        >>> Caller(client="198.51.100.7").key_owner
        'a:198.51.100.7'
        >>> Caller(token="x").key_owner == Caller(token="x", client="elsewhere").key_owner
        True
        """
        if self.token:
            return "t:" + security.digest(self.token)  # the token's stored form, never the token
        return "a:" + self.client


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What makes two requests the same request (for an Idempotency-Key)."""
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + body).hexdigest()[:32]


@dataclass(frozen=True)
class Result:
    """What a use case answers: a JSON body, the game's version (when it is about one game), whether it
    made something new (a game, a player), is pending (a seek waiting in the lobby), or is the stored
    answer of a request already applied (``replayed``)."""

    body: dict[str, Any]
    version: int | None = None
    created: bool = False
    pending: bool = False
    replayed: bool = False
    retry_after: int | None = None  # seconds after which asking again is worth it (something pending)
