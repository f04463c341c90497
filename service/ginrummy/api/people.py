"""People playing people: players, their profiles and ratings, the leaderboard, the lobby of seeks and
quick matching, and the list of public games in play.

A player (``POST /v1/players``) is a unique name and a token (192 bits, stored hashed). Sent as
``Authorization: Bearer <player token>`` to create, join or seek a game, it ties that seat to the
player; the seat still has its own seat token for playing.

A seek is an open game waiting in the lobby. Its owner gets a token at once: the seek's token, which
becomes the owner's SEAT token when someone takes the seek — so nothing secret has to be handed over
later, and the service never keeps a token in clear. The owner learns of the game by a long poll on
``GET /v1/seeks/{id}?wait=`` (woken by the lobby's notification, like the event endpoints). A quick
match pairs with the oldest compatible open seek at once, in one atomic script of the lobby (its keys
share one hash slot, so this holds on Redis Cluster too): two concurrent seekers never take the same
seek, and a seeker is left waiting only when no compatible seek is open.
"""

from __future__ import annotations

import time
from typing import Any

import orjson

from ginrummy.engine import Rules
from ginrummy.store import GameStore
from ginrummy.store.lobby import Lobby, SeekIncompatible, SeekNotFound, SeekNotOpen, new_seek_id
from ginrummy.store.notify import wait_until
from ginrummy.store.players import NameTaken, PlayerStore

from . import ratings, security
from .config import Config
from .errors import ApiError
from .service import GameService, Outcome, Request, rated_family

RESERVED_PREFIX = "bot-"  # the house bots' player names
SEEK_PUBLIC = ("id", "player", "rating", "family", "rated", "min_rating", "max_rating", "created")


class PeopleService:
    """Players, the leaderboard, the lobby and the list of public games."""

    def __init__(self, games: GameService, players: PlayerStore, lobby: Lobby, config: Config) -> None:
        self.games = games
        self.players = players
        self.lobby = lobby
        self.config = config

    # --- players --------------------------------------------------------------------------------
    def create_player(self, name: str) -> Outcome:
        name = name.removesuffix("\n")  # the pattern's "$" allows one (as JSON Schema validators read it)
        if name.casefold().startswith(RESERVED_PREFIX):
            raise ApiError(422, "name_reserved", f"names starting with {RESERVED_PREFIX!r} are the bots'")
        token = security.new_secret()
        try:
            self.players.create(name, security.digest(token))
        except NameTaken:
            raise ApiError(409, "name_taken", f"the name {name!r} is taken (names ignore case)") from None
        return Outcome(201, {"name": name, "token": token}, headers={"Location": f"/v1/players/{name}"})

    def player_of(self, token: str | None) -> str | None:
        """The name of the player whose token this is (None without a token); 401 for another token."""
        if token is None:
            return None
        name = self.players.by_token(security.digest(token))
        if name is None:
            raise ApiError(
                401,
                "unknown_player",
                "this bearer token is not a player's token (POST /v1/players makes one)",
                headers={"WWW-Authenticate": 'Bearer realm="ginrummy"'},
            )
        return name

    def require_player(self, token: str | None) -> str:
        name = self.player_of(security.require_token(token))
        assert name is not None
        return name

    def profile(self, name: str) -> Outcome:
        data = self.players.get(name)
        if data is None:
            raise ApiError(404, "player_not_found", f"there is no player {name!r}")
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
        return Outcome(200, body)

    def leaderboard(self, family: str, limit: int) -> Outcome:
        rows = self.players.leaderboard(family, limit=limit)
        return Outcome(
            200,
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

    # --- the lobby ------------------------------------------------------------------------------
    def seek(self, body: dict[str, Any], request: Request) -> Outcome:
        """Post a seek; a quick one pairs with a compatible open seek at once (201 and the game), else it
        waits in the lobby (202 and the seek with its token)."""
        player = self.require_player(request.token)
        rules_in = body.get("rules") or {}
        preset, options = rules_in.get("preset") or "standard", dict(rules_in.get("options") or {})
        Rules.from_options(preset, **options)  # refused now (422 bad_rules), not when matched
        if body.get("rated"):
            rated_family(rules_in)  # refused now, not when matched
        clock = body.get("clock")
        token = security.new_secret()
        mine = self.players.rating(player, preset)
        seek = {
            "id": new_seek_id(),
            "player": player,
            "rating": None if mine is None else round(mine[0]),
            "family": preset,
            "rules": orjson.dumps(
                {"preset": preset, "options": options, "clock": clock}, option=orjson.OPT_SORT_KEYS
            ).decode(),
            "rated": bool(body.get("rated")),
            "min_rating": body.get("min_rating"),
            "max_rating": body.get("max_rating"),
            "created": time.time(),
            "secret_hash": security.digest(token),
        }
        # One open seek per player: a new one replaces the player's older ones (a seek left behind by a
        # client that went away would otherwise pair someone with nobody).
        for older in self.lobby.open_seeks(500):
            if older["player"] == player:
                self.lobby.cancel(older["id"], older["secret_hash"])
        claimed = self.lobby.post(seek, quick=body.get("quick", True))
        if claimed is None:
            public = {k: seek[k] for k in SEEK_PUBLIC}
            body_out = {
                "seek": {**public, "status": "open", "expires_in": self.config.seek_ttl},
                "token": token,
            }
            return Outcome(202, body_out, headers={"Location": f"/v1/seeks/{seek['id']}"})
        return self._start(claimed, player, request)

    def take(self, seek_id: str, request: Request) -> Outcome:
        """Take a seek of the lobby: the game starts."""
        player = self.require_player(request.token)
        family_rating = None
        current = self.lobby.get(seek_id)
        if current is not None:
            mine = self.players.rating(player, current["family"])
            family_rating = None if mine is None else round(mine[0])
        try:
            claimed = self.lobby.take(seek_id, player, family_rating)
        except SeekNotFound:
            raise ApiError(404, "seek_not_found", f"there is no open seek {seek_id!r}") from None
        except SeekNotOpen:
            raise ApiError(409, "seek_taken", "this seek was taken or withdrawn") from None
        except SeekIncompatible as error:
            raise ApiError(409, "seek_incompatible", str(error) or "this seek is not open to you") from None
        return self._start(claimed, player, request)

    def _start(self, seek: dict[str, Any], taker: str, request: Request) -> Outcome:
        """The game of a claimed seek: its owner in seat 0 (with the seek's token as its seat token),
        the taker in seat 1 (a new token, in this response)."""
        try:
            outcome = self.games.start_matched(seek, taker, request)
        except Exception:
            self.lobby.release(seek["id"])  # back to open: the owner keeps waiting
            raise
        self.lobby.complete(seek["id"], outcome.body["game_id"], "")
        return outcome

    def seek_status(self, seek_id: str, token: str | None, wait: float) -> Outcome:
        """The owner's look at its seek: open, or matched with the game (its seat token is the seek's)."""
        security.require_token(token)
        deadline = time.monotonic() + min(wait, self.config.max_wait)
        notifier = self.games.store.notifier
        with notifier.watch("seek-" + seek_id) as changed:
            while True:
                seek = self._own_seek(seek_id, token)
                if seek["status"] in ("matched", "cancelled") or time.monotonic() >= deadline:
                    break
                wait_until(changed, deadline, notifier.recheck_interval())
        out = {k: seek.get(k) for k in SEEK_PUBLIC}
        out["status"] = "open" if seek["status"] == "claimed" else seek["status"]
        if seek["status"] == "matched":
            out.update(game_id=seek["game_id"], seat=0, game=f"/v1/games/{seek['game_id']}")
        return Outcome(200, out)

    def _own_seek(self, seek_id: str, token: str | None) -> dict[str, Any]:
        seek = self.lobby.get(seek_id)
        if seek is None:
            raise ApiError(404, "seek_not_found", f"there is no seek {seek_id!r} (it may have expired)")
        if token is None or not (
            security.matches(token, seek.get("secret_hash"))
            or self.players.by_token(security.digest(token)) == seek["player"]
        ):
            raise ApiError(403, "forbidden", "this token is neither this seek's nor its player's")
        return seek

    def cancel(self, seek_id: str, token: str | None) -> Outcome:
        seek = self._own_seek(seek_id, security.require_token(token))
        if not self.lobby.cancel(seek_id, seek["secret_hash"]):
            raise ApiError(409, "seek_taken", "this seek was already taken")
        return Outcome(200, {"id": seek_id, "status": "cancelled"})

    def open_seeks(self, limit: int) -> Outcome:
        seeks = [
            {**{k: s.get(k) for k in SEEK_PUBLIC}, "rules": orjson.loads(s["rules"])}
            for s in self.lobby.open_seeks(limit)
        ]
        return Outcome(200, {"seeks": seeks})

    # --- games in play --------------------------------------------------------------------------
    def live_games(self, limit: int) -> Outcome:
        store: GameStore = self.games.store
        out = []
        game_ids = store.public_games(limit)
        for game_id, stored in zip(game_ids, store.load_many(game_ids), strict=True):
            if stored is None:
                store.forget_public(game_id)
                continue
            loaded = self.games._decode(game_id, stored)
            if loaded.game.match_over:
                continue
            out.append(
                {
                    "game_id": game_id,
                    "players": self.games.players_json(loaded.meta),
                    "rated": "r" in loaded.meta,
                    "rules": loaded.game.rules.to_dict(),
                    "hand_number": loaded.game.hand_number,
                    "spectate": f"/v1/games/{game_id}",
                }
            )
        return Outcome(200, {"games": out})
