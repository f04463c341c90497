"""Players: a name and a token, their public profiles with statistics and ratings, and the leaderboard.

A player (``POST /v1/players``) is a unique name and a token (192 bits, stored hashed). Sent as
``Authorization: Bearer <player token>`` to create, join or seek a game, it ties that seat to the
player; the seat still has its own seat token for playing.
"""

from __future__ import annotations

from ginrummy.store.players import NameTaken, PlayerStore

from . import ratings, security
from .calls import Result
from .errors import ServiceError

RESERVED_PREFIX = "bot-"  # the house bots' player names


class People:
    """Players, their profiles and the leaderboard."""

    def __init__(self, players: PlayerStore) -> None:
        self.players = players

    # --- players --------------------------------------------------------------------------------
    def create_player(self, name: str) -> Result:
        name = name.removesuffix("\n")  # the pattern's "$" allows one (as JSON Schema validators read it)
        if name.casefold().startswith(RESERVED_PREFIX):
            raise ServiceError("name_reserved", f"names starting with {RESERVED_PREFIX!r} are the bots'")
        token = security.new_secret()
        try:
            self.players.create(name, security.digest(token))
        except NameTaken:
            raise ServiceError("name_taken", f"the name {name!r} is taken (names ignore case)") from None
        return Result({"name": name, "token": token}, created=True)

    def player_of(self, token: str | None) -> str | None:
        """The name of the player whose token this is (None without a token); 401 for another token."""
        if token is None:
            return None
        name = self.players.by_token(security.digest(token))
        if name is None:
            raise ServiceError(
                "unknown_player", "this bearer token is not a player's token (POST /v1/players makes one)"
            )
        return name

    def require_player(self, token: str | None) -> str:
        name = self.player_of(security.require_token(token))
        assert name is not None
        return name

    def profile(self, name: str) -> Result:
        data = self.players.get(name)
        if data is None:
            raise ServiceError("player_not_found", f"there is no player {name!r}")
        out_ratings = {}
        for family, r in (data.get("ratings") or {}).items():
            out_ratings[family] = {
                **ratings.shown(r["mu"], r["sigma"]),
                "games": r.get("games", 0),
                "rank": self.players.rank(data["name"], family),
            }
        recent = [
            {**game, "game": f"/v1/games/{game['game_id']}", "hands": f"/v1/games/{game['game_id']}/hands/1"}
            for game in data.get("recent_games", [])
        ]
        body = {
            "name": data["name"],
            "created": data.get("created"),
            "games": {k: data.get(k, 0) for k in ("played", "won", "lost")},
            "stats": data.get("stats", {}),
            "ratings": out_ratings,
            "recent": recent,
        }
        return Result(body)

    def leaderboard(self, family: str, limit: int) -> Result:
        rows = self.players.leaderboard(family, limit=limit)
        return Result(
            {
                "family": family,
                "players": [
                    {
                        "rank": r["rank"],
                        "name": r["name"],
                        "games": r.get("games", 0),
                        **ratings.shown(r["mu"], r["sigma"]),
                    }
                    for r in rows
                ],
            },
        )
