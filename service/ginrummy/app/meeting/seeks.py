"""The lobby: seeks (open games waiting for an opponent) and quick matching.

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
from ginrummy.store.lobby import Lobby, SeekIncompatible, SeekNotFound, SeekNotOpen, new_seek_id
from ginrummy.store.notify import Notifier, wait_until
from ginrummy.store.players import PlayerStore

from .. import security
from ..calls import Caller, Result
from ..config import Config
from ..errors import ServiceError
from ..players.profiles import People
from ..playing.starting import Matches, rated_family

SEEK_PUBLIC = ("id", "player", "rating", "family", "rated", "min_rating", "max_rating", "created")


class Seeks:
    """Seeks in the lobby, and the games they start."""

    def __init__(
        self,
        lobby: Lobby,
        people: People,
        players: PlayerStore,
        matches: Matches,
        notifier: Notifier,
        config: Config,
    ) -> None:
        self.lobby = lobby
        self.people = people
        self.players = players
        self.matches = matches
        self.notifier = notifier
        self.config = config

    def seek(self, body: dict[str, Any], caller: Caller) -> Result:
        """Post a seek; a quick one pairs with a compatible open seek at once (the game), else it
        waits in the lobby (the seek with its token, pending)."""
        player = self.people.require_player(caller.token)
        rules_in = body.get("rules") or {}
        preset, options = rules_in.get("preset") or "standard", dict(rules_in.get("options") or {})
        Rules.from_options(preset, **options)  # refused now (bad_rules), not when matched
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
            return Result(body_out, pending=True)
        return self._start(claimed, player, caller)

    def take(self, seek_id: str, caller: Caller) -> Result:
        """Take a seek of the lobby: the game starts."""
        player = self.people.require_player(caller.token)
        family_rating = None
        current = self.lobby.get(seek_id)
        if current is not None:
            mine = self.players.rating(player, current["family"])
            family_rating = None if mine is None else round(mine[0])
        try:
            claimed = self.lobby.take(seek_id, player, family_rating)
        except SeekNotFound:
            raise ServiceError("seek_not_found", f"there is no open seek {seek_id!r}") from None
        except SeekNotOpen:
            raise ServiceError("seek_taken", "this seek was taken or withdrawn") from None
        except SeekIncompatible as error:
            raise ServiceError("seek_incompatible", str(error) or "this seek is not open to you") from None
        return self._start(claimed, player, caller)

    def _start(self, seek: dict[str, Any], taker: str, caller: Caller) -> Result:
        """The game of a claimed seek: its owner in seat 0 (with the seek's token as its seat token),
        the taker in seat 1 (a new token, in this response)."""
        try:
            outcome = self.matches.start_matched(seek, taker, caller)
        except Exception:
            self.lobby.release(seek["id"])  # back to open: the owner keeps waiting
            raise
        self.lobby.complete(seek["id"], outcome.body["game_id"], "")
        return outcome

    def seek_status(self, seek_id: str, token: str | None, wait: float) -> Result:
        """The owner's look at its seek: open, or matched with the game (its seat token is the seek's)."""
        security.require_token(token)
        deadline = time.monotonic() + min(wait, self.config.max_wait)
        notifier = self.notifier
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
        return Result(out)

    def _own_seek(self, seek_id: str, token: str | None) -> dict[str, Any]:
        seek = self.lobby.get(seek_id)
        if seek is None:
            raise ServiceError("seek_not_found", f"there is no seek {seek_id!r} (it may have expired)")
        identity = None if token is None else self.people.identities.of(token)
        if token is None or not (
            security.matches(token, seek.get("secret_hash"))
            or (identity is not None and identity.name == seek["player"])
        ):
            raise ServiceError("forbidden", "this token is neither this seek's nor its player's")
        return seek

    def cancel(self, seek_id: str, token: str | None) -> Result:
        seek = self._own_seek(seek_id, security.require_token(token))
        if not self.lobby.cancel(seek_id, seek["secret_hash"]):
            raise ServiceError("seek_taken", "this seek was already taken")
        return Result({"id": seek_id, "status": "cancelled"})

    def open_seeks(self, limit: int) -> Result:
        seeks = [
            {**{k: s.get(k) for k in SEEK_PUBLIC}, "rules": orjson.loads(s["rules"])}
            for s in self.lobby.open_seeks(limit)
        ]
        return Result({"seeks": seeks})
