"""The one way out to the service: the :class:`Requestor` through which every request of the SDK passes,
the :class:`Reply` it returns, and its small pure helpers (reading ``Retry-After``, decoding bodies,
keeping secrets out of messages, pacing retries).

A :class:`~ginrummy_client.Client` makes one Requestor and gives it to every resource it hands out — each
:class:`~ginrummy_client.Game`, :class:`~ginrummy_client.Seek` and event feed — as berserk's clients share
one ``Requestor`` (lichess-org/berserk): nothing else sends a request, so the headers, the retries and the
typed errors are the same everywhere.

>>> requestor = Requestor("http://127.0.0.1:8000/")
>>> requestor.server, requestor.retries, requestor.user_agent.startswith("ginrummy-client/")
('http://127.0.0.1:8000', 3, True)
>>> Requestor("127.0.0.1:8000")
Traceback (most recent call last):
...
ValueError: the server is a URL such as http://127.0.0.1:8000, not '127.0.0.1:8000'
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, cast

import requests

from ._version import __version__
from .errors import ConnectionFailed, error_from_problem
from .models import Problem

log = logging.getLogger("ginrummy_client")

USER_AGENT = f"ginrummy-client/{__version__}"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
NETWORK_ERRORS = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)
"""What a broken or silent connection raises: the request may or may not have reached the service."""
NDJSON = "application/x-ndjson"


@dataclass(frozen=True)
class Reply:
    """A successful answer: status, decoded JSON body (None for a stream or an empty body), headers, and
    the ``requests`` response itself (still open for a stream: the caller reads and closes it)."""

    status: int
    data: Any
    headers: Mapping[str, str]
    response: requests.Response


class Requestor:
    """Sends the SDK's requests to one service: ``server`` (its base URL) through ``session`` (default: a
    new ``requests.Session``, closed by :meth:`close`), each answer awaited ``timeout`` seconds, resent up
    to ``retries`` times when that is safe, never after a ``Retry-After`` longer than ``max_retry_wait``
    seconds; ``user_agent`` is the application's product token, sent before the SDK's own. The
    :class:`~ginrummy_client.Client`'s settings of the same names are these."""

    def __init__(
        self,
        server: str,
        *,
        session: requests.Session | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        max_retry_wait: float = 30.0,
        user_agent: str | None = None,
    ) -> None:
        if not server.startswith(("http://", "https://")):
            raise ValueError(f"the server is a URL such as http://127.0.0.1:8000, not {server!r}")
        self.server = server.rstrip("/")
        self._own_session = session is None
        self.session = session if session is not None else requests.Session()
        self.timeout = timeout
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        self.user_agent = f"{user_agent} {USER_AGENT}" if user_agent else USER_AGENT

    def __repr__(self) -> str:
        return f"Requestor({self.server!r})"

    def close(self) -> None:
        """Close the session, when the requestor made it."""
        if self._own_session:
            self.session.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float | tuple[float, float] | None = None,
        stream: bool = False,
        retries: int | None = None,
        secrets: Iterable[str] = (),
        idempotent: bool = True,
    ) -> Reply:
        """Send one logical request, resending it when that is safe and useful.

        It sends ``token`` as the bearer credential and ``json`` as the body, decodes the answer, turns
        an error answer into the :class:`~ginrummy_client.ApiError` subclass of its code, waits out
        ``Retry-After`` on 429 and 503, and resends requests that are safe to resend after a network
        error (:class:`~ginrummy_client.ConnectionFailed` once ``retries`` are spent). A POST gets a
        fresh Idempotency-Key (unless ``headers`` has one), the SAME on each resend, so the service
        applies it once and answers a resend of an applied request with the stored answer. ``stream``:
        the answer's body is left unread in ``Reply.response`` (the caller closes it). ``secrets``: texts
        to blank out of error messages besides the token. ``idempotent=False``: a POST the service does
        not replay (seeks): no key, and never resent after a network error or a 503."""
        sent = {"Accept": "application/json", "User-Agent": self.user_agent}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        body = None
        if json is not None:
            body = encode(json)
            sent["Content-Type"] = "application/json"
        if method == "POST" and idempotent:
            sent["Idempotency-Key"] = new_key()
        sent.update(headers or {})
        safe = method in SAFE_METHODS or "Idempotency-Key" in sent
        hidden = [token or "", *secrets]
        limit = self.retries if retries is None else retries
        attempt = 0
        while True:
            try:
                response = self.session.request(
                    method,
                    self.server + path,
                    data=body,
                    params=params,
                    headers=sent,
                    timeout=self.timeout if timeout is None else timeout,
                    stream=stream,
                )
            except NETWORK_ERRORS as error:
                reason = describe(error)
                if not safe or attempt >= limit:
                    raise ConnectionFailed(
                        f"{method} {path}: cannot reach {self.server} ({reason})", reason=reason
                    ) from error
                delay = backoff(attempt, self.max_retry_wait)
                log.info("%s %s: %s; resending in %.1f s", method, path, reason, delay)
            else:
                status = response.status_code
                if status < 400:
                    if response.headers.get("Idempotent-Replayed") == "true":
                        log.info("%s %s: the service replayed its stored answer", method, path)
                    return Reply(status, None if stream else decode(response), response.headers, response)
                wait = retry_after(response.headers.get("Retry-After"))
                refusal = error_from_problem(status, problem_of(response, hidden), retry_after=wait)
                response.close()
                # A 429 was refused before anything was done; a 503 may have met a half-done change,
                # which only an Idempotency-Key makes safe to send again.
                resend = status == 429 or (status == 503 and safe)
                if not resend or wait is None or wait > self.max_retry_wait or attempt >= limit:
                    raise refusal
                delay = wait
                log.info("%s %s: %s; resending in %.1f s", method, path, refusal.code, delay)
            attempt += 1
            time.sleep(delay)


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


def ndjson_objects(response: requests.Response, chunk_size: int = 512) -> Iterator[dict[str, Any]]:
    """The JSON objects of an NDJSON body (an event stream, an export of games), one a line, read as
    they arrive, ``chunk_size`` bytes at a time at most: only the line being read is held (blank lines
    and lines that are not objects are skipped). A connection that breaks raises one of
    :data:`NETWORK_ERRORS`."""
    for line in response.iter_lines(chunk_size=chunk_size):
        if not line.strip():
            continue
        item = json.loads(line)
        if isinstance(item, dict):
            yield item


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
