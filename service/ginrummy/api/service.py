"""The service's use cases: create, join, view, act (with the bot's replies), undo, hint, hands, events.

Every state change follows one path — parse → load → check (auth, If-Match, idempotency) → engine →
bot replies → ONE atomic commit → render — so that an error at any step changes nothing.

The stored doc of a game is ``<meta JSON>\\n<engine dumps>``. ``meta`` holds what the engine does not
know, in short keys to keep Redis memory small:

``p``   players: ``[{"n": name, "t": "h"|"b", "b": bot, "k": token digest}, …]`` by seat
``iv``  the invitation's digest while seat 1 is free
``bs``  the secret salt of the bot's decision seeds
``sd``  the test seed (only with GIN_ALLOW_SEED)
``sh``  the live hand's shuffle: ``{"n": hand number, "s": salt, "c": commitment}``

An event is stored as ``[type, seat, public data, {seat: private data}]``; a seat reads
``{"type", "seat", **data, **private[seat]}`` — the engine's ``Event.for_seat``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from ginrummy.engine import Action, Game, Rules, dumps, loads, seat_view, texts
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
)

from . import fairness, observability, players, security
from .config import Config
from .errors import ApiError

log = logging.getLogger(__name__)

SEATS = (0, 1)
MAX_BOT_STEPS = 400  # a hand cannot take this many bot moves in a row; a guard against a stuck loop


def _compact(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass
class Loaded:
    """A game as read from the store, decoded."""

    game_id: str
    version: int
    meta: dict[str, Any]
    game: Game


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


def fingerprint(method: str, path: str, body: bytes) -> str:
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + body).hexdigest()[:32]


def encode_event(
    kind: str, seat: int | None, data: dict[str, Any], private: dict[int, dict[str, Any]]
) -> str:
    return _compact([kind, seat, data, {str(s): p for s, p in private.items()}])


# An event on its way to the store: (type, seat, public data, {seat: private data}).
Pending = tuple[str, int | None, dict[str, Any], dict[int, dict[str, Any]]]


def event_for(cursor: str, event: Pending, seat: int | None) -> dict[str, Any]:
    """A pending event as ``seat`` sees it (without a JSON round trip)."""
    kind, actor, data, private = event
    out: dict[str, Any] = {"id": cursor, "type": kind, "seat": actor, **data}
    if seat is not None and seat in private:
        out.update(private[seat])
    return out


def decode_event(cursor: str, payload: str, seat: int | None) -> dict[str, Any]:
    kind, actor, data, private = orjson.loads(payload)
    out: dict[str, Any] = {"id": cursor, "type": kind, "seat": actor, **data}
    if seat is not None and str(seat) in private:
        out.update(private[str(seat)])
    return out


class GameService:
    """The games, as the HTTP layer sees them."""

    def __init__(self, store: GameStore, config: Config) -> None:
        self.store = store
        self.config = config

    # --- decoding -------------------------------------------------------------------------------
    def _decode(self, game_id: str, stored: Stored) -> Loaded:
        meta_text, _, engine_text = stored.doc.partition("\n")
        return Loaded(game_id, stored.version, orjson.loads(meta_text), loads(engine_text, orjson.loads))

    @staticmethod
    def _doc(meta: dict[str, Any], game: Game) -> str:
        return _compact(meta) + "\n" + dumps(game, _compact)

    def load(self, game_id: str) -> Loaded:
        security.check_game_id(game_id)
        stored = self.store.load(game_id)
        if stored is None:
            raise ApiError(404, "game_not_found", f"there is no game {game_id!r} (it may have expired)")
        return self._decode(game_id, stored)

    # --- seats ----------------------------------------------------------------------------------
    @staticmethod
    def seat_of(loaded: Loaded, token: str | None) -> int | None:
        """The seat a token belongs to in this game; None without a token (a spectator)."""
        if token is None:
            return None
        for seat, player in enumerate(loaded.meta["p"]):
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
        for seat, player in enumerate(meta["p"]):
            if player["t"] == "b":
                return seat
        return None

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
    def view(self, loaded: Loaded, seat: int | None) -> dict[str, Any]:
        """The seat view plus the service's members: game_id, version, players, commitment."""
        view = seat_view(loaded.game, seat)
        people = self.players_json(loaded.meta)
        if seat is None and isinstance(view.get("players"), list):
            # The spectator view lists each seat's public card facts; add who sits there.
            view["players"] = [
                {**facts, **person} for facts, person in zip(view["players"], people, strict=False)
            ]
        else:
            view["players"] = people
        waiting = any(p["type"] == "human" and not p["joined"] for p in people)
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
        me: dict[str, Any] = {"n": body.get("name") or "Player 1", "t": "h"}
        token = security.new_secret()
        me["k"] = security.digest(token)
        invitation = None
        meta: dict[str, Any] = {"p": [me], "bs": fairness.new_salt()}
        if opponent.get("type") == "human":
            invitation = security.new_secret()
            meta["p"].append({"n": None, "t": "h", "k": None})
            meta["iv"] = security.digest(invitation)
        else:
            bot = opponent.get("bot") or players.default_bot()
            if bot not in players.bot_names():
                raise ApiError(
                    422,
                    "unknown_bot",
                    f"there is no bot {bot!r}; GET /v1/bots lists them",
                    bots=players.bot_names(),
                )
            meta["p"].append({"n": opponent.get("name") or bot, "t": "b", "b": bot})
        if seed is not None:
            meta["sd"] = int(seed)
        rng = self._rng(meta, 0)
        game = Game(rules, cut_for_dealer(rng))
        events = self._deal(game, meta, rng)
        game_id = (
            security.game_id_for_key(request.idempotency_key)
            if request.idempotency_key
            else security.new_game_id()
        )
        loaded = Loaded(game_id, 1, meta, game)
        events += self._bot_replies(loaded, 0)
        body_out: dict[str, Any] = {"game_id": game_id, "seat": 0, "token": token, "invitation": invitation}
        body_out["view"] = self.view(loaded, 0)
        body_out["events"] = [event_for(f"1-{i}", e, 0) for i, e in enumerate(events, 1)]
        idem = None
        if request.idempotency_key:
            sealed = {**body_out, "token": security.pad(request.idempotency_key, token)}
            if invitation:
                sealed["invitation"] = security.pad(request.idempotency_key, invitation)
            idem = Idempotency(
                security.scoped_key("create", request.idempotency_key),
                _compact({"f": request.fingerprint, "s": 201, "v": 1, "b": sealed}),
            )
        try:
            self.store.create(
                game_id, self._doc(meta, game), [encode_event(*e) for e in events], idempotency=idem
            )
        except IdempotencyKeyUsed as used:
            return self._replay(used.record, request, secrets_sealed=("token", "invitation"))
        except GameExists:
            # Only a derived id can collide: the same Idempotency-Key, whose record has expired.
            raise ApiError(
                422, "idempotency_key_reused", "this Idempotency-Key was already used to create a game"
            ) from None
        observability.record_game_created()
        return Outcome(201, body_out, version=1, headers={"Location": f"/v1/games/{game_id}"})

    def join(self, game_id: str, body: dict[str, Any], request: Request) -> Outcome:
        security.check_game_id(game_id)
        invitation = body["invitation"]
        scope = "join\n" + invitation
        record = None
        if request.idempotency_key:
            stored, record = self.store.load_with_record(
                game_id, security.scoped_key(scope, request.idempotency_key)
            )
            if record is not None:
                return self._replay(record, request, secrets_sealed=("token",))
            if stored is None:
                raise ApiError(404, "game_not_found", f"there is no game {game_id!r} (it may have expired)")
            loaded = self._decode(game_id, stored)
        else:
            loaded = self.load(game_id)
        meta = loaded.meta
        if not security.matches(invitation, meta.get("iv")):
            raise ApiError(
                403, "bad_invitation", "this invitation is not valid for this game (or was already used)"
            )
        token = security.new_secret()
        seat = 1
        meta["p"][seat].update({"n": body.get("name") or "Player 2", "k": security.digest(token)})
        meta.pop("iv", None)
        version = loaded.version + 1
        loaded.version = version
        event: Pending = ("joined", seat, {"name": meta["p"][seat]["n"]}, {})
        body_out = {
            "game_id": game_id,
            "seat": seat,
            "token": token,
            "view": self.view(loaded, seat),
            "events": [event_for(f"{version}-1", event, seat)],
        }
        idem = None
        if request.idempotency_key:
            idem = Idempotency(
                security.scoped_key(scope, request.idempotency_key),
                _compact(
                    {
                        "f": request.fingerprint,
                        "s": 200,
                        "v": version,
                        "b": {**body_out, "token": security.pad(request.idempotency_key, token)},
                    }
                ),
            )
        try:
            self.store.commit(
                game_id, version - 1, self._doc(meta, loaded.game), [encode_event(*event)], idempotency=idem
            )
        except IdempotencyKeyUsed as used:
            return self._replay(used.record, request, secrets_sealed=("token",))
        except StaleVersion:
            raise ApiError(409, "join_conflict", "the game changed while joining; try again") from None
        return Outcome(200, body_out, version=version)

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
        return Outcome(200, json.loads(record), version=loaded.version)

    def hint(self, game_id: str, token: str | None) -> Outcome:
        loaded = self.load(game_id)
        seat = self.require_seat(loaded, token)
        view = self.view(loaded, seat)
        if not view["legal_actions"]:
            raise ApiError(409, "nothing_to_do", "this seat has no legal action now", turn=view["turn"])
        return Outcome(200, players.hint(view), version=loaded.version)

    # --- acting ---------------------------------------------------------------------------------
    def act(self, game_id: str, action: dict[str, Any], request: Request) -> Outcome:
        return self._change(game_id, request, lambda loaded, seat: self._apply_action(loaded, seat, action))

    def undo(self, game_id: str, request: Request) -> Outcome:
        return self._change(game_id, request, self._apply_undo)

    def _change(self, game_id: str, request: Request, step: Any) -> Outcome:
        security.check_game_id(game_id)
        token = security.require_token(request.token)
        idem_key = security.scoped_key(token, request.idempotency_key) if request.idempotency_key else None
        if idem_key is not None:
            stored, record = self.store.load_with_record(game_id, idem_key)
            if record is not None:
                return self._replay(record, request)
        else:
            stored = self.store.load(game_id)
        if stored is None:
            raise ApiError(404, "game_not_found", f"there is no game {game_id!r} (it may have expired)")
        loaded = self._decode(game_id, stored)
        seat = self.require_seat(loaded, token)
        wanted = security.if_match_version(request.if_match)
        if wanted is not None and wanted != loaded.version:
            raise _stale(
                loaded.version,
                f"the game is at version {loaded.version}, not {wanted}: GET it and choose again",
            )
        if any(p["t"] == "h" and p.get("k") is None for p in loaded.meta["p"]):
            raise ApiError(409, "waiting_for_opponent", "the second player has not joined yet")
        game = loaded.game
        was_over, hand_before = game.hand_over, game.hand_number
        events = step(loaded, seat)
        events += self._bot_replies(loaded, 0)
        records = {}
        if game.hand_over and game.hand is not None and not (was_over and hand_before == game.hand_number):
            records[game.hand_number] = self._hand_record(loaded)
        version = loaded.version + 1
        old_version = loaded.version
        loaded.version = version
        body = {
            "version": version,
            "events": [event_for(f"{version}-{i}", e, seat) for i, e in enumerate(events, 1)],
            "view": self.view(loaded, seat),
        }
        idem = None
        if idem_key is not None:
            idem = Idempotency(
                idem_key, _compact({"f": request.fingerprint, "s": 200, "v": version, "b": body})
            )
        try:
            self.store.commit(
                game_id,
                old_version,
                self._doc(loaded.meta, game),
                [encode_event(*e) for e in events],
                hand_records={n: _compact(r) for n, r in records.items()},
                idempotency=idem,
                finished=game.match_over,
            )
        except IdempotencyKeyUsed as used:
            return self._replay(used.record, request)
        except StaleVersion as stale:
            raise _stale(
                stale.current,
                f"another move was committed first (the game is at version {stale.current}); GET it again",
            ) from None
        except GameMissing:
            raise ApiError(404, "game_not_found", f"the game {game_id!r} has expired") from None
        if game.match_over:
            observability.record_game_finished()
        return Outcome(200, body, version=version)

    def _apply_action(self, loaded: Loaded, seat: int, action: dict[str, Any]) -> list[Pending]:
        game = loaded.game
        parsed = Action.from_json(action)
        if parsed.type == "deal":
            if self.bot_seat(loaded.meta) == seat:  # pragma: no cover - a bot has no token
                raise IllegalActionError("the bot does not deal")
            try:
                return self._deal(game, loaded.meta, self._rng(loaded.meta, game.hand_number))
            except GinRummyError as error:
                raise _with_legal(error, game, seat) from None
        try:
            events = game.apply(seat, parsed)
        except GinRummyError as error:
            raise _with_legal(error, game, seat) from None
        observability.record_action(parsed.type)
        return [(e.type, e.seat, e.data, e.private) for e in events]

    def _apply_undo(self, loaded: Loaded, seat: int) -> list[Pending]:
        if self.bot_seat(loaded.meta) is None:
            # Undoing a stock draw would show the next stock card; between humans that is cheating.
            raise ApiError(409, "undo_not_allowed", "undo is only allowed in a game against a bot")
        taken = loaded.game.undo(seat)
        observability.record_action("undo")
        return [("undo", seat, {"actions_undone": taken}, {})]

    # --- helpers --------------------------------------------------------------------------------
    def _rng(self, meta: dict[str, Any], hand_number: int) -> random.Random:
        """A secure random source, or with a test seed a reproducible one per hand."""
        if "sd" in meta:
            return random.Random(f"{meta['sd']}:{hand_number}")
        return random.SystemRandom()

    def _deal(self, game: Game, meta: dict[str, Any], rng: random.Random) -> list[Pending]:
        """Deal the next hand and commit to its deck order (see :mod:`ginrummy.api.fairness`)."""
        events = game.apply(0, Action.deal(), rng=rng)
        salt = fairness.new_salt()
        commit = fairness.commitment(salt, texts(list(game.hand_deck())))
        meta["sh"] = {"n": game.hand_number, "s": salt, "c": commit}
        out: list[Pending] = []
        for e in events:
            data = dict(e.data)
            if e.type == "deal":
                data["commitment"] = commit
            out.append((e.type, e.seat, data, e.private))
        return out

    def _hand_record(self, loaded: Loaded) -> dict[str, Any]:
        record = loaded.game.hand_record()
        shuffle = loaded.meta.get("sh") or {}
        record["shuffle"] = {
            "salt": shuffle.get("s"),
            "commitment": shuffle.get("c"),
            "deck": record.get("deck"),
        }
        record["game_id"] = loaded.game_id
        return record

    def _bot_replies(self, loaded: Loaded, step: int) -> list[Pending]:
        """While the bot is to act, let it act (in this same request)."""
        bot_seat = self.bot_seat(loaded.meta)
        game = loaded.game
        out: list[Pending] = []
        if bot_seat is None:
            return out
        bot = loaded.meta["p"][bot_seat]["b"]
        while not game.match_over and game.to_act == bot_seat:
            if step >= MAX_BOT_STEPS:
                raise RuntimeError("the bot did not finish its turn")
            view = seat_view(game, bot_seat)
            seed = players.decision_seed(loaded.meta["bs"], loaded.game_id, loaded.version, step)
            started = time.perf_counter()
            try:
                choice = players.choose(bot, seed, view)
            except Exception:  # a bot's bug must not block the game: log it and play a legal move
                log.exception("bot %s failed; playing a legal action instead", bot)
                choice = players.first_legal(view)
            observability.observe_bot_decision(time.perf_counter() - started, bot)
            try:
                events = game.apply(bot_seat, choice)
            except GinRummyError:
                log.exception("bot %s chose an illegal action %r; playing a legal one instead", bot, choice)
                events = game.apply(bot_seat, players.first_legal(view))
            out += [(e.type, e.seat, e.data, e.private) for e in events]
            step += 1
        return out

    def _replay(self, record_text: str, request: Request, secrets_sealed: tuple[str, ...] = ()) -> Outcome:
        record = json.loads(record_text)
        if record["f"] != request.fingerprint:
            raise ApiError(
                422,
                "idempotency_key_reused",
                "this Idempotency-Key was used with another request; use a new key for a new request",
            )
        body = record["b"]
        assert request.idempotency_key is not None
        for name in secrets_sealed:
            if body.get(name):
                body[name] = security.unpad(request.idempotency_key, body[name])
        headers = {"Location": f"/v1/games/{body['game_id']}"} if record["s"] == 201 else {}
        return Outcome(record["s"], body, version=record.get("v"), replayed=True, headers=headers)


def _stale(current: int, detail: str) -> ApiError:
    """412: the move was chosen from an older view; the ETag says which version is current."""
    return ApiError(412, "stale_version", detail, headers={"ETag": security.etag(current)}, version=current)


def _with_legal(error: GinRummyError, game: Game, seat: int) -> GinRummyError:
    """Attach the caller's legal actions to an action error (they help and reveal nothing new)."""
    try:
        legal = [a.to_json() for a in game.legal_actions(seat)]
    except GinRummyError:  # pragma: no cover - legal_actions does not fail on a loaded game
        legal = []
    error.problem_extra = {"legal_actions": legal, "turn": game.to_act}  # type: ignore[attr-defined]
    return error
