"""A request read into what the use cases take (:class:`~ginrummy.app.calls.Caller`), and a
:class:`~ginrummy.app.calls.Result` written out as a response: the adapter's two directions.

Here and only here: the ``Authorization: Bearer`` header, ``If-Match`` and ETags, ``Idempotency-Key``,
the client's address, statuses of success (201 created, 202 pending) and ``Location``.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Mapping

import orjson
from flask import Response, current_app, request

from ginrummy.app.calls import Caller, Precondition, Result, fingerprint
from ginrummy.app.config import ConfigError

from .errors import RequestRefused

MAX_IDEMPOTENCY_KEY = 200
IF_MATCH_PATTERN = r'^(?:\*|(?:W/)?"[0-9]{1,18}"|[0-9]{1,18})$'
"""What If-Match may be (the OpenAPI document's pattern): ``*``, an ETag ``"12"`` (weak or not) or ``12``."""
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None when there is no header."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise RequestRefused(
            "unauthorized",
            "the Authorization header must be 'Bearer <seat token>'",
            headers={"WWW-Authenticate": 'Bearer realm="ginrummy", error="invalid_request"'},
        )
    return token


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=4)
def trusted_proxies(spec: str) -> tuple[bool, tuple[Network, ...]]:
    """``GIN_FORWARDED_ALLOW_IPS`` read: (any peer is trusted, the trusted networks). ConfigError for an
    entry that is neither ``*``, an address nor a network.

    >>> trusted_proxies("*")
    (True, ())
    >>> trusted_proxies("127.0.0.1, 10.0.0.0/8")[1]
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/8'))
    """
    entries = [entry.strip() for entry in spec.split(",") if entry.strip()]
    if "*" in entries:
        return True, ()
    try:
        return False, tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)
    except ValueError:
        raise ConfigError(
            f"GIN_FORWARDED_ALLOW_IPS must be '*' or addresses and networks (10.0.0.0/8), not {spec!r}"
        ) from None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def forwarded_client(peer: str, forwarded_for: str | None, spec: str) -> str:
    """The client's address: ``peer`` (the connection's), or — when the peer is a trusted proxy — the
    last address of ``X-Forwarded-For`` that is not a trusted proxy. Each proxy appends the address it saw,
    so only the entries from the right up to the first untrusted one can be believed; whatever a client
    wrote itself stands further left. ``*`` trusts the connecting peer, whoever it is, for one hop.

    >>> forwarded_client("10.1.2.3", "6.6.6.6, 203.0.113.9", "*")
    '203.0.113.9'
    >>> forwarded_client("10.1.2.3", "203.0.113.9, 10.0.0.7", "10.0.0.0/8")
    '203.0.113.9'
    >>> forwarded_client("198.51.100.1", "203.0.113.9", "10.0.0.0/8")   # not a proxy: its header is not read
    '198.51.100.1'
    """
    if not forwarded_for:
        return peer
    anyone, networks = trusted_proxies(spec)
    peer_address = _address(peer)
    if not anyone and (peer_address is None or not any(peer_address in net for net in networks)):
        return peer
    hops = forwarded_for.split(",")
    if anyone:
        hop = _address(hops[-1])
        return peer if hop is None else str(hop)
    client = peer
    for text in reversed(hops):
        hop = _address(text)
        if hop is None:
            break  # garbage: nothing left of it can be believed
        client = str(hop)
        if not any(hop in net for net in networks):
            break
    return client


def client_address() -> str:
    """The address of the client of this request, behind the proxies ``GIN_FORWARDED_ALLOW_IPS`` trusts:
    what per-address budgets (sign-ins, creations, reads without a token) count."""
    return forwarded_client(
        request.remote_addr or "",
        request.headers.get("X-Forwarded-For"),
        current_app.config["GINRUMMY"].forwarded_allow_ips,
    )


def precondition(header: str | None) -> Precondition:
    """``If-Match`` as the use cases check it (they refuse a missing or malformed one when they need it).

    >>> precondition('"12"').version, precondition("*").version, precondition(None).given
    (12, None, False)
    >>> precondition("twelve").malformed
    'twelve'
    """
    if header is None or not header.strip():
        return Precondition()
    text = header.strip()
    if not _IF_MATCH.search(text):
        return Precondition(given=True, malformed=header)
    if text == "*":
        return Precondition(given=True)
    return Precondition(given=True, version=int(text.removeprefix("W/").strip('"\n')))


def etag(version: int) -> str:
    return f'"{version}"'


def caller(*, player: str | None = None) -> Caller:
    """The current request as the use cases see it (``player``: the name its bearer token stands for)."""
    key = request.headers.get("Idempotency-Key") or None
    if key is not None and len(key) > MAX_IDEMPOTENCY_KEY:
        raise RequestRefused(
            "bad_idempotency_key", f"an Idempotency-Key must be at most {MAX_IDEMPOTENCY_KEY} characters"
        )
    return Caller(
        token=bearer_token(request.headers.get("Authorization")),
        player=player,
        precondition=precondition(request.headers.get("If-Match")),
        idempotency_key=key,
        client=client_address(),
        user_agent=request.headers.get("User-Agent", ""),
        # Only a request with a key is ever compared with another one.
        fingerprint=fingerprint(request.method, request.path, request.get_data(cache=True)) if key else "",
    )


def token() -> str | None:
    """The request's bearer token, if any."""
    return bearer_token(request.headers.get("Authorization"))


def respond(result: Result, *, location: str | None = None) -> Response:
    """A result as a JSON response: 201 for something created (at ``location``), 202 for something
    pending, else 200; the ETag of the game's version; ``Idempotent-Replayed`` for a stored answer."""
    status = 201 if result.created else 202 if result.pending else 200
    response = Response(
        # orjson: a view is ~4 KB of JSON on every move, and the standard encoder was the costliest step.
        orjson.dumps(result.body, option=orjson.OPT_NON_STR_KEYS),
        status=status,
        mimetype="application/json",
    )
    if result.version is not None:
        response.headers["ETag"] = etag(result.version)
    if result.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    if location is not None and (result.created or result.pending):
        response.headers["Location"] = location
    if result.retry_after is not None:
        response.headers["Retry-After"] = str(result.retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response


def json_body(body: Mapping[str, object]) -> Response:
    """A plain 200 JSON answer (rules, bots, analysis, health)."""
    return respond(Result(dict(body)))
