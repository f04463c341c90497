"""The client of the Gin Rummy service's ``/v1`` HTTP API.

A :class:`Client` keeps the caller's token and one :class:`~ginrummy_client.transport.Requestor`, and offers
the API by resource, as berserk does (lichess-org/berserk): ``client.games``, ``client.players``,
``client.lobby``, ``client.account``, ``client.challenges``, ``client.tournaments``, ``client.archive``,
``client.reviews`` and ``client.service``, each a small class of its own module. Every request passes
through the one Requestor (theirs, and those of the games, seeks and event feeds they hand out): it sends
the token, JSON bodies and an Idempotency-Key on every POST, decodes the answer, turns an error answer into
the :class:`ApiError` subclass of its code, waits out ``Retry-After`` on 429 and 503, and resends requests
that are safe to resend after a network error.

The old flat methods (``client.create_game(…)``, ``client.account()``, …) still work for one
release: each warns (``DeprecationWarning``) naming its new call, and makes it.

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

import functools
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

import requests

from .account import Account
from .archive import Archive
from .challenges import Challenges
from .games import Games
from .people import Lobby, Players
from .resource import renamed
from .reviews import Reviews
from .service import Service
from .tournaments import Tournaments
from .transport import Requestor

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")


class _OnRequestor(Generic[T]):
    """A setting of the :class:`Client` kept on its Requestor: setting it on the client (``gin`` switches
    servers so) reaches every game, seek and feed of that client, which all send through the Requestor."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, client: None, owner: type) -> _OnRequestor[T]: ...
    @overload
    def __get__(self, client: Client, owner: type) -> T: ...
    def __get__(self, client: Client | None, owner: type) -> T | _OnRequestor[T]:
        if client is None:
            return self
        return cast(T, getattr(client.requestor, self.name))

    def __set__(self, client: Client, value: T) -> None:
        setattr(client.requestor, self.name, value)


class _Renamed(Generic[P, R]):
    """An old flat method, kept for one release: ``client.<old>(…)`` warns, naming the new call
    ``client.<resource>.<method>(…)``, and makes it with the same arguments."""

    def __init__(self, resource: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.resource = resource
        self.method = method

    def __set_name__(self, owner: type, name: str) -> None:
        self.old = name

    @overload
    def __get__(self, client: None, owner: type) -> _Renamed[P, R]: ...
    @overload
    def __get__(self, client: Client, owner: type) -> Callable[P, R]: ...
    def __get__(self, client: Client | None, owner: type) -> Callable[P, R] | _Renamed[P, R]:
        if client is None:
            return self
        name = f"{self.resource}.{self.method.__name__}"
        new = cast(Callable[P, R], getattr(getattr(client, self.resource), self.method.__name__))

        @functools.wraps(new)
        def alias(*args: P.args, **kwargs: P.kwargs) -> R:
            renamed(f"client.{self.old}()", f"client.{name}()")
            return new(*args, **kwargs)

        return alias


class Client:
    """A client of one Gin Rummy service, its API by resource:

    - ``games``: games in play — create, join, get (resume a seat, or watch), live;
    - ``players``: create, get (a profile), leaderboard, follow, unfollow, block, unblock;
    - ``lobby``: get (the open seeks), seek (quick match), accept;
    - ``account``: get, sign_up, sign_in, sign_out, change_password, sessions, create_token, tokens,
      revoke_token, become_bot, stream, events (a page of the stream), games (in play), following (who
      of the players followed is online, and their games in play), blocking;
    - ``challenges``: create, list, get, accept, decline, cancel;
    - ``tournaments``: create, list, get (a page of standings), join, withdraw, start, terminate, edit,
      results, games, stream;
    - ``archive``: finished matches — export, games (a player's), export_games, rating_history;
    - ``reviews``: request, get, wait;
    - ``service``: rules, bots, chat_presets, analyze, health, ready.

    ``server``: its base URL. ``session``: a ``requests.Session`` to send through (default: a new one,
    closed by :meth:`close`). ``token``: the caller's credential — a player's token
    (``players.create()``), sent when creating, joining, seeking or accepting a game so that the seat is
    the player's (and then also good to play that seat), and the token ``games.get()`` uses when given
    none; or an account's session or API token; or just a seat token for ``games.get()`` (a seat token is
    no player's: creating a game with it is refused). Signing in or out changes it. ``timeout``:
    seconds to wait for an answer (long polls and streams add their own wait). ``retries``: how many times
    a request is sent again after a network error (only when that is safe: GETs, and POSTs, which all carry
    an Idempotency-Key) or after a 429/503 whose ``Retry-After`` is at most ``max_retry_wait`` seconds.
    ``user_agent``: the application's product token (``gin-cli/0.1.0``), sent in ``User-Agent`` before
    the SDK's own. These settings live on ``requestor``, the :class:`Requestor` that sends every request
    of this client and of the games and seeks it hands out.
    """

    server = _OnRequestor[str]()
    session = _OnRequestor[requests.Session]()
    timeout = _OnRequestor[float]()
    retries = _OnRequestor[int]()
    max_retry_wait = _OnRequestor[float]()
    user_agent = _OnRequestor[str]()

    def __init__(
        self,
        server: str,
        *,
        session: requests.Session | None = None,
        token: str | None = None,
        timeout: float = 10.0,
        retries: int = 3,
        max_retry_wait: float = 30.0,
        user_agent: str | None = None,
    ) -> None:
        self.requestor = Requestor(
            server,
            session=session,
            timeout=timeout,
            retries=retries,
            max_retry_wait=max_retry_wait,
            user_agent=user_agent,
        )
        self.token = token
        # The Requestor's one method under the name scripts (and tests) send a raw request by.
        self._request = self.requestor.request
        self.games = Games(self)
        self.players = Players(self)
        self.lobby = Lobby(self)
        self.account = Account(self)
        self.challenges = Challenges(self)
        self.tournaments = Tournaments(self)
        self.archive = Archive(self)
        self.reviews = Reviews(self)
        self.service = Service(self)

    def __repr__(self) -> str:
        return f"Client({self.server!r}{', token=***' if self.token else ''})"

    def close(self) -> None:
        """Close the session, when the client made it."""
        self.requestor.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- the old flat names, for one release (account(), challenges() and lobby(): the resource
    # clients' __call__) ------------------------------------------------------------------------------

    rules = _Renamed("service", Service.rules)
    bots = _Renamed("service", Service.bots)
    analyze = _Renamed("service", Service.analyze)
    health = _Renamed("service", Service.health)
    ready = _Renamed("service", Service.ready)
    create_game = _Renamed("games", Games.create)
    join_game = _Renamed("games", Games.join)
    game = _Renamed("games", Games.get)
    live_games = _Renamed("games", Games.live)
    create_player = _Renamed("players", Players.create)
    player = _Renamed("players", Players.get)
    leaderboard = _Renamed("players", Players.leaderboard)
    seek = _Renamed("lobby", Lobby.seek)
    accept_seek = _Renamed("lobby", Lobby.accept)
    sign_up = _Renamed("account", Account.sign_up)
    sign_in = _Renamed("account", Account.sign_in)
    sign_out = _Renamed("account", Account.sign_out)
    change_password = _Renamed("account", Account.change_password)
    sessions = _Renamed("account", Account.sessions)
    create_token = _Renamed("account", Account.create_token)
    tokens = _Renamed("account", Account.tokens)
    revoke_token = _Renamed("account", Account.revoke_token)
    become_bot = _Renamed("account", Account.become_bot)
    account_stream = _Renamed("account", Account.stream)
    account_events = _Renamed("account", Account.events)
    account_games = _Renamed("account", Account.games)
    challenge = _Renamed("challenges", Challenges.create)
    challenge_status = _Renamed("challenges", Challenges.get)
    accept_challenge = _Renamed("challenges", Challenges.accept)
    decline_challenge = _Renamed("challenges", Challenges.decline)
    cancel_challenge = _Renamed("challenges", Challenges.cancel)
    export = _Renamed("archive", Archive.export)
    player_games = _Renamed("archive", Archive.games)
    export_games = _Renamed("archive", Archive.export_games)
    rating_history = _Renamed("archive", Archive.rating_history)
    request_review = _Renamed("reviews", Reviews.request)
    review = _Renamed("reviews", Reviews.get)
    wait_for_review = _Renamed("reviews", Reviews.wait)
