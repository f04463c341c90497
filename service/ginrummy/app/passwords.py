"""Passwords: argon2id through argon2-cffi's ``PasswordHasher``, with the parameters of
:class:`~ginrummy.app.config.Config` (default: RFC 9106's second recommended option — 64 MiB, 3 passes, 4
lanes —, argon2-cffi's own default; docs/operations.md says what they cost).

Hashing costs ~0.1–0.5 s of CPU by design: it runs through ``offload`` (given by the HTTP adapter:
gevent's pool of real threads under gunicorn's gevent workers — argon2-cffi releases the GIL while it
hashes —, so that a sign-in never stalls the other requests of its worker), inline elsewhere.

A password is only ever hashed or verified here: never stored, logged or answered. Verifying a name
that has no password hashes against a dummy hash made at start, so an unknown name takes as long as a
wrong password and names cannot be probed by timing. A hash made with older parameters is replaced at
the next successful sign-in (``check_needs_rehash``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from . import security
from .errors import ServiceError

T = TypeVar("T")
Offload = Callable[[Callable[[], T]], T]


def inline(work: Callable[[], T]) -> T:
    """Run ``work`` here and now (no event loop to keep free)."""
    return work()


MIN_LENGTH = 10  # characters; the schema allows at most 256 (argon2 hashes any length, a body is bounded)


class Passwords:
    """Hashes and checks passwords."""

    def __init__(
        self, time_cost: int, memory_kib: int, parallelism: int, offload: Offload[object] = inline
    ) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)
        self.offload = offload
        self._dummy = self.hasher.hash(security.new_secret())

    def hash(self, password: str) -> str:
        """The stored form of a new password; ``weak_password`` when it is too short."""
        if len(password) < MIN_LENGTH:
            raise ServiceError("weak_password", f"a password needs at least {MIN_LENGTH} characters")
        return str(self.offload(lambda: self.hasher.hash(password)))

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``stored`` (None: no password — always False, in the
        time a real check takes)."""
        return (
            bool(self.offload(lambda: self._matches(stored or self._dummy, password))) and stored is not None
        )

    def _matches(self, stored: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(stored, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)
