"""Reading the past: a finished match's export, a player's games (paged, filtered, or streamed whole) and
a player's rating history — all from the archive (PostgreSQL), the home of finished games.

A page's cursor is opaque to clients: the keyset ``(finished_at, game_id)`` of the last game shown,
base64url-encoded; a malformed one is refused (``bad_cursor``), never guessed at.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import datetime as dt
from collections.abc import Iterator
from typing import Any

import orjson

from ginrummy.engine import PRESETS
from ginrummy.store import DatabaseUnavailable
from ginrummy.store.archive import RESULTS, GameFilter, rating_changes

from .. import security
from ..calls import Result
from ..errors import ServiceError
from ..players import ratings
from ..players.identity import Identities
from ..shapes.players import PlayerGame, RatingPoint
from ..shapes.playing import RatingChange
from .writing import Archiving, export, unavailable

PAGE_MAX = 100  # games per page at most
FAMILIES = (*PRESETS, "casual")


def encode_cursor(finished_at: dt.datetime, game_id: str) -> str:
    raw = orjson.dumps([int(finished_at.timestamp() * 1_000_000), game_id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[dt.datetime, str]:
    """The keyset of a cursor; ``bad_cursor`` for anything this service did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        micros, game_id = orjson.loads(raw)
        if not isinstance(micros, int) or not isinstance(game_id, str) or isinstance(micros, bool):
            raise ValueError(cursor)
        security.check_game_id(game_id)
        return dt.datetime.fromtimestamp(micros / 1_000_000, dt.UTC), game_id
    except (ValueError, TypeError, binascii.Error, orjson.JSONDecodeError, ServiceError, OverflowError):
        raise ServiceError(
            "bad_cursor", "this cursor was not made by this service: use the 'next' of a page as it is"
        ) from None


def game_filter(query: dict[str, Any]) -> GameFilter:
    """The filters of a list's query (already typed by the HTTP schema), checked together."""
    since, until = query.get("since"), query.get("until")
    if since is not None and until is not None and since >= until:
        raise ServiceError("bad_filter", "'since' must be before 'until'")
    family = query.get("family")
    if family is not None and family not in FAMILIES:
        raise ServiceError("bad_filter", f"unknown rules family {family!r} (families: {', '.join(FAMILIES)})")
    result = query.get("result")
    if result is not None and result not in RESULTS:
        raise ServiceError("bad_filter", f"unknown result {result!r} (results: {', '.join(RESULTS)})")
    return GameFilter(
        since=since,
        until=until,
        opponent=query.get("opponent"),
        rated=query.get("rated"),
        family=None if family == "casual" else family,
        casual=family == "casual",
        result=result,
    )


def _summary(row: dict[str, Any]) -> PlayerGame:
    """A player's game as a list shows it."""
    game_id = row["game_id"]
    change: RatingChange | None = None
    if row.get("mu_after") is not None:
        before = row.get("mu_before")
        change = {
            "before": None if before is None else ratings.shown(before, row["sigma_before"]),
            "after": ratings.shown(row["mu_after"], row["sigma_after"]),
        }
    return {
        "game_id": game_id,
        "seat": row["seat"],
        "result": row["result"],
        "end_reason": row["end_reason"],
        "rated": row["rated"],
        "family": row["family"],
        "opponent": row["opponent_name"],
        "points": [row["points"], row["opponent_points"]],
        "hands": row["hands"],
        "started_at": iso(row["started_at"]),
        "finished_at": iso(row["finished_at"]),
        "rating": change,
        "export": f"/v1/games/{game_id}/export",
    }


def export_line(document: str, hands: str, changes: list[dict[str, Any] | None]) -> bytes:
    """The document :func:`export` makes, as one NDJSON line joined from the archive's JSON texts (the
    document's members, then ``hands`` and ``ratings``) instead of parsed and printed again: a line is
    some 20 KB of hands, and parsing them was most of an export's time."""
    members = document.rstrip()[:-1].rstrip()  # the document without its closing brace
    if "\n" in members:  # whitespace between tokens (a JSON string holds no raw newline): one line
        members = members.replace("\n", "")
    comma = "" if members.endswith("{") else ","
    shown = orjson.dumps(export({}, [], changes)["ratings"]).decode()
    return f'{members}{comma}"hands":[{hands}],"ratings":{shown}}}\n'.encode()


def iso(at: dt.datetime) -> str:
    """A time as the archive's documents write it: ISO 8601 in UTC, milliseconds, ``Z``."""
    return at.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Records:
    """The archive's reads."""

    def __init__(self, archiving: Archiving, identities: Identities) -> None:
        self.archiving = archiving
        self.archive = archiving.archive
        self.identities = identities

    def _is_self(self, name: str, token: str | None) -> bool:
        """Whether the caller (by its player's, session or API token) is the player ``name``: a player's
        private games are listed for itself only (docs/api.md, *Private games*)."""
        if token is None:
            return False
        try:
            me = self.identities.of(token)
        except ServiceError:  # an expired session: read as anyone
            return False
        return me is not None and me.name.casefold() == name.casefold()

    def _player(self, name: str) -> tuple[int, str]:
        """The player's id and name as typed (``name`` may be in any case)."""
        found = self.archiving.read(self.archive.player, name)
        if found is None:
            raise ServiceError("player_not_found", f"there is no player {name!r}")
        return found

    def export(self, game_id: str) -> Result:
        """The whole finished match in one document (format ``ginrummy.match``, version 1)."""
        security.check_game_id(game_id)
        archived = self.archiving.read(self.archive.match, game_id)
        if archived is None:
            raise ServiceError(
                "not_archived",
                f"the game {game_id!r} is not in the archive: it is still being played, it is unknown, "
                "or it ended a moment ago (its record is on its way)",
            )
        hands = self.archiving.read(self.archive.hands, game_id)
        return Result(export(archived.document, [orjson.loads(h) for h in hands], archived.ratings))

    def games(self, name: str, query: dict[str, Any], token: str | None = None) -> Result:
        """A page of the player's games, newest first; ``next`` continues it (None: the last page). Its
        private games only when the caller is the player (``token``)."""
        where = dataclasses.replace(game_filter(query), private=self._is_self(name, token))
        cursor = query.get("cursor")
        after = None if cursor is None else decode_cursor(cursor)
        limit = min(int(query.get("limit") or 50), PAGE_MAX)
        player_id, name = self._player(name)
        rows = self.archiving.read(
            lambda: self.archive.games_of(player_id, where, after=after, limit=limit + 1)
        )
        more = len(rows) > limit
        rows = rows[:limit]
        following = encode_cursor(rows[-1]["finished_at"], rows[-1]["game_id"]) if more else None
        return Result({"player": name, "games": [_summary(row) for row in rows], "next": following})

    def stream(self, name: str, query: dict[str, Any], token: str | None = None) -> Iterator[bytes]:
        """Every game of the player (filters and private games as :meth:`games`), newest first, as NDJSON
        lines of export documents, read through a server-side cursor. The player is looked up before the
        first line, so that an unknown one is a 404 and not a broken stream."""
        where = dataclasses.replace(game_filter(query), private=self._is_self(name, token))
        player_id, _ = self._player(name)

        def lines() -> Iterator[bytes]:
            try:
                for parts in self.archive.stream_games_of(player_id, where):
                    yield export_line(
                        parts.document, parts.hands, rating_changes(orjson.loads(parts.changes))
                    )
            except DatabaseUnavailable as error:  # the status is sent: the stream's last line says it broke
                problem = unavailable(error)
                yield orjson.dumps({"type": "error", "code": problem.code, "detail": problem.detail}) + b"\n"

        return lines()

    def rating_history(self, name: str, family: str | None, token: str | None = None) -> Result:
        """Per family, each rated game's rating before and after, oldest first (a private game's id shown
        to the player only)."""
        if family is not None and family not in PRESETS:
            raise ServiceError(
                "bad_filter", f"unknown rules family {family!r} (families: {', '.join(PRESETS)})"
            )
        player_id, name = self._player(name)
        private = self._is_self(name, token)
        rows = self.archiving.read(lambda: self.archive.rating_history(player_id, family, private=private))
        families: dict[str, list[RatingPoint]] = {}
        for row in rows:
            before = (
                None if row["mu_before"] is None else ratings.shown(row["mu_before"], row["sigma_before"])
            )
            families.setdefault(row["family"], []).append(
                {
                    "game_id": row["game_id"],
                    "at": iso(row["at"]),
                    "before": before,
                    "after": ratings.shown(row["mu_after"], row["sigma_after"]),
                }
            )
        return Result({"player": name, "families": families})
