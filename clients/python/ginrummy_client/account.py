"""``client.account``: the account of the client's token (``/v1/account``) — signing up, in and out, its
password, sessions, API tokens and games in play, becoming a bot, the players it follows and blocks — with
the typed bodies of each, and the account stream (:class:`AccountStream`, ``GET /v1/account/stream``): what
happens to the account as it happens — or, a page at a time, :meth:`Account.events` (the same events, a
long poll).

>>> Session("Ann", "gin_s_secret", "12")
Session(name='Ann', id='12')
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import quote

from .bodies import given
from .events import Following
from .models import (
    AccountEvent,
    AccountEvents,
    AccountGame,
    AccountGames,
    AccountInfo,
    Blocking,
    Followed,
    SessionCreated,
    SessionInfo,
    Sessions,
    SignedOut,
    TokenCreated,
    TokenInfo,
    Tokens,
)
from .models import Following as FollowedPlayers  # (not the stream's base class of ``events``)
from .resource import Resource, renamed
from .transport import Requestor

ACCOUNT_STREAM = "/v1/account/stream"
SESSIONS = "/v1/account/sessions"
TOKENS = "/v1/account/tokens"


@dataclass(frozen=True)
class Session:
    """A session made by :meth:`Account.sign_up` or :meth:`Account.sign_in`: the account's ``name``, the
    session ``token`` (shown once by the service; never in a ``repr``) and its ``id``."""

    name: str
    token: str = field(repr=False)
    id: str = ""


PRESENT = frozenset({"gameStart", "challenge"})
"""The types of event a stream opened afresh starts with (the present: games in play, open challenges)."""


class AccountStream(Following[AccountEvent]):
    """The account's events as they happen, for as long as the caller iterates; see
    :meth:`Account.stream`.

    Opened afresh (``since`` None), the service starts it with the present — a ``gameStart`` for every
    game in play, a ``challenge`` for every open challenge received — all with the id of the newest
    event, then sends what comes. The stream reconnects from the last id when the service ends a
    connection (after ``wait`` seconds; None: ``GIN_STREAM_MAX``), the connection drops, or a line says
    the store is unavailable, so no event is lost or repeated; ``last_id`` is where it stands. One
    exception: should the first connection break before the present is over (the next line that is no
    ``gameStart`` or ``challenge`` of it), the next one starts afresh again and the present comes again —
    tell games and challenges apart by their ids. Keep-alive lines are not delivered. :meth:`close` ends
    it, from any thread."""

    what = "account stream"

    def __init__(
        self, requestor: Requestor, *, token: str | None, since: str | None, wait: float | None
    ) -> None:
        self.last_id = since
        super().__init__(requestor, ACCOUNT_STREAM, token=token, wait=wait)

    def _params(self) -> Mapping[str, Any]:
        return {} if self.last_id is None else {"since": self.last_id}

    def _generate(self) -> Generator[AccountEvent, None, None]:
        present: str | None = None  # the id of what may be the present, while it is being told
        for item in self._lines():
            event_id, kind = item.get("id"), item.get("type")
            if present is not None and (event_id != present or kind not in PRESENT):
                self.last_id, present = present, None  # the present is over: resume after it
            if kind == "keepalive" or event_id is None:
                continue
            if self.last_id is None and kind in PRESENT:
                present = event_id
            else:
                self.last_id = event_id
            yield cast(AccountEvent, item)


class Account(Resource):
    """The account of the client's token: a session, a personal API token, or a claimed player's token.
    Signing up or in makes the client's :attr:`~Client.token` the new session's; signing out forgets it."""

    def get(self) -> AccountInfo:
        """Who am I: the account of this client's token (session, API token or player token)."""
        return cast(AccountInfo, self.requestor.request("GET", "/v1/account", token=self.token).data)

    def sign_up(self, name: str, password: str, *, claim: bool = False) -> Session:
        """A new account, signed in: this client's token becomes the session's. ``claim``: set the first
        password of the name-and-token player whose token this client holds. Refusals:
        :class:`AccountExists`, :class:`WeakPassword`, :class:`NameReserved`."""
        token = self.token if claim else None
        reply = self.requestor.request(
            "POST", "/v1/account", json={"name": name, "password": password}, token=token, secrets=[password]
        )
        return self._signed_in(cast(SessionCreated, reply.data))

    def sign_in(self, name: str, password: str) -> Session:
        """A new session of the account: this client's token becomes the session's
        (:class:`BadCredentials`; :class:`RateLimited` after too many failures)."""
        reply = self.requestor.request(
            "POST", "/v1/account/sessions", json={"name": name, "password": password}, secrets=[password]
        )
        return self._signed_in(cast(SessionCreated, reply.data))

    def _signed_in(self, data: SessionCreated) -> Session:
        self.client.token = data["token"]
        return Session(data["name"], data["token"], str(data.get("session", "")))

    def sign_out(self, session_id: str = "current") -> int:
        """End a session: this one (default; this client forgets its token), another by its id, or
        ``"all"`` (sign out everywhere). How many sessions ended."""
        path = SESSIONS if session_id == "all" else f"{SESSIONS}/{quote(session_id, safe='')}"
        reply = self.requestor.request("DELETE", path, token=self.token)
        if session_id in ("current", "all"):
            self.client.token = None
        return cast(SignedOut, reply.data)["signed_out"]

    def change_password(self, current: str, new: str) -> int:
        """A new password (the current one is needed); the other sessions end: how many did."""
        reply = self.requestor.request(
            "POST",
            "/v1/account/password",
            json={"current": current, "new": new},
            token=self.token,
            secrets=[current, new],
        )
        return cast(SignedOut, reply.data)["signed_out"]

    def sessions(self) -> list[SessionInfo]:
        """The account's sessions, newest first (needs a session token)."""
        reply = self.requestor.request("GET", SESSIONS, token=self.token)
        return cast(Sessions, reply.data)["sessions"]

    def create_token(self, description: str, scopes: Iterable[str] = ("play",)) -> TokenCreated:
        """A personal API token (``token``, shown once) with ``scopes``: play, bot, read."""
        body = {"description": description, "scopes": list(scopes)}
        reply = self.requestor.request("POST", TOKENS, json=body, token=self.token)
        return cast(TokenCreated, reply.data)

    def tokens(self) -> list[TokenInfo]:
        """The account's API tokens (never the tokens themselves)."""
        reply = self.requestor.request("GET", TOKENS, token=self.token)
        return cast(Tokens, reply.data)["tokens"]

    def revoke_token(self, token_id: str) -> None:
        """Revoke an API token: refused from its next request on (:class:`TokenNotFound`)."""
        self.requestor.request("DELETE", f"{TOKENS}/{quote(token_id, safe='')}", token=self.token)

    def become_bot(self) -> AccountInfo:
        """Make this account a bot account, for good (a session token; only an account that has played
        no game: :class:`AccountHasGames`; :class:`AlreadyBot`). From then on its sessions only read: it
        plays through API tokens (``create_token(…, ["bot"])``), and is listed by
        ``client.service.bots()`` while its account stream is open."""
        return cast(AccountInfo, self.requestor.request("POST", "/v1/account/bot", token=self.token).data)

    def stream(self, since: str | None = None, wait: float | None = None) -> AccountStream:
        """The account's events as they happen (:class:`AccountStream`): ``gameStart``/``gameFinish`` of
        its games, ``challenge`` (received or sent), ``challengeCanceled``, ``challengeDeclined``, each a
        typed :class:`AccountEvent` with its ``id``. Afresh (``since`` None) it starts with a
        ``gameStart`` for every game in play and a ``challenge`` for every open challenge received;
        ``since`` resumes after that id. Each connection stays open ``wait`` seconds (None: the service's
        longest); the iterator reconnects from the last id when the service ends one, the connection
        drops or the store is away, until you ``break`` or ``close()`` it (from any thread)."""
        return AccountStream(self.requestor, token=self.token, since=since, wait=wait)

    def events(self, since: str | None = None, wait: float = 0.0) -> AccountEvents:
        """The account stream's events as one page — a long poll, for a caller that would rather not
        hold a stream open or read it on a thread: what came after the id ``since``, the service holding
        the request up to ``wait`` seconds (at most its ``GIN_MAX_WAIT``) while nothing has; afresh
        (``since`` None) the present, as :meth:`stream` starts with, at once. The page's ``last_id`` is
        where the next one goes on from, whether events came or not: taken *before* doing something
        whose answer comes on the stream (a challenge sent), it is a mark after which nothing is missed,
        however quick the answer."""
        reply = self.requestor.request(
            "GET",
            ACCOUNT_STREAM,
            token=self.token,
            params=given(since=since, wait=wait or None),
            timeout=wait + self.requestor.timeout,
        )
        return cast(AccountEvents, reply.data)

    def games(self) -> list[AccountGame]:
        """The account's games in play, newest first; play one from here with ``client.games.get()``."""
        reply = self.requestor.request(
            "GET", "/v1/account/games", params={"status": "live"}, token=self.token
        )
        return cast(AccountGames, reply.data)["games"]

    def following(self) -> list[Followed]:
        """The players the account follows (``client.players.follow(name)``), by name: each one's
        ``name``, ``bot`` (a bot account), ``online`` (its account stream is open now) and ``playing``,
        its games in play, newest first (watch one: ``client.games.get(game_id)`` with no token; a
        player online and playing none is free to challenge: ``client.challenges.create(name)``)."""
        reply = self.requestor.request("GET", "/v1/account/following", token=self.token)
        return cast(FollowedPlayers, reply.data)["players"]

    def blocking(self) -> list[str]:
        """The names of the players the account blocks (``client.players.block(name)``): only the
        account sees this."""
        reply = self.requestor.request("GET", "/v1/account/blocking", token=self.token)
        return cast(Blocking, reply.data)["players"]

    def __call__(self) -> AccountInfo:
        """The old ``client.account()``, for one release: :meth:`get`."""
        renamed("client.account()", "client.account.get()")
        return self.get()
