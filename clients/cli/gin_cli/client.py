"""The HTTP client of the Gin Rummy service.

Every call goes through :meth:`GinClient._request`, which adds the bearer token, decodes the JSON body
and turns an error response (``application/problem+json``) into an :class:`ApiError` carrying the status
code and the problem body. A connection failure becomes :class:`ServiceUnreachable`.

>>> import requests
>>> client = GinClient("http://127.0.0.1:8000/", requests.Session())
>>> client.base_url
'http://127.0.0.1:8000'
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

import requests

DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for an ordinary reply (long polls add their own wait on top)."""

ACTION_RETRIES = 2
"""How many times an action POST is sent again after a network error (safe: same Idempotency-Key)."""

WAIT_RETRIES = 3
"""How many times a request is sent again after a 429 or 503 that says when (Retry-After)."""

MAX_WAIT_RETRY = 30.0
"""Seconds: a longer Retry-After is not waited for; the error is shown."""


class ApiError(Exception):
    """The service answered with an error status; ``problem`` is its problem+json body."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.code: str = str(problem.get("code") or "http_error")
        self.detail: str = str(problem.get("detail") or problem.get("title") or f"HTTP {status}")
        super().__init__(f"{self.detail} ({self.code}, HTTP {status})")

    @property
    def legal_actions(self) -> list[dict[str, Any]] | None:
        """The legal actions some errors (illegal_action, not_your_turn) carry."""
        actions = self.problem.get("legal_actions")
        return actions if isinstance(actions, list) else None


class ServiceUnreachable(Exception):
    """The service could not be reached (refused, timed out, or the connection broke)."""


@dataclass(frozen=True)
class Reply:
    """A successful response: the decoded JSON body and the ETag, when the service sent one."""

    status: int
    data: Any
    etag: str | None


def version_of_etag(etag: str | None) -> int | None:
    """The game version in an ETag (``"12"`` or ``W/"12"``), or None.

    >>> version_of_etag('"12"'), version_of_etag('W/"3"'), version_of_etag(None)
    (12, 3, None)
    """
    if not etag:
        return None
    text = etag.removeprefix("W/").strip('"')
    return int(text) if text.isdigit() else None


def retry_after(response: requests.Response) -> float | None:
    """The seconds of a response's ``Retry-After`` when it is a short wait worth making, else None.

    >>> r = requests.Response(); r.headers["Retry-After"] = "2"; retry_after(r)
    2.0
    >>> r.headers["Retry-After"] = "3600"; retry_after(r) is None
    True
    """
    text = response.headers.get("Retry-After", "").strip()
    if not text.isdigit():
        return None
    seconds = float(text)
    return seconds if seconds <= MAX_WAIT_RETRY else None


class GinClient:
    """A thin client of the ``/v1`` HTTP API. The ``session`` is passed in (tests, retries, proxies)."""

    def __init__(self, base_url: str, session: requests.Session, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/")
        self.session = session
        self.timeout = timeout

    def _request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
    ) -> Reply:
        all_headers = {"Accept": "application/json"}
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        all_headers.update(headers or {})
        for attempt in range(WAIT_RETRIES + 1):
            try:
                response = self.session.request(
                    method,
                    self.base_url + path,
                    json=json,
                    params=params,
                    headers=all_headers,
                    timeout=timeout if timeout is not None else self.timeout,
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                raise ServiceUnreachable(
                    f"cannot reach the service at {self.base_url}: {_reason(exc)}"
                ) from exc
            # 429 (a rate limit) and 503 (Redis failing over) say when to come back: wait and resend.
            # Every POST carries an Idempotency-Key, so a resent change is never applied twice.
            delay = retry_after(response) if response.status_code in (429, 503) else None
            if delay is None or attempt == WAIT_RETRIES:
                break
            time.sleep(delay)
        data = _decode(response)
        if response.status_code >= 400:
            problem = data if isinstance(data, dict) else {"detail": response.text[:200] or response.reason}
            raise ApiError(response.status_code, problem)
        return Reply(response.status_code, data, response.headers.get("ETag"))

    # --- games -------------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        preset: str = "standard",
        options: dict[str, Any] | None = None,
        bot: str | None = None,
        name: str | None = None,
        seed: int | None = None,
    ) -> dict[str, Any]:
        """Start a game against ``bot``, or against a human (who joins by invitation) when it is None."""
        body: dict[str, Any] = {
            "rules": {"preset": preset, "options": options or {}},
            "opponent": {"type": "bot", "bot": bot} if bot else {"type": "human"},
        }
        if name:
            body["name"] = name
        if seed is not None:
            body["seed"] = seed
        headers = {"Idempotency-Key": new_key()}
        return dict(self._request("POST", "/v1/games", json=body, headers=headers).data)

    def join(self, game_id: str, invitation: str, name: str | None = None) -> dict[str, Any]:
        """Take the free seat of a game with its invitation."""
        body: dict[str, Any] = {"invitation": invitation}
        if name:
            body["name"] = name
        headers = {"Idempotency-Key": new_key()}
        return dict(self._request("POST", f"/v1/games/{game_id}/join", json=body, headers=headers).data)

    def view(self, game_id: str, token: str) -> dict[str, Any]:
        """The seat view of the game, with ``version`` filled in from the ETag when missing."""
        reply = self._request("GET", f"/v1/games/{game_id}", token=token)
        view = dict(reply.data)
        if "version" not in view:
            view["version"] = version_of_etag(reply.etag)
        return view

    def act(self, game_id: str, token: str, action: dict[str, Any], version: int) -> dict[str, Any]:
        """Post one action (an element of ``legal_actions``) on top of ``version``."""
        return self._post_move(game_id, token, "actions", action, version)

    def undo(self, game_id: str, token: str, version: int) -> dict[str, Any]:
        """Take back this seat's last move of the live hand."""
        return self._post_move(game_id, token, "undo", {}, version)

    def _post_move(self, game_id: str, token: str, what: str, body: Any, version: int) -> dict[str, Any]:
        # One key for all attempts: if the first POST was applied but its reply lost, the retry gets
        # the stored reply instead of a second move.
        headers = {"If-Match": f'"{version}"', "Idempotency-Key": new_key()}
        for attempt in range(ACTION_RETRIES + 1):
            try:
                reply = self._request(
                    "POST", f"/v1/games/{game_id}/{what}", token=token, json=body, headers=headers
                )
            except ServiceUnreachable:
                if attempt == ACTION_RETRIES:
                    raise
                continue
            return dict(reply.data)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def events(self, game_id: str, token: str, *, after: str | None, wait: float) -> dict[str, Any]:
        """Events after ``after`` (a cursor); blocks on the server up to ``wait`` seconds when none."""
        params: dict[str, Any] = {"wait": wait}
        if after is not None:
            params["after"] = after
        reply = self._request(
            "GET", f"/v1/games/{game_id}/events", token=token, params=params, timeout=wait + self.timeout
        )
        return dict(reply.data)

    def hint(self, game_id: str, token: str) -> dict[str, Any]:
        """The service's suggestion for this seat's move."""
        return dict(self._request("GET", f"/v1/games/{game_id}/hint", token=token).data)

    def hand_record(self, game_id: str, token: str, number: int) -> dict[str, Any]:
        """A finished hand, revealed."""
        return dict(self._request("GET", f"/v1/games/{game_id}/hands/{number}", token=token).data)

    # --- reference ---------------------------------------------------------------------------------

    def analyze(self, cards: list[str]) -> dict[str, Any]:
        """Melds, deadwood and best discards of a hand."""
        return dict(self._request("POST", "/v1/analyze", json={"cards": cards}).data)

    def rules(self) -> Any:
        """Presets and options."""
        return self._request("GET", "/v1/rules").data

    def bots(self) -> Any:
        """The computer opponents."""
        return self._request("GET", "/v1/bots").data


def new_key() -> str:
    """A fresh Idempotency-Key."""
    return uuid.uuid4().hex


def _decode(response: requests.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return None


def _reason(exc: Exception) -> str:
    if isinstance(exc, requests.Timeout):
        return "timed out"
    text = str(exc)
    if "Connection refused" in text or "Errno 111" in text:
        return "connection refused"
    return exc.__class__.__name__
