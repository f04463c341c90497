"""Tournaments and pairings as the API shows them (never an entry code's digest, a deal seed or a lease)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import clocks
from ..shapes.tournaments import Pairing, Tournament, TournamentSettings

FORMAT_MEMBERS = {
    "arena": ("minutes", "berserk"),
    "swiss": ("rounds", "round_interval"),
    "round_robin": ("duplicate",),
}


def settings_json(format: str, settings: Mapping[str, Any]) -> TournamentSettings:
    """The organiser's choices, with the members of the other formats null (or false)."""
    own = FORMAT_MEMBERS[format]
    return {
        "rules": settings["rules"],
        "clock": clocks.described(settings.get("clock")),  # type: ignore[typeddict-item]
        "rated": bool(settings.get("rated")),
        "bots": bool(settings.get("bots")),
        "min_rated_games": int(settings.get("min_rated_games") or 0),
        "minutes": settings.get("minutes") if "minutes" in own else None,
        "berserk": bool(settings.get("berserk")) if "berserk" in own else False,
        "rounds": settings.get("rounds") if "rounds" in own else None,
        "round_interval": settings.get("round_interval") if "round_interval" in own else None,
        "duplicate": bool(settings.get("duplicate")) if "duplicate" in own else False,
    }


def tournament_json(row: Mapping[str, Any], players: int) -> Tournament:
    settings = row["settings"]
    rounds = settings.get("rounds") if row["format"] == "swiss" else settings.get("schedule_rounds")
    return {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "status": row["status"],
        "organiser": row["organiser"],
        "private": row.get("entry_code_digest") is not None,
        "settings": settings_json(row["format"], settings),
        "starts_at": row["starts_at"],
        "started_at": row["started_at"],
        "ends_at": row["ends_at"],
        "finished_at": row["finished_at"],
        "round": row["round"],
        "rounds": rounds,
        "next_round_at": row["next_round_at"],
        "players": players,
        "url": f"/v1/tournaments/{row['id']}",
    }


def pairing_json(pairing: Mapping[str, Any], bots: Mapping[str, bool]) -> Pairing:
    """A pairing as the API shows it (never its deal seed)."""
    seat0, seat1 = pairing["seat0"], pairing["seat1"]
    return {
        "number": pairing["number"],
        "round": pairing["round"],
        "players": [seat0, seat1],
        "bots": [bots.get(seat0.casefold(), False), bool(seat1) and bots.get(seat1.casefold(), False)],
        "game_id": pairing["game_id"],
        "mirror_of": pairing["mirror_of"],
        "status": pairing["status"],
        "outcome": pairing["outcome"],
        "end_reason": pairing["end_reason"],
        "berserk": [bool(pairing["berserk0"]), bool(pairing["berserk1"])],
    }
