"""``client.archive``: the archive of finished matches — a match exported whole, a player's games followed
page after page, every game that passes the filters streamed as NDJSON, the filters both take, and a
player's rating history.

The service keeps every finished match forever (docs/api.md, *The past: the archive*). A list of a
player's games comes a page at a time with an opaque ``next`` cursor, which :func:`read_pages` passes back
as it is, page by page, only as the caller iterates; :func:`read_exports` reads the NDJSON answer, one
export document a line, holding one line at a time however many games there are.

>>> games_query(since=dt.date(2026, 11, 1), rated=False, opponent="Bob")
{'since': '2026-11-01T00:00:00Z', 'opponent': 'Bob', 'rated': 'false'}
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Generator, Iterator, Mapping
from typing import Any, TypedDict, Unpack, cast

from .errors import ConnectionFailed, error_from_problem
from .game import game_path
from .models import ArchivedMatch, PlayerGame, PlayerGames, Problem, RatingHistory
from .people import player_path
from .resource import Resource
from .transport import NDJSON, NETWORK_ERRORS, Requestor, describe, ndjson_objects

Moment = dt.datetime | dt.date | str
"""A time as a filter takes it: a ``datetime`` (one without a time zone is UTC, as the service reads a
time that does not say), a ``date`` (its midnight, UTC), or ISO 8601 text, sent as it is."""

EXPORT_CHUNK = 64 * 1024
"""Bytes read from an export stream at a time, at most (an export document is some kilobytes a hand)."""


class GameFilters(TypedDict, total=False):
    """The filters of a player's games (:meth:`Archive.games`, :meth:`Archive.export_games`): games
    that finished at or after ``since`` and before ``until``, against ``opponent`` (a player's name, any
    case), ``rated`` (True) or casual (False), of the rules ``family`` (a preset's name, or ``casual``:
    rules with overrides), whose ``result`` for the player is ``won``, ``lost``, ``drawn`` or ``aborted``.
    None (or leaving one out) does not filter."""

    since: Moment | None
    until: Moment | None
    opponent: str | None
    rated: bool | None
    family: str | None
    result: str | None


def when(moment: Moment | None) -> str | None:
    """A time as the query of a list sends it.

    >>> when(dt.datetime(2026, 11, 24, 18, 30, tzinfo=dt.timezone(dt.timedelta(hours=1))))
    '2026-11-24T17:30:00Z'
    >>> when(dt.datetime(2026, 11, 24, 17, 30)), when("2026-11-24T17:30+01:00"), when(None)
    ('2026-11-24T17:30:00Z', '2026-11-24T17:30+01:00', None)
    """
    if moment is None or isinstance(moment, str):
        return moment
    if not isinstance(moment, dt.datetime):
        moment = dt.datetime(moment.year, moment.month, moment.day)
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def games_query(
    *,
    since: Moment | None = None,
    until: Moment | None = None,
    opponent: str | None = None,
    rated: bool | None = None,
    family: str | None = None,
    result: str | None = None,
) -> dict[str, str]:
    """The query parameters of the filters that are given (see :class:`GameFilters`); a name that is no
    filter is a TypeError, as for any call."""
    query = {
        name: value
        for name, value in (
            ("since", when(since)),
            ("until", when(until)),
            ("opponent", opponent),
            ("family", family),
            ("result", result),
        )
        if value is not None
    }
    if rated is not None:
        query["rated"] = "true" if rated else "false"
    return query


def read_pages(
    requestor: Requestor, path: str, query: Mapping[str, Any], token: str | None = None
) -> Iterator[PlayerGame]:
    """The games of the list at ``path``, page after page: each page is asked for when the previous one
    has been gone through, with the ``next`` cursor the service gave, as it was. ``token``: the caller's
    credential (a player's own list then holds its private games too)."""
    cursor: str | None = None
    while True:
        params = {**query, "cursor": cursor} if cursor is not None else dict(query)
        page = cast(PlayerGames, requestor.request("GET", path, params=params, token=token).data)
        yield from page["games"]
        cursor = page.get("next")
        if not cursor:
            return


def read_ndjson(
    requestor: Requestor,
    path: str,
    query: Mapping[str, Any],
    token: str | None = None,
    *,
    what: str = "games",
) -> Generator[dict[str, Any], None, None]:
    """The objects of the NDJSON answer at ``path`` (an export of games, a tournament's results), one a
    line, as they arrive. The stream's last line may be an error (the service's database failed after
    the answer began): raised as the :class:`ApiError` of its code (:class:`ArchiveUnavailable`); a
    connection that breaks on the way is :class:`ConnectionFailed`, saying how many ``what`` came. The
    connection is released when the iteration ends or is closed."""
    reply = requestor.request(
        "GET",
        path,
        params=query,
        headers={"Accept": NDJSON},
        stream=True,
        timeout=requestor.timeout,
        token=token,
    )
    count = 0
    try:
        for item in ndjson_objects(reply.response, EXPORT_CHUNK):
            if item.get("type") == "error" and "format" not in item:
                problem = cast(Problem, item)
                raise error_from_problem(int(problem.get("status") or 503), problem)
            count += 1
            yield item
    except NETWORK_ERRORS as error:
        reason = describe(error)
        raise ConnectionFailed(
            f"GET {path}: the stream broke after {count} {what} ({reason})", reason=reason
        ) from error
    finally:
        reply.response.close()


def read_exports(
    requestor: Requestor, path: str, query: Mapping[str, Any], token: str | None = None
) -> Generator[ArchivedMatch, None, None]:
    """The export documents of the NDJSON answer at ``path``, one a line, as they arrive
    (:func:`read_ndjson`)."""
    yield from cast(Generator[ArchivedMatch, None, None], read_ndjson(requestor, path, query, token))


class Archive(Resource):
    """Finished matches, kept by the service forever (docs/api.md, *The past: the archive*)."""

    def export(self, game_id: str) -> ArchivedMatch:
        """A finished match in one document (``ginrummy.match``, version 1): players, rules, result,
        statistics, rating changes and every hand with its deal, moves, scoring and shuffle proof.
        :class:`NotArchived` while it is being played (or for a moment after its end, its record on its
        way to the archive)."""
        return cast(ArchivedMatch, self.requestor.request("GET", game_path(game_id, "export")).data)

    def games(self, name: str, *, limit: int = 50, **filters: Unpack[GameFilters]) -> Iterator[PlayerGame]:
        """A player's finished games, newest first, that pass the ``filters`` (``since``, ``until``,
        ``opponent``, ``rated``, ``family``, ``result``: :class:`GameFilters`; ``since``/``until`` a
        ``datetime``, a ``date`` or ISO 8601 text).

        The games are read a page of ``limit`` (1–100) at a time, each page only once the previous one
        has been gone through, following the service's opaque ``next`` cursor: iterate for as long as you
        want games (``itertools.islice`` for the first few). Nothing is asked before the first game is;
        then :class:`PlayerNotFound` for no such player, :class:`ValidationError` (:class:`BadFilter`)
        for filters the service refuses. The client's own player (its token) also gets its private
        games; anyone else's list leaves them out."""
        query = {**games_query(**filters), "limit": limit}
        return read_pages(self.requestor, player_path(name, "games"), query, self.token)

    def export_games(self, name: str, **filters: Unpack[GameFilters]) -> Generator[ArchivedMatch, None, None]:
        """Every finished game of a player that passes the ``filters`` (as :meth:`games`), newest first,
        each as the whole export document (:meth:`export`), streamed: the service sends one document a
        line, and only the line being read is held here, however many games there are.

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
