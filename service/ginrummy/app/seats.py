"""Seats: which seat a token sits in (a seat token, or the token of the player tied to the seat), and
the players as a view shows them."""

from __future__ import annotations

from typing import Any

from ginrummy.store.players import PlayerStore

from . import security
from .errors import ServiceError
from .metadata import GameMeta


class Seating:
    """Finds the seat of a bearer token in a game."""

    def __init__(self, players: PlayerStore) -> None:
        self.players = players

    def seat_in(self, meta: GameMeta, token: str | None) -> int | None:
        """The seat of a seat token, or of a player's token for a seat tied to that player; None
        without a token (a spectator). Any other token is refused."""
        if token is None:
            return None
        for number, seat in enumerate(meta.seats):
            if security.matches(token, seat.token_digest):
                return number
        if any(seat.player for seat in meta.seats):
            name = self.players.by_token(security.digest(token))
            for number, seat in enumerate(meta.seats):
                if name is not None and seat.player == name:
                    return number
        raise ServiceError("forbidden", "this token is not a seat token (or seated player's) of this game")

    def require_seat(self, meta: GameMeta, token: str | None) -> int:
        """The caller's seat: refused without a token (``unauthorized``) or with another one."""
        seat = self.seat_in(meta, security.require_token(token))
        assert seat is not None
        return seat


def players_json(meta: GameMeta) -> list[dict[str, Any]]:
    """Who sits where, as views and lists show it."""
    out = []
    for number, seat in enumerate(meta.seats):
        entry: dict[str, Any] = {"seat": number, "name": seat.name, "type": "bot" if seat.is_bot else "human"}
        if seat.is_bot:
            entry["bot"] = seat.bot
        else:
            entry["joined"] = seat.token_digest is not None
        entry["player"] = seat.player
        out.append(entry)
    return out
