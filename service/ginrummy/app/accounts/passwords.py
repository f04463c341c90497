"""Passwords: argon2id through argon2-cffi's ``PasswordHasher``, with the parameters of
:class:`~ginrummy.app.config.Config` (default: RFC 9106's second recommended option — 64 MiB, 3 passes, 4
lanes —, argon2-cffi's own default; docs/operations.md says what they cost).

Hashing costs ~0.1–0.5 s of CPU by design: it runs through ``offload`` (given by the HTTP adapter:
gevent's pool of real threads under gunicorn's gevent workers — argon2-cffi releases the GIL while it
hashes —, so that a sign-in never stalls the other requests of its worker), inline elsewhere.

A new password must be at least :data:`MIN_LENGTH` characters and not one a guesser tries first (NIST SP
800-63B, 5.1.1.2): not on the list of common passwords the project ships (``common-passwords.txt``, from
Django's), not one character or two repeated, not a run such as ``0123456789``, not the account's name.

A password is only ever hashed or verified here: never stored, logged or answered. Verifying a name
that has no password hashes against a dummy hash made at start, so an unknown name takes as long as a
wrong password and names cannot be probed by timing. A hash made with older parameters is replaced at
the next successful sign-in (``check_needs_rehash``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import resources
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from .. import security
from ..errors import ServiceError

T = TypeVar("T")
Offload = Callable[[Callable[[], T]], T]


def inline(work: Callable[[], T]) -> T:
    """Run ``work`` here and now (no event loop to keep free)."""
    return work()


MIN_LENGTH = 10  # characters; the schema allows at most 256 (argon2 hashes any length, a body is bounded)
SERVICE_WORDS = frozenset({"ginrummy", "gin rummy", "gin-rummy", "gin_rummy"})


@functools.cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords (casefolded), package data of ``ginrummy.app``."""
    text = resources.files("ginrummy.app").joinpath("common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip().casefold() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def weakness(password: str, name: str = "") -> str | None:
    """Why ``password`` may not be a new password (a sentence), or None.

    >>> weakness("short"), weakness("password12")
    ('it needs at least 10 characters', 'it is one of the most common passwords')
    >>> weakness("aaaaaaaaaa"), weakness("abcdefghij")[:14]
    ('it repeats one or two characters', 'it is a run of')
    >>> weakness("Ann-Ann-Ann", name="ann-ann-ann"), weakness("correct horse battery")
    ('it is your name', None)
    """
    if len(password) < MIN_LENGTH:
        return f"it needs at least {MIN_LENGTH} characters"
    folded = password.casefold()
    if not folded.strip():
        return "it is only spaces"
    if len(set(folded.strip())) <= 2:
        return "it repeats one or two characters"
    steps = {ord(b) - ord(a) for a, b in zip(folded, folded[1:], strict=False)}
    if steps in ({1}, {-1}):
        return "it is a run of characters (such as 0123456789 or abcdefghij)"
    if folded in common_passwords():
        return "it is one of the most common passwords"
    if name and folded.strip() == name.casefold().strip():
        return "it is your name"
    if folded.strip() in SERVICE_WORDS:
        return "it is the name of the game"
    return None


class Passwords:
    """Hashes and checks passwords."""

    def __init__(
        self, time_cost: int, memory_kib: int, parallelism: int, offload: Offload[object] = inline
    ) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)
        self.offload = offload
        self._dummy = self.hasher.hash(security.new_secret())

    def hash(self, password: str, name: str = "") -> str:
        """The stored form of a new password of the account ``name``; ``weak_password`` (saying why) when
        it is too short or too easily guessed (:func:`weakness`)."""
        why = weakness(password, name)
        if why is not None:
            raise ServiceError("weak_password", f"choose another password: {why}")
        return str(self.offload(lambda: self.hasher.hash(password)))

    def rehash(self, password: str) -> str:
        """The stored form, with today's parameters, of a password that was accepted when it was set."""
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
