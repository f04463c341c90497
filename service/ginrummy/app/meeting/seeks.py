"""The lobby: seeks (open games waiting for an opponent) and quick matching.

A seek is an open game waiting in the lobby. Its owner gets a token at once: the seek's token, which
becomes the owner's SEAT token when someone takes the seek — so nothing secret has to be handed over
later, and the service never keeps a token in clear. The owner learns of the game by a long poll on
``GET /v1/seeks/{id}?wait=`` (woken by the lobby's notification, like the event endpoints). A quick
match pairs with the oldest compatible open seek at once, in one atomic script of the lobby (its keys
share one hash slot, so this holds on Redis Cluster too): two concurrent seekers never take the same
seek, and a seeker is left waiting only when no compatible seek is open.

Blocks keep two players apart here as everywhere (:mod:`ginrummy.app.players.relations`): a quick match
skips the seeks of players in a block with the seeker, a blocked player taking the blocker's seek finds
it gone (the block is never shown to the blocked), and the lobby a player reads leaves those seeks out.
Quick pairing pools (:mod:`.pools`) are seeks with a pool's terms; whoever waits in one longer than
``GIN_POOL_BOT_AFTER`` is offered the house bot nearest its rating (:meth:`Seeks.bot_offer`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import orjson

from ginrummy import bots
from ginrummy.engine import Rules
from ginrummy.store.lobby import SCAN_LIMIT, Lobby, SeekIncompatible, SeekNotFound, SeekNotOpen, new_seek_id
from ginrummy.store.notify import Notifier, wait_until
from ginrummy.store.players import PlayerStore

from .. import clocks, security
from ..calls import Caller, Result
from ..config import Config
from ..errors import ServiceError
from ..players.profiles import People
from ..players.ratings import DEFAULT_MU
from ..players.relations import Relations
from ..playing.starting import DEFAULT_BOT, Matches, bot_player, rated_family
from .pools import POOLS, pool_of, terms_text

SEEK_PUBLIC = ("id", "player", "rating", "family", "rated", "min_rating", "max_rating", "created")


class Seeks:
    """Seeks in the lobby, and the games they start."""

    def __init__(
        self,
        lobby: Lobby,
        people: People,
        players: PlayerStore,
        matches: Matches,
        relations: Relations,
        notifier: Notifier,
        config: Config,
    ) -> None:
        self.lobby = lobby
        self.people = people
        self.players = players
        self.matches = matches
        self.relations = relations
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
            "rules": terms_text(preset, options, clock),
            "rated": bool(body.get("rated")),
            "min_rating": body.get("min_rating"),
            "max_rating": body.get("max_rating"),
            "created": time.time(),
            "secret_hash": security.digest(token),
        }
        # One open seek per player: a new one replaces the player's older ones (a seek left behind by a
        # client that went away would otherwise pair someone with nobody).
        waiting = self.lobby.open_seeks(SCAN_LIMIT)
        for older in waiting:
            if older["player"] == player:
                self.lobby.cancel(older["id"], older["secret_hash"])
        if body.get("quick", True):
            claimed = self._pair(seek, self._in_block_with(player, (s["player"] for s in waiting)))
        else:
            claimed = self.lobby.post(seek, quick=False)
        if claimed is None:
            public = {k: seek[k] for k in SEEK_PUBLIC}
            body_out = {
                "seek": {**public, "status": "open", "expires_in": self.config.seek_ttl},
                "token": token,
            }
            return Result(body_out, pending=True)
        return self._start(claimed, player, caller)

    def _pair(self, seek: dict[str, Any], skip: set[str]) -> dict[str, Any] | None:
        """A quick match that skips the seeks of ``skip``'s players: those of the open seeks in a block
        with the seeker. One posted by such a player since (the lobby was read before) and claimed is let
        go, and the match tried again without it: a quick match never pairs two players in a block."""
        while True:
            claimed = self.lobby.post(dict(seek), quick=True, skip=skip)
            if claimed is None or not self._in_block_with(seek["player"], [claimed["player"]]):
                return claimed
            self.lobby.release(claimed["id"])
            skip.add(claimed["player"].casefold())

    def _in_block_with(self, player: str, others: Iterable[str]) -> set[str]:
        """Those of ``others`` (case-folded) who block ``player`` or whom it blocks."""
        me = player.casefold()
        pairs = self.relations.blocked_pairs([player, *{name for name in others if name.casefold() != me}])
        return {name for pair in pairs if me in pair for name in pair if name != me}

    def take(self, seek_id: str, caller: Caller) -> Result:
        """Take a seek of the lobby: the game starts. The seek of a player who blocks the taker is gone
        for it (``seek_not_found``, as a withdrawn seek: the block is never shown); the seek of a player
        the taker blocks is refused with ``player_blocked`` (the taker knows its own block)."""
        player = self.people.require_player(caller.token)
        family_rating = None
        current = self.lobby.get(seek_id)
        if current is not None:
            owner = current["player"]
            if self._in_block_with(player, [owner]):
                if self.relations.blocks(player, owner):
                    raise ServiceError("player_blocked", f"you block {owner}: unblock them to play them")
                raise ServiceError("seek_not_found", f"there is no open seek {seek_id!r}")
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
        """The owner's look at its seek: open, or matched with the game (its seat token is the seek's).
        An open seek that has waited in a pool for ``pool_bot_after`` seconds carries a bot offer; a
        long poll also ends when the offer comes."""
        security.require_token(token)
        deadline = time.monotonic() + min(wait, self.config.max_wait)
        notifier = self.notifier
        with notifier.watch("seek-" + seek_id) as changed:
            seek = self._own_seek(seek_id, token)
            offer_in = self._offer_in(seek)
            if offer_in is not None and offer_in > 0:  # the offer to come ends the wait; one made does not
                deadline = min(deadline, time.monotonic() + offer_in)
            while seek["status"] not in ("matched", "cancelled") and time.monotonic() < deadline:
                wait_until(changed, deadline, notifier.recheck_interval())
                seek = self._own_seek(seek_id, token)
        out = {k: seek.get(k) for k in SEEK_PUBLIC}
        out["status"] = "open" if seek["status"] == "claimed" else seek["status"]
        if seek["status"] == "matched":
            out.update(game_id=seek["game_id"], seat=0, game=f"/v1/games/{seek['game_id']}")
        offer_in = self._offer_in(seek)
        out["bot_offer"] = self.bot_offer(seek) if offer_in is not None and offer_in <= 0 else None
        return Result(out)

    def _offer_in(self, seek: dict[str, Any]) -> float | None:
        """Seconds until an open seek in a pool is offered a bot (None: another seek). Its creation time
        is the Redis server's clock: the offer may come a clock skew early or late."""
        if seek["status"] != "open" or pool_of(seek) is None:
            return None
        return float(seek["created"]) + self.config.pool_bot_after - time.time()

    def bot_offer(self, seek: dict[str, Any]) -> dict[str, Any]:
        """The house bot whose rating in the seek's family is nearest the seeker's (an unrated player or
        bot counts as a new one, 1500); ties go to the default bot, then the weaker. The random bot is a
        baseline, not an opponent: never offered."""
        mine = DEFAULT_MU if seek["rating"] is None else float(seek["rating"])
        offers = []
        for bot in bots.list_bots():
            if bot["level"] == 0:
                continue
            found = self.players.rating(bot_player(bot["name"]), seek["family"])
            rating = round(DEFAULT_MU if found is None else found[0])
            offers.append((abs(rating - mine), bot["name"] != DEFAULT_BOT, bot["level"], bot["name"], rating))
        *_, name, rating = min(offers)
        return {"bot": name, "rating": rating}

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

    def open_seeks(self, limit: int, token: str | None) -> Result:
        """The open seeks; with a token, those of the players in a block with its player left out."""
        found = self.lobby.open_seeks(limit)
        if token is not None:
            me = self.people.identities.of(token)
            if me is None:
                raise ServiceError("unknown_player", "this bearer token is no player's")
            hidden = self._in_block_with(me.name, (s["player"] for s in found))
            found = [s for s in found if s["player"].casefold() not in hidden]
        seeks = [{**{k: s.get(k) for k in SEEK_PUBLIC}, "rules": orjson.loads(s["rules"])} for s in found]
        return Result({"seeks": seeks})

    def pools(self) -> Result:
        """The quick pairing pools, each with how many wait in it now (of the lobby's oldest seeks)."""
        waiting = Counter(pool.id for pool in map(pool_of, self.lobby.open_seeks(SCAN_LIMIT)) if pool)
        listed = [
            {
                "id": pool.id,
                "family": pool.family,
                "clock": clocks.described({"preset": pool.clock}),
                "rated": pool.rated,
                "seek": pool.seek(),
                "waiting": waiting[pool.id],
            }
            for pool in POOLS
        ]
        return Result({"pools": listed, "bot_after": self.config.pool_bot_after})
