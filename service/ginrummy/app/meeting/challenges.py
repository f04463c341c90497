"""Challenges: offer a game to a named player or bot — rules, clock, rated or casual — which the
challenged side accepts or declines (with a reason); the challenger may cancel; an unanswered challenge
expires after ``GIN_CHALLENGE_TTL`` seconds. Lichess's ``/api/challenge/{user}`` is the anchor.

- Anyone may challenge, the way anyone may invite today: a player (its session, API token or player
  token) or an anonymous caller (the challenge's token is then its only key). The answer carries the
  challenger's **token**: its seat token in the game to come, and its key to the challenge.
- The challenged is a player by name. A house bot (``bot-<name>``) accepts at once: the game is made in
  the same request. A person or a bot account answers with its account (session or API token that may
  play); it learns of the challenge on its account stream (:mod:`~ginrummy.app.players.feed`) or by
  listing its challenges.
- A rated challenge needs a player on both sides and a preset without overrides, as any rated game.
- Accepting makes the game (the challenger in seat 0 with the challenge's token, the challenged in seat
  1 with a new token); both sides get ``gameStart`` on their streams. A decline tells the challenger
  (``challengeDeclined``), a cancel the challenged (``challengeCanceled``).
"""

from __future__ import annotations

import time
from typing import Any, get_args

from ginrummy import bots
from ginrummy.engine import Rules
from ginrummy.store.challenges import ChallengeStore
from ginrummy.store.players import PlayerStore

from .. import clocks, security
from ..calls import Caller, Result
from ..config import Config
from ..errors import ServiceError
from ..players.feed import AccountFeed
from ..players.identity import Identities, Identity
from ..players.profiles import RESERVED_PREFIX
from ..players.relations import Relations
from ..playing.starting import Matches, bot_player, rated_family
from ..shapes.meeting import DeclineReason

DECLINE_REASONS: tuple[str, ...] = get_args(DeclineReason)

PUBLIC = ("id", "challenger", "opponent", "rules", "clock", "rated", "created", "expires", "game_id")


def public(status: str, doc: dict[str, Any]) -> dict[str, Any]:
    """A challenge as its two sides see it (never its token's digest)."""
    out = {key: doc.get(key) for key in PUBLIC}
    if status == "open" and doc["expires"] <= time.time():
        status = "expired"
    out["status"] = status
    out["decline_reason"] = doc.get("decline_reason")
    out["clock"] = clocks.described(doc.get("clock"))
    out["url"] = f"/v1/challenges/{doc['id']}"
    return out


class Challenges:
    """The use cases of challenges."""

    def __init__(
        self,
        store: ChallengeStore,
        identities: Identities,
        players: PlayerStore,
        matches: Matches,
        feed: AccountFeed,
        relations: Relations,
        config: Config,
    ) -> None:
        self.store = store
        self.identities = identities
        self.players = players
        self.matches = matches
        self.feed = feed
        self.relations = relations
        self.config = config

    def _identity(self, token: str | None) -> Identity | None:
        """The caller's identity when its token is a player's, session's or API token's (None: none, or
        another token — a seat's, a challenge's)."""
        return None if token is None else self.identities.of(token)

    # --- the challenger -----------------------------------------------------------------------------
    def create(self, body: dict[str, Any], caller: Caller) -> Result:
        me = self._identity(caller.token)
        if me is not None:
            me.require_play()
        rules_in = {"preset": (body.get("rules") or {}).get("preset") or "standard"}
        options = dict((body.get("rules") or {}).get("options") or {})
        if options:
            rules_in["options"] = options
        Rules.from_options(rules_in["preset"], **options)  # refused here (bad_rules), not at the accept
        rated = bool(body.get("rated"))
        if rated:
            if me is None:
                raise ServiceError(
                    "player_required", "a rated challenge needs a player: send your session or token"
                )
            rated_family(rules_in)
        clock_in = body.get("clock")
        clocks.new_clock(clock_in)  # refused here, not when the game is made
        wanted = body["opponent"]
        if wanted.casefold().startswith(RESERVED_PREFIX):
            return self._house_bot(wanted, body, caller, me)
        profile = self.players.get(wanted)
        if profile is None:
            raise ServiceError("player_not_found", f"there is no player {wanted!r}")
        opponent = str(profile["name"])
        if me is not None and opponent.casefold() == me.name.casefold():
            raise ServiceError("challenge_self", "you cannot challenge yourself")
        token = security.new_secret()
        now = time.time()
        challenge_id, expires = security.new_secret()[:16], now + self.config.challenge_ttl
        doc: dict[str, Any] = {
            "id": challenge_id,
            "challenger": {
                "name": me.name if me is not None else (body.get("name") or "Anonymous"),
                "player": None if me is None else me.name,
            },
            "opponent": {"name": opponent, "player": opponent, "bot": bool(profile.get("bot"))},
            "rules": rules_in,
            "clock": clock_in,
            "rated": rated,
            "created": now,
            "expires": expires,
            "game_id": None,
            "secret_hash": security.digest(token),
        }
        return self._offer(doc, token, me)

    def _offer(self, doc: dict[str, Any], token: str, me: Identity | None) -> Result:
        """Store the challenge and tell both sides — unless the challenged blocks the challenger: then it
        is declined at once, as any challenge may be, and the challenged never hears of it (a block is
        never shown to the blocked). The challenger may not challenge whom it blocks."""
        opponent = doc["opponent"]["player"]
        if me is not None and self.relations.blocks(me.name, opponent):
            raise ServiceError("player_blocked", f"you block {opponent}: unblock them to challenge them")
        if me is not None and self.relations.blocks(opponent, me.name):
            doc["decline_reason"] = "generic"
            self.store.create(doc["id"], doc, doc["expires"], [me.name], status="declined")
            return Result({"challenge": public("declined", doc), "token": token}, created=True)
        sides = [opponent] + ([me.name] if me is not None else [])
        self.store.create(doc["id"], doc, doc["expires"], sides)
        event = {"type": "challenge", "challenge": public("open", doc)}
        for side in sides:
            self.feed.publish(side, event)
        return Result({"challenge": public("open", doc), "token": token}, created=True)

    def _house_bot(self, wanted: str, body: dict[str, Any], caller: Caller, me: Identity | None) -> Result:
        """A house bot accepts at once: the game is made now, as ``POST /v1/games`` makes it."""
        bot = wanted.casefold().removeprefix(RESERVED_PREFIX)
        if bot not in bots.BOTS:
            raise ServiceError(
                "unknown_bot", f"there is no bot {wanted!r}; GET /v1/bots lists them", bots=list(bots.BOTS)
            )
        request = {
            "opponent": {"type": "bot", "bot": bot},
            "rules": body.get("rules") or {},
            "clock": body.get("clock"),
            "rated": body.get("rated"),
        }
        if me is None and body.get("name"):
            request["name"] = body["name"]
        game = self.matches.create(request, caller)
        now = time.time()
        doc = {
            "id": security.new_secret()[:16],
            # Read back by its challenger: by its account, or by the game's seat token it was given.
            "secret_hash": security.digest(game.body["token"]),
            "challenger": {
                "name": game.body["view"]["players"][0]["name"],
                "player": None if me is None else me.name,
            },
            "opponent": {"name": bot_player(bot), "player": bot_player(bot), "bot": True},
            "rules": body.get("rules") or {"preset": "standard"},
            "clock": body.get("clock"),
            "rated": bool(body.get("rated")),
            "created": now,
            "expires": now,
            "game_id": game.body["game_id"],
        }
        self.store.create(doc["id"], doc, now, [me.name] if me is not None else [], status="accepted")
        return Result({"challenge": public("accepted", doc), "token": game.body["token"]}, created=True)

    # --- reading ------------------------------------------------------------------------------------
    def _load(self, challenge_id: str) -> tuple[str, dict[str, Any]]:
        found = self.store.get(challenge_id) if len(challenge_id) <= 64 else None
        if found is None:
            raise ServiceError("challenge_not_found", f"there is no challenge {challenge_id!r}")
        return found

    def _side(self, doc: dict[str, Any], token: str | None) -> str:
        """Which side the caller is: ``challenger`` (its account, or the challenge's token) or
        ``opponent``; a challenge is private to its sides (404 to anyone else, as to no one)."""
        if token is not None and security.matches(token, doc.get("secret_hash")):
            return "challenger"
        me = self._identity(token)
        if me is not None:
            if doc["challenger"]["player"] and me.name.casefold() == doc["challenger"]["player"].casefold():
                return "challenger"
            if me.name.casefold() == doc["opponent"]["player"].casefold():
                return "opponent"
        raise ServiceError("challenge_not_found", f"there is no challenge {doc['id']!r}")

    def get(self, challenge_id: str, token: str | None) -> Result:
        security.require_token(token)
        status, doc = self._load(challenge_id)
        self._side(doc, token)
        return Result(public(status, doc))

    def mine(self, token: str | None) -> Result:
        """The caller's challenges still open: received (``in``) and sent (``out``)."""
        me = self.identities.of(security.require_token(token))
        if me is None:
            raise ServiceError("unknown_player", "this bearer token is no player's, session's or API token's")
        received: list[dict[str, Any]] = []
        sent: list[dict[str, Any]] = []
        ids = self.store.of_player(me.name)
        for found in self.store.get_many(ids):
            if found is None:
                continue
            shown = public(*found)
            if shown["status"] != "open":
                continue
            mine = (shown["opponent"]["player"] or "").casefold() == me.name.casefold()
            (received if mine else sent).append(shown)
        return Result({"in": received, "out": sent})

    # --- answers ------------------------------------------------------------------------------------
    def _open(
        self, challenge_id: str, token: str | None, side: str
    ) -> tuple[dict[str, Any], Identity | None]:
        status, doc = self._load(challenge_id)
        if self._side(doc, security.require_token(token)) != side:
            who = "the challenged player" if side == "opponent" else "the challenger"
            raise ServiceError("forbidden", f"only {who} may do this")
        shown = public(status, doc)["status"]
        if shown != "open":
            raise ServiceError("challenge_closed", f"this challenge is {shown}", challenge_status=shown)
        return doc, self._identity(token)

    def accept(self, challenge_id: str, caller: Caller) -> Result:
        doc, me = self._open(challenge_id, caller.token, "opponent")
        assert me is not None
        me.require_play()
        accepted = {**doc, "game_id": security.new_game_id()}
        if not self.store.move(challenge_id, "open", "accepted", accepted):
            raise ServiceError("challenge_closed", "this challenge was answered or cancelled meanwhile")
        try:
            game = self.matches.start_challenge(accepted, me.name, caller)
        except Exception:
            self.store.move(challenge_id, "accepted", "open", doc)  # open again: nothing was made
            raise
        return Result(
            {**game.body, "challenge": public("accepted", accepted)}, version=game.version, created=True
        )

    def decline(self, challenge_id: str, reason: str, token: str | None) -> Result:
        doc, me = self._open(challenge_id, token, "opponent")
        if me is not None:
            me.require_play()  # answering is acting: a read-only token or a bot account's session may not
        declined = {**doc, "decline_reason": reason}
        if not self.store.move(challenge_id, "open", "declined", declined):
            raise ServiceError("challenge_closed", "this challenge was answered or cancelled meanwhile")
        shown = public("declined", declined)
        self._tell_both(doc, {"type": "challengeDeclined", "challenge": shown})
        return Result(shown)

    def cancel(self, challenge_id: str, token: str | None) -> Result:
        doc, me = self._open(challenge_id, token, "challenger")
        if me is not None:
            me.require_play()
        if not self.store.move(challenge_id, "open", "canceled", doc):
            raise ServiceError("challenge_closed", "this challenge was answered meanwhile")
        shown = public("canceled", doc)
        self._tell_both(doc, {"type": "challengeCanceled", "challenge": shown})
        return Result(shown)

    def _tell_both(self, doc: dict[str, Any], event: dict[str, Any]) -> None:
        """An answer goes to both sides' streams (the answering side's other devices learn it too)."""
        for player in (doc["opponent"]["player"], doc["challenger"]["player"]):
            if player:
                self.feed.publish(player, event)
