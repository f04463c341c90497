"""Seat tokens, invitations, idempotency key scoping and the conditional-request headers.

A seat token is 192 random bits (``secrets``); the store keeps only its SHA-256. Tokens are compared
in constant time. Nothing here touches Redis or the engine.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from .errors import ApiError

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def new_secret() -> str:
    """A fresh token or invitation: 192 bits, URL-safe text."""
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    """The stored form of a secret: its SHA-256, base64url without padding (43 characters)."""
    raw = hashlib.sha256(secret.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def matches(secret: str, stored_digest: str | None) -> bool:
    return stored_digest is not None and hmac.compare_digest(digest(secret), stored_digest)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None when there is no header."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(
            401,
            "unauthorized",
            "the Authorization header must be 'Bearer <seat token>'",
            headers={"WWW-Authenticate": 'Bearer realm="ginrummy", error="invalid_request"'},
        )
    return token


def require_token(token: str | None) -> str:
    """The token extracted by :func:`bearer_token`; 401 when the request had none."""
    if token is None:
        raise ApiError(
            401,
            "unauthorized",
            "this request needs the seat token: Authorization: Bearer <token>",
            headers={"WWW-Authenticate": 'Bearer realm="ginrummy"'},
        )
    return token


IF_MATCH_PATTERN = r'^(?:\*|(?:W/)?"[0-9]{1,18}"|[0-9]{1,18})$'
"""What If-Match may be (the OpenAPI document's pattern): ``*``, an ETag ``"12"`` (weak or not) or ``12``."""
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def if_match_version(header: str | None) -> int | None:
    """The version named by ``If-Match: "<version>"``; None for ``*``. Raises 428 without the header."""
    if header is None or not header.strip():
        raise ApiError(
            428,
            "precondition_required",
            'actions need If-Match: "<version>" with the ETag of the view they were chosen from',
        )
    text = header.strip()
    if not _IF_MATCH.search(text):
        raise ApiError(400, "bad_if_match", f'If-Match must be a quoted version such as "12", not {header!r}')
    if text == "*":
        return None
    return int(text.removeprefix("W/").strip('"\n'))


def etag(version: int) -> str:
    return f'"{version}"'


def scoped_key(scope: str, idempotency_key: str) -> str:
    """The store key of an idempotency record: a hash of who sent it and the client's key, so that
    one seat's key never collides with (or reveals) another's."""
    return hashlib.sha256(f"{scope}\n{idempotency_key}".encode()).hexdigest()[:32]


def pad(idempotency_key: str, secret: str) -> str:
    """Encrypt/decrypt (XOR, its own inverse) a secret for an idempotency record with a key stream
    derived from the client's Idempotency-Key, so that the stored response of a create or join does not
    hold the token in clear: only the client that knows the key can read it back."""
    data = secret.encode()
    stream = b""
    counter = 0
    while len(stream) < len(data):
        stream += hashlib.sha256(f"gin-pad\n{counter}\n{idempotency_key}".encode()).digest()
        counter += 1
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(data, stream, strict=False))).decode()


def unpad(idempotency_key: str, sealed: str) -> str:
    data = base64.urlsafe_b64decode(sealed.encode())
    stream = b""
    counter = 0
    while len(stream) < len(data):
        stream += hashlib.sha256(f"gin-pad\n{counter}\n{idempotency_key}".encode()).digest()
        counter += 1
    return bytes(a ^ b for a, b in zip(data, stream, strict=False)).decode()


def game_id_for_key(idempotency_key: str) -> str:
    """The id of a game created with an Idempotency-Key: derived from it, so a retried create finds
    the game (and its record) that the first attempt made, in one atomic script."""
    raw = hashlib.sha256(f"gin-create\n{idempotency_key}".encode()).digest()[:15]
    return "g" + base64.urlsafe_b64encode(raw).decode()


def new_game_id() -> str:
    # A letter first: an id that starts with "-" reads as an option on a command line.
    return "g" + secrets.token_urlsafe(15)


def check_game_id(game_id: str) -> None:
    if not GAME_ID.match(game_id):
        raise ApiError(404, "game_not_found", f"there is no game {game_id!r}")
