"""``client.tournaments``: arenas, Swiss and round robins (``/v1/tournaments``) — created, listed, read
with a page of their standings, joined (with a private one's entry code; the organiser enters house
bots), left or paused, started, ended and edited by their organiser —, their results and games as NDJSON,
and :class:`TournamentStream`, the tournament as it happens (``GET /v1/tournaments/{id}/stream``).

A player's matches are not read here: each comes on its account stream (``client.account.stream()``) as
a ``gameStart`` whose ``game["tournament"]`` is the tournament's id, and is played with the account's
token (``client.games.get(game_id)``). House bots play by themselves.

>>> tournament_path("t1", "join"), tournament_path("../x")
('/v1/tournaments/t1/join', '/v1/tournaments/..%2Fx')
>>> over({"type": "standings", "tournament": {"status": "finished"}}), over({"type": "pairing"})
(True, False)
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any, Literal, cast
from urllib.parse import quote

from .archive import read_exports, read_ndjson
from .bodies import ClockSpec, clock_body, given
from .challenges import RulesSpec, rules_body
from .events import Following
from .models import (
    ArchivedMatch,
    Entered,
    PairingEvent,
    ResultEvent,
    ResultLine,
    StandingsEvent,
    TournamentCreated,
    TournamentInfo,
    TournamentList,
)
from .resource import Resource
from .transport import Requestor

Format = Literal["arena", "swiss", "round_robin"]

TournamentEvent = StandingsEvent | PairingEvent | ResultEvent
"""A line of a tournament's stream (keep-alives are not delivered): ``standings`` (the tournament and the
top of its standings), ``pairing`` (a match paired, its game open) and ``result`` (a match finished)."""

OVER = frozenset({"finished", "canceled"})
"""The statuses of a tournament that is over."""


def tournament_path(tournament_id: str, *rest: str) -> str:
    """The path of a tournament; the id is quoted, so it can never name another path."""
    return "/".join(["/v1/tournaments", quote(tournament_id, safe=""), *rest])


def over(event: Mapping[str, Any]) -> bool:
    """Whether a stream's line says the tournament is over (a ``standings`` line, finished or canceled)."""
    return event.get("type") == "standings" and (event.get("tournament") or {}).get("status") in OVER


class TournamentStream(Following[TournamentEvent]):
    """A tournament's events as they happen; see :meth:`Tournaments.stream`.

    Opened afresh (``since`` None), the service starts it with one ``standings`` line — the tournament
    and its standings as they are — with the id of the newest event; then come ``pairing``, ``result``
    and ``standings`` lines, each with its id. The stream reconnects from the last id when the service
    ends a connection (after ``wait`` seconds; None: ``GIN_STREAM_MAX``), the connection drops, or a
    line says the store is unavailable, so no event is lost or repeated; ``last_id`` is where it stands.
    It ends by itself after a ``standings`` line that says the tournament is over (``until_over``; the
    service has nothing more to tell), or on :meth:`close` (from any thread)."""

    what = "tournament stream"

    def __init__(
        self,
        requestor: Requestor,
        tournament_id: str,
        *,
        since: str | None,
        wait: float | None,
        until_over: bool = True,
    ) -> None:
        self.last_id = since
        self.until_over = until_over
        super().__init__(requestor, tournament_path(tournament_id, "stream"), token=None, wait=wait)

    def _params(self) -> Mapping[str, Any]:
        return {} if self.last_id is None else {"since": self.last_id}

    def _generate(self) -> Generator[TournamentEvent, None, None]:
        for item in self._lines():
            event_id = item.get("id")
            if item.get("type") == "keepalive" or event_id is None:
                continue
            # The present is one line: once it is delivered, a resume goes on after it.
            self.last_id = event_id
            yield cast(TournamentEvent, item)
            if self.until_over and over(item):
                self._closed.set()
                return


class Tournaments(Resource):
    """Tournaments (``/v1/tournaments``): an account (the client's token: a session or an API token)
    creates, joins and organises them; anyone reads them."""

    def create(
        self,
        name: str,
        format: Format,
        *,
        minutes: float | None = None,
        rounds: int | None = None,
        round_interval: int | None = None,
        rules: RulesSpec | None = None,
        clock: ClockSpec | None = None,
        rated: bool = False,
        bots: bool = False,
        private: bool = False,
        starts_in: float | None = None,
        min_rated_games: int | None = None,
        berserk: bool | None = None,
        duplicate: bool = False,
        description: str | None = None,
    ) -> TournamentCreated:
        """A new tournament organised by this account (``GIN_TOURNAMENTS_PER_DAY`` a day:
        :class:`TooManyTournaments`): an ``"arena"`` of ``minutes``, a ``"swiss"`` of ``rounds`` (the next
        round ``round_interval`` seconds after one ends; None: when the organiser starts it) or a
        ``"round_robin"`` (``duplicate``: each pairing plays twice on the same deals, seats swapped — bot
        accounts only). Every match is played under ``rules`` (a preset's name or ``{"preset",
        "options"}``; a rated tournament takes a preset as it is) with ``clock``; ``bots``: bot accounts
        may join (and the organiser may enter house bots); ``private``: not listed, joined with the
        answer's ``entry_code`` (shown once); ``starts_in`` seconds from now (the service's default: 60;
        :meth:`start` starts it earlier); ``min_rated_games`` in the rules' family to join; ``berserk``:
        whether an arena's people may berserk (default yes). Refusals: :class:`BadTournament`,
        :class:`RatedNeedsPreset`, :class:`BadRules`. Not resent after a lost answer (a second one would
        be made)."""
        body = {
            "name": name,
            "format": format,
            "rated": rated,
            "bots": bots,
            "private": private,
            "duplicate": duplicate,
            **given(
                minutes=minutes,
                rounds=rounds,
                round_interval=round_interval,
                rules=rules_body(rules),
                clock=clock_body(clock),
                starts_in=starts_in,
                min_rated_games=min_rated_games,
                berserk=berserk,
                description=description,
            ),
        }
        reply = self.requestor.request(
            "POST", "/v1/tournaments", token=self.token, json=body, idempotent=False
        )
        return cast(TournamentCreated, reply.data)

    def list(self) -> TournamentList:
        """The public tournaments: upcoming (``["created"]``, soonest first), running (``["started"]``)
        and recently finished (``["finished"]``, newest first)."""
        return cast(TournamentList, self.requestor.request("GET", "/v1/tournaments").data)

    def get(self, tournament_id: str, page: int = 1) -> TournamentInfo:
        """A tournament with page ``page`` of its standings (``["standings"]``: ``page``, ``pages``,
        ``players``), its matches in play, best placed first (``["playing"]``: the games to watch), and
        the caller's entry (``["me"]``: ``active``, and the game it plays now in it, or None).
        :class:`TournamentNotFound`."""
        reply = self.requestor.request(
            "GET", tournament_path(tournament_id), params={"page": page}, token=self.token
        )
        return cast(TournamentInfo, reply.data)

    def join(self, tournament_id: str, code: str | None = None, *, bot: str | None = None) -> Entered:
        """Enter this account (a private tournament needs its entry ``code``), or come back after a pause;
        the organiser enters the house bot ``bot`` (``"expert"``) instead. The matches then come on the
        account stream as ``gameStart``. Refusals: :class:`BadEntryCode`, :class:`BotsNotAllowed`,
        :class:`BotsOnly`, :class:`TournamentStarted` (a round robin, a Swiss past half its rounds),
        :class:`NotEnoughRatedGames`, :class:`TournamentOver`."""
        reply = self.requestor.request(
            "POST", tournament_path(tournament_id, "join"), token=self.token, json=given(code=code, bot=bot)
        )
        return cast(Entered, reply.data)

    def withdraw(self, tournament_id: str, *, bot: str | None = None) -> Entered:
        """Leave before the start; pause an arena (join again to come back: the points stay); withdraw
        from a Swiss or a round robin (no more pairings; join again to come back). The organiser
        withdraws the house bot ``bot`` instead. :class:`NotEntered`."""
        reply = self.requestor.request(
            "POST",
            tournament_path(tournament_id, "withdraw"),
            token=self.token,
            json=given(bot=bot),
            idempotent=False,
        )
        return cast(Entered, reply.data)

    def start(self, tournament_id: str) -> TournamentInfo:
        """The organiser starts it now (or pairs a Swiss' next round as soon as the round in play ends)."""
        reply = self.requestor.request(
            "POST", tournament_path(tournament_id, "start"), token=self.token, idempotent=False
        )
        return cast(TournamentInfo, reply.data)

    def terminate(self, tournament_id: str) -> TournamentInfo:
        """The organiser ends it: canceled before its start; an arena's matches in play then count for
        nothing; a Swiss or round robin ends once its round in play does."""
        reply = self.requestor.request(
            "POST", tournament_path(tournament_id, "terminate"), token=self.token, idempotent=False
        )
        return cast(TournamentInfo, reply.data)

    def edit(self, tournament_id: str, **changes: Any) -> TournamentInfo:
        """The organiser changes settings before the start: any of ``name``, ``description``, ``rules``,
        ``clock``, ``rated``, ``bots``, ``min_rated_games``, ``starts_in``, ``minutes``, ``berserk``,
        ``rounds``, ``round_interval``, ``duplicate`` (as :meth:`create` takes them); the others stay.
        :class:`TournamentStarted` once it has started."""
        if "rules" in changes:
            changes["rules"] = rules_body(changes["rules"])
        if "clock" in changes:
            changes["clock"] = clock_body(changes["clock"])
        path = tournament_path(tournament_id)
        reply = self.requestor.request("PATCH", path, token=self.token, json=changes)
        return cast(TournamentInfo, reply.data)

    def results(self, tournament_id: str) -> Generator[ResultLine, None, None]:
        """The standings, one player a line (NDJSON), best first — final once it is over —, streamed as
        they are read (the request is sent when the first line is asked for)."""
        lines = read_ndjson(self.requestor, tournament_path(tournament_id, "results"), {}, what="lines")
        return cast(Generator[ResultLine, None, None], lines)

    def games(self, tournament_id: str) -> Generator[ArchivedMatch, None, None]:
        """Every finished match of the tournament, as the archive exports it
        (``client.archive.export()``), in the order they finished, streamed one document at a time."""
        return read_exports(self.requestor, tournament_path(tournament_id, "games"), {})

    def stream(
        self,
        tournament_id: str,
        since: str | None = None,
        wait: float | None = None,
        *,
        until_over: bool = True,
    ) -> TournamentStream:
        """The tournament as it happens (:class:`TournamentStream`): afresh (``since`` None) a
        ``standings`` line first, then ``pairing``, ``result`` and ``standings`` lines, each a typed
        :data:`TournamentEvent` with its ``id``; ``since`` resumes after that id. Each connection stays open
        ``wait`` seconds (None: the service's longest); the iterator reconnects from the last id until
        the tournament is over (``until_over``), you ``break`` or ``close()`` it."""
        return TournamentStream(self.requestor, tournament_id, since=since, wait=wait, until_over=until_over)
