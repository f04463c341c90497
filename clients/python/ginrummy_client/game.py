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

``legal_actions`` also lists what ends the match — ``resign`` while it is live, ``abort`` before its first
card is drawn — and ``rematch`` after it, so a non-empty list does not mean it is the seat's move:
:attr:`Game.your_move` says that, and :attr:`Game.play_actions` are the moves of the play alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast, overload
from urllib.parse import quote

from .errors import StaleVersion
from .events import EventFeed, read_page
from .models import (
    Action,
    ChatLine,
    ChatPage,
    CreatedGame,
    Event,
    EventsPage,
    FinishedHand,
    Hint,
    LayoffItem,
    Moved,
    TableMute,
    View,
)
from .transport import Reply

if TYPE_CHECKING:
    from .client import Client

CardLike = str | int
"""A card as the service accepts it: ``"7H"``, ``"TD"``, ``"10d"``, ``"♥7"`` or an int 0–51."""

STALE_RETRIES = 3
"""How many times :meth:`Game.rematch` reads the view again after a 412 before giving up."""


def is_play(action: Mapping[str, Any]) -> bool:
    """Whether a listed legal action is a move of the play (its ``kind``), not an action on the match
    (resign, abort, rematch).

    >>> is_play({"type": "draw", "source": "stock", "kind": "play"})
    True
    >>> is_play({"type": "resign", "kind": "match"})
    False
    """
    return action.get("kind") == "play"


def listed(answer: Any, legal_actions: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The element of ``legal_actions`` that ``answer`` names — the same action, with or without its
    ``kind`` — or None.

    >>> listed({"type": "pass"}, [{"type": "pass", "kind": "play"}])
    {'type': 'pass', 'kind': 'play'}
    >>> listed({"type": "deal"}, [{"type": "pass", "kind": "play"}]) is None
    True
    """
    if not isinstance(answer, Mapping):
        return None
    wanted = {key: value for key, value in answer.items() if key != "kind"}
    for action in legal_actions:
        if {key: value for key, value in action.items() if key != "kind"} == wanted and answer.get(
            "kind", action.get("kind")
        ) == action.get("kind"):
            return action
    return None


def your_move(view: Mapping[str, Any]) -> bool:
    """Whether the seat of ``view`` has a move of the play to make: its ``your_move`` (a service older
    than that member: whether its legal actions hold a move of the play).

    >>> your_move({"your_move": False, "legal_actions": [{"type": "resign"}]})
    False
    >>> your_move({"legal_actions": [{"type": "resign", "kind": "match"}, {"type": "deal", "kind": "play"}]})
    True
    """
    if "your_move" in view:
        return bool(view["your_move"])
    return any(is_play(action) for action in view.get("legal_actions") or [])


def game_path(game_id: str, *rest: str) -> str:
    """The path of a game resource; the id is quoted, so it can never name another path.

    >>> game_path("g1", "hands", "2"), game_path("../x")
    ('/v1/games/g1/hands/2', '/v1/games/..%2Fx')
    """
    return "/".join(["/v1/games", quote(game_id, safe=""), *rest])


class Game:
    """One game through the eyes of ``seat`` (its ``token`` acts for it), or of a spectator (no token).

    Made by ``client.games.create()``, ``.join()`` and ``.get()``, and by a challenge or a seek accepted.
    ``view`` is the last view seen (read when none was yet) and ``version`` its version; ``invitation`` is
    set for the creator of a game against a human; ``cursor`` is the id of the newest event this object
    has received (moves, pages, feeds: pass it as ``after`` to read what came since); ``last_events`` are
    the events of its last change (create, join, move). ``refresh_on_stale``: the default of :meth:`act`'s
    argument of that name. Its requests go through its client's :attr:`Client.requestor`."""

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
        self._view = view  # the last view seen; None: none yet
        self.cursor: str | None = None
        self._seen: set[str] = set()  # the ids of every event received, to know a replay by
        self.last_events: list[Event] = list(events)
        self.refresh_on_stale = refresh_on_stale
        self._received(self.last_events)

    def __repr__(self) -> str:
        who = "spectator" if self.token is None else f"seat={self.seat}"
        return f"<Game {self.game_id} {who} version={self.version} phase={self.phase}>"

    # --- what it saw ---------------------------------------------------------------------------------

    @property
    def view(self) -> View:
        """The last view seen: the answer to the last change, or :meth:`refresh`'s (read now when this
        object has seen none yet)."""
        return self._view if self._view is not None else self.refresh()

    @property
    def version(self) -> int | None:
        """The version of the last view seen (what the next move is sent on top of); None before one."""
        return self._view["version"] if self._view is not None else None

    @property
    def phase(self) -> str | None:
        """The phase of the last view seen: draw, discard, …, hand_over, game_over, match_over."""
        return self._view["phase"] if self._view is not None else None

    @property
    def legal_actions(self) -> list[Action]:
        """What this seat may do now, in the last view seen: post any of them with :meth:`act`. It lists
        resign and abort whenever they are allowed, and rematch after the match: see :attr:`your_move`."""
        return list(self._view["legal_actions"]) if self._view is not None else []

    @property
    def play_actions(self) -> list[Action]:
        """The moves of the play in :attr:`legal_actions`: without resign, abort and rematch."""
        return [action for action in self.legal_actions if is_play(action)]

    @property
    def your_move(self) -> bool:
        """Whether this seat has a move of the play to make now, in the last view seen (while False,
        the opponent is to move, or the opponent has not joined, or the match is over)."""
        return self._view is not None and your_move(self._view)

    @property
    def match_over(self) -> bool:
        """Whether the match is over, in the last view seen (played out, resigned, lost on time…)."""
        return self._view is not None and (self.phase == "match_over" or self._view["scores"]["match_over"])

    @property
    def invitation_code(self) -> str | None:
        """``GAME_ID:INVITATION``, for the invited player's ``client.games.join()`` (creator only)."""
        return f"{self.game_id}:{self.invitation}" if self.invitation else None

    def _path(self, *rest: str) -> str:
        return game_path(self.game_id, *rest)

    def _received(self, events: Iterable[Event], after: str | None = None) -> None:
        """Note events received by any means — a change's answer, a page, a feed — each lot in its order,
        following the event ``after`` (None: unknown). Event ids are opaque: they are told apart, never
        compared. So :attr:`cursor` moves to an event not received before, and to a known one only from
        the event before it in the same lot: a page or feed replaying events already seen in the answers
        to moves carries the cursor along to where it was, never leaves it behind."""
        previous = after
        for event in events:
            if event["id"] not in self._seen or self.cursor == previous:
                self.cursor = event["id"]
            self._seen.add(event["id"])
            previous = event["id"]

    def refresh(self) -> View:
        """Read the seat's full view again (with ``history`` and ``stats``) and keep it as :attr:`view`.
        When the view kept is already a full view, ``If-None-Match`` spares re-sending an unchanged one."""
        headers = {}
        if self._view is not None and "history" in self._view:
            headers["If-None-Match"] = f'"{self._view["version"]}"'
        reply = self.client.requestor.request("GET", self._path(), token=self.token, headers=headers)
        if reply.status == 304 and self._view is not None:
            return self._view
        self._view = cast(View, reply.data)
        return self._view

    # --- moves ---------------------------------------------------------------------------------------

    def act(self, action: Mapping[str, Any], *, refresh_on_stale: bool | None = None) -> Moved:
        """Play ``action`` (an element of :attr:`legal_actions`) on top of the last view seen.

        Returns the new version, the events of the move (with the bot's replies) and the new view, which
        becomes :attr:`view`. A refusal raises the :class:`ApiError` of its code and changes nothing:
        :class:`StaleVersion` (412) when the game moved on since that view — call :meth:`refresh` and
        choose again (with ``refresh_on_stale`` the view is re-read before the exception is raised);
        :class:`IllegalAction` and its kin carry the seat's ``legal_actions``. A network failure is
        retried with the same Idempotency-Key, so the move is applied at most once."""
        return self._change("actions", dict(action), refresh_on_stale)

    def draw(self, source: str = "stock") -> Moved:
        """Draw from the ``"stock"`` or the ``"discard"`` pile (during the upcard offer: take it)."""
        return self.act({"type": "draw", "source": source})

    def pass_(self) -> Moved:
        """Refuse the upcard (or the fiftieth card)."""
        return self.act({"type": "pass"})

    def discard(self, card: CardLike) -> Moved:
        """Discard ``card``."""
        return self.act({"type": "discard", "card": card})

    def knock(self, discard: CardLike | None, melds: Iterable[Iterable[CardLike]] | None = None) -> Moved:
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
        layoffs: Iterable[LayoffItem] | None = None,
    ) -> Moved:
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

    def deal(self) -> Moved:
        """Deal the next hand (between hands; either human seat may)."""
        return self.act({"type": "deal"})

    def undo(self) -> Moved:
        """Take back this seat's last move of the live hand (games against a bot only)."""
        return self._change("undo", None, None)

    def berserk(self) -> Moved:
        """In an arena's match that allows it, before this seat's first move: berserk — half the bank and
        no increment; a win scores one point more (:class:`BerserkNotAllowed` otherwise)."""
        return self._change("berserk", None, None)

    # --- ending the match, and after it --------------------------------------------------------------

    def resign(self) -> Moved:
        """Resign: the opponent wins the match (at any time while it is live, whoever's turn it is)."""
        return self._change("resign", None, None)

    def abort(self) -> Moved:
        """Abort the match before the first card of its first hand is drawn: no result, no rating."""
        return self._change("abort", None, None)

    def claim_victory(self) -> Moved:
        """Win the match because the opponent's time is up, or (without a clock) it has not moved for the
        service's ``GIN_ABANDON_AFTER`` seconds. :class:`TooEarly` (``seconds_left``) before that;
        :class:`NothingToClaim` when it is not the opponent's move."""
        return self._change("claim-victory", None, None, if_match=False)

    def rematch(self) -> Moved:
        """Once the match is over: offer a rematch, or accept the opponent's offer (a bot accepts at once).
        When accepted, :meth:`rematch_game` is the new game, played with this same seat token.

        Asking does not depend on the position, so a game changed since the last view (the opponent
        offered meanwhile: 412) is read again and asked again, a few times. Then :class:`RematchExists`
        (``game_id``) when the rematch was made meanwhile."""
        for _ in range(STALE_RETRIES):
            try:
                return self._change("rematch", None, True)
            except StaleVersion:
                continue
        return self._change("rematch", None, None)

    def rematch_game(self) -> Game | None:
        """The rematch of this match for this seat, once accepted (from the last view or events seen):
        a :class:`Game` with the same token and seat and the new ``game_id``, its view read. None while
        it is not (yet) accepted: :meth:`wait_rematch` waits for it."""
        rematch = self._view.get("rematch") if self._view is not None else None
        game_id = rematch["game_id"] if rematch else None
        if game_id is None:
            accepted = [event["game_id"] for event in self.last_events if event["type"] == "rematch"]
            game_id = accepted[-1] if accepted else None
        if game_id is None:
            return None
        new = Game(self.client, game_id, token=self.token, seat=self.seat)
        new.refresh_on_stale = self.refresh_on_stale
        new.refresh()
        return new

    def wait_rematch(self, timeout: float | None = None, *, wait: float = 25.0) -> Game | None:
        """Wait until the opponent accepts the rematch offered (or offers one and this seat accepted it):
        the rematch's :class:`Game`, or None when ``timeout`` seconds passed first (None: no limit).
        It follows the game's events with long polls of up to ``wait`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self.refresh()
            found = self.rematch_game()
            if found is not None:
                return found
            left = wait if deadline is None else min(wait, deadline - time.monotonic())
            if left <= 0:
                return None
            # Anything after the newest event received; when that is older than the view just read, the
            # page comes at once and the next round waits from there.
            self.events_page(self.cursor, wait=left)

    def _change(
        self,
        what: str,
        body: dict[str, Any] | None,
        refresh_on_stale: bool | None,
        *,
        if_match: bool = True,
    ) -> Moved:
        headers = {}
        if if_match:
            if self.version is None:
                self.refresh()
            headers["If-Match"] = f'"{self.version}"'
        try:
            reply = self.client.requestor.request(
                "POST", self._path(what), token=self.token, json=body, headers=headers
            )
        except StaleVersion:
            if self.refresh_on_stale if refresh_on_stale is None else refresh_on_stale:
                self.refresh()
            raise
        result = cast(Moved, reply.data)
        self._view = result["view"]
        self.last_events = list(result["events"])
        self._received(self.last_events)
        return result

    # --- reading -------------------------------------------------------------------------------------

    def hint(self) -> Hint:
        """The service's advice for this seat's move: an action of :attr:`legal_actions`, and why."""
        reply = self.client.requestor.request("GET", self._path("hint"), token=self.token)
        return cast(Hint, reply.data)

    def hand(self, number: int) -> FinishedHand:
        """Finished hand ``number`` revealed: the deal, the deck and its shuffle proof, every action and
        the scoring — every hand played to its end, also after the match (the service's archive keeps them
        all); :class:`NotFound` for a hand still being played or never finished."""
        reply = self.client.requestor.request("GET", self._path("hands", str(number)), token=self.token)
        return cast(FinishedHand, reply.data)

    def events_page(self, after: str | None = None, *, wait: float = 0.0) -> EventsPage:
        """One JSON page of the events this seat may see after the cursor ``after`` (None: from the oldest
        kept); with ``wait`` and nothing new, the service holds the request up to ``wait`` seconds for
        the next event. ``truncated``: events between ``after`` and the page were trimmed away."""
        page = read_page(self.client.requestor, self._path("events"), self.token, after, wait=wait)
        self._received(page["events"], after)
        return page

    @overload
    def events(
        self,
        after: str | None = None,
        *,
        wait: float = 30.0,
        stream: bool = True,
        until: Callable[[Event], bool] | None = None,
        chat: Literal[False] = False,
        chat_after: int = 0,
    ) -> EventFeed[Event]: ...
    @overload
    def events(
        self,
        after: str | None = None,
        *,
        wait: float = 30.0,
        stream: bool = True,
        until: Callable[[Event], bool] | None = None,
        chat: Literal[True],
        chat_after: int = 0,
    ) -> EventFeed[Event | ChatLine]: ...
    @overload
    def events(
        self,
        after: str | None = None,
        *,
        wait: float = 30.0,
        stream: bool = True,
        until: Callable[[Event], bool] | None = None,
        chat: bool,
        chat_after: int = 0,
    ) -> EventFeed[Event] | EventFeed[Event | ChatLine]: ...
    def events(
        self,
        after: str | None = None,
        *,
        wait: float = 30.0,
        stream: bool = True,
        until: Callable[[Event], bool] | None = None,
        chat: bool = False,
        chat_after: int = 0,
    ) -> EventFeed[Event] | EventFeed[Event | ChatLine]:
        """The events this seat may see after ``after`` (None: from the oldest the service keeps; pass
        :attr:`cursor` to start after what this object has seen), for as long as the caller iterates.

        With ``stream`` it reads the NDJSON stream, each connection held open up to ``wait`` seconds;
        without, it long-polls JSON pages waiting up to ``wait`` seconds each. Either way it reconnects
        from the last event delivered when the connection drops or the service ends it, so every event
        comes exactly once and in order. It ends when ``until(event)`` is true for an event just
        delivered, when the caller stops iterating (``break``), or on :meth:`EventFeed.close` (also
        from another thread). See :class:`EventFeed` for ``truncated``.

        ``chat=True`` (a stream only): the chat lines this seat reads come too, as they are said, typed
        :class:`ChatLine` (``type`` ``"chatLine"``, numbered ``n``, no ``id``) — first those after line
        ``chat_after`` (0: the game's whole chat so far; a :meth:`chat` page's ``last``: only what comes
        next) —, and after a reconnection only the lines not delivered yet. Tell them from events by
        ``type``: ``if item["type"] == "chatLine": …``."""
        return EventFeed(
            self.client.requestor,
            self._path("events"),
            token=self.token,
            after=after,
            wait=wait,
            stream=stream,
            until=until,
            received=self._received,
            chat=chat,
            chat_after=chat_after,
        )

    # --- the table chat ------------------------------------------------------------------------------

    def chat(self, after: int = 0, *, wait: float = 0.0) -> ChatPage:
        """The chat lines this seat (or spectator) reads after line ``after``, oldest first:
        ``{"lines", "last", "rooms", "muted"}`` — ``last`` is the number to pass as ``after`` next time,
        ``rooms`` the rooms read (a seat: the players' room, and the spectators' once the match is over;
        anyone else: the spectators'), ``muted`` whether this seat muted the other at the table. With
        ``wait`` and no line yet, the service holds the request up to ``wait`` seconds for the next one
        (a long poll). The chat of a finished match reads as it did live."""
        params = {"after": after, "wait": wait}
        timeout = wait + self.client.requestor.timeout
        reply = self.client.requestor.request(
            "GET", self._path("chat"), token=self.token, params=params, timeout=timeout
        )
        return cast(ChatPage, reply.data)

    def say(
        self,
        text: str | None = None,
        *,
        preset: str | None = None,
        room: Literal["player", "spectator"] = "player",
    ) -> ChatLine:
        """Say a line at the table: free ``text`` (an account's, at most 140 characters; control
        characters are dropped by the service) or one of the ``preset`` phrases
        (``client.service.chat_presets()``: ``"good_luck"``, ``"good_game"``, …); ``room`` is
        ``"player"`` (a seat) or ``"spectator"`` (a named player who watches). Returns the line as said.

        Refusals: :class:`~ginrummy_client.errors.ChatPresetsOnly` (free text from a player without an
        account, or an anonymous seat), ``ChatForbidden`` (not this caller's room), ``ChatMuted`` (a
        moderator's mute), ``ChatTooLong``, ``ChatEmpty``, ``ChatTooFast`` (10 lines a minute),
        ``ChatClosed`` (the game is archived, or its chat is full). A line is not sent again after a
        network error (it could be said twice): :class:`ConnectionFailed` then."""
        if (text is None) == (preset is None):
            raise ValueError("say free text or a preset phrase: one of the two")
        body = {"room": room, **({"text": text} if text is not None else {"preset": preset})}
        reply = self.client.requestor.request(
            "POST", self._path("chat"), token=self.token, json=body, idempotent=False
        )
        return cast(ChatLine, reply.data)

    def mute(self) -> TableMute:
        """Stop reading the other seat's lines at this table (in this game only; it is not told)."""
        return self._mute("mute")

    def unmute(self) -> TableMute:
        """Read the other seat's lines at this table again."""
        return self._mute("unmute")

    def _mute(self, how: str) -> TableMute:
        reply = self.client.requestor.request("POST", self._path("chat", how), token=self.token)
        return cast(TableMute, reply.data)


def seated(client: Client, reply: Reply) -> Game:
    """The seat of the service's answer that made or joined a game (create, join, a challenge or a seek
    accepted): a :class:`Game` with its token, seat, view and events."""
    created = cast(CreatedGame, reply.data)
    return Game(
        client,
        created["game_id"],
        token=created["token"],
        seat=created["seat"],
        invitation=created.get("invitation"),
        view=created["view"],
        events=created["events"],
    )
