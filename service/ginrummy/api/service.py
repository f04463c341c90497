"""The service's use cases: create, join, view, act (with the bot's replies), undo, hint, hands, events.

Every state change is one pipeline of seven steps, written once (:meth:`GameService._move`):

1. parse — the HTTP layer validates the body (schemas) and the headers (:class:`Request`);
2. load — :meth:`_load_for_write`: the game and, with an Idempotency-Key, its record (one round trip);
   a request already applied is answered from its record and nothing else happens;
3. check — the seat of the token (401/403), If-Match (428/412), both seats taken;
4. engine — one :data:`Step` applies the seat's action (or undo) and returns the engine's events;
5. bots — while a bot is to act, it acts, in this same request;
6. commit — :meth:`_commit`: state, events, finished-hand record and idempotency record in ONE atomic
   store call, store refusals mapped to HTTP (412 stale, 404 expired, replay);
7. render — the response body: the caller's view and the events as the caller's seat sees them.

An error at any step before the commit changes nothing. ``create`` and ``join`` are the same pipeline
with their own steps 3–4.

The stored doc of a game is ``<meta JSON>\\n<engine dumps>``. ``meta`` holds what the engine does not
know, in short keys to keep Redis memory small:

``p``   players: ``[{"n": name, "t": "h"|"b", "b": bot, "k": token digest}, …]`` by seat
``iv``  the invitation's digest while seat 1 is free
``bs``  the secret salt of the bot's decision seeds
``sd``  the test seed (only with GIN_ALLOW_SEED)
``sh``  the live hand's shuffle: ``{"n": hand number, "s": salt, "c": commitment}``
``ca``  a digest of the creating client's address: its count of games in play drops when the match ends
``r``   the rating family (a preset name) of a rated game
``ck``  the time control's clock (:mod:`ginrummy.api.clocks`)
``ts``  when the game last changed (unix ms): a seat idle that long may be claimed as having left
``fd``  the first dealer (a rematch starts with the other one)
``pv``  1 for a private game (not listed by GET /v1/games)
``rm``  the seats that offered a rematch; ``rg`` the rematch's game id once accepted

A seat of a player (``POST /v1/players``) has ``"pl": name`` beside its token digest; bots are players
too when rated (``bot-<name>``).

Events are the engine's :class:`~ginrummy.engine.Event` end to end: stored as its
:meth:`~ginrummy.engine.Event.to_row`, read back with ``from_row``, and shown to a seat by ``for_seat``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from ginrummy import bots
from ginrummy.engine import Action, Event, Game, Rules, dumps, hand_record, loads, seat_view, texts
from ginrummy.engine.actions import ENDING_TYPES
from ginrummy.engine.errors import GinRummyError, IllegalActionError
from ginrummy.engine.game import cut_for_dealer
from ginrummy.store import (
    GameExists,
    GameMissing,
    GameStore,
    Idempotency,
    IdempotencyKeyUsed,
    StaleVersion,
    Stored,
    StoreError,
    TooManyLiveGames,
)
from ginrummy.store.players import PlayerStore

from . import clocks, fairness, observability, ratings, security
from .config import Config
from .errors import ActionRefused, ApiError

log = logging.getLogger(__name__)

MAX_BOT_STEPS = 400  # a hand cannot take this many bot moves in a row; a guard against a stuck loop
# What the response of a change leaves out of the caller's view: the hand's history (the response's events
# are what just happened) and the match statistics; GET /v1/games/{id} has both (docs/api.md, "Views").
PLAY_VIEW_OMITS = frozenset({"history", "stats"})
# What a bot's view leaves out: nothing a bot reads (it works out its own hand's melds itself).
BOT_VIEW_OMITS = frozenset({"stats", "analysis"})
DEFAULT_BOT = "simple"
# Members of a create/join response that are secrets: sealed in the idempotency record (security.pad).
SECRETS = ("token", "invitation")


def _compact(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass
class Loaded:
    """A game as read from the store, decoded (``version`` 0: not created yet)."""

    game_id: str
    version: int
    meta: dict[str, Any]
    game: Game
    # Whether the live hand was over, and its number, when loaded: a change that ends a hand stores
    # that hand's record.
    hand_before: tuple[bool, int] = (False, 0)


@dataclass(frozen=True)
class Replay:
    """The stored idempotency record of a request that was already applied."""

    record: str


@dataclass
class Outcome:
    """A response to send: status, JSON body, ETag version, and whether it is an idempotent replay."""

    status: int
    body: dict[str, Any]
    version: int | None = None
    replayed: bool = False
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Request:
    """What the service needs to know about the HTTP request besides the parsed body."""

    token: str | None = None
    player: str | None = None  # the player's name, when the bearer token is a player's (create, join)
    if_match: str | None = None
    idempotency_key: str | None = None
    fingerprint: str = ""  # hash of method, path and body: a reused key with another body is refused
    client: str = ""  # the client's address: bounds the games in play it may have


# Step 4 of a move: change the loaded game for the seat; return the events it made.
Step = Callable[[Loaded, int], list[Event]]


def fingerprint(method: str, path: str, body: bytes) -> str:
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + body).hexdigest()[:32]


def decision_seed(salt: str, game_id: str, version: int, step: int) -> int:
    """A 63-bit seed for one bot decision, from the game's secret salt and public position: play is
    reproducible from the stored game, and yet no client can predict it."""
    raw = hashlib.sha256(f"{salt}\n{game_id}\n{version}\n{step}".encode()).digest()
    return int.from_bytes(raw[:8], "big") >> 1


def fallback_action(view: dict[str, Any]) -> dict[str, Any]:
    """What is played when a bot fails: the first legal play, preferring anything to a pass (never a
    resignation)."""
    legal: list[dict[str, Any]] = bots.play_actions(view)
    return next((a for a in legal if a.get("type") != "pass"), legal[0])


def seat_event(cursor: str, row: str, seat: int | None) -> dict[str, Any]:
    """A stored event (its :meth:`Event.to_row`) with its cursor, as ``seat`` may see it."""
    return {"id": cursor, **Event.from_row(orjson.loads(row)).for_seat(seat)}


def _not_found(game_id: str) -> ApiError:
    return ApiError(404, "game_not_found", f"there is no game {game_id!r} (it may have expired)")


def _stale(current: int, detail: str) -> ApiError:
    """412: the move was chosen from an older view; the ETag says which version is current."""
    return ApiError(412, "stale_version", detail, headers={"ETag": security.etag(current)}, version=current)


def _moved_first(current: int) -> ApiError:
    return _stale(
        current, f"another move was committed first (the game is at version {current}); GET it again"
    )


def _join_conflict(current: int) -> ApiError:
    return ApiError(409, "join_conflict", "the game changed while joining; try again")


def rated_family(rules_in: dict[str, Any]) -> str:
    """The rating family of a rated game under these rules: its preset, which it must play unchanged."""
    if rules_in.get("options"):
        raise ApiError(
            422, "rated_needs_preset", "a rated game is played under a preset without option overrides"
        )
    return str(rules_in.get("preset") or "standard")


def bot_player(bot: str) -> str:
    """The player name of a house bot in rated games (``bot-`` names are reserved for them)."""
    return f"bot-{bot}"


class GameService:
    """The games, as the HTTP layer sees them."""

    def __init__(self, store: GameStore, config: Config, players: PlayerStore) -> None:
        self.store = store
        self.config = config
        self.players = players

    # --- loading --------------------------------------------------------------------------------
    def _decode(self, game_id: str, stored: Stored) -> Loaded:
        meta_text, _, engine_text = stored.doc.partition("\n")
        game = loads(engine_text, orjson.loads)
        return Loaded(
            game_id, stored.version, orjson.loads(meta_text), game, (game.hand_over, game.hand_number)
        )

    def _stored(self, game_id: str) -> Stored:
        """The game as stored, or 404."""
        security.check_game_id(game_id)
        stored = self.store.load(game_id)
        if stored is None:
            raise _not_found(game_id)
        return stored

    def load(self, game_id: str) -> Loaded:
        return self._decode(game_id, self._stored(game_id))

    def _load_for_write(self, game_id: str, idem_key: str | None) -> Loaded | Replay:
        """Step 2: the game to change, or the record of this very request if it was already applied."""
        if idem_key is None:
            return self.load(game_id)
        security.check_game_id(game_id)
        stored, record = self.store.load_with_record(game_id, idem_key)
        if record is not None:
            return Replay(record)
        if stored is None:
            raise _not_found(game_id)
        return self._decode(game_id, stored)

    # --- seats ----------------------------------------------------------------------------------
    def reader_seat(self, game_id: str, token: str | None) -> tuple[int | None, bool, int | None]:
        """The seat of a reader of the game's events (None: a spectator), whether the game has a clock,
        and the running seat's deadline (unix ms; None: no clock runs now) — a long poll or a stream looks
        at the game again only then (:meth:`expire_if_due`). Only the game's meta is decoded: waiting for
        events is not a reason to load the engine's state."""
        meta = orjson.loads(self._stored(game_id).doc.partition("\n")[0])
        seat = self.seat_in(meta, token)
        return seat, bool(meta.get("ck")), self.expire_if_due(game_id, meta)

    def expire_if_due(self, game_id: str, meta: dict[str, Any] | None = None) -> int | None:
        """Commit the loss on time of a seat whose deadline has passed (see :meth:`_enforce_clock`);
        returns the deadline that runs now (unix ms), or None."""
        if meta is None:
            meta = orjson.loads(self._stored(game_id).doc.partition("\n")[0])
        ck = meta.get("ck")
        if not ck:
            return None
        if clocks.expired(ck, now_ms=clocks.now_ms()) is None:
            return clocks.deadline_ms(ck)
        ck = self._enforce_clock(self.load(game_id)).meta.get("ck")
        return clocks.deadline_ms(ck) if ck else None

    def seat_of(self, loaded: Loaded, token: str | None) -> int | None:
        """The seat a token belongs to in this game; None without a token (a spectator)."""
        return self.seat_in(loaded.meta, token)

    def seat_in(self, meta: dict[str, Any], token: str | None) -> int | None:
        """The seat of a seat token, or of a player's token for a seat tied to that player."""
        if token is None:
            return None
        for seat, player in enumerate(meta["p"]):
            if security.matches(token, player.get("k")):
                return seat
        if any(p.get("pl") for p in meta["p"]):
            name = self.players.by_token(security.digest(token))
            for seat, player in enumerate(meta["p"]):
                if name is not None and player.get("pl") == name:
                    return seat
        raise ApiError(403, "forbidden", "this token is not a seat token (or seated player's) of this game")

    def require_seat(self, loaded: Loaded, token: str | None) -> int:
        """The caller's seat; 401 without a token, 403 with another one."""
        seat = self.seat_of(loaded, security.require_token(token))
        assert seat is not None
        return seat

    @staticmethod
    def bot_seat(meta: dict[str, Any]) -> int | None:
        return next((seat for seat, player in enumerate(meta["p"]) if player["t"] == "b"), None)

    @staticmethod
    def waiting_for_opponent(meta: dict[str, Any]) -> bool:
        return any(p["t"] == "h" and p.get("k") is None for p in meta["p"])

    @staticmethod
    def players_json(meta: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for seat, player in enumerate(meta["p"]):
            entry: dict[str, Any] = {
                "seat": seat,
                "name": player.get("n"),
                "type": "bot" if player["t"] == "b" else "human",
            }
            if player["t"] == "b":
                entry["bot"] = player["b"]
            else:
                entry["joined"] = player.get("k") is not None
            entry["player"] = player.get("pl")
            out.append(entry)
        return out

    # --- rendering ------------------------------------------------------------------------------
    def view(self, loaded: Loaded, seat: int | None, omit: frozenset[str] = frozenset()) -> dict[str, Any]:
        """The seat view (without the parts in ``omit``) plus the service's members: game_id, version,
        players, commitment."""
        view = seat_view(loaded.game, seat, omit)
        people = self.players_json(loaded.meta)
        if seat is None and isinstance(view.get("players"), list):
            # The spectator view lists each seat's public card facts; add who sits there.
            view["players"] = [
                {**facts, **person} for facts, person in zip(view["players"], people, strict=False)
            ]
        else:
            view["players"] = people
        waiting = self.waiting_for_opponent(loaded.meta)
        if waiting:
            view["legal_actions"] = []
        # Whether the seat has a move to make now: its legal actions hold more than resign/abort (which
        # are legal at any time); clients wait for the opponent while it is false.
        view["your_move"] = any(a["type"] not in ENDING_TYPES for a in view["legal_actions"])
        view["waiting_for_opponent"] = waiting
        shuffle = loaded.meta.get("sh") or {}
        view["commitment"] = shuffle.get("c")
        view["game_id"] = loaded.game_id
        view["version"] = loaded.version
        meta = loaded.meta
        view["rated"] = "r" in meta
        view["private"] = bool(meta.get("pv"))
        view["clock"] = clocks.clock_view(meta["ck"], now_ms=clocks.now_ms()) if meta.get("ck") else None
        if loaded.game.match_over:
            view["rematch"] = {"offered_by": meta.get("rm", []), "game_id": meta.get("rg")}
            if seat is not None and meta.get("rg") is None and not view["waiting_for_opponent"]:
                view["legal_actions"] = [{"type": "rematch"}] if seat not in meta.get("rm", []) else []
                view["your_move"] = False
        return view

    # --- create and join ------------------------------------------------------------------------
    def create(self, body: dict[str, Any], request: Request) -> Outcome:
        rules_in = body.get("rules") or {}
        options = dict(rules_in.get("options") or {})
        if "preset" in options:  # it would clash with from_options' own argument
            raise ApiError(422, "bad_rules", 'name the preset in "rules.preset", not among the options')
        rules = Rules.from_options(rules_in.get("preset") or "standard", **options)
        opponent = body.get("opponent") or {"type": "bot"}
        seed = body.get("seed")
        if seed is not None and not self.config.allow_seed:
            raise ApiError(
                422, "seed_not_allowed", "this service deals with a secure random source; a seed is refused"
            )
        token = security.new_secret()
        me: dict[str, Any] = {"n": body.get("name") or request.player or "Player 1", "t": "h"}
        me["k"] = security.digest(token)
        if request.player:
            me["pl"] = request.player
        meta: dict[str, Any] = {"p": [me], "bs": fairness.new_salt()}
        head: dict[str, Any] = {"seat": 0, "token": token, "invitation": None}
        if opponent.get("type") == "human":
            head["invitation"] = security.new_secret()
            meta["p"].append({"n": None, "t": "h", "k": None})
            meta["iv"] = security.digest(head["invitation"])
        else:
            bot = opponent.get("bot") or DEFAULT_BOT
            if bot not in bots.BOTS:
                names = list(bots.BOTS)
                raise ApiError(
                    422, "unknown_bot", f"there is no bot {bot!r}; GET /v1/bots lists them", bots=names
                )
            meta["p"].append({"n": opponent.get("name") or bot, "t": "b", "b": bot})
            if body.get("rated"):
                meta["p"][1]["pl"] = bot_player(bot)
        self._settings(meta, body, rules_in, request.player)
        if seed is not None:
            meta["sd"] = int(seed)
        key = request.idempotency_key
        game_id = security.game_id_for_key(key) if key else security.new_game_id()
        return self._create(game_id, meta, rules, request, head)

    def _settings(
        self, meta: dict[str, Any], body: dict[str, Any], rules_in: dict[str, Any], player: str | None
    ) -> None:
        """The creation settings kept in the meta: rated (needs players and a plain preset), clock,
        privacy."""
        if body.get("rated"):
            if player is None:
                raise ApiError(
                    422,
                    "player_required",
                    "a rated game needs a player: send Authorization: Bearer <player token> "
                    "(POST /v1/players)",
                )
            meta["r"] = rated_family(rules_in)
        clock = clocks.new_clock(body.get("clock"))
        if clock is not None:
            meta["ck"] = clock
        if body.get("private"):
            meta["pv"] = 1

    def _create(
        self,
        game_id: str,
        meta: dict[str, Any],
        rules: Rules,
        request: Request,
        head: dict[str, Any],
        *,
        first_dealer: int | None = None,
    ) -> Outcome:
        """A new game with its first hand dealt, committed at version 0 → 1 (create, seeks, rematch)."""
        dealer = cut_for_dealer(self._rng(meta, 0)) if first_dealer is None else first_dealer
        meta["fd"] = dealer
        loaded = Loaded(game_id, 0, meta, Game(rules, dealer))
        events = self._deal(loaded) + self._bot_replies(loaded)
        self._tick(loaded)
        meta["ca"] = self._reserve(game_id, request.client, public=not meta.get("pv"))
        key = request.idempotency_key
        idem_key = security.scoped_key("create", key) if key else None
        outcome = self._commit(loaded, events, request, seat=head["seat"], idem_key=idem_key, head=head)
        if not outcome.replayed:
            observability.record_game_created()
        return outcome

    def start_matched(self, seek: dict[str, Any], taker: str, request: Request) -> Outcome:
        """The game of a seek taken in the lobby: the owner in seat 0 (its seat token is the seek's
        token, kept only as a digest), the taker in seat 1 with a new token (in this response)."""
        settings = orjson.loads(seek["rules"])
        rules = Rules.from_options(settings["preset"], **settings["options"])
        token = security.new_secret()
        owner = {"n": seek["player"], "t": "h", "k": seek["secret_hash"], "pl": seek["player"]}
        meta: dict[str, Any] = {
            "p": [owner, {"n": taker, "t": "h", "k": security.digest(token), "pl": taker}],
            "bs": fairness.new_salt(),
        }
        body = {"rated": seek.get("rated"), "clock": settings.get("clock")}
        self._settings(meta, body, {"preset": settings["preset"], "options": settings["options"]}, taker)
        head = {"seat": 1, "token": token, "invitation": None}
        return self._create(security.new_game_id(), meta, rules, request, head)

    def join(self, game_id: str, body: dict[str, Any], request: Request) -> Outcome:
        invitation = body["invitation"]
        key = request.idempotency_key
        idem_key = security.scoped_key("join\n" + invitation, key) if key else None
        loaded = self._load_for_write(game_id, idem_key)
        if isinstance(loaded, Replay):
            return self._replay(loaded, request)
        if not security.matches(invitation, loaded.meta.get("iv")):
            raise ApiError(
                403, "bad_invitation", "this invitation is not valid for this game (or was already used)"
            )
        if "r" in loaded.meta and request.player is None:
            raise ApiError(
                422,
                "player_required",
                "this game is rated: join with Authorization: Bearer <player token> (POST /v1/players)",
            )
        token = security.new_secret()
        seat = 1
        name = body.get("name") or request.player or "Player 2"
        loaded.meta["p"][seat].update({"n": name, "k": security.digest(token)})
        if request.player:
            if loaded.meta["p"][0].get("pl") == request.player:
                raise ApiError(409, "own_game", "a player cannot take both seats of a game")
            loaded.meta["p"][seat]["pl"] = request.player
        loaded.meta.pop("iv", None)
        self._tick(loaded)
        return self._commit(
            loaded,
            [Event("joined", seat, {"name": name}, {})],
            request,
            seat=seat,
            idem_key=idem_key,
            head={"seat": seat, "token": token},
            on_stale=_join_conflict,
        )

    # --- reading --------------------------------------------------------------------------------
    def get_view(self, game_id: str, token: str | None) -> Outcome:
        loaded = self._enforce_clock(self.load(game_id))
        seat = self.seat_of(loaded, token)
        if loaded.game.match_over:
            self._record(loaded)  # again, should the first attempt have been cut short (it applies once)
        return Outcome(200, self.view(loaded, seat), version=loaded.version)

    def hand(self, game_id: str, number: int, token: str | None) -> Outcome:
        loaded = self.load(game_id)
        self.seat_of(loaded, token)  # a bad token is refused even here
        record = self.store.hand_record(game_id, number)
        if record is None:
            live = loaded.game.hand_number
            detail = (
                f"hand {number} is still being played; it is revealed once it is over"
                if number == live and not loaded.game.hand_over
                else f"no finished hand {number} is kept (only the last {self.config.hands_kept} are)"
            )
            raise ApiError(404, "hand_not_found", detail)
        return Outcome(200, orjson.loads(record), version=loaded.version)

    def hint(self, game_id: str, token: str | None) -> Outcome:
        loaded = self._enforce_clock(self.load(game_id))
        seat = self.require_seat(loaded, token)
        if "r" in loaded.meta:
            raise ApiError(409, "rated_game", "a rated game offers no hints")
        view = self.view(loaded, seat)
        if not view["your_move"]:
            raise ApiError(409, "nothing_to_do", "this seat has no move to make now", turn=view["turn"])
        return Outcome(200, dict(bots.hint(view)), version=loaded.version)

    # --- moving ---------------------------------------------------------------------------------
    def act(self, game_id: str, action: dict[str, Any], request: Request) -> Outcome:
        if action.get("type") == "rematch":
            if set(action) != {"type"}:
                raise ApiError(422, "bad_action", "rematch takes no field but its type")
            security.if_match_version(request.if_match)  # as every action here: 428 without one
            return self.rematch(game_id, request)
        parsed = Action.from_json(action)  # its shape is refused (422) before any state is looked at
        return self._move(game_id, request, lambda loaded, seat: self._apply_action(loaded, seat, parsed))

    def undo(self, game_id: str, request: Request) -> Outcome:
        return self._move(game_id, request, self._apply_undo)

    def _move(self, game_id: str, request: Request, step: Step) -> Outcome:
        """A seat's change of the game: the seven steps of the module docstring."""
        token = security.require_token(request.token)
        key = request.idempotency_key
        idem_key = security.scoped_key(token, key) if key else None
        loaded = self._load_for_write(game_id, idem_key)
        if isinstance(loaded, Replay):
            return self._replay(loaded, request)
        seat = self.require_seat(loaded, token)
        self._check_version(loaded, request)
        if self.waiting_for_opponent(loaded.meta):
            raise ApiError(409, "waiting_for_opponent", "the second player has not joined yet")
        self._time_is_up(loaded, seat)
        events = step(loaded, seat)
        events += self._bot_replies(loaded)
        self._tick(loaded)
        outcome = self._commit(loaded, events, request, seat=seat, idem_key=idem_key)
        if loaded.game.match_over and not outcome.replayed:
            self._finished(loaded)
        return outcome

    @staticmethod
    def _check_version(loaded: Loaded, request: Request) -> None:
        """If-Match: 428 without it, 412 when it is not the game's version (``*``: any)."""
        wanted = security.if_match_version(request.if_match)
        if wanted is not None and wanted != loaded.version:
            raise _stale(
                loaded.version,
                f"the game is at version {loaded.version}, not {wanted}: GET it and choose again",
            )

    def _finished(self, loaded: Loaded) -> None:
        """After the commit that ended the match: counts, bounds, players' records and ratings."""
        observability.record_game_finished()
        if "ca" in loaded.meta:
            self.store.release_live_game(loaded.game_id, loaded.meta["ca"])
        self._record(loaded)

    def _record(self, loaded: Loaded) -> None:
        """Apply a finished match to its players' records and ratings: exactly once per game (the player
        store keeps which games it applied), so any later read may safely try again."""
        meta, game = loaded.meta, loaded.game
        seats = tuple(p.get("pl") for p in meta["p"])
        if not any(seats) or game.end_reason == "aborted":
            return
        winner = game.match_winner
        family = meta.get("r") or "casual"
        rated = "r" in meta and all(seats) and winner is not None
        stats = tuple({k: v for k, v in s.items() if isinstance(v, int)} for s in game.stats())
        rate = (lambda before: ratings.rate(before, winner)) if rated and winner is not None else None
        try:
            self.players.record_game(
                loaded.game_id,
                family,
                rated,
                (seats[0], seats[1]),
                winner,
                (stats[0], stats[1]),
                game.end_reason,
                time.time(),
                rate,
            )
        except StoreError:  # the game's end is committed and stands; a later read of the game retries
            log.exception("recording the finished game %s for its players failed", loaded.game_id)

    # --- time ----------------------------------------------------------------------------------
    def _tick(self, loaded: Loaded) -> None:
        """At every change: note the time, and settle the clock (the seat to act next, if a human)."""
        meta, game = loaded.meta, loaded.game
        now = clocks.now_ms()
        meta["ts"] = now
        if meta.get("ck"):
            # Nobody's clock runs before the invited player has joined, nor for a bot, nor at the end.
            to_act = game.to_act
            human = to_act is not None and meta["p"][to_act]["t"] == "h" and not game.match_over
            running = to_act if human and not self.waiting_for_opponent(meta) else None
            clocks.settle(meta["ck"], running, now_ms=now, increment=not game.match_over)

    def _time_is_up(self, loaded: Loaded, seat: int) -> None:
        """A change after a seat's time ran out is refused: the loss on time is committed instead."""
        ck = loaded.meta.get("ck")
        loser = clocks.expired(ck, now_ms=clocks.now_ms()) if ck else None
        if loser is not None:
            self._enforce_clock(loaded)
            detail = "your time ran out" if loser == seat else "the opponent's time ran out: you won"
            raise ApiError(409, "game_over", f"{detail} (the match is over, lost on time)")

    def _enforce_clock(self, loaded: Loaded) -> Loaded:
        """The loss on time of a seat whose deadline has passed, committed by the first request that
        finds it (any read or move); the version check makes it happen once. Returns the game as it is."""
        for _ in range(3):
            ck = loaded.meta.get("ck")
            seat = clocks.expired(ck, now_ms=clocks.now_ms()) if ck else None
            if seat is None or loaded.game.match_over:
                return loaded
            try:
                self._forfeit(loaded, seat, "timeout")
                return loaded
            except ApiError as error:
                if error.status != 412:
                    raise
                loaded = self.load(loaded.game_id)  # another request applied it first
        return loaded

    def _forfeit(self, loaded: Loaded, seat: int, reason: str) -> Outcome:
        """Commit a seat's loss (time, abandonment) as the service's own change of the game."""
        events = loaded.game.forfeit(seat, reason)
        self._tick(loaded)
        outcome = self._commit(loaded, events, Request(), seat=1 - seat, idem_key=None)
        self._finished(loaded)
        return outcome

    def claim_victory(self, game_id: str, request: Request) -> Outcome:
        """The waiting seat claims the game: the opponent's time is up, or (without a time control) it
        has not moved for ``GIN_ABANDON_AFTER`` seconds."""
        loaded = self.load(game_id)
        seat = self.require_seat(loaded, security.require_token(request.token))
        if loaded.game.match_over:
            raise ApiError(409, "game_over", "the match is over")
        meta, game = loaded.meta, loaded.game
        other = 1 - seat
        if game.to_act != other or meta["p"][other]["t"] != "h" or self.waiting_for_opponent(meta):
            raise ApiError(409, "nothing_to_claim", "it is not the opponent's move")
        now = clocks.now_ms()
        if meta.get("ck"):
            if clocks.expired(meta["ck"], now_ms=now) != other:
                deadline = clocks.deadline_ms(meta["ck"]) or now
                raise ApiError(
                    409, "too_early", "the opponent still has time", seconds_left=(deadline - now) / 1000
                )
            return self._forfeit(loaded, other, "timeout")
        idle = (now - meta.get("ts", now)) / 1000
        if idle < self.config.abandon_after:
            raise ApiError(
                409,
                "too_early",
                f"the opponent has been idle {idle:.0f} s; it may be claimed after "
                f"{self.config.abandon_after} s",
                seconds_left=self.config.abandon_after - idle,
            )
        return self._forfeit(loaded, other, "abandoned")

    # --- rematch -------------------------------------------------------------------------------
    def rematch(self, game_id: str, request: Request) -> Outcome:
        """After the match: the first seat to ask offers, the other accepts; the rematch has the same
        players (and seat tokens), rules, rating and clock, and the other player deals first."""
        loaded = self.load(game_id)
        # No version check: once the match is over only offers change the game, and an accept must not
        # fail because the offer itself moved the version.
        seat = self.require_seat(loaded, security.require_token(request.token))
        meta, game = loaded.meta, loaded.game
        if not game.match_over or self.waiting_for_opponent(meta):
            raise ApiError(409, "not_over", "a rematch is offered once the match is over")
        if meta.get("rg"):
            raise ApiError(409, "rematch_exists", f"the rematch is game {meta['rg']}", game_id=meta["rg"])
        offers: list[int] = meta.setdefault("rm", [])
        other = 1 - seat
        if seat in offers:
            raise ApiError(
                409, "rematch_offered", "you already offered a rematch; the opponent may accept it"
            )
        if other not in offers and meta["p"][other]["t"] == "h":
            offers.append(seat)
            return self._commit(
                loaded, [Event("rematch_offered", seat, {}, {})], request, seat=seat, idem_key=None
            )
        new_id = security.new_game_id()
        new_meta: dict[str, Any] = {
            "p": [dict(p) for p in meta["p"]],
            "bs": fairness.new_salt(),
            **{k: meta[k] for k in ("r", "pv", "sd") if k in meta},
        }
        if meta.get("ck"):
            new_meta["ck"] = clocks.new_clock(
                {"per_move": meta["ck"]["m"], "bank": meta["ck"]["b"], "increment": meta["ck"]["i"]}
            )
        rules = game.rules
        self._create(
            new_id,
            new_meta,
            rules,
            Request(client=request.client),
            {"seat": seat},
            first_dealer=1 - meta.get("fd", 0),
        )
        meta["rg"] = new_id
        return self._commit(
            loaded, [Event("rematch", seat, {"game_id": new_id}, {})], request, seat=seat, idem_key=None
        )

    def _reserve(self, game_id: str, client: str, *, public: bool = False) -> str:
        """Count a new game against the bounds on games in play; returns the client's key (a digest of
        its address, kept in the game's meta to release it at the end)."""
        client_key = hashlib.sha256(f"gin-client\n{client}".encode()).hexdigest()[:24]
        config = self.config
        try:
            self.store.reserve_live_game(
                game_id,
                client_key,
                per_client=config.max_live_games_per_client,
                overall=config.max_live_games,
                public=public,
            )
        except TooManyLiveGames as error:
            if error.scope == "client":
                raise ApiError(
                    429,
                    "too_many_games",
                    f"this client has {config.max_live_games_per_client} games in play: finish some first",
                ) from None
            raise ApiError(
                503,
                "service_full",
                "the service holds as many games as it may; try again later",
                headers={"Retry-After": "60"},
            ) from None
        return client_key

    def _apply_action(self, loaded: Loaded, seat: int, parsed: Action) -> list[Event]:
        game = loaded.game
        try:
            events = self._deal(loaded) if parsed.type == "deal" else game.apply(seat, parsed)
        except GinRummyError as error:
            raise self._refused(error, game, seat) from None
        observability.record_action(parsed.type)
        return events

    def _apply_undo(self, loaded: Loaded, seat: int) -> list[Event]:
        if "r" in loaded.meta:
            raise ApiError(409, "rated_game", "a rated game offers no undo")
        if self.bot_seat(loaded.meta) is None:
            # Undoing a stock draw would show the next stock card; between humans that is cheating.
            raise ApiError(409, "undo_not_allowed", "undo is only allowed in a game against a bot")
        taken = loaded.game.undo(seat)
        observability.record_action("undo")
        return [Event("undo", seat, {"actions_undone": taken}, {})]

    @staticmethod
    def _refused(error: GinRummyError, game: Game, seat: int) -> ActionRefused:
        """The engine's refusal with the caller's legal actions (they help and reveal nothing new)."""
        legal = game.legal_actions(seat) + game.ending_actions(seat)
        return ActionRefused(error, [a.to_json() for a in legal], game.to_act)

    def _commit(
        self,
        loaded: Loaded,
        events: list[Event],
        request: Request,
        *,
        seat: int,
        idem_key: str | None,
        head: dict[str, Any] | None = None,
        on_stale: Callable[[int], ApiError] = _moved_first,
    ) -> Outcome:
        """Steps 6 and 7: store the change atomically, then answer with what ``seat`` may see.

        ``head``: the members the response starts with (create and join: seat, token…); a move's
        response starts with its new version. A create (version 0) is stored with ``store.create``."""
        game, game_id = loaded.game, loaded.game_id
        created = loaded.version == 0
        records = {}
        if game.hand_over and game.hand is not None and loaded.hand_before != (True, game.hand_number):
            records[game.hand_number] = _compact(self._hand_record(loaded))
        old_version = loaded.version
        loaded.version = version = old_version + 1
        body: dict[str, Any] = {"game_id": game_id, **head} if head is not None else {"version": version}
        body["view"] = self.view(loaded, seat, PLAY_VIEW_OMITS)
        body["events"] = [{"id": f"{version}-{i}", **e.for_seat(seat)} for i, e in enumerate(events, 1)]
        status = 201 if created else 200
        idempotency = None
        if idem_key is not None:
            assert request.idempotency_key is not None
            sealed = {k: security.pad(request.idempotency_key, body[k]) for k in SECRETS if body.get(k)}
            record = {"f": request.fingerprint, "s": status, "v": version, "b": {**body, **sealed}}
            idempotency = Idempotency(idem_key, _compact(record))
        doc = _compact(loaded.meta) + "\n" + dumps(game, _compact)
        rows = [_compact(e.to_row()) for e in events]
        try:
            if created:
                self.store.create(game_id, doc, rows, idempotency=idempotency)
            else:
                self.store.commit(
                    game_id,
                    old_version,
                    doc,
                    rows,
                    hand_records=records,
                    idempotency=idempotency,
                    finished=game.match_over,
                )
        except IdempotencyKeyUsed as used:
            return self._replay(Replay(used.record), request)
        except StaleVersion as stale:
            raise on_stale(stale.current) from None
        except GameMissing:
            raise ApiError(404, "game_not_found", f"the game {game_id!r} has expired") from None
        except GameExists:
            # Only a derived id can collide: the same Idempotency-Key, whose record has expired.
            raise ApiError(
                422, "idempotency_key_reused", "this Idempotency-Key was already used to create a game"
            ) from None
        headers = {"Location": f"/v1/games/{game_id}"} if created else {}
        return Outcome(status, body, version=version, headers=headers)

    def _replay(self, replay: Replay, request: Request) -> Outcome:
        record = orjson.loads(replay.record)
        if record["f"] != request.fingerprint:
            raise ApiError(
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was used with another request; use a new key for a new request",
            )
        body = record["b"]
        assert request.idempotency_key is not None
        for name in SECRETS:
            if body.get(name):
                body[name] = security.unpad(request.idempotency_key, body[name])
        headers = {"Location": f"/v1/games/{body['game_id']}"} if record["s"] == 201 else {}
        return Outcome(record["s"], body, version=record.get("v"), replayed=True, headers=headers)

    # --- dealing and the bots ---------------------------------------------------------------------
    @staticmethod
    def _rng(meta: dict[str, Any], hand_number: int) -> random.Random:
        """A secure random source, or with a test seed a reproducible one per hand."""
        if "sd" in meta:
            return random.Random(f"{meta['sd']}:{hand_number}")
        return random.SystemRandom()

    def _deal(self, loaded: Loaded) -> list[Event]:
        """Deal the next hand and commit to its deck order (see :mod:`ginrummy.api.fairness`)."""
        game, meta = loaded.game, loaded.meta
        if self.bot_seat(meta) == 0:  # pragma: no cover - seat 0 is always the creator, a human
            raise IllegalActionError("the bot does not deal")
        events = game.apply(0, Action.deal(), rng=self._rng(meta, game.hand_number))
        salt = fairness.new_salt()
        commit = fairness.commitment(salt, texts(list(game.hand_deck())))
        meta["sh"] = {"n": game.hand_number, "s": salt, "c": commit}
        return [
            dataclasses.replace(e, data={**e.data, "commitment": commit}) if e.type == "deal" else e
            for e in events
        ]

    def _hand_record(self, loaded: Loaded) -> dict[str, Any]:
        record = hand_record(loaded.game)
        shuffle = loaded.meta.get("sh") or {}
        record["shuffle"] = {
            "salt": shuffle.get("s"),
            "commitment": shuffle.get("c"),
            "deck": record.get("deck"),
        }
        record["game_id"] = loaded.game_id
        return record

    def _bot_replies(self, loaded: Loaded) -> list[Event]:
        """Step 5: while the bot is to act, let it act (in this same request)."""
        bot_seat = self.bot_seat(loaded.meta)
        game = loaded.game
        out: list[Event] = []
        if bot_seat is None:
            return out
        name = loaded.meta["p"][bot_seat]["b"]
        step = 0
        while not game.match_over and game.to_act == bot_seat:
            if step >= MAX_BOT_STEPS:
                raise RuntimeError("the bot did not finish its turn")
            view = seat_view(game, bot_seat, BOT_VIEW_OMITS)
            seed = decision_seed(loaded.meta["bs"], loaded.game_id, loaded.version, step)
            started = time.perf_counter()
            try:
                choice = dict(bots.make_bot(name, seed).choose(view))
            except Exception:  # a bot's bug must not block the game: log it and play a legal move
                log.exception("bot %s failed; playing a legal action instead", name)
                choice = fallback_action(view)
            observability.observe_bot_decision(time.perf_counter() - started, name)
            try:
                out += game.apply(bot_seat, choice)
            except GinRummyError:
                log.exception("bot %s chose an illegal action %r; playing a legal one instead", name, choice)
                out += game.apply(bot_seat, fallback_action(view))
            step += 1
        return out
