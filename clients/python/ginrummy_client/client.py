"""The client of the Gin Rummy service's ``/v1`` HTTP API.

A :class:`Client` keeps the caller's token and one :class:`~ginrummy_client.transport.Requestor`, through
which every request passes (its own, and those of the games, seeks and event feeds it hands out): the
Requestor sends the token, JSON bodies and an Idempotency-Key on every POST, decodes the answer, turns an
error answer into the :class:`ApiError` subclass of its code, waits out ``Retry-After`` on 429 and 503,
and resends requests that are safe to resend after a network error.

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

import json
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar, Unpack, cast, overload
from urllib.parse import quote

import requests

from . import reviews
from .account import (
    ACCOUNT_STREAM,
    AccountEventsPage,
    AccountGame,
    AccountInfo,
    AccountStream,
    CreatedToken,
    Session,
    SessionInfo,
    TokenInfo,
)
from .archive import GameFilters, games_query, read_exports, read_pages
from .challenges import Challenge, ChallengeInfo, ChallengeList, RulesSpec, challenge_path, rules_body
from .game import Game, game_path
from .models import (
    Analysis,
    BotsInfo,
    Created,
    Health,
    Leaderboard,
    LiveGames,
    Lobby,
    MatchExport,
    PlayerGame,
    Profile,
    RatingHistory,
    ReviewStatus,
    RulesInfo,
    SeekInfo,
)
from .people import Player, Seek, player_path, seek_path
from .transport import Reply, Requestor

T = TypeVar("T")


def parse_options(pairs: Iterable[str]) -> dict[str, Any]:
    """``KEY=VALUE`` rule options (as command lines take them); a value is JSON when it reads as JSON
    (numbers, true), else text. ValueError for a pair without ``=``.

    >>> parse_options(["target=25", "big_gin=false", "next_dealer=alternate"])
    {'target': 25, 'big_gin': False, 'next_dealer': 'alternate'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"an option is KEY=VALUE, not {pair!r}")
        try:
            options[key.strip()] = json.loads(text)
        except ValueError:
            options[key.strip()] = text
    return options


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


ClockSpec = str | Mapping[str, Any]
"""A time control: a preset's name (``"eaai"``: 30 s per player for the match) or
``{"per_move": s, "bank": s, "increment": s}`` (any of them; seconds)."""


def clock_body(clock: ClockSpec | None) -> dict[str, Any] | None:
    """The ``clock`` member of a create or seek body.

    >>> clock_body("eaai"), clock_body({"per_move": 60}), clock_body(None)
    ({'preset': 'eaai'}, {'per_move': 60}, None)
    """
    if clock is None:
        return None
    if isinstance(clock, str):
        return {"preset": clock}
    return dict(clock)


def given(**members: Any) -> dict[str, Any]:
    """The members that are given (not None): optional members of a body are left out, not sent as null.

    >>> given(name="Ann", seed=None)
    {'name': 'Ann'}
    """
    return {key: value for key, value in members.items() if value is not None}


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


class Client:
    """A client of one Gin Rummy service.

    ``server``: its base URL. ``session``: a ``requests.Session`` to send through (default: a new one,
    closed by :meth:`close`). ``token``: the caller's credential — a player's token (:meth:`create_player`),
    sent when creating, joining, seeking or accepting a game so that the seat is the player's (and then
    also good to play that seat), and the token :meth:`game` uses when given none; or just a seat token
    for :meth:`game` (a seat token is no player's: creating a game with it is refused). ``timeout``:
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

    def __repr__(self) -> str:
        return f"Client({self.server!r}{', token=***' if self.token else ''})"

    def close(self) -> None:
        """Close the session, when the client made it."""
        self.requestor.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- stateless -----------------------------------------------------------------------------------

    def rules(self) -> RulesInfo:
        """The rule presets and every option, with its default and meaning."""
        return cast(RulesInfo, self.requestor.request("GET", "/v1/rules").data)

    def bots(self) -> BotsInfo:
        """Whom a bot can play: the house bots (``bots``: name, level, style, ``player`` — the name to
        challenge — and ``ratings`` by family), the ``default`` one, and the bot accounts online now
        (``accounts``: their account stream open)."""
        return cast(BotsInfo, self.requestor.request("GET", "/v1/bots").data)

    def analyze(self, cards: Iterable[str | int], knock_limit: int = 10) -> Analysis:
        """Melds, deadwood, whether 10 or 11 cards can knock or go gin, and the best discards."""
        body = {"cards": list(cards), "knock_limit": knock_limit}
        return cast(Analysis, self.requestor.request("POST", "/v1/analyze", json=body).data)

    def health(self) -> Health:
        """``{"status": "ok"}`` when the service's process is up (it does not ask Redis)."""
        return cast(Health, self.requestor.request("GET", "/healthz", retries=0).data)

    def ready(self) -> Health:
        """``{"status": "ready", "archive": {"pending", "lag_seconds"}}`` when the service can serve;
        :class:`ServiceUnavailable` otherwise."""
        return cast(Health, self.requestor.request("GET", "/readyz", retries=0).data)

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
        rated: bool = False,
        private: bool = False,
        clock: ClockSpec | None = None,
    ) -> Game:
        """A new game in which the caller is seat 0: against ``bot`` (default: the service's default
        bot), or with ``human=True`` against a person who joins with :attr:`Game.invitation_code`.

        ``preset`` and ``options`` are the rules (:meth:`rules` lists them), ``name`` the caller's name
        (default: the player's), ``opponent_name`` the bot's, ``seed`` fixed deals (only services run for
        tests accept one). ``rated``: the result changes ratings (the client's token must be a player's,
        the rules a preset without options). ``private``: not listed by :meth:`live_games`. ``clock``: a
        time control, ``"eaai"`` or ``{"per_move", "bank", "increment"}`` in seconds."""
        if human and (bot is not None or opponent_name is not None):
            raise ValueError("a human opponent chooses their own name and is no bot")
        body = {
            "rules": {"preset": preset, "options": dict(options or {})},
            "opponent": {"type": "human" if human else "bot", **given(bot=bot, name=opponent_name)},
            **given(name=name, seed=seed, rated=rated or None, private=private or None),
            **given(clock=clock_body(clock)),
        }
        return self._seated(self.requestor.request("POST", "/v1/games", token=self.token, json=body))

    def join_game(self, game_id: str, invitation: str | None = None, *, name: str | None = None) -> Game:
        """Take seat 1 of a game with its invitation: ``join_game(game_id, invitation)``, or
        ``join_game("GAME_ID:INVITATION")`` with the code the creator shared. An invitation works once.
        With a player's token (the client's) the seat is the player's (a rated game requires that)."""
        if invitation is None:
            game_id, invitation = parse_invitation(game_id)
        body = {"invitation": invitation, **given(name=name)}
        reply = self.requestor.request(
            "POST", game_path(game_id, "join"), token=self.token, json=body, secrets=[invitation]
        )
        return self._seated(reply)

    def game(self, game_id: str, token: str | None = None) -> Game:
        """A game read now: the seat of ``token`` (default: the client's), or the spectator's view
        without one. This is how a saved seat is resumed."""
        game = Game(self, game_id, token=token if token is not None else self.token)
        view = game.refresh()
        game.seat = view.get("seat")
        return game

    def live_games(self, limit: int = 50) -> LiveGames:
        """The public games in play, newest first (read one with :meth:`game` and no token: a spectator)."""
        params = {"status": "live", "limit": limit}
        return cast(LiveGames, self.requestor.request("GET", "/v1/games", params=params).data)

    # --- players -------------------------------------------------------------------------------------

    def create_player(self, name: str) -> Player:
        """A new player: ``name`` is unique ignoring case (:class:`NameTaken`; names starting with ``bot-``
        are the bots', :class:`NameReserved`). Its token is shown this once: keep it, and give it to a
        client (``Client(server, token=player.token)``) to play as that player."""
        reply = self.requestor.request("POST", "/v1/players", json={"name": name})
        data = cast(dict[str, str], reply.data)
        return Player(data["name"], data["token"])

    def player(self, name: str) -> Profile:
        """A player's public profile: games played, won and lost, statistics, ratings with their rank,
        and recent games (:class:`PlayerNotFound` when there is no such player)."""
        return cast(Profile, self.requestor.request("GET", player_path(name)).data)

    def leaderboard(self, family: str = "standard", limit: int = 50) -> Leaderboard:
        """The best rated players of a rules ``family`` (a preset's name), best first."""
        params = {"family": family, "limit": limit}
        return cast(Leaderboard, self.requestor.request("GET", "/v1/leaderboard", params=params).data)

    # --- accounts ------------------------------------------------------------------------------------

    def sign_up(self, name: str, password: str, *, claim: bool = False) -> Session:
        """A new account, signed in: this client's :attr:`token` becomes the session's. ``claim``: set
        the first password of the name-and-token player whose token this client holds. Refusals:
        :class:`AccountExists`, :class:`WeakPassword`, :class:`NameReserved`."""
        token = self.token if claim else None
        reply = self.requestor.request(
            "POST", "/v1/account", json={"name": name, "password": password}, token=token, secrets=[password]
        )
        return self._signed_in(cast(dict[str, str], reply.data))

    def sign_in(self, name: str, password: str) -> Session:
        """A new session of the account: this client's :attr:`token` becomes the session's
        (:class:`BadCredentials`; :class:`RateLimited` after too many failures)."""
        reply = self.requestor.request(
            "POST", "/v1/account/sessions", json={"name": name, "password": password}, secrets=[password]
        )
        return self._signed_in(cast(dict[str, str], reply.data))

    def _signed_in(self, data: dict[str, str]) -> Session:
        self.token = data["token"]
        return Session(data["name"], data["token"], str(data.get("session", "")))

    def sign_out(self, session_id: str = "current") -> int:
        """End a session: this one (default; this client forgets its token), another by its id, or
        ``"all"`` (sign out everywhere). How many sessions ended."""
        path = (
            "/v1/account/sessions"
            if session_id == "all"
            else "/v1/account/sessions/" + quote(session_id, safe="")
        )
        reply = self.requestor.request("DELETE", path, token=self.token)
        if session_id in ("current", "all"):
            self.token = None
        return int(cast(dict[str, int], reply.data)["signed_out"])

    def change_password(self, current: str, new: str) -> int:
        """A new password (the current one is needed); the other sessions end: how many did."""
        reply = self.requestor.request(
            "POST",
            "/v1/account/password",
            json={"current": current, "new": new},
            token=self.token,
            secrets=[current, new],
        )
        return int(cast(dict[str, int], reply.data)["signed_out"])

    def sessions(self) -> list[SessionInfo]:
        """The account's sessions, newest first (needs a session token)."""
        reply = self.requestor.request("GET", "/v1/account/sessions", token=self.token)
        return cast(list[SessionInfo], cast(dict[str, Any], reply.data)["sessions"])

    def create_token(self, description: str, scopes: Iterable[str] = ("play",)) -> CreatedToken:
        """A personal API token (``token``, shown once) with ``scopes``: play, bot, read."""
        body = {"description": description, "scopes": list(scopes)}
        reply = self.requestor.request("POST", "/v1/account/tokens", json=body, token=self.token)
        return cast(CreatedToken, reply.data)

    def tokens(self) -> list[TokenInfo]:
        """The account's API tokens (never the tokens themselves)."""
        reply = self.requestor.request("GET", "/v1/account/tokens", token=self.token)
        return cast(list[TokenInfo], cast(dict[str, Any], reply.data)["tokens"])

    def revoke_token(self, token_id: str) -> None:
        """Revoke an API token: refused from its next request on (:class:`TokenNotFound`)."""
        self.requestor.request("DELETE", "/v1/account/tokens/" + quote(token_id, safe=""), token=self.token)

    def account(self) -> AccountInfo:
        """Who am I: the account of this client's token (session, API token or player token)."""
        return cast(AccountInfo, self.requestor.request("GET", "/v1/account", token=self.token).data)

    def become_bot(self) -> AccountInfo:
        """Make this account a bot account, for good (a session token; only an account that has played
        no game: :class:`AccountHasGames`; :class:`AlreadyBot`). From then on its sessions only read: it
        plays through API tokens (``create_token(…, ["bot"])``), and is listed by :meth:`bots` while its
        account stream is open."""
        return cast(AccountInfo, self.requestor.request("POST", "/v1/account/bot", token=self.token).data)

    def account_stream(self, since: str | None = None, wait: float | None = None) -> AccountStream:
        """The account's events as they happen (:class:`~ginrummy_client.account.AccountStream`):
        ``gameStart``/``gameFinish`` of its games, ``challenge`` (received or sent), ``challengeCanceled``,
        ``challengeDeclined``, each a typed :class:`AccountEvent` with its ``id``. Afresh (``since``
        None) it starts with a ``gameStart`` for every game in play and a ``challenge`` for every open
        challenge received; ``since`` resumes after that id. Each connection stays open ``wait``
        seconds (None: the service's longest); the iterator reconnects from the last id when the service
        ends one, the connection drops or the store is away, until you ``break`` or ``close()`` it
        (from any thread)."""
        return AccountStream(self.requestor, token=self.token, since=since, wait=wait)

    def account_events(self, since: str | None = None, wait: float = 0.0) -> AccountEventsPage:
        """The account stream's events as one page — a long poll, for a caller that would rather not
        hold a stream open or read it on a thread: what came after the id ``since``, the service holding
        the request up to ``wait`` seconds (at most its ``GIN_MAX_WAIT``) while nothing has; afresh
        (``since`` None) the present, as :meth:`account_stream` starts with, at once. The page's
        ``last_id`` is where the next one goes on from, whether events came or not: taken *before*
        doing something whose answer comes on the stream (a challenge sent), it is a mark after which
        nothing is missed, however quick the answer."""
        reply = self.requestor.request(
            "GET",
            ACCOUNT_STREAM,
            token=self.token,
            params=given(since=since, wait=wait or None),
            timeout=wait + self.timeout,
        )
        return cast(AccountEventsPage, reply.data)

    def account_games(self) -> list[AccountGame]:
        """The account's games in play, newest first; play one from here with :meth:`game`."""
        reply = self.requestor.request(
            "GET", "/v1/account/games", params={"status": "live"}, token=self.token
        )
        return cast(list[AccountGame], cast(dict[str, Any], reply.data)["games"])

    # --- challenges ----------------------------------------------------------------------------------

    def challenge(
        self,
        opponent: str,
        *,
        rules: RulesSpec | None = None,
        clock: ClockSpec | None = None,
        rated: bool = False,
        name: str | None = None,
    ) -> Challenge:
        """Challenge ``opponent`` — a player's name, or a house bot's player (``bot-expert``), which
        accepts at once (``challenge.game_id`` is set) — to a game under ``rules`` (a preset's name, or
        ``{"preset", "options"}``; default standard), with ``clock`` (``"rapid"``,
        ``{"per_move", "bank", "increment"}``; default none), ``rated`` or casual. With the client's
        token the challenge is the account's (and its game too); without, ``name`` is the anonymous
        challenger's and the answer's token is the only key to it. The opponent learns of it on its
        account stream. Refusals: :class:`PlayerNotFound`, :class:`ChallengeSelf`, :class:`BadRules`,
        :class:`PlayerRequired` and :class:`RatedNeedsPreset` (rated), :class:`UnknownBot`. Not resent
        after a lost answer (a second challenge would be made)."""
        body = {
            "opponent": opponent,
            "rated": rated,
            **given(rules=rules_body(rules), clock=clock_body(clock), name=name),
        }
        reply = self.requestor.request(
            "POST", "/v1/challenges", token=self.token, json=body, idempotent=False
        )
        data = cast(dict[str, Any], reply.data)
        return Challenge.made(cast(ChallengeInfo, data["challenge"]), data["token"])

    def challenges(self) -> ChallengeList:
        """The account's open challenges: received (``["in"]``) and sent (``["out"]``)."""
        return cast(ChallengeList, self.requestor.request("GET", "/v1/challenges", token=self.token).data)

    def challenge_status(self, challenge_id: str, token: str | None = None) -> ChallengeInfo:
        """A challenge as it stands now (open, accepted with its ``game_id``, declined with its
        ``decline_reason``, canceled, expired), to either side: the client's token, or ``token`` (an
        anonymous challenger's challenge token). :class:`ChallengeNotFound` for anyone else."""
        reply = self.requestor.request(
            "GET", challenge_path(challenge_id), token=token if token is not None else self.token
        )
        return cast(ChallengeInfo, reply.data)

    def accept_challenge(self, challenge_id: str) -> Game:
        """Accept a challenge made to this account: the game starts, and this is its seat 1 (the
        client's token acts on it too). :class:`ChallengeClosed` (``challenge_status``) when it is no
        longer open. Not resent after a lost answer: the game was made, or the challenge is still open."""
        reply = self.requestor.request(
            "POST", challenge_path(challenge_id, "accept"), token=self.token, idempotent=False
        )
        return self._seated(reply)

    def decline_challenge(self, challenge_id: str, reason: str = "generic") -> ChallengeInfo:
        """Decline a challenge made to this account, with a reason the challenger sees (one of
        :data:`~ginrummy_client.challenges.DECLINE_REASONS`: ``rules``, ``rated``, ``casual``,
        ``too_fast``, ``too_slow``, ``time_control``, ``later``, …)."""
        reply = self.requestor.request(
            "POST", challenge_path(challenge_id, "decline"), token=self.token, json={"reason": reason}
        )
        return cast(ChallengeInfo, reply.data)

    def cancel_challenge(self, challenge_id: str, token: str | None = None) -> ChallengeInfo:
        """Withdraw a challenge this account made (or, with ``token``, an anonymous one's)."""
        reply = self.requestor.request(
            "POST",
            challenge_path(challenge_id, "cancel"),
            token=token if token is not None else self.token,
        )
        return cast(ChallengeInfo, reply.data)

    # --- the archive: finished matches ----------------------------------------------------------------

    def export(self, game_id: str) -> MatchExport:
        """A finished match in one document (``ginrummy.match``, version 1): players, rules, result,
        statistics, rating changes and every hand with its deal, moves, scoring and shuffle proof.
        :class:`NotArchived` while it is being played (or for a moment after its end, its record on its
        way to the archive)."""
        return cast(MatchExport, self.requestor.request("GET", game_path(game_id, "export")).data)

    def request_review(self, game_id: str) -> ReviewStatus:
        """Ask for the review of a finished match — every decision of each seat judged by the master from
        what that seat knew — and return where it stands: ``pending`` while a bot worker of the service
        computes it (read it with :meth:`review`, or wait with :meth:`wait_for_review`), ``done`` with the
        ``review`` when it was there already (asking again costs nothing), ``failed`` never (a failed one
        is asked for anew). :class:`NotArchived` for a match not (yet) in the archive."""
        return reviews.request_review(self.requestor, game_id)[0]

    def review(self, game_id: str) -> ReviewStatus:
        """The review of a finished match as it stands: ``pending``, ``done`` (with ``review``: seats'
        accuracy and counts, the judged moves) or ``failed`` (ask again). :class:`ReviewNotFound` when
        none was asked for, :class:`NotArchived` for a match not (yet) in the archive."""
        return reviews.read_review(self.requestor, game_id)[0]

    def wait_for_review(
        self,
        game_id: str,
        timeout: float | None = 300.0,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> ReviewStatus:
        """The review of a finished match once it is ``done`` (or has ``failed``), asked for when there is
        none yet, then read again as the service's ``Retry-After`` says, else after pauses from 0.5 s
        doubling to 3 s. :class:`ReviewTimeout` when it is still pending after ``timeout`` seconds (None:
        wait as long as it takes) — the review goes on in the service; :class:`NotArchived` for a match
        not (yet) in the archive. ``sleep(seconds)`` waits each pause (e.g. to show the time passing)."""
        return reviews.wait_for_review(self.requestor, game_id, timeout, sleep)

    def player_games(
        self, name: str, *, limit: int = 50, **filters: Unpack[GameFilters]
    ) -> Iterator[PlayerGame]:
        """A player's finished games, newest first, that pass the ``filters`` (``since``, ``until``,
        ``opponent``, ``rated``, ``family``, ``result``: :class:`~ginrummy_client.archive.GameFilters`;
        ``since``/``until`` a ``datetime``, a ``date`` or ISO 8601 text).

        The games are read a page of ``limit`` (1–100) at a time, each page only once the previous one
        has been gone through, following the service's opaque ``next`` cursor: iterate for as long as you
        want games (``itertools.islice`` for the first few). Nothing is asked before the first game is;
        then :class:`PlayerNotFound` for no such player, :class:`ValidationError` (:class:`BadFilter`)
        for filters the service refuses. The client's own player (its token) also gets its private
        games; anyone else's list leaves them out."""
        query = {**games_query(**filters), "limit": limit}
        return read_pages(self.requestor, player_path(name, "games"), query, self.token)

    def export_games(self, name: str, **filters: Unpack[GameFilters]) -> Generator[MatchExport, None, None]:
        """Every finished game of a player that passes the ``filters`` (as :meth:`player_games`), newest
        first, each as the whole export document (:meth:`export`), streamed: the service sends one
        document a line, and only the line being read is held here, however many games there are.

        The request is sent when the first game is asked for; the connection is released when the
        iteration ends (``close()`` the iterator to stop early). Should the service's database fail
        during the stream, :class:`ArchiveUnavailable` is raised after the games already read (a stream
        is not resumed: ask again, e.g. with ``until`` the ``finished_at`` of the last game read)."""
        return read_exports(self.requestor, player_path(name, "games"), games_query(**filters), self.token)

    def rating_history(self, name: str, family: str | None = None) -> RatingHistory:
        """A player's rating before and after each rated game, oldest first, by rules family (only
        ``family``'s, when given): ``{"player", "families": {family: [{"game_id", "at", "before",
        "after"}]}}``; ``before`` is None for the first rated game of a family."""
        params = {"family": family} if family is not None else None
        reply = self.requestor.request(
            "GET", player_path(name, "rating-history"), params=params, token=self.token
        )
        return cast(RatingHistory, reply.data)

    # --- the lobby -----------------------------------------------------------------------------------

    def lobby(self) -> Lobby:
        """The open seeks, oldest first; take one with :meth:`accept_seek`."""
        return cast(Lobby, self.requestor.request("GET", "/v1/lobby").data)

    def seek(
        self,
        *,
        preset: str = "standard",
        options: Mapping[str, Any] | None = None,
        rated: bool = False,
        clock: ClockSpec | None = None,
        min_rating: int | None = None,
        max_rating: int | None = None,
        quick: bool = True,
    ) -> Game | Seek:
        """Look for an opponent (the client's token must be a player's): a :class:`Game` (seat 1) when a
        compatible seek was open — same rules, clock and ``rated``, each player's rating within the
        other's ``min_rating``–``max_rating`` — else a :class:`Seek` waiting in the lobby, whose
        :meth:`Seek.wait` gives the game (seat 0) once someone takes it. ``quick=False``: always wait
        in the lobby."""
        body = {
            "rules": {"preset": preset, "options": dict(options or {})},
            "rated": rated,
            "quick": quick,
            **given(clock=clock_body(clock), min_rating=min_rating, max_rating=max_rating),
        }
        # Not resent after a lost answer: a seek is no replayed request (a second one could pair again).
        reply = self.requestor.request("POST", "/v1/seeks", token=self.token, json=body, idempotent=False)
        if reply.status == 201:
            return self._seated(reply)
        waiting = cast(dict[str, Any], reply.data)
        return Seek(self, cast(SeekInfo, waiting["seek"]), waiting["token"])

    def accept_seek(self, seek_id: str) -> Game:
        """Take a seek of the lobby (the client's token must be a player's): the game starts, the caller
        is seat 1. :class:`SeekTaken` when someone else was first, :class:`SeekIncompatible` when it is
        not open to this player."""
        reply = self.requestor.request(
            "POST", seek_path(seek_id, "accept"), token=self.token, idempotent=False
        )
        return self._seated(reply)

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
