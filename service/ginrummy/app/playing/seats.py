"""Seats: which seat a token sits in (a seat token, or a token of the player tied to the seat: its own
token, a session or an API token — :mod:`~ginrummy.app.players.identity`), and the players as a view shows
them."""

from __future__ import annotations

from typing import Any

from .. import security
from ..errors import ServiceError
from ..players.identity import Identities
from .metadata import MatchMeta


class Seating:
    """Finds the seat of a bearer token in a game."""

    def __init__(self, identities: Identities) -> None:
        self.identities = identities

    def seat_in(self, meta: MatchMeta, token: str | None, *, acting: bool = False) -> int | None:
        """The seat of a seat token, or of a player's token (its own, a session, an API token) for a
        seat tied to that player; None without a token (a spectator). Any other token is refused, and
        ``acting`` with an API token that may only read (``token_scope``)."""
        if token is None:
            return None
        for number, seat in enumerate(meta.seats):
            if security.matches(token, seat.token_digest):
                return number
        if any(seat.player for seat in meta.seats):
            identity = self.identities.of(token)
            for number, seat in enumerate(meta.seats):
                if identity is not None and seat.player == identity.name:
                    if acting:
                        identity.require_play()
                    return number
        raise ServiceError("forbidden", "this token is not a seat token (or seated player's) of this game")

    def require_seat(self, meta: MatchMeta, token: str | None) -> int:
        """The caller's seat: refused without a token (``unauthorized``) or with another one."""
        seat = self.seat_in(meta, security.require_token(token), acting=True)
        assert seat is not None
        return seat


def players_json(meta: MatchMeta) -> list[dict[str, Any]]:
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
