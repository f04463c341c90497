"""What the SDK reads of accounts: a signed-in :class:`Session`, the typed bodies of the account, its
sessions, its API tokens and its games in play (``/v1/account``), and the account stream
(:class:`AccountStream`, ``GET /v1/account/stream``): what happens to the account as it happens — or,
a page at a time, :class:`AccountEventsPage` (the same events, a long poll).

>>> Session("Ann", "gin_s_secret", "12")
Session(name='Ann', id='12')
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from .challenges import ChallengeInfo
from .events import Following
from .models import SeatPlayer
from .transport import Requestor

ACCOUNT_STREAM = "/v1/account/stream"


@dataclass(frozen=True)
class Session:
    """A session made by :meth:`Client.sign_up` or :meth:`Client.sign_in`: the account's ``name``, the
    session ``token`` (shown once by the service; never in a ``repr``) and its ``id``."""

    name: str
    token: str = field(repr=False)
    id: str = ""


class SessionInfo(TypedDict, total=False):
    id: str
    created: float
    last_used: float
    expires: float
    user_agent: str
    address: str
    current: bool


class TokenInfo(TypedDict, total=False):
    id: str
    description: str
    scopes: list[str]
    created: float
    last_used: float | None


class CreatedToken(TokenInfo, total=False):
    token: str


class Credential(TypedDict, total=False):
    kind: str
    scopes: list[str]


class AccountInfo(TypedDict, total=False):
    name: str
    created: float | None
    password: bool
    bot: bool
    sessions: int
    tokens: int
    credential: Credential


class AccountGame(TypedDict, total=False):
    game_id: str
    seat: int
    players: list[SeatPlayer]
    rated: bool
    version: int
    your_move: bool
    game: str


class GameOpponent(TypedDict, total=False):
    """The other seat of an account's game: its name, its player (None: anonymous), whether a house bot."""

    name: str | None
    player: str | None
    bot: bool


class AccountEventGame(TypedDict, total=False):
    """The game of a ``gameStart`` or ``gameFinish``: the account's ``seat`` in it, the ``opponent``,
    ``rated``, ``rules``, ``game`` (its path); a finish adds ``winner`` (a seat, None: no winner),
    ``result`` for the account (won, lost, drawn, aborted) and ``end_reason`` (finished, resigned,
    timeout, abandoned, aborted)."""

    game_id: str
    seat: int
    players: list[SeatPlayer]
    opponent: GameOpponent
    rated: bool
    rules: dict[str, Any]
    game: str
    winner: int | None
    result: str
    end_reason: str


class AccountEvent(TypedDict, total=False):
    """A line of the account stream: ``type`` is ``gameStart`` or ``gameFinish`` (with ``game``),
    ``challenge`` (received or sent), ``challengeCanceled`` or ``challengeDeclined`` (with
    ``challenge``); ``id`` resumes the stream after it."""

    id: str
    type: str
    game: AccountEventGame
    challenge: ChallengeInfo


class AccountEventsPage(TypedDict):
    """The account stream as one page (``Accept: application/json``): its ``events`` and ``last_id``, the
    id the next page or stream goes on from (``since=``) — also when there were no events."""

    events: list[AccountEvent]
    last_id: str


PRESENT = frozenset({"gameStart", "challenge"})
"""The types of event a stream opened afresh starts with (the present: games in play, open challenges)."""


class AccountStream(Following[AccountEvent]):
    """The account's events as they happen, for as long as the caller iterates; see
    :meth:`Client.account_stream`.

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
