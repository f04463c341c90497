"""The unit of work of every change: load a match (or the stored answer of a request already applied),
commit its change — state, events, a finished hand's record and the idempotency record in ONE atomic
store call — and answer with what the seat may see. Store refusals become the service's own: a change
that lost a race is ``stale_version``, an expired match ``game_not_found``. A match that has left Redis is
read back from the archive (:meth:`~ginrummy.app.archive.writing.Archiving.stored`), and a commit that
writes to the outbox hands the match to the archive's drainer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from ginrummy.engine import Event
from ginrummy.store import (
    GameExists,
    GameMissing,
    GameStore,
    Idempotency,
    IdempotencyKeyUsed,
    StaleVersion,
    Stored,
)
from ginrummy.store.bot_jobs import BotQueue
from ginrummy.store.cursor import Cursor

from .. import security
from ..archive.writing import Archiving
from ..calls import Caller, Result
from ..encoding import compact
from ..errors import ServiceError, game_not_found, stale
from . import dealing, recording, render
from .match import Match, hand_record
from .metadata import MatchMeta

# Members of a create/join answer that are secrets: sealed in the idempotency record (security.pad).
SECRETS = ("token", "invitation")


@dataclass(frozen=True)
class Replay:
    """The stored idempotency record of a request that was already applied."""

    record: str


def archived(game_id: str) -> ServiceError:
    return ServiceError(
        "game_archived", f"the match {game_id} is over and archived: it cannot change (rematches included)"
    )


def moved_first(current: int) -> ServiceError:
    return stale(
        current, f"another move was committed first (the game is at version {current}); GET it again"
    )


class UnitOfWork:
    """Loads and commits matches through the game store; a finished match no longer in Redis is read
    from the archive, and a commit that ends a hand or the match sends its records on their way there;
    a commit after which a searching bot is to act queues its turn for the bot workers."""

    def __init__(self, store: GameStore, archiving: Archiving, bots: BotQueue, *, abandon_after: int) -> None:
        self.store = store
        self.archiving = archiving
        self.bots = bots
        self.abandon_after = abandon_after  # GIN_ABANDON_AFTER: the views say when a claim is possible

    def stored(self, game_id: str) -> Stored:
        """The game as stored in Redis, or as archived; refused when there is none."""
        security.check_game_id(game_id)
        stored = self.store.load(game_id)
        if stored is None:
            stored = self.archiving.stored(game_id)
            if stored is None:
                raise game_not_found(game_id)
        return stored

    def load(self, game_id: str) -> Match:
        stored = self.stored(game_id)
        match = Match.decode(game_id, stored.version, stored.doc)
        match.archived = stored.archived
        return match

    def load_meta(self, game_id: str) -> MatchMeta:
        """Only the game's metadata: waiting for events is not a reason to decode the engine's state."""
        return Match.decode_meta(self.stored(game_id).doc)

    def load_for_write(self, game_id: str, idem_key: str | None) -> Match | Replay:
        """The match to change, or the record of this very request if it was already applied."""
        if idem_key is None:
            return self.load(game_id)
        security.check_game_id(game_id)
        stored, record = self.store.load_with_record(game_id, idem_key)
        if record is not None:
            return Replay(record)
        if stored is None:
            if self.archiving.stored(game_id) is not None:
                raise archived(game_id)
            raise game_not_found(game_id)
        return Match.decode(game_id, stored.version, stored.doc)

    def commit(
        self,
        match: Match,
        events: list[Event],
        caller: Caller,
        *,
        seat: int,
        idem_key: str | None,
        head: dict[str, Any] | None = None,
        on_stale: Callable[[int], ServiceError] = moved_first,
    ) -> Result:
        """Store the change atomically, then answer with what ``seat`` may see.

        ``head``: the members the answer starts with (create and join: seat, token…); a move's answer
        starts with its new version. A new match (version 0) is stored with ``store.create``."""
        game, game_id = match.game, match.game_id
        if match.archived:
            raise archived(game_id)
        created = match.version == 0
        hand = hand_record(match) if match.hand_just_ended or match.hand_cut_short else None
        records = {game.hand_number: compact(hand)} if hand is not None else {}
        old_version = match.version
        match.version = version = old_version + 1
        outbox = recording.outbox_records(match, hand)
        body: dict[str, Any] = {"game_id": game_id, **head} if head is not None else {"version": version}
        body["view"] = render.view(match, seat, render.PLAY_VIEW_OMITS, abandon_after=self.abandon_after)
        body["events"] = [
            {"id": str(Cursor(version, number)), **event.for_seat(seat)}
            for number, event in enumerate(events, 1)
        ]
        idempotency = None
        if idem_key is not None:
            assert caller.idempotency_key is not None
            sealed = {k: security.pad(caller.idempotency_key, body[k]) for k in SECRETS if body.get(k)}
            record = {"f": caller.fingerprint, "c": created, "v": version, "b": {**body, **sealed}}
            idempotency = Idempotency(idem_key, compact(record))
        rows = [compact(event.to_row()) for event in events]
        # Listed for the archive before the commit: if this worker dies after it, the drainer finds it.
        announced = self.store.announce(game_id) if outbox else None
        try:
            if created:
                self.store.create(game_id, match.encode(), rows, idempotency=idempotency, outbox=outbox)
            else:
                self.store.commit(
                    game_id,
                    old_version,
                    match.encode(),
                    rows,
                    hand_records=records,
                    idempotency=idempotency,
                    outbox=outbox,
                    keep_ttl=match.over_before,
                )
        except IdempotencyKeyUsed as used:
            return self.replay(Replay(used.record), caller)
        except StaleVersion as error:
            raise on_stale(error.current) from None
        except GameMissing:
            raise game_not_found(game_id, f"the game {game_id!r} has expired") from None
        except GameExists:
            # Only a derived id can collide: the same Idempotency-Key, whose record has expired.
            raise ServiceError(
                "idempotency_key_reused", "this Idempotency-Key was already used to create a game"
            ) from None
        if announced is not None:
            self.archiving.committed(game_id, announced)
        if dealing.awaits_bot_worker(match):
            self.bots.push(game_id, version)
        return Result(body, version=version, created=created)

    @staticmethod
    def replay(replay: Replay, caller: Caller) -> Result:
        """The stored answer of a request already applied (refused for another request with its key)."""
        record = orjson.loads(replay.record)
        if record["f"] != caller.fingerprint:
            raise ServiceError(
                "idempotency_key_reused",
                "this Idempotency-Key was used with another request; use a new key for a new request",
            )
        body = record["b"]
        assert caller.idempotency_key is not None
        for name in SECRETS:
            if body.get(name):
                body[name] = security.unpad(caller.idempotency_key, body[name])
        # Records written before "c" said whether a game was created kept the answer's status (201).
        created = bool(record.get("c", record.get("s") == 201))
        return Result(body, version=record.get("v"), created=created, replayed=True)
