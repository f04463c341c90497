"""Seat tokens, invitations, game ids and idempotency key scoping.

A seat token is 192 random bits (``secrets``); the store keeps only its SHA-256. Tokens are compared
in constant time. Nothing here touches Redis or the engine; reading the ``Authorization`` and ``If-Match``
headers is the HTTP adapter's (:mod:`ginrummy.http.requests`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

from .errors import game_not_found, unauthorized

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def new_secret() -> str:
    """A fresh token or invitation: 192 bits, URL-safe text that never starts with ``-`` — one in 64
    did, and a command line took it for an option (``gin-bot run … --player-token -Xy…``: "expected one
    argument")."""
    while True:
        secret = secrets.token_urlsafe(24)
        if not secret.startswith("-"):
            return secret


def digest(secret: str) -> str:
    """The stored form of a secret: its SHA-256, base64url without padding (43 characters)."""
    raw = hashlib.sha256(secret.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def matches(secret: str, stored_digest: str | None) -> bool:
    return stored_digest is not None and hmac.compare_digest(digest(secret), stored_digest)


def require_token(token: str | None) -> str:
    """The caller's bearer token; refused (``unauthorized``) when the request had none."""
    if token is None:
        raise unauthorized()
    return token


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


def game_id_for_key(owner: str, idempotency_key: str) -> str:
    """The id of a game created with an Idempotency-Key by ``owner`` (:attr:`Caller.key_owner`): derived
    from both, so a retried create finds the game (and its record) that the first attempt made, in one
    atomic script, and another caller's same key makes a game of its own."""
    raw = hashlib.sha256(f"gin-create\n{owner}\n{idempotency_key}".encode()).digest()[:15]
    return "g" + base64.urlsafe_b64encode(raw).decode()


def new_game_id() -> str:
    # A letter first: an id that starts with "-" reads as an option on a command line.
    return "g" + secrets.token_urlsafe(15)


def check_game_id(game_id: str) -> None:
    if not GAME_ID.match(game_id):
        raise game_not_found(game_id, f"there is no game {game_id!r}")
