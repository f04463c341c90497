"""A tournament's standings, from its entries and pairings as stored: each player's matches in the order
their results were recorded (:class:`~.scoring.Played`), scored by the format's rules (:mod:`.scoring`,
:mod:`.swiss_pairing`). The director writes them live; the API and the end read them the same way, so the
standings are always a recomputation from the pairings (and the pairings' results from the games)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..shapes.tournaments import Standing
from . import scoring, swiss_pairing
from .scoring import Played, Result


def scored(pairings: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The pairings that count — byes and finished matches not aborted — round by round, each round's in
    the order their results were recorded (a player's are in the order it played them)."""
    done = [
        p
        for p in pairings
        if p["status"] == "bye" or (p["status"] == "finished" and p["outcome"] not in (None, "aborted"))
    ]
    done.sort(key=lambda p: (p["round"], p["finished_seq"] or 0, p["number"]))
    return done


def played(
    entries: Sequence[Mapping[str, Any]], pairings: Sequence[Mapping[str, Any]]
) -> dict[str, list[Played]]:
    """Each entered player's scored matches, in the order their results were recorded (an aborted match,
    and one still playing when an arena ended, count for nothing)."""
    rating = {e["player"].casefold(): float(e["rating"]) for e in entries}
    name = {e["player"].casefold(): e["player"] for e in entries}
    out: dict[str, list[Played]] = {e["player"]: [] for e in entries}
    for pairing in scored(pairings):
        seats = (pairing["seat0"], pairing["seat1"])
        if pairing["status"] == "bye":
            if seats[0].casefold() in name:
                out[name[seats[0].casefold()]].append(Played(None, "won", None))
            continue
        outcome = pairing["outcome"]
        for seat in (0, 1):
            me, other = seats[seat], seats[1 - seat]
            if me.casefold() not in name:
                continue
            result: Result = "drawn" if outcome == "drawn" else "won" if outcome == f"seat{seat}" else "lost"
            berserk = bool(pairing[f"berserk{seat}"])
            out[name[me.casefold()]].append(Played(other, result, rating.get(other.casefold()), berserk))
    return out


def standings(
    format: str, entries: Sequence[Mapping[str, Any]], pairings: Sequence[Mapping[str, Any]]
) -> list[Standing]:
    """The standings, best first."""
    matches = played(entries, pairings)
    entry = {e["player"]: e for e in entries}

    def base(rank: int, player: str, points: float) -> Standing:
        mine = matches[player]
        return {
            "rank": rank,
            "player": player,
            "bot": bool(entry[player]["bot"]),
            "active": bool(entry[player]["active"]),
            "rating": round(float(entry[player]["rating"]), 1),
            "points": points,
            "games": sum(m.opponent is not None for m in mine),
            "wins": sum(m.result == "won" and m.opponent is not None for m in mine),
            "losses": sum(m.result == "lost" for m in mine),
            "draws": sum(m.result == "drawn" for m in mine),
            "performance": _round(scoring.performance(mine)),
        }

    rows: list[Standing] = []
    if format == "arena":
        for arena_row in scoring.arena_standings(matches):
            sheet = arena_row.sheet
            row = base(arena_row.rank, arena_row.player, float(sheet.points))
            row["sheet"], row["fire"], row["berserks"] = list(sheet.scores), sheet.fire, sheet.berserks
            rows.append(row)
    elif format == "swiss":
        for swiss_row in swiss_pairing.swiss_standings(matches):
            row = base(swiss_row.rank, swiss_row.player, float(swiss_row.points))
            row["sonneborn_berger"], row["byes"] = float(swiss_row.sonneborn_berger), swiss_row.byes
            rows.append(row)
    else:
        for rr_row in scoring.round_robin_standings(matches):
            row = base(rr_row.rank, rr_row.player, float(rr_row.points))
            row["sonneborn_berger"], row["interval"] = float(rr_row.sonneborn_berger), list(rr_row.interval)
            rows.append(row)
    return rows


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
