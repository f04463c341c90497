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
    TooManyLiveGames,
)

from . import fairness, observability, security
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
    """What is played when a bot fails: the first legal action, preferring anything to a pass."""
    legal: list[dict[str, Any]] = view["legal_actions"]
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


class GameService:
    """The games, as the HTTP layer sees them."""

    def __init__(self, store: GameStore, config: Config) -> None:
        self.store = store
        self.config = config

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
    def reader_seat(self, game_id: str, token: str | None) -> int | None:
        """The seat of a reader of the game's events (None: a spectator). Only the game's meta is decoded:
        a long poll or a stream is not a reason to load the engine's state."""
        meta = orjson.loads(self._stored(game_id).doc.partition("\n")[0])
        return self.seat_in(meta, token)

    @classmethod
    def seat_of(cls, loaded: Loaded, token: str | None) -> int | None:
        """The seat a token belongs to in this game; None without a token (a spectator)."""
        return cls.seat_in(loaded.meta, token)

    @staticmethod
    def seat_in(meta: dict[str, Any], token: str | None) -> int | None:
        if token is None:
            return None
        for seat, player in enumerate(meta["p"]):
            if security.matches(token, player.get("k")):
                return seat
        raise ApiError(403, "forbidden", "this token is not a seat token of this game")

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
        view["waiting_for_opponent"] = waiting
        shuffle = loaded.meta.get("sh") or {}
        view["commitment"] = shuffle.get("c")
        view["game_id"] = loaded.game_id
        view["version"] = loaded.version
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
        meta: dict[str, Any] = {
            "p": [{"n": body.get("name") or "Player 1", "t": "h", "k": security.digest(token)}],
            "bs": fairness.new_salt(),
        }
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
        if seed is not None:
            meta["sd"] = int(seed)
        key = request.idempotency_key
        game_id = security.game_id_for_key(key) if key else security.new_game_id()
        loaded = Loaded(game_id, 0, meta, Game(rules, cut_for_dealer(self._rng(meta, 0))))
        events = self._deal(loaded) + self._bot_replies(loaded)
        meta["ca"] = self._reserve(game_id, request.client)
        idem_key = security.scoped_key("create", key) if key else None
        outcome = self._commit(loaded, events, request, seat=0, idem_key=idem_key, head=head)
        if not outcome.replayed:
            observability.record_game_created()
        return outcome

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
        token = security.new_secret()
        seat = 1
        name = body.get("name") or "Player 2"
        loaded.meta["p"][seat].update({"n": name, "k": security.digest(token)})
        loaded.meta.pop("iv", None)
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
        loaded = self.load(game_id)
        seat = self.seat_of(loaded, token)
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
        loaded = self.load(game_id)
        seat = self.require_seat(loaded, token)
        view = self.view(loaded, seat)
        if not view["legal_actions"]:
            raise ApiError(409, "nothing_to_do", "this seat has no legal action now", turn=view["turn"])
        return Outcome(200, dict(bots.hint(view)), version=loaded.version)

    # --- moving ---------------------------------------------------------------------------------
    def act(self, game_id: str, action: dict[str, Any], request: Request) -> Outcome:
        return self._move(game_id, request, lambda loaded, seat: self._apply_action(loaded, seat, action))

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
        wanted = security.if_match_version(request.if_match)
        if wanted is not None and wanted != loaded.version:
            raise _stale(
                loaded.version,
                f"the game is at version {loaded.version}, not {wanted}: GET it and choose again",
            )
        if self.waiting_for_opponent(loaded.meta):
            raise ApiError(409, "waiting_for_opponent", "the second player has not joined yet")
        events = step(loaded, seat)
        events += self._bot_replies(loaded)
        outcome = self._commit(loaded, events, request, seat=seat, idem_key=idem_key)
        if loaded.game.match_over and not outcome.replayed:
            observability.record_game_finished()
            if "ca" in loaded.meta:
                self.store.release_live_game(game_id, loaded.meta["ca"])
        return outcome

    def _reserve(self, game_id: str, client: str) -> str:
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

    def _apply_action(self, loaded: Loaded, seat: int, action: dict[str, Any]) -> list[Event]:
        game = loaded.game
        parsed = Action.from_json(action)
        try:
            events = self._deal(loaded) if parsed.type == "deal" else game.apply(seat, parsed)
        except GinRummyError as error:
            raise self._refused(error, game, seat) from None
        observability.record_action(parsed.type)
        return events

    def _apply_undo(self, loaded: Loaded, seat: int) -> list[Event]:
        if self.bot_seat(loaded.meta) is None:
            # Undoing a stock draw would show the next stock card; between humans that is cheating.
            raise ApiError(409, "undo_not_allowed", "undo is only allowed in a game against a bot")
        taken = loaded.game.undo(seat)
        observability.record_action("undo")
        return [Event("undo", seat, {"actions_undone": taken}, {})]

    @staticmethod
    def _refused(error: GinRummyError, game: Game, seat: int) -> ActionRefused:
        """The engine's refusal with the caller's legal actions (they help and reveal nothing new)."""
        return ActionRefused(error, [a.to_json() for a in game.legal_actions(seat)], game.to_act)

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
