"""A game as one seat (or a spectator) plays it: the last view it saw, and the moves.

Every move is sent with ``If-Match`` set to the version of the last view the :class:`Game` saw, so the
service refuses a move chosen from an outdated view with 412 (:class:`StaleVersion`) instead of applying
it to a game that has changed. That happens when the same seat plays from two places (two tabs, a bot
harness and a person). The remedy is to read the view again and choose again::

    while True:
        try:
            game.act(choose(game.view))
            break
        except StaleVersion:
            game.refresh()          # or game.act(..., refresh_on_stale=True), which re-reads before raising

After a successful move :attr:`Game.view` is the answer's *play view* (without ``history`` and ``stats``);
:meth:`Game.refresh` reads the full view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote

from .errors import StaleVersion
from .events import EventFeed, cursor_key
from .models import Action, Event, EventsPage, HandRecord, Hint, Layoff, MoveResult, View

if TYPE_CHECKING:
    from .client import Client

CardLike = str | int
"""A card as the service accepts it: ``"7H"``, ``"TD"``, ``"10d"``, ``"♥7"`` or an int 0–51."""


def game_path(game_id: str, *rest: str) -> str:
    """The path of a game resource; the id is quoted, so it can never name another path.

    >>> game_path("g1", "hands", "2"), game_path("../x")
    ('/v1/games/g1/hands/2', '/v1/games/..%2Fx')
    """
    return "/".join(["/v1/games", quote(game_id, safe=""), *rest])


class Game:
    """One game through the eyes of ``seat`` (its ``token`` acts for it), or of a spectator (no token).

    Made by :meth:`Client.create_game`, :meth:`Client.join_game` and :meth:`Client.game`. ``view`` is the
    last view seen (empty until one is read) and ``version`` its version; ``invitation`` is set for the
    creator of a game against a human; ``cursor`` is the id of the newest event this object has received
    (moves, pages, feeds); ``last_events`` are the events of its last change (create, join, move).
    ``refresh_on_stale``: the default of :meth:`act`'s argument of that name."""

    def __init__(
        self,
        client: Client,
        game_id: str,
        *,
        token: str | None = None,
        seat: int | None = None,
        invitation: str | None = None,
        view: View | None = None,
        events: Iterable[Event] = (),
        refresh_on_stale: bool = False,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.invitation = invitation
        self.view: View = view if view is not None else {}
        self.cursor: str | None = None
        self.last_events: list[Event] = list(events)
        self.refresh_on_stale = refresh_on_stale
        self._received(self.last_events)

    def __repr__(self) -> str:
        who = "spectator" if self.token is None else f"seat={self.seat}"
        return f"<Game {self.game_id} {who} version={self.version} phase={self.phase}>"

    # --- what it saw ---------------------------------------------------------------------------------

    @property
    def version(self) -> int | None:
        """The version of the last view seen (what the next move is sent on top of)."""
        return self.view.get("version")

    @property
    def phase(self) -> str | None:
        """The phase of the last view seen: draw, discard, …, hand_over, game_over, match_over."""
        return self.view.get("phase")

    @property
    def legal_actions(self) -> list[Action]:
        """What this seat may do now, in the last view seen: post any of them with :meth:`act`."""
        return list(self.view.get("legal_actions") or [])

    @property
    def invitation_code(self) -> str | None:
        """``GAME_ID:INVITATION``, for the invited player's :meth:`Client.join_game` (creator only)."""
        return f"{self.game_id}:{self.invitation}" if self.invitation else None

    def _path(self, *rest: str) -> str:
        return game_path(self.game_id, *rest)

    def _received(self, events: list[Event]) -> None:
        """Note events received by any means: they move :attr:`cursor` forward (never back)."""
        for event in events:
            if self.cursor is None or cursor_key(event["id"]) > cursor_key(self.cursor):
                self.cursor = event["id"]

    def refresh(self) -> View:
        """Read the seat's full view again (with ``history`` and ``stats``) and keep it as :attr:`view`.
        When the view kept is already a full view, ``If-None-Match`` spares re-sending an unchanged one."""
        headers = {}
        if "history" in self.view and self.version is not None:
            headers["If-None-Match"] = f'"{self.version}"'
        reply = self.client._request("GET", self._path(), token=self.token, headers=headers)
        if reply.status != 304:
            self.view = cast(View, reply.data)
        return self.view

    # --- moves ---------------------------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], *, refresh_on_stale: bool | None = None) -> MoveResult:
        """Play ``action`` (an element of :attr:`legal_actions`) on top of the last view seen.

        Returns the new version, the events of the move (with the bot's replies) and the new view, which
        becomes :attr:`view`. A refusal raises the :class:`ApiError` of its code and changes nothing:
        :class:`StaleVersion` (412) when the game moved on since that view — call :meth:`refresh` and
        choose again (with ``refresh_on_stale`` the view is re-read before the exception is raised);
        :class:`IllegalAction` and its kin carry the seat's ``legal_actions``. A network failure is
        retried with the same Idempotency-Key, so the move is applied at most once."""
        return self._change("actions", dict(action), refresh_on_stale)

    def draw(self, source: str = "stock") -> MoveResult:
        """Draw from the ``"stock"`` or the ``"discard"`` pile (during the upcard offer: take it)."""
        return self.act({"type": "draw", "source": source})

    def pass_(self) -> MoveResult:
        """Refuse the upcard (or the fiftieth card)."""
        return self.act({"type": "pass"})

    def discard(self, card: CardLike) -> MoveResult:
        """Discard ``card``."""
        return self.act({"type": "discard", "card": card})

    def knock(
        self, discard: CardLike | None, melds: Iterable[Iterable[CardLike]] | None = None
    ) -> MoveResult:
        """Knock discarding ``discard`` face down (None: big gin), with the arrangement ``melds``
        (default: one with the least deadwood). Gin is a knock with no deadwood."""
        action: dict[str, Any] = {"type": "knock", "discard": discard}
        if melds is not None:
            action["melds"] = [list(meld) for meld in melds]
        return self.act(action)

    def layoff(
        self,
        *,
        best: bool | None = None,
        melds: Iterable[Iterable[CardLike]] | None = None,
        layoffs: Iterable[Layoff] | None = None,
    ) -> MoveResult:
        """As the defender, lay down and lay off: the best way (the default, or ``best=True``), or
        ``melds`` with ``layoffs`` (``{"card", "meld": index of the knocker's meld}``) chosen."""
        if melds is None and layoffs is None:
            if best is False:
                raise ValueError("give melds (and layoffs), or best=True")
            return self.act({"type": "layoff", "best": True})
        if best:
            raise ValueError("best=True leaves the choice to the service: give no melds or layoffs")
        action = {
            "type": "layoff",
            "melds": [list(meld) for meld in melds or ()],
            "layoffs": [dict(item) for item in layoffs or ()],
        }
        return self.act(action)

    def deal(self) -> MoveResult:
        """Deal the next hand (between hands; either human seat may)."""
        return self.act({"type": "deal"})

    def undo(self) -> MoveResult:
        """Take back this seat's last move of the live hand (games against a bot only)."""
        return self._change("undo", None, None)

    def _change(self, what: str, body: dict[str, Any] | None, refresh_on_stale: bool | None) -> MoveResult:
        if self.version is None:
            self.refresh()
        headers = {"If-Match": f'"{self.version}"'}
        try:
            reply = self.client._request(
                "POST", self._path(what), token=self.token, json=body, headers=headers
            )
        except StaleVersion:
            if self.refresh_on_stale if refresh_on_stale is None else refresh_on_stale:
                self.refresh()
            raise
        result = cast(MoveResult, reply.data)
        self.view = result["view"]
        self.last_events = list(result["events"])
        self._received(self.last_events)
        return result

    # --- reading -------------------------------------------------------------------------------------

    def hint(self) -> Hint:
        """The service's advice for this seat's move: an action of :attr:`legal_actions`, and why."""
        return cast(Hint, self.client._request("GET", self._path("hint"), token=self.token).data)

    def hand(self, number: int) -> HandRecord:
        """Finished hand ``number`` revealed: the deal, the deck and its shuffle proof, every action and
        the scoring (only the last few hands are kept: :class:`NotFound` for older ones)."""
        reply = self.client._request("GET", self._path("hands", str(number)), token=self.token)
        return cast(HandRecord, reply.data)

    def events_page(self, after: str | None = None, *, wait: float = 0.0) -> EventsPage:
        """One JSON page of the events this seat may see after the cursor ``after`` (None: from the oldest
        kept); with ``wait`` and nothing new, the service holds the request up to ``wait`` seconds for
        the next event. ``truncated``: events between ``after`` and the page were trimmed away."""
        params = {"after": after, "wait": wait}
        reply = self.client._request(
            "GET", self._path("events"), token=self.token, params=params, timeout=wait + self.client.timeout
        )
        page = cast(EventsPage, reply.data)
        self._received(page["events"])
        return page

    def events(
        self,
        after: str | None = None,
        *,
        wait: float = 30.0,
        stream: bool = True,
        until: Callable[[Event], bool] | None = None,
    ) -> EventFeed:
        """The events this seat may see after ``after`` (None: from the oldest the service keeps; pass
        :attr:`cursor` to start after what this object has seen), for as long as the caller iterates.

        With ``stream`` it reads the NDJSON stream, each connection held open up to ``wait`` seconds;
        without, it long-polls JSON pages waiting up to ``wait`` seconds each. Either way it reconnects
        from the last event delivered when the connection drops or the service ends it, so every event
        comes exactly once and in order. It ends when ``until(event)`` is true for an event just
        delivered, when the caller stops iterating (``break``), or on :meth:`EventFeed.close` (also
        from another thread). See :class:`EventFeed` for ``truncated``."""
        return EventFeed(self, after, wait=wait, stream=stream, until=until)
