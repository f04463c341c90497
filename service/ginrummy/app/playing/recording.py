"""What a match sends to the archive as it goes: the record of each hand that ends and, when the match
ends, the match's — its export document and what the archive's columns and the players' records take
from it. A commit writes them to the game's outbox in the same atomic step as the move
(:meth:`~ginrummy.app.playing.unit_of_work.UnitOfWork.commit`); the archive drains them into PostgreSQL
(:mod:`ginrummy.app.archive.writing`)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from ginrummy.engine import PRESETS, MatchEnd, Rules
from ginrummy.engine.export import match_document

from .. import clocks
from ..archive.writing import MATCH_FIELD
from ..encoding import compact
from .match import Match, hand_record
from .seats import players_json


def _iso(ms: int | None) -> str | None:
    if ms is None:
        return None
    return (
        dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    )


def family_of(rules: Rules, rated_family: str | None) -> str | None:
    """The rules family of a match: its rating family when rated, else the preset its rules are (None:
    rules with overrides)."""
    if rated_family is not None:
        return rated_family
    return next((name for name, preset in PRESETS.items() if preset == rules), None)


def document(match: Match, finished_ms: int) -> dict[str, Any]:
    """The export document of a finished match, less its hands and its rating changes (they are added
    when it is read): the one format of ``GET /v1/games/{id}/export`` (OpenAPI ``MatchExport``)."""
    meta, game = match.meta, match.game
    clock = meta.clock
    made = match_document(
        game,
        match.game_id,
        family=family_of(game.rules, meta.rating_family),
        rated=meta.rated,
        clock=None
        if clock is None
        else {"per_move": clock.per_move, "bank": clock.bank, "increment": clock.increment},
        players=[{k: v for k, v in person.items() if k != "joined"} for person in players_json(meta)],
        started_at=_iso(meta.created_ms) or _iso(finished_ms),
        finished_at=_iso(finished_ms),
    )
    if meta.tournament is not None:
        made["tournament"] = {"id": meta.tournament, "berserk": [seat in meta.berserked for seat in (0, 1)]}
    return made


def final_points(games: list[dict[str, Any]]) -> tuple[int, int]:
    """Each seat's points in the match: the grand totals of its games (score sheets), summed."""
    totals = [0, 0]
    for score in games:
        for seat in (0, 1):
            totals[seat] += int(score["grand_totals"][seat])
    return totals[0], totals[1]


def outbox_records(match: Match, hand: dict[str, Any] | None = None) -> dict[str, str]:
    """What a commit of this match sends to the archive: the hand that just ended (or that the match's
    end cut short), the match that just ended (an outbox field each). ``hand``: the ended hand's record
    when the caller made it already."""
    records: dict[str, str] = {}
    if match.hand_just_ended or match.hand_cut_short:
        hand = hand_record(match) if hand is None else hand
        records[f"h:{match.game.hand_number}"] = compact({"at": time.time(), "r": hand})
    if match.match_just_ended:
        records[MATCH_FIELD] = compact(_match_entry(match))
    return records


def _match_entry(match: Match) -> dict[str, Any]:
    """The finished match's outbox record: its export document, and what the archive's columns and the
    players' records take from it."""
    meta = match.meta
    now_ms = clocks.now_ms()
    doc = document(match, now_ms)
    result = doc["result"]
    points = final_points(result["games"])
    seats = []
    for number, seat in enumerate(meta.seats):
        counted = {k: v for k, v in doc["stats"][number].items() if isinstance(v, int)}
        seats.append({"n": seat.name, "p": seat.player, "pt": points[number], "s": counted})
    aborted = result["end_reason"] == MatchEnd.ABORTED
    return {
        "id": match.game_id,
        "seats": seats,
        "rules": doc["rules"],
        "family": doc["family"],
        "clock": doc["clock"],
        "rated": meta.rated and not aborted and result["winner"] is not None,
        "private": meta.private,
        "winner": result["winner"],
        "end": result["end_reason"],
        "started": (meta.created_ms or now_ms) / 1000,
        "finished": now_ms / 1000,
        "hands": doc["hand_count"],
        "version": match.version,  # as this very commit writes it
        "state": match.encode(),
        "doc": doc,
    }
