"""Starting matches: a match created against a bot or for an invited human, the invited player's join,
the match of a seek taken in the lobby or of an accepted challenge, and the rematch after a match. Each is
dealt, answered by the bot if it is to act, counted against the bounds on matches in play and committed at
version 1."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import orjson

from ginrummy import bots
from ginrummy.engine import Event, Rules

from .. import clocks, metrics, security
from ..calls import Caller, Result
from ..config import Config
from ..errors import ServiceError
from . import dealing, fairness
from .bookkeeping import Bookkeeping
from .forfeits import tick
from .metadata import MatchMeta, Seat
from .seats import Seating
from .unit_of_work import Replay, UnitOfWork

DEFAULT_BOT = "simple"


def rated_family(rules_in: dict[str, Any]) -> str:
    """The rating family of a rated game under these rules: its preset, which it must play unchanged."""
    if rules_in.get("options"):
        raise ServiceError(
            "rated_needs_preset", "a rated game is played under a preset without option overrides"
        )
    return str(rules_in.get("preset") or "standard")


def bot_player(bot: str) -> str:
    """The player name of a house bot in rated games (``bot-`` names are reserved for them)."""
    return f"bot-{bot}"


def rematch_seed(seed: int | None) -> int | None:
    """A rematch's test seed: derived from the match's, so that it is reproducible and yet deals other
    hands (with the same seed the rematch replayed the same deals, the first dealer switched).

    >>> rematch_seed(7) != 7, rematch_seed(7) == rematch_seed(7), rematch_seed(None)
    (True, True, None)
    """
    if seed is None:
        return None
    return int.from_bytes(hashlib.sha256(f"{seed}:rematch".encode()).digest()[:7], "big")


def _join_conflict(current: int) -> ServiceError:
    return ServiceError("join_conflict", "the game changed while joining; try again")


def _settings(
    meta: MatchMeta, body: dict[str, Any], rules_in: dict[str, Any], player: str | None
) -> MatchMeta:
    """The creation settings kept in the metadata: rated (needs players and a plain preset), clock,
    privacy."""
    family = None
    if body.get("rated"):
        if player is None:
            raise ServiceError(
                "player_required",
                "a rated game needs a player: send Authorization: Bearer <player token> (POST /v1/players)",
            )
        family = rated_family(rules_in)
    clock = clocks.new_clock(body.get("clock"))
    return dataclasses.replace(meta, rating_family=family, clock=clock, private=bool(body.get("private")))


class Matches:
    """Creating, joining and rematching games."""

    def __init__(self, work: UnitOfWork, seating: Seating, books: Bookkeeping, config: Config) -> None:
        self.work = work
        self.seating = seating
        self.books = books
        self.config = config

    def create(self, body: dict[str, Any], caller: Caller) -> Result:
        rules_in = body.get("rules") or {}
        options = dict(rules_in.get("options") or {})
        if "preset" in options:  # it would clash with from_options' own argument
            raise ServiceError("bad_rules", 'name the preset in "rules.preset", not among the options')
        rules = Rules.from_options(rules_in.get("preset") or "standard", **options)
        opponent = body.get("opponent") or {"type": "bot"}
        seed = body.get("seed")
        if seed is not None and not self.config.allow_seed:
            raise ServiceError(
                "seed_not_allowed", "this service deals with a secure random source; a seed is refused"
            )
        token = security.new_secret()
        me = Seat.human(
            body.get("name") or caller.player or "Player 1",
            token_digest=security.digest(token),
            player=caller.player,
        )
        head: dict[str, Any] = {"seat": 0, "token": token, "invitation": None}
        invitation_digest = None
        if opponent.get("type") == "human":
            head["invitation"] = security.new_secret()
            other = Seat.human(None)
            invitation_digest = security.digest(head["invitation"])
        else:
            # {"type": "bot", "name": "expert"} means the expert, not the default bot shown as "expert".
            named = opponent.get("name") if opponent.get("name") in bots.BOTS else None
            bot = opponent.get("bot") or named or DEFAULT_BOT
            if bot not in bots.BOTS:
                names = list(bots.BOTS)
                raise ServiceError(
                    "unknown_bot", f"there is no bot {bot!r}; GET /v1/bots lists them", bots=names
                )
            if bots.BOTS[bot].searches and not self.work.bots.alive():
                raise ServiceError(
                    "bots_unavailable",
                    f"the {bot} plays in the service's bot workers and none is running now; "
                    "choose another bot or try again later",
                    retry_after=30,
                )
            player = bot_player(bot) if body.get("rated") else None
            other = Seat.house_bot(bot, name=opponent.get("name"), player=player)
        meta = MatchMeta(
            seats=(me, other),
            bot_salt=fairness.new_salt(),
            invitation_digest=invitation_digest,
            test_seed=int(seed) if seed is not None else None,
        )
        meta = _settings(meta, body, rules_in, caller.player)
        key = caller.idempotency_key
        game_id = security.game_id_for_key(caller.key_owner, key) if key else security.new_game_id()
        return self._start(game_id, meta, rules, caller, head)

    def _start(
        self,
        game_id: str,
        meta: MatchMeta,
        rules: Rules,
        caller: Caller,
        head: dict[str, Any],
        *,
        first_dealer: int | None = None,
    ) -> Result:
        """A new game with its first hand dealt, committed at version 0 → 1 (create, seeks, rematch)."""
        match, events = dealing.start(game_id, meta, rules, first_dealer)
        events += dealing.bot_replies(match)
        tick(match)
        client_key = self.books.reserve(game_id, caller.client, public=not match.meta.private)
        match.meta = dataclasses.replace(match.meta, client_key=client_key, created_ms=clocks.now_ms())
        key = caller.idempotency_key
        idem_key = security.scoped_key("create\n" + caller.key_owner, key) if key else None
        result = self.work.commit(match, events, caller, seat=head["seat"], idem_key=idem_key, head=head)
        if not result.replayed:
            metrics.record_game_created()
        if not result.replayed:
            self.books.tied(match, [seat.player for seat in match.meta.seats if not seat.is_bot])
        return result

    def start_matched(self, seek: dict[str, Any], taker: str, caller: Caller) -> Result:
        """The game of a seek taken in the lobby: the owner in seat 0 (its seat token is the seek's
        token, kept only as a digest), the taker in seat 1 with a new token (in this answer)."""
        settings = orjson.loads(seek["rules"])
        rules = Rules.from_options(settings["preset"], **settings["options"])
        token = security.new_secret()
        owner = Seat.human(seek["player"], token_digest=seek["secret_hash"], player=seek["player"])
        seated = Seat.human(taker, token_digest=security.digest(token), player=taker)
        meta = MatchMeta(seats=(owner, seated), bot_salt=fairness.new_salt())
        body = {"rated": seek.get("rated"), "clock": settings.get("clock")}
        meta = _settings(meta, body, {"preset": settings["preset"], "options": settings["options"]}, taker)
        head = {"seat": 1, "token": token, "invitation": None}
        return self._start(security.new_game_id(), meta, rules, caller, head)

    def start_challenge(self, challenge: dict[str, Any], accepter: str, caller: Caller) -> Result:
        """The game of an accepted challenge (its id made at the accept): the challenger in seat 0 (its
        seat token is the challenge's token, kept only as a digest), the accepter in seat 1 with a new
        token (in this answer)."""
        rules_in = challenge["rules"]
        rules = Rules.from_options(rules_in.get("preset") or "standard", **(rules_in.get("options") or {}))
        token = security.new_secret()
        challenger = challenge["challenger"]
        first = Seat.human(
            challenger["name"], token_digest=challenge["secret_hash"], player=challenger["player"]
        )
        seated = Seat.human(accepter, token_digest=security.digest(token), player=accepter)
        meta = MatchMeta(seats=(first, seated), bot_salt=fairness.new_salt())
        body = {"rated": challenge["rated"], "clock": challenge["clock"]}
        meta = _settings(meta, body, rules_in, challenger["player"])
        head = {"seat": 1, "token": token, "invitation": None}
        return self._start(challenge["game_id"], meta, rules, caller, head)

    def start_paired(
        self,
        game_id: str,
        seats: tuple[Seat, Seat],
        settings: dict[str, Any],
        *,
        tournament: str,
        deal_seed: str | None = None,
        berserk: tuple[int, ...] = (),
    ) -> Result:
        """A tournament's match (its id made with the pairing): ``seats`` as the director seats them — an
        account's seat is tied to its player (played with the account's tokens: its seat token is made
        here and thrown away), a house bot's is the bot's. Raises ``GameExists`` (the store's) when it
        was made already. ``deal_seed``: a duplicate pair's secret seed (both matches get the same deals);
        ``berserk``: the seats that may berserk."""
        rules_in = settings["rules"]
        rules = Rules.from_options(rules_in.get("preset") or "standard", **(rules_in.get("options") or {}))
        seated = tuple(
            seat
            if seat.is_bot
            else Seat.human(
                seat.name, token_digest=security.digest(security.new_secret()), player=seat.player
            )
            for seat in seats
        )
        meta = MatchMeta(
            seats=seated,
            bot_salt=fairness.new_salt(),
            tournament=tournament,
            deal_seed=deal_seed,
            berserk_allowed=berserk,
        )
        body = {"rated": settings.get("rated"), "clock": settings.get("clock")}
        meta = _settings(meta, body, rules_in, seats[0].player)
        caller = Caller(client=f"tournament {tournament}")
        return self._start(game_id, meta, rules, caller, {"seat": 0})

    def join(self, game_id: str, body: dict[str, Any], caller: Caller) -> Result:
        invitation = body["invitation"]
        key = caller.idempotency_key
        idem_key = security.scoped_key(f"join\n{invitation}\n{caller.key_owner}", key) if key else None
        match = self.work.load_for_write(game_id, idem_key)
        if isinstance(match, Replay):
            return self.work.replay(match, caller)
        meta = match.meta
        if not security.matches(invitation, meta.invitation_digest):
            raise ServiceError(
                "bad_invitation", "this invitation is not valid for this game (or was already used)"
            )
        if meta.rated and caller.player is None:
            raise ServiceError(
                "player_required",
                "this game is rated: join with Authorization: Bearer <player token> (POST /v1/players)",
            )
        token = security.new_secret()
        seat = 1
        name = body.get("name") or caller.player or "Player 2"
        if caller.player and meta.seats[0].player == caller.player:
            raise ServiceError("own_game", "a player cannot take both seats of a game")
        joined = Seat.human(name, token_digest=security.digest(token), player=caller.player or None)
        match.meta = dataclasses.replace(meta.with_seat(seat, joined), invitation_digest=None)
        tick(match)
        result = self.work.commit(
            match,
            [Event("joined", seat, {"name": name}, {})],
            caller,
            seat=seat,
            idem_key=idem_key,
            head={"seat": seat, "token": token},
            on_stale=_join_conflict,
        )
        if not result.replayed:
            self.books.tied(match, [caller.player])
        return result

    def rematch(self, game_id: str, caller: Caller) -> Result:
        """After the match: the first seat to ask offers, the other accepts; the rematch has the same
        players (and seat tokens), rules, rating and clock, and the other player deals first."""
        token = security.require_token(caller.token)
        key = caller.idempotency_key
        idem_key = security.scoped_key(token, key) if key else None
        match = self.work.load_for_write(game_id, idem_key)
        if isinstance(match, Replay):  # this very request was applied already: its answer again
            return self.work.replay(match, caller)
        # No version check: once the match is over only offers change the game, and an accept must not
        # fail because the offer itself moved the version.
        seat = self.seating.require_seat(match.meta, token)
        meta, game = match.meta, match.game
        if meta.tournament is not None:
            raise ServiceError(
                "no_rematch", "a tournament's match has no rematch: the director pairs the next"
            )
        if not game.match_over or meta.waiting_for_opponent:
            raise ServiceError("not_over", "a rematch is offered once the match is over")
        if meta.rematch_game:
            raise ServiceError(
                "rematch_exists", f"the rematch is game {meta.rematch_game}", game_id=meta.rematch_game
            )
        other = 1 - seat
        if seat in meta.rematch_offers:
            raise ServiceError("rematch_offered", "you already offered a rematch; the opponent may accept it")
        if other not in meta.rematch_offers and not meta.seats[other].is_bot:
            match.meta = dataclasses.replace(meta, rematch_offers=(*meta.rematch_offers, seat))
            return self.work.commit(
                match, [Event("rematch_offered", seat, {}, {})], caller, seat=seat, idem_key=idem_key
            )
        new_id = security.new_game_id()
        new_meta = MatchMeta(
            seats=meta.seats,
            bot_salt=fairness.new_salt(),
            rating_family=meta.rating_family,
            private=meta.private,
            test_seed=rematch_seed(meta.test_seed),
            clock=clocks.restarted(meta.clock) if meta.clock else None,
        )
        head = {"seat": seat}
        self._start(
            new_id,
            new_meta,
            game.rules,
            Caller(client=caller.client),
            head,
            first_dealer=1 - meta.first_dealer,
        )
        match.meta = dataclasses.replace(meta, rematch_game=new_id)
        # A retry of this accept racing it (the same Idempotency-Key) gets this answer; the game it made
        # meanwhile is never referenced and expires unplayed.
        return self.work.commit(
            match, [Event("rematch", seat, {"game_id": new_id}, {})], caller, seat=seat, idem_key=idem_key
        )
