"""The client of the Gin Rummy service's ``/v1`` HTTP API.

Every call goes through :meth:`Client._request`, which sends the seat token, JSON bodies and an
Idempotency-Key on every POST, decodes the answer, turns an error answer into the :class:`ApiError`
subclass of its code, waits out ``Retry-After`` on 429 and 503, and resends requests that are safe to
resend after a network error.

>>> client = Client("http://127.0.0.1:8000/", token="secret-token")
>>> client.server, client.retries
('http://127.0.0.1:8000', 3)
>>> "secret" in repr(client)
False
>>> Client("127.0.0.1:8000")
Traceback (most recent call last):
...
ValueError: the server is a URL such as http://127.0.0.1:8000, not '127.0.0.1:8000'
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any, cast

import requests

from ._version import __version__
from .errors import ConnectionFailed, error_from_problem
from .game import Game, game_path
from .models import Analysis, BotsInfo, Created, Health, RulesInfo
from .transport import (
    NETWORK_ERRORS,
    Reply,
    backoff,
    decode,
    describe,
    encode,
    new_key,
    problem_of,
    retry_after,
)

log = logging.getLogger("ginrummy_client")

USER_AGENT = f"ginrummy-client/{__version__}"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def parse_invitation(text: str) -> tuple[str, str]:
    """``GAME_ID:INVITATION`` (as ``gin host`` prints it, or :attr:`Game.invitation_code`) into its parts.

    >>> parse_invitation(" gAbc:s3cr3t ")
    ('gAbc', 's3cr3t')
    >>> parse_invitation("no-colon")
    Traceback (most recent call last):
    ...
    ValueError: an invitation code looks like GAME_ID:INVITATION
    """
    game_id, sep, invitation = text.strip().partition(":")
    if not sep or not game_id or not invitation:
        raise ValueError("an invitation code looks like GAME_ID:INVITATION")
    return game_id, invitation


def given(**members: Any) -> dict[str, Any]:
    """The members that are given (not None): optional members of a body are left out, not sent as null.

    >>> given(name="Ann", seed=None)
    {'name': 'Ann'}
    """
    return {key: value for key, value in members.items() if value is not None}


class Client:
    """A client of one Gin Rummy service.

    ``server``: its base URL. ``session``: a ``requests.Session`` to send through (default: a new one,
    closed by :meth:`close`). ``token``: the seat token :meth:`game` uses when given none. ``timeout``:
    seconds to wait for an answer (long polls and streams add their own wait). ``retries``: how many times
    a request is sent again after a network error (only when that is safe: GETs, and POSTs, which all carry
    an Idempotency-Key) or after a 429/503 whose ``Retry-After`` is at most ``max_retry_wait`` seconds.
    """

    def __init__(
        self,
        server: str,
        *,
        session: requests.Session | None = None,
        token: str | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        max_retry_wait: float = 30.0,
    ) -> None:
        if not server.startswith(("http://", "https://")):
            raise ValueError(f"the server is a URL such as http://127.0.0.1:8000, not {server!r}")
        self.server = server.rstrip("/")
        self._own_session = session is None
        self.session = session if session is not None else requests.Session()
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.max_retry_wait = max_retry_wait

    def __repr__(self) -> str:
        return f"Client({self.server!r}{', token=***' if self.token else ''})"

    def close(self) -> None:
        """Close the session, when the client made it."""
        if self._own_session:
            self.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- the one way out -----------------------------------------------------------------------------

    def _request(
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
    ) -> Reply:
        """Send one logical request, resending it when that is safe and useful; see the class docstring.

        A POST gets a fresh Idempotency-Key (unless ``headers`` has one), the SAME on each resend, so the
        service applies it once and answers a resend of an applied request with the stored answer.
        ``stream``: the answer's body is left unread in ``Reply.response`` (the caller closes it).
        ``secrets``: texts to blank out of error messages besides the token."""
        sent = {"Accept": "application/json", "User-Agent": USER_AGENT}
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        body = None
        if json is not None:
            body = encode(json)
            sent["Content-Type"] = "application/json"
        if method == "POST":
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
                if not safe or attempt >= limit:
                    raise ConnectionFailed(
                        f"{method} {path}: cannot reach {self.server} ({describe(error)})"
                    ) from error
                delay = backoff(attempt, self.max_retry_wait)
                log.info("%s %s: %s; resending in %.1f s", method, path, describe(error), delay)
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

    # --- stateless -----------------------------------------------------------------------------------

    def rules(self) -> RulesInfo:
        """The rule presets and every option, with its default and meaning."""
        return cast(RulesInfo, self._request("GET", "/v1/rules").data)

    def bots(self) -> BotsInfo:
        """The computer opponents one can play, and the default one."""
        return cast(BotsInfo, self._request("GET", "/v1/bots").data)

    def analyze(self, cards: Iterable[str | int], knock_limit: int = 10) -> Analysis:
        """Melds, deadwood, whether 10 or 11 cards can knock or go gin, and the best discards."""
        body = {"cards": list(cards), "knock_limit": knock_limit}
        return cast(Analysis, self._request("POST", "/v1/analyze", json=body).data)

    def health(self) -> Health:
        """``{"status": "ok"}`` when the service's process is up (it does not ask Redis)."""
        return cast(Health, self._request("GET", "/healthz", retries=0).data)

    def ready(self) -> Health:
        """``{"status": "ready"}`` when the service can serve; :class:`ServiceUnavailable` otherwise."""
        return cast(Health, self._request("GET", "/readyz", retries=0).data)

    # --- games ---------------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        bot: str | None = None,
        human: bool = False,
        opponent_name: str | None = None,
        name: str | None = None,
        preset: str = "standard",
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> Game:
        """A new game in which the caller is seat 0: against ``bot`` (default: the service's default
        bot), or with ``human=True`` against a person who joins with :attr:`Game.invitation_code`.

        ``preset`` and ``options`` are the rules (:meth:`rules` lists them), ``name`` the caller's name,
        ``opponent_name`` the bot's, ``seed`` fixed deals (only services run for tests accept one)."""
        if human and (bot is not None or opponent_name is not None):
            raise ValueError("a human opponent chooses their own name and is no bot")
        body = {
            "rules": {"preset": preset, "options": dict(options or {})},
            "opponent": {"type": "human" if human else "bot", **given(bot=bot, name=opponent_name)},
            **given(name=name, seed=seed),
        }
        return self._seated(self._request("POST", "/v1/games", json=body))

    def join_game(self, game_id: str, invitation: str | None = None, *, name: str | None = None) -> Game:
        """Take seat 1 of a game with its invitation: ``join_game(game_id, invitation)``, or
        ``join_game("GAME_ID:INVITATION")`` with the code the creator shared. An invitation works once."""
        if invitation is None:
            game_id, invitation = parse_invitation(game_id)
        body = {"invitation": invitation, **given(name=name)}
        reply = self._request("POST", game_path(game_id, "join"), json=body, secrets=[invitation])
        return self._seated(reply)

    def game(self, game_id: str, token: str | None = None) -> Game:
        """A game read now: the seat of ``token`` (default: the client's), or the spectator's view
        without one. This is how a saved seat is resumed."""
        game = Game(self, game_id, token=token if token is not None else self.token)
        view = game.refresh()
        game.seat = view.get("seat")
        return game

    def _seated(self, reply: Reply) -> Game:
        created = cast(Created, reply.data)
        return Game(
            self,
            created["game_id"],
            token=created["token"],
            seat=created["seat"],
            invitation=created.get("invitation"),
            view=created["view"],
            events=created["events"],
        )
