"""What :meth:`Client._request <ginrummy_client.Client._request>` needs besides ``requests``: the reply it
returns, and small pure helpers (reading ``Retry-After``, decoding bodies, keeping secrets out of
messages, pacing retries)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, cast

import requests

from .models import Problem

NETWORK_ERRORS = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)
"""What a broken or silent connection raises: the request may or may not have reached the service."""


@dataclass(frozen=True)
class Reply:
    """A successful answer: status, decoded JSON body (None for a stream or an empty body), headers, and
    the ``requests`` response itself (still open for a stream: the caller reads and closes it)."""

    status: int
    data: Any
    headers: Mapping[str, str]
    response: requests.Response


def new_key() -> str:
    """A fresh Idempotency-Key: a random UUID.

    >>> len(new_key()), new_key() != new_key()
    (32, True)
    """
    return uuid.uuid4().hex


def encode(body: Any) -> bytes:
    """A JSON body, compact, serialized once so that every retry sends the very same bytes.

    >>> encode({"type": "discard", "card": "7H"})
    b'{"type":"discard","card":"7H"}'
    """
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """The seconds a ``Retry-After`` header asks for (delta-seconds or an HTTP date), or None.

    >>> retry_after("2"), retry_after(None), retry_after("soon")
    (2.0, None, None)
    >>> retry_after("Thu, 01 Jan 1970 00:01:00 GMT", now=30.0)
    30.0
    """
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def decode(response: requests.Response) -> Any:
    """The JSON body of a response, or None when it has none (or is not JSON)."""
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return None


def problem_of(response: requests.Response, secrets: Iterable[str]) -> Problem:
    """The problem+json body of an error answer (a made-up one for a body that is not JSON, e.g. from a
    proxy), with any of ``secrets`` blanked out of its texts."""
    data = decode(response)
    problem: dict[str, Any]
    if isinstance(data, dict):
        problem = dict(data)
    else:
        problem = {
            "status": response.status_code,
            "title": response.reason or "",
            "detail": response.text[:200],
        }
    for name in ("title", "detail"):
        if isinstance(problem.get(name), str):
            problem[name] = redact(problem[name], secrets)
    return cast(Problem, problem)


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (a seat token, an invitation) replaced by ``***``.

    >>> redact("no seat for abc123 here", ["abc123", ""])
    'no seat for *** here'
    """
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def backoff(attempt: int, limit: float) -> float:
    """Seconds to wait before retry number ``attempt`` (0-based) after a network error: 0.2 s doubling,
    at most ``limit``.

    >>> [backoff(n, 30.0) for n in range(4)], backoff(10, 1.5)
    ([0.2, 0.4, 0.8, 1.6], 1.5)
    """
    return min(limit, 0.2 * float(2**attempt))


def describe(error: Exception) -> str:
    """A short reason for a network error (never its headers, where a token would be).

    >>> describe(requests.ReadTimeout("..."))
    'timed out'
    """
    if isinstance(error, requests.Timeout):
        return "timed out"
    text = str(error)
    if "Connection refused" in text or "Errno 111" in text:
        return "connection refused"
    if isinstance(error, requests.exceptions.ChunkedEncodingError) or "RemoteDisconnected" in text:
        return "the connection broke"
    if isinstance(error, requests.exceptions.SSLError):
        return "the TLS handshake failed (is it an https service, with a certificate this machine trusts?)"
    if (
        "Name or service not known" in text
        or "NameResolutionError" in text
        or "nodename nor servname" in text
    ):
        return "the host name does not resolve"
    return type(error).__name__
