"""Players: a name and a token, their public profiles with statistics and ratings, and the leaderboard.

A player (``POST /v1/players``) is a unique name and a token (192 bits, stored hashed). Sent as
``Authorization: Bearer <player token>`` (or a session or API token of the player's account,
:mod:`~ginrummy.app.accounts`) to create, join or seek a game, it ties that seat to the player; the seat
still has its own seat token for playing.
"""

from __future__ import annotations

from ginrummy.store.moderation import ModerationStore
from ginrummy.store.players import NameTaken, PlayerStore

from .. import security
from ..calls import Result
from ..errors import ServiceError
from ..shapes.players import RankedRating
from . import ratings
from .identity import Identities
from .relations import Relations

RESERVED_PREFIX = "bot-"  # the house bots' player names


class People:
    """Players, their profiles and the leaderboard."""

    def __init__(
        self,
        players: PlayerStore,
        identities: Identities,
        relations: Relations,
        moderation: ModerationStore,
    ) -> None:
        self.players = players
        self.identities = identities
        self.relations = relations
        self.moderation = moderation

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
        """The name of the player whose token (own, session or API token) this is, when it may play
        (None without a token); 401 for another token, 403 for a read-only one."""
        return self.identities.player(token)

    def require_player(self, token: str | None) -> str:
        name = self.player_of(security.require_token(token))
        assert name is not None
        return name

    def profile(self, name: str) -> Result:
        data = self.players.get(name)
        if data is None:
            raise ServiceError("player_not_found", f"there is no player {name!r}")
        out_ratings: dict[str, RankedRating] = {}
        for family, r in (data.get("ratings") or {}).items():
            out_ratings[family] = {
                **ratings.shown(r["mu"], r["sigma"]),
                "games": r.get("games", 0),
                "rank": r.get("rank"),  # (None for a bot: bots are not on the leaderboard)
            }
        recent = [
            {**game, "game": f"/v1/games/{game['game_id']}", "hands": f"/v1/games/{game['game_id']}/hands/1"}
            for game in data.get("recent_games", [])
        ]
        body = {
            "name": data["name"],
            "bot": bool(data.get("bot")),
            "created": data.get("created"),
            "games": {k: data.get(k, 0) for k in ("played", "won", "lost")},
            "stats": data.get("stats", {}),
            "ratings": out_ratings,
            "recent": recent,
            "followers": self.relations.followers(data["name"]),
            "online": self.relations.online(data["name"]),
            "closed": self.moderation.closed(data["name"]),
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
